// Playhead: HLS packed audio timed by its segments' own timestamps. A packed-audio segment's
// frames carry no time; its ID3 tag's PRIV frame `com.apple.streaming.transportStreamTimestamp`
// states the first frame's time on the 90 kHz clock of MPEG-TS (33 bits). A playlist's
// `EXTINF`s need not add up to the audio (integer durations, or rounded ones, against frames of
// 1024 samples): timed by the playlist alone, each segment would start a little early or late,
// its audio overlapping the last segment's or leaving a gap, and the error would grow segment
// by segment. So, as MPEG-TS video follows its PTS once its timeline is anchored, packed audio
// follows its timestamps: the first segment read on a timeline (discontinuity sequence)
// anchors it at its place on the playlist, and every later one starts where its timestamp lies
// from there (across the clock's wrap). A timestamp further than `driftLimit` from its
// segment's place on the playlist (a packager restarting its clock without a discontinuity, or
// writing zeros) anchors the timeline again there. Segments without a timestamp keep the
// playlist's time.
//
// Concurrency: `timestamp(leading:)` and `start` are pure; `State.packedStart` runs under the
// loader's `condition`, on the loader thread (delivering a segment).
import Foundation

enum PackedAudioTiming {
    /// Seconds after which the 33-bit 90 kHz clock wraps (about 26.5 hours).
    static let wrap = Double(UInt64(1) << 33) / 90_000
    /// Seconds a segment's timestamp may lie from its place on the playlist, from the anchor,
    /// before it is taken for a jump.
    static let driftLimit = 5.0

    /// The timestamp, in seconds of the 90 kHz clock, of the ID3 tag `data` begins with; nil
    /// when it begins with no tag or the tag has no timestamp frame.
    static func timestamp(leading data: Data) -> Double? {
        guard let length = ID3TagReader.tagLength([UInt8](data.prefix(10))) else { return nil }
        let owner = Array(PackedAudioTag.timestampOwner.utf8) + [0]
        for item in ID3TagReader.items([UInt8](data.prefix(length)))
        where item.key.map({ String(describing: $0) }) == "PRIV" {
            guard let body = item.dataValue.map({ [UInt8]($0) }), body.starts(with: owner), body.count >= owner.count + 8
            else { continue }
            let value = body[owner.count..<(owner.count + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return Double(value & ((UInt64(1) << 33) - 1)) / 90_000
        }
        return nil
    }
}

extension PackedAudioTiming {
    /// The item time at which a packed-audio segment whose tag states `timestamp` (seconds of
    /// the 90 kHz clock) starts, on `timeline`, where the playlist places it at
    /// `playlistStart`, given each timeline's anchor in `origins` (the timestamp at item time
    /// zero), which it sets when the timeline has none or jumped; see the file comment.
    static func start(
        timestamp: Double, timeline: Int, playlistStart: Double, origins: inout [Int: Double]
    ) -> Double {
        guard let origin = origins[timeline] else {
            origins[timeline] = timestamp - playlistStart
            return playlistStart
        }
        var start = timestamp - origin
        // The clock may have wrapped since the anchor: the turn nearest the playlist's place.
        start -= ((start - playlistStart) / wrap).rounded() * wrap
        guard abs(start - playlistStart) <= driftLimit else {
            origins[timeline] = timestamp - playlistStart
            return playlistStart
        }
        return start
    }
}

extension HLSStreamLoader.State {
    /// `PackedAudioTiming.start` with the loader's anchors (`packedOrigins`).
    mutating func packedStart(timestamp: Double, timeline: Int, playlistStart: Double) -> Double {
        PackedAudioTiming.start(
            timestamp: timestamp, timeline: timeline, playlistStart: playlistStart, origins: &packedOrigins)
    }
}
