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
    /// The track's ID (`tkhd`), which its fragments name; nil when the header does not say.
    var trackID: UInt32?
    /// `trex`'s default sample duration and size, for fragments that give neither.
    var defaultDuration: UInt32 = 0
    var defaultSize: UInt32 = 0
    /// The other tracks' default sample sizes (by track ID), to find where their fragments'
    /// data ends (the next fragment's may follow it).
    var otherDefaultSizes: [UInt32: UInt32] = [:]

    /// The most samples read from one segment.
    static let maximumSamples = 10_000

    /// The subtitle track of an initialisation section (the first whose sample entry is
    /// `stpp` or `wvtt`); nil when it has none.
    init?(initialisation bytes: [UInt8]) {
        guard let moov = ISOBoxes.first("moov", in: bytes[...]) else { return nil }
        var found: (Format, UInt32, UInt32?)?
        for trak in ISOBoxes.boxes(in: moov.payload) where trak.typeName == "trak" {
            guard let mdia = ISOBoxes.first("mdia", in: trak.payload), let mdhd = ISOBoxes.first("mdhd", in: mdia.payload),
                let minf = ISOBoxes.first("minf", in: mdia.payload), let stbl = ISOBoxes.first("stbl", in: minf.payload),
                let stsd = ISOBoxes.first("stsd", in: stbl.payload), stsd.payload.count >= 16
            else { continue }
            let format: Format
            switch ISOBoxes.boxes(in: stsd.payload.dropFirst(8)).first?.typeName {
            case "stpp": format = .ttml
            case "wvtt": format = .webVTT
            default: continue
            }
            let header = mdhd.payload
            let timescaleOffset = header.first == 1 ? 20 : 12
            guard header.count >= timescaleOffset + 4 else { continue }
            let timescale = ISOBoxes.readUInt32(header, header.startIndex + timescaleOffset)
            guard timescale > 0 else { continue }
            var trackID: UInt32?
            if let tkhd = ISOBoxes.first("tkhd", in: trak.payload) {
                let idOffset = tkhd.payload.first == 1 ? 20 : 12
                if tkhd.payload.count >= idOffset + 4 {
                    trackID = ISOBoxes.readUInt32(tkhd.payload, tkhd.payload.startIndex + idOffset)
                }
            }
            found = (format, timescale, trackID)
            break
        }
        guard let (format, timescale, trackID) = found else { return nil }
        self.format = format
        self.timescale = timescale
        self.trackID = trackID
        let extends = ISOBoxes.first("mvex", in: moov.payload).map { ISOBoxes.boxes(in: $0.payload) } ?? []
        var ownFound = false
        for trex in extends where trex.typeName == "trex" && trex.payload.count >= 24 {
            let start = trex.payload.startIndex
            let id = ISOBoxes.readUInt32(trex.payload, start + 4)
            guard !ownFound, trackID == nil || id == trackID else {
                if otherDefaultSizes.count < 64 { otherDefaultSizes[id] = ISOBoxes.readUInt32(trex.payload, start + 16) }
                continue
            }
            ownFound = true
            defaultDuration = ISOBoxes.readUInt32(trex.payload, start + 12)
            defaultSize = ISOBoxes.readUInt32(trex.payload, start + 16)
        }
    }

    /// True when `bytes` start as a box of an MP4 segment or initialisation section.
    static func looksLikeMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        let type = ISOBoxes.fourCC(ISOBoxes.readUInt32(bytes[...], 4))
        return ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft", "free"].contains(type)
    }

    /// The samples of a media segment, in order: at most `maximumSamples`, of this track only.
    /// `fileOffset`: where the bytes begin in their file (a byte range's start), which a
    /// fragment's explicit base offset counts from. `fallbackStart`: the segment's start on
    /// the track's timeline, seconds, for fragments without a decode time (`tfdt`).
    func samples(in bytes: [UInt8], fileOffset: Int = 0, fallbackStart: Double = 0) -> [Sample] {
        var samples: [Sample] = []
        let top = ISOBoxes.boxes(in: bytes[...])
        for (position, box) in top.enumerated() where box.typeName == "moof" {
            let moofStart = box.payload.startIndex - box.headerSize
            // Samples without an offset start in the mdat that follows.
            let mdat = top[(position + 1)...].first { $0.typeName == "mdat" }
            var previousEnd: Int?
            for traf in ISOBoxes.boxes(in: box.payload) where traf.typeName == "traf" {
                guard samples.count < Self.maximumSamples else { return samples }
                previousEnd = fragmentSamples(
                    traf.payload, moofStart: moofStart, previousEnd: previousEnd, mdat: mdat, in: bytes,
                    fileOffset: fileOffset, fallbackStart: fallbackStart, into: &samples)
            }
        }
        return samples
    }

    /// Adds one track fragment's samples to `samples`; returns where its data ended (the
    /// next fragment's data follows there when it gives no base of its own).
    private func fragmentSamples(
        _ traf: ArraySlice<UInt8>, moofStart: Int, previousEnd: Int?, mdat: ISOBox?, in bytes: [UInt8],
        fileOffset: Int, fallbackStart: Double, into samples: inout [Sample]
    ) -> Int? {
        guard let tfhd = ISOBoxes.first("tfhd", in: traf), tfhd.payload.count >= 8 else { return previousEnd }
        let tfhdFlags = ISOBoxes.readUInt32(tfhd.payload, tfhd.payload.startIndex) & 0xFF_FFFF
        let fragmentTrack = ISOBoxes.readUInt32(tfhd.payload, tfhd.payload.startIndex + 4)
        // Another track's fragment is only measured, for where the next one's data begins.
        let keeps = trackID == nil || fragmentTrack == trackID
        var cursor = tfhd.payload.startIndex + 8
        // The base: stated (from the file's start), the moof's start, or where the fragment
        // before this one ended.
        var base = tfhdFlags & 0x02_0000 != 0 || previousEnd == nil ? moofStart : previousEnd!
        var implicitBase = tfhdFlags & 0x02_0000 == 0 && previousEnd == nil
        var duration = defaultDuration, size = keeps ? defaultSize : otherDefaultSizes[fragmentTrack] ?? 0
        func field(_ width: Int) -> UInt64? {
            guard tfhd.payload.endIndex - cursor >= width else { return nil }
            defer { cursor += width }
            return width == 8 ? ISOBoxes.readUInt64(tfhd.payload, cursor) : UInt64(ISOBoxes.readUInt32(tfhd.payload, cursor))
        }
        if tfhdFlags & 0x01 != 0, let offset = field(8) {
            guard offset >= UInt64(fileOffset), offset - UInt64(fileOffset) <= UInt64(bytes.count) else { return previousEnd }
            base = Int(offset - UInt64(fileOffset))
            implicitBase = false
        }
        if tfhdFlags & 0x02 != 0 { _ = field(4) }
        if tfhdFlags & 0x08 != 0, let value = field(4) { duration = UInt32(value) }
        if tfhdFlags & 0x10 != 0, let value = field(4) { size = UInt32(value) }
        var time = Double(fallbackStart * Double(timescale)).rounded()
        if let tfdt = ISOBoxes.first("tfdt", in: traf), tfdt.payload.count >= 8 {
            let start = tfdt.payload.startIndex
            time = tfdt.payload.first == 1 && tfdt.payload.count >= 12
                ? Double(ISOBoxes.readUInt64(tfdt.payload, start + 4)) : Double(ISOBoxes.readUInt32(tfdt.payload, start + 4))
        }
        // A first run without an offset starts at the base, or (the base being the moof's
        // start only by default) in the mdat after the moof.
        var position = implicitBase ? mdat.map { $0.payload.startIndex } ?? base : base
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
            let signedOffsets = payload.first == 1
            for sampleNumber in 0..<count {
                guard samples.count < Self.maximumSamples, keeps || sampleNumber < Self.maximumSamples else { return position }
                var sampleDuration = duration, sampleSize = size, composition = 0.0
                func next() -> UInt32? {
                    guard payload.endIndex - offset >= 4 else { return nil }
                    defer { offset += 4 }
                    return ISOBoxes.readUInt32(payload, offset)
                }
                if flags & 0x100 != 0 { guard let value = next() else { return position }; sampleDuration = value }
                if flags & 0x200 != 0 { guard let value = next() else { return position }; sampleSize = value }
                if flags & 0x400 != 0 { guard next() != nil else { return position } }
                if flags & 0x800 != 0 {
                    guard let value = next() else { return position }
                    composition = signedOffsets ? Double(Int32(bitPattern: value)) : Double(value)
                }
                // A lone sample of unknown size fills the rest of its mdat.
                if keeps, sampleSize == 0, count == 1, let mdat, position >= mdat.payload.startIndex,
                    position <= mdat.payload.endIndex
                {
                    sampleSize = UInt32(clamping: mdat.payload.endIndex - position)
                }
                guard position >= 0, position <= bytes.count, Int(sampleSize) <= bytes.count - position else { return position }
                if !keeps {
                    position += Int(sampleSize)
                    continue
                }
                samples.append(
                    Sample(
                        start: (time + composition) / Double(timescale), duration: Double(sampleDuration) / Double(timescale),
                        bytes: bytes[position..<(position + Int(sampleSize))]))
                position += Int(sampleSize)
                time += Double(sampleDuration)
            }
        }
        return position
    }

    /// The cues of a media segment's samples, on the track's timeline (seconds); see
    /// `samples(in:fileOffset:fallbackStart:)` for the arguments.
    func events(in bytes: [UInt8], fileOffset: Int = 0, fallbackStart: Double = 0) -> [SubtitleEvent] {
        let samples = samples(in: bytes, fileOffset: fileOffset, fallbackStart: fallbackStart)
            .filter { $0.start.isFinite && $0.duration.isFinite && abs($0.start) < TTMLClock.latestSeconds }
        switch format {
        case .ttml: return samples.flatMap(Self.ttmlEvents)
        case .webVTT: return Self.webVTTEvents(samples)
        }
    }

    /// A TTML sample's cues, cut to the sample's span when it has one. A document whose cues
    /// all end before the sample begins, and begin within its length, counts its times from
    /// the sample's start.
    static func ttmlEvents(_ sample: Sample) -> [SubtitleEvent] {
        guard var events = TTMLDocument.events(Data(sample.bytes)), !events.isEmpty else { return [] }
        let tolerance = 0.5
        let latestEnd = events.map { ($0.end ?? $0.start).seconds }.max() ?? 0
        let latestBegin = events.map(\.start.seconds).max() ?? 0
        if sample.start > tolerance, latestEnd < sample.start - tolerance, latestBegin <= sample.duration + tolerance {
            events = events.moved(by: sample.start)
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

    /// WebVTT samples' cues: one small WebVTT file of their `vttc` boxes, each cue over its
    /// sample's span (counted from the first sample's start, added back after), read by
    /// FFmpeg's WebVTT reader (markup and settings as in a WebVTT file).
    private static func webVTTEvents(_ samples: [Sample]) -> [SubtitleEvent] {
        guard let base = samples.first?.start else { return [] }
        func stamp(_ seconds: Double) -> String {
            let millis = Int((min(max(seconds, 0), 1e9) * 1000).rounded())
            return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        }
        var text = "WEBVTT\n"
        for sample in samples where sample.duration > 0 {
            for cue in ISOBoxes.boxes(in: sample.bytes) where cue.typeName == "vttc" {
                let boxes = ISOBoxes.boxes(in: cue.payload)
                guard let payload = boxes.first(where: { $0.typeName == "payl" }) else { continue }
                let settings = boxes.first { $0.typeName == "sttg" }.map { String(decoding: $0.payload, as: UTF8.self) } ?? ""
                // A blank line would end the cue early: cue text never holds one.
                let body = String(decoding: payload.payload, as: UTF8.self)
                    .split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
                guard !body.isEmpty, !settings.contains("\n") else { continue }
                text += "\n\(stamp(sample.start - base)) --> \(stamp(sample.start - base + sample.duration)) \(settings)\n\(body)\n"
            }
        }
        guard text.count > "WEBVTT\n".count else { return [] }
        let memory = MemoryInput(bytes: Data(text.utf8), name: "segment.vtt")
        return ((try? SubtitleFileReader.read(MediaLocation(memory: memory), timeout: 5).events) ?? []).moved(by: base)
    }
}
