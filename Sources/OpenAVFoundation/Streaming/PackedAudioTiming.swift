// Playhead: HLS packed audio timed by its segments' own timestamps. A packed-audio segment's
// frames carry no time; its ID3 tag's PRIV frame `com.apple.streaming.transportStreamTimestamp`
// states the first frame's time on the 90 kHz clock of MPEG-TS (33 bits). A playlist's
// `EXTINF`s need not add up to the audio (integer durations, or rounded ones, against frames of
// 1024 samples): timed by the playlist alone, each segment would start a little early or late,
// its audio overlapping the last segment's or leaving a gap, and the error would grow segment
// by segment. So, as MPEG-TS video follows its PTS once its timeline is anchored, packed audio
// follows its timestamps. The timestamp is on the clock of the MPEG-TS video it goes with
// (an alternate audio rendition of a TS variant, as Apple's packagers write it): when the
// demuxer has anchored that timeline on the video's clock already (`TimelineOffsets`), the
// audio takes the same anchor, so a rendition whose sound starts a little before or after
// the first picture (B-frame delay, segments cut elsewhere) stays in sync with it. Otherwise
// (audio alone, or a video clock that is not the same: fragmented MP4) the first segment read
// on a timeline (discontinuity sequence) anchors it at its place on the playlist. Every later
// one starts where its timestamp lies from the anchor (across the clock's wrap). A timestamp
// further than `driftLimit` from its segment's place on the playlist (a packager restarting
// its clock without a discontinuity, or writing zeros) anchors the timeline again there.
// Segments without a timestamp keep the playlist's time.
//
// Concurrency: `timestamp(leading:)` and `start` are pure; `State.packedStart` runs under the
// loader's `condition`, on the demux thread (a section's first read).
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
    /// zero), which it sets when the timeline has none or jumped: to `videoOrigin` (the
    /// video's clock at item time zero on that timeline, when known) if the timestamp lies
    /// within `driftLimit` of the playlist's place on it, else at the playlist's place; see the
    /// file comment.
    static func start(
        timestamp: Double, timeline: Int, playlistStart: Double, origins: inout [Int: Double], videoOrigin: Double? = nil
    ) -> Double {
        if let origin = origins[timeline], let start = place(timestamp, origin: origin, near: playlistStart) {
            return start
        }
        if let videoOrigin, let start = place(timestamp, origin: videoOrigin, near: playlistStart) {
            origins[timeline] = videoOrigin
            return start
        }
        origins[timeline] = timestamp - playlistStart
        return playlistStart
    }

    /// Where `timestamp` lies from `origin`, on the clock's turn nearest `playlistStart` (it
    /// may have wrapped since); nil when that is further than `driftLimit` from it.
    private static func place(_ timestamp: Double, origin: Double, near playlistStart: Double) -> Double? {
        var start = timestamp - origin
        start -= ((start - playlistStart) / wrap).rounded() * wrap
        return abs(start - playlistStart) <= driftLimit ? start : nil
    }
}

extension HLSStreamLoader.State {
    /// `PackedAudioTiming.start` with the loader's anchors (`packedOrigins`) for `chunk`, given
    /// the video's anchor of its timeline (`videoOrigin`); nil when its tag has no timestamp
    /// (it keeps its place on the playlist).
    mutating func packedStart(of chunk: HLSStreamLoader.Chunk, videoOrigin: Double?) -> Double? {
        guard let timestamp = chunk.timestamp else { return nil }
        return PackedAudioTiming.start(
            timestamp: timestamp, timeline: chunk.timeline, playlistStart: chunk.start, origins: &packedOrigins,
            videoOrigin: videoOrigin)
    }
}
