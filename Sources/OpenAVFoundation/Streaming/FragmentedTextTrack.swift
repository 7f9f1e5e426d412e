// Playhead: subtitle segments in fragmented MP4 (ISO/IEC 14496-30), which HLS (IMSC1) and DASH
// streams carry and FFmpeg 5.1 does not decode: TTML documents (`stpp`) and WebVTT cue boxes
// (`wvtt`). The initialisation section gives the track's timescale and sample format; each
// segment's `moof`/`mdat` pairs give the samples, timed by `tfdt` and `trun` (with `tfhd` and
// `trex` defaults). A TTML sample's times are on the track's timeline (a document whose times
// all fall before its sample, counted from the sample's start instead, is moved there), its
// cues cut to the sample's span, so a cue repeated in the next segment's document continues
// rather than doubles; a WebVTT sample's cues (`vttc`: `payl` text, `sttg` settings) show for
// the sample's span, an empty sample (`vtte`) shows nothing.
//
// Concurrency: values and pure functions.
import FFmpegBridge
import Foundation
import OpenCoreMedia

/// A fragmented MP4 subtitle track, as its initialisation section describes it.
struct FragmentedTextTrack: Sendable, Equatable {
    /// What the samples hold.
    enum Format: Sendable, Equatable {
        /// TTML documents (`stpp`: IMSC1, EBU-TT-D).
        case ttml
        /// WebVTT cue boxes (`wvtt`).
        case webVTT
    }

    /// One sample: its span on the track's timeline, seconds, and its bytes.
    struct Sample: Sendable, Equatable {
        var start: Double
        var duration: Double
        var bytes: ArraySlice<UInt8>
    }

    let format: Format
    let timescale: UInt32
    /// `trex`'s default sample duration and size, for fragments that give neither.
    var defaultDuration: UInt32 = 0
    var defaultSize: UInt32 = 0

    /// The most samples read from one segment.
    static let maximumSamples = 10_000

    /// The track of an initialisation section (its first track); nil when it has no `stpp` or
    /// `wvtt` track.
    init?(initialisation bytes: [UInt8]) {
        let all = bytes[...]
        guard let moov = ISOBoxes.first("moov", in: all), let trak = ISOBoxes.first("trak", in: moov.payload),
            let mdia = ISOBoxes.first("mdia", in: trak.payload), let mdhd = ISOBoxes.first("mdhd", in: mdia.payload),
            let minf = ISOBoxes.first("minf", in: mdia.payload), let stbl = ISOBoxes.first("stbl", in: minf.payload),
            let stsd = ISOBoxes.first("stsd", in: stbl.payload), stsd.payload.count >= 16
        else { return nil }
        let header = mdhd.payload
        let timescaleOffset = header.first == 1 ? 20 : 12
        guard header.count >= timescaleOffset + 4 else { return nil }
        let timescale = ISOBoxes.readUInt32(header, header.startIndex + timescaleOffset)
        guard timescale > 0 else { return nil }
        let entries = ISOBoxes.boxes(in: stsd.payload.dropFirst(8))
        switch entries.first?.typeName {
        case "stpp": format = .ttml
        case "wvtt": format = .webVTT
        default: return nil
        }
        self.timescale = timescale
        if let mvex = ISOBoxes.first("mvex", in: moov.payload), let trex = ISOBoxes.first("trex", in: mvex.payload),
            trex.payload.count >= 24
        {
            defaultDuration = ISOBoxes.readUInt32(trex.payload, trex.payload.startIndex + 12)
            defaultSize = ISOBoxes.readUInt32(trex.payload, trex.payload.startIndex + 16)
        }
    }

    /// True when `bytes` start as a box of an MP4 segment or initialisation section.
    static func looksLikeMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let type = ISOBoxes.fourCC(ISOBoxes.readUInt32(bytes[...], 4))
        return ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft", "free"].contains(type)
    }

    /// The samples of a media segment, in order.
    func samples(in bytes: [UInt8]) -> [Sample] {
        var samples: [Sample] = []
        let top = ISOBoxes.boxes(in: bytes[...])
        for (position, box) in top.enumerated() where box.typeName == "moof" {
            let moofStart = box.payload.startIndex - 8
            // Samples without an offset start in the mdat that follows.
            let mdat = top[(position + 1)...].first { $0.typeName == "mdat" }
            for traf in ISOBoxes.boxes(in: box.payload) where traf.typeName == "traf" {
                guard samples.count < Self.maximumSamples else { return samples }
                samples += fragmentSamples(traf.payload, moofStart: moofStart, mdat: mdat, in: bytes)
            }
        }
        return samples
    }

    private func fragmentSamples(_ traf: ArraySlice<UInt8>, moofStart: Int, mdat: ISOBox?, in bytes: [UInt8]) -> [Sample] {
        guard let tfhd = ISOBoxes.first("tfhd", in: traf), tfhd.payload.count >= 8 else { return [] }
        let tfhdFlags = ISOBoxes.readUInt32(tfhd.payload, tfhd.payload.startIndex) & 0xFF_FFFF
        var cursor = tfhd.payload.startIndex + 8
        var base = moofStart
        var duration = defaultDuration, size = defaultSize
        func field(_ width: Int) -> UInt64? {
            guard tfhd.payload.endIndex - cursor >= width else { return nil }
            defer { cursor += width }
            return width == 8 ? ISOBoxes.readUInt64(tfhd.payload, cursor) : UInt64(ISOBoxes.readUInt32(tfhd.payload, cursor))
        }
        if tfhdFlags & 0x01 != 0, let offset = field(8) { base = Int(clamping: offset) }
        if tfhdFlags & 0x02 != 0 { _ = field(4) }
        if tfhdFlags & 0x08 != 0, let value = field(4) { duration = UInt32(value) }
        if tfhdFlags & 0x10 != 0, let value = field(4) { size = UInt32(value) }
        var time: UInt64 = 0
        if let tfdt = ISOBoxes.first("tfdt", in: traf), tfdt.payload.count >= 8 {
            let start = tfdt.payload.startIndex
            time = tfdt.payload.first == 1 && tfdt.payload.count >= 12
                ? ISOBoxes.readUInt64(tfdt.payload, start + 4) : UInt64(ISOBoxes.readUInt32(tfdt.payload, start + 4))
        }
        var samples: [Sample] = []
        var position = mdat.map { $0.payload.startIndex } ?? bytes.count
        for trun in ISOBoxes.boxes(in: traf) where trun.typeName == "trun" {
            let payload = trun.payload
            guard payload.count >= 8 else { continue }
            let flags = ISOBoxes.readUInt32(payload, payload.startIndex) & 0xFF_FFFF
            let count = Int(ISOBoxes.readUInt32(payload, payload.startIndex + 4))
            var offset = payload.startIndex + 8
            if flags & 0x01 != 0, payload.endIndex - offset >= 4 {
                position = base + Int(Int32(bitPattern: ISOBoxes.readUInt32(payload, offset)))
                offset += 4
            }
            if flags & 0x04 != 0 { offset += 4 }
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
            for _ in 0..<min(count, Self.maximumSamples) {
                guard payload.endIndex - offset >= perSample else { break }
                var sampleDuration = duration, sampleSize = size, composition: Int64 = 0
                if flags & 0x100 != 0 { sampleDuration = ISOBoxes.readUInt32(payload, offset); offset += 4 }
                if flags & 0x200 != 0 { sampleSize = ISOBoxes.readUInt32(payload, offset); offset += 4 }
                if flags & 0x400 != 0 { offset += 4 }
                if flags & 0x800 != 0 {
                    composition = Int64(Int32(bitPattern: ISOBoxes.readUInt32(payload, offset)))
                    offset += 4
                }
                // A lone sample of unknown size fills the rest of its mdat.
                if sampleSize == 0, count == 1, let mdat, position >= mdat.payload.startIndex {
                    sampleSize = UInt32(clamping: mdat.payload.endIndex - position)
                }
                guard position >= 0, Int(sampleSize) <= bytes.count - position else { return samples }
                let start = Double(Int64(clamping: time) + composition) / Double(timescale)
                samples.append(
                    Sample(
                        start: start, duration: Double(sampleDuration) / Double(timescale),
                        bytes: bytes[position..<(position + Int(sampleSize))]))
                position += Int(sampleSize)
                time += UInt64(sampleDuration)
            }
        }
        return samples
    }

    /// The cues of a media segment's samples, on the track's timeline (seconds).
    func events(in bytes: [UInt8]) -> [SubtitleEvent] {
        samples(in: bytes).flatMap { sample -> [SubtitleEvent] in
            switch format {
            case .ttml: return Self.ttmlEvents(sample)
            case .webVTT: return Self.webVTTEvents(sample)
            }
        }
    }

    /// A TTML sample's cues, cut to the sample's span when it has one.
    static func ttmlEvents(_ sample: Sample) -> [SubtitleEvent] {
        guard var events = TTMLDocument.events(Data(sample.bytes)), !events.isEmpty else { return [] }
        let tolerance = 0.5
        let latest = events.map { ($0.end ?? $0.start).seconds }.max() ?? 0
        if sample.start > tolerance, latest < sample.start - tolerance, latest <= sample.duration + tolerance {
            events = TTMLDocument.events(Data(sample.bytes), offset: sample.start) ?? []
        }
        guard sample.duration > 0 else { return events }
        let from = CMTime(seconds: sample.start, preferredTimescale: 90_000)
        let to = CMTime(seconds: sample.start + sample.duration, preferredTimescale: 90_000)
        return events.compactMap { event in
            var cut = event
            cut.start = max(event.start, from)
            cut.end = min(event.end ?? to, to)
            return cut.start < cut.end! ? cut : nil
        }
    }

    /// A WebVTT sample's cues: a small WebVTT file of its `vttc` boxes over the sample's span,
    /// read by FFmpeg's WebVTT reader (markup and settings as in a WebVTT file).
    private static func webVTTEvents(_ sample: Sample) -> [SubtitleEvent] {
        guard sample.duration > 0 else { return [] }
        func stamp(_ seconds: Double) -> String {
            let millis = Int((seconds * 1000).rounded())
            return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        }
        var text = "WEBVTT\n"
        for cue in ISOBoxes.boxes(in: sample.bytes) where cue.typeName == "vttc" {
            let boxes = ISOBoxes.boxes(in: cue.payload)
            guard let payload = boxes.first(where: { $0.typeName == "payl" }) else { continue }
            let settings = boxes.first { $0.typeName == "sttg" }.map { String(decoding: $0.payload, as: UTF8.self) } ?? ""
            // A blank line would end the cue early: cue text never holds one.
            let body = String(decoding: payload.payload, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
            guard !body.isEmpty else { continue }
            text += "\n\(stamp(sample.start)) --> \(stamp(sample.start + sample.duration)) \(settings)\n\(body)\n"
        }
        guard text.count > "WEBVTT\n".count else { return [] }
        let memory = MemoryInput(bytes: Data(text.utf8), name: "sample.vtt")
        return (try? SubtitleFileReader.read(MediaLocation(memory: memory), timeout: 5).events) ?? []
    }
}
