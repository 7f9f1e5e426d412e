// Playhead: container bytes that arrive from a streaming loader above the bridge (Playhead's
// own HLS loader), read by libavformat through a custom AVIOContext.
//
// Concurrency: a `StreamingInput` is shared between the loader's threads and the demux thread;
// its implementations are thread-safe. A `StreamingIO` belongs to the format context's thread:
// FFmpeg calls its read callback there only. The callback waits for bytes in short slices and
// gives up as soon as the context's interrupt is aborted or its deadline passes.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// What one read of a `StreamingInput` produced.
package enum StreamingRead: Sendable, Equatable {
    /// This many bytes were copied.
    case bytes(Int)
    /// None yet; ask again (the wait slice passed).
    case waiting
    /// The stream has no more bytes (until it is restarted).
    case end
    /// The bytes cannot come: the reason.
    case failure(MediaFailure)
}

/// A run of bytes that one container reads from its start: the stream's first bytes, the bytes
/// after a restart, and every place where the bytes must be read by a fresh container (an
/// HLS discontinuity, a new fragmented-MP4 initialisation section).
package struct StreamingSection: Sendable, Equatable {
    /// The run of continuous timestamps the section belongs to (HLS's discontinuity sequence):
    /// sections of one timeline share one mapping from container time to item time.
    package let timeline: Int
    /// The item time, in seconds, at which the section's first segment starts.
    package let start: Double
    /// The container time, in seconds, that plays at `start`, when the loader knows it (a
    /// DASH segment's presentation time): a timeline first read from this section then maps
    /// container time to item time by it exactly, instead of by its first packets.
    package let mediaStart: Double?
    /// The item time, in seconds, where the section's media stops when the loader knows it (a
    /// DASH Period followed by another): packets presented from there on are decoded, as later
    /// ones may refer to them, but their frames are not shown.
    package let end: Double?
    /// True when the section's container counts time from zero at `start`, whatever came
    /// before on its timeline: packed audio (raw AAC, MP3, AC-3 segments), whose frames carry
    /// no timestamps, so a fresh container numbers them from its first.
    package let timesFromZero: Bool

    /// A section of `timeline` starting at `start` seconds, whose container time there is
    /// `mediaStart` seconds when known, and whose media stops at `end` when known;
    /// `timesFromZero` for packed audio.
    package init(
        timeline: Int, start: Double, mediaStart: Double? = nil, end: Double? = nil, timesFromZero: Bool = false
    ) {
        self.timeline = timeline
        self.start = start
        self.mediaStart = timesFromZero ? 0 : mediaStart
        self.end = end
        self.timesFromZero = timesFromZero
    }

    /// The offset (container minus item time, microseconds) `mediaStart` gives, when known.
    var knownOffset: Int64? {
        mediaStart.map { Int64((($0 - start) * 1_000_000).rounded()) }
    }
}

/// Which keyframe a restart for one keyframe alone wants (a step of trick play).
package enum KeyframeStep: Sendable, Equatable {
    /// The keyframe at or before the time (a step of backward play).
    case atOrBefore
    /// The first keyframe after the time, or the last one when none follows (a step of fast
    /// forward).
    case after
}

/// A byte stream made of segments that a loader fetches, which can start again at a time.
///
/// Implemented above the bridge (the HLS loader); the bridge only reads it. The bytes come in
/// sections (see `StreamingSection`): `read` ends (`.end`) at a section's last byte, and the
/// reader opens a fresh container after `nextSection()` moved on.
package protocol StreamingInput: AnyObject, Sendable {
    /// A name whose extension helps format probing ("stream.ts", "stream.mp4").
    var probeName: String { get }
    /// The media's length in seconds, when known (VOD); nil for live streams.
    var duration: Double? { get }
    /// The section the bytes start with when the stream is first opened.
    var openingSection: StreamingSection { get }
    /// Copies up to `buffer.count` bytes of the current section, waiting at most `wait` seconds
    /// for the first; `.end` after the section's last byte.
    func read(into buffer: UnsafeMutableRawBufferPointer, waiting wait: Double) -> StreamingRead
    /// Moves on to the section after the one read to its end; nil when the stream has no more.
    func nextSection() -> StreamingSection?
    /// Starts the bytes again at the segment holding `seconds` (item time): the section they
    /// start with, or nil when it cannot.
    func restart(at seconds: Double) -> StreamingSection?
    /// Starts the bytes again for a reader that wants only the keyframe `step` names from
    /// `seconds` (a step of backward play or fast forward). An input that can fetch a keyframe
    /// alone (an HLS I-frame playlist's byte range) gives it as a section of its own, whose
    /// start it returns, and then ends until the next restart; any other starts again as
    /// `restart(at:)` does.
    func restart(at seconds: Double, keyframe step: KeyframeStep) -> StreamingSection?
    /// True when the input can fetch keyframes alone (a VOD HLS stream with I-frame playlists):
    /// fast forward can then step through them.
    var servesKeyframesAlone: Bool { get }
    /// Where the section being read starts when its bytes placed it elsewhere than it was
    /// announced (packed audio's timestamp, known only once its segment came: the section of
    /// a restart is announced before); nil otherwise.
    var readingSectionStart: Double? { get }
    /// Stops loading until the next `restart(at:)`: what is in flight is cancelled and what
    /// was fetched ahead is dropped; returns at once (an audio rendition nobody listens to).
    func park()
    /// True from `park()` until the next `restart(at:)`.
    var isParked: Bool { get }
    /// While `leave` is true, parks itself (as `park()`, its reader's read ending) once its
    /// reader has waited `starvedAfter` seconds for bytes that have not come (a request its
    /// server stalls); at once when it has already. Until the next `restart(at:)` or a call
    /// with false. Returns at once.
    func leaveWhenStarved(_ leave: Bool)
    /// Stops loading for good; returns at once.
    func close()
    /// What the stream's multivariant playlist declares beside its variants: subtitle
    /// renditions and closed captions (none by default).
    var declaredRenditions: DeclaredRenditions { get }
    /// Where the demuxer anchored each timeline, for the stream's other readers (nil by
    /// default: nobody asks).
    var timelineOffsets: TimelineOffsets? { get }
    /// The FFmpeg name of the format the user's input is in ("hls"), reported in place of the
    /// segments' container (MPEG-TS, fragmented MP4), as libavformat's own reader reports it.
    var formatName: String { get }
    /// Inputs read beside this one whose streams join its own, numbered after them: the audio
    /// renditions of an HLS stream (none by default).
    var companions: [any StreamingInput] { get }
    /// For a companion: the rendition it streams, which names its stream.
    var rendition: CompanionRendition? { get }
    /// For the main input: the renditions its own sound is, when the playlist names them (HLS
    /// audio renditions without a URI), which name its audio streams
    /// (``CompanionRendition/pairing(_:withStreamLanguages:)``).
    var carriedRenditions: [CompanionRendition] { get }
    /// The longest a read may wait for bytes before the input itself reports what is wrong
    /// (its requests have their own deadlines and are tried again), in seconds; nil: the
    /// reader's own time-out bounds each read.
    var longestWait: Double? { get }
    /// Why the input stopped giving bytes, once it has failed (the reason a demuxer reports
    /// in place of FFmpeg's generic I/O error); nil while it has not.
    var failure: MediaFailure? { get }
    /// The variants an adaptive stream offers (HLS variants, DASH video Representations),
    /// lowest first; none for a stream of one rendition.
    var declaredVariants: [StreamVariant] { get }
}

/// One variant of an adaptive stream as its playlist or manifest states it.
package struct StreamVariant: Sendable, Equatable {
    /// The peak bit rate (`BANDWIDTH`, a Representation's `bandwidth`), bits per second.
    package var peakBitRate: Int
    /// `AVERAGE-BANDWIDTH`, when stated.
    package var averageBitRate: Int?
    /// The picture size, when stated.
    package var width: Int?
    package var height: Int?
    /// The codecs list (`CODECS`, "avc1.64001e,mp4a.40.2"), when stated.
    package var codecs: String?
    /// Frames per second (`FRAME-RATE`, a Representation's `frameRate`), when stated.
    package var frameRate: Double?
    /// The video's transfer: "SDR", "PQ" or "HLG" (`VIDEO-RANGE`, a Representation's
    /// transfer characteristics), when stated.
    package var videoRange: String?
    /// The layouts the video may be viewed in, most preferred first (HLS
    /// `REQ-VIDEO-LAYOUT`); empty when not stated.
    package var videoLayouts: [StreamVideoLayout] = []
    /// The audio renditions the variant plays with whose channels are stated (HLS
    /// `EXT-X-MEDIA` `CHANNELS`, a DASH audio set's channel configuration).
    package var audioRenditions: [StreamAudioRendition]

    package init(
        peakBitRate: Int, averageBitRate: Int?, width: Int?, height: Int?, codecs: String?,
        frameRate: Double? = nil, videoRange: String? = nil, audioRenditions: [StreamAudioRendition] = []
    ) {
        self.peakBitRate = peakBitRate
        self.averageBitRate = averageBitRate
        self.width = width
        self.height = height
        self.codecs = codecs
        self.frameRate = frameRate
        self.videoRange = videoRange
        self.audioRenditions = audioRenditions
    }
}

/// An audio rendition's channels as an adaptive stream declares them.
package struct StreamAudioRendition: Sendable, Equatable {
    /// The rendition's name (HLS `NAME`, a DASH audio set's label or language): the title of
    /// its audio stream.
    package var name: String
    /// How many channels play at once.
    package var channelCount: Int
    /// Made for headphones (HLS `BINAURAL`).
    package var isBinaural = false
    /// Spatial audio meant to surround the listener (HLS `IMMERSIVE`).
    package var isImmersive = false
    /// Mixed down from more channels (HLS `DOWNMIX`).
    package var isDownmix = false

    package init(name: String, channelCount: Int, isBinaural: Bool = false, isImmersive: Bool = false, isDownmix: Bool = false) {
        self.name = name
        self.channelCount = channelCount
        self.isBinaural = isBinaural
        self.isImmersive = isImmersive
        self.isDownmix = isDownmix
    }
}

/// How an input read beside the main one (an HLS audio rendition) names its stream; also how
/// the main input names the sound it carries itself when the playlist lists that as a rendition.
package struct CompanionRendition: Sendable, Equatable {
    /// The rendition's NAME, the stream's title.
    package var name: String
    /// Its LANGUAGE (a BCP 47 tag), when given.
    package var language: String?
    /// DEFAULT=YES: the stream played unless the app or the user chooses another.
    package var isDefault: Bool

    package init(name: String, language: String?, isDefault: Bool) {
        self.name = name
        self.language = language
        self.isDefault = isDefault
    }

    /// Which of a container's audio streams (their stored languages, in order) each of
    /// `renditions` is: a rendition with a language takes the first stream left whose language
    /// is the same (ISO 639-2 or a BCP 47 tag, compared by primary language), then the others
    /// take the streams left in order. Nil for a rendition left without one.
    package static func pairing(_ renditions: [CompanionRendition], withStreamLanguages languages: [String?]) -> [Int?] {
        func primary(_ tag: String?) -> String? {
            tag.flatMap(LanguageTags.bcp47).map { $0.lowercased().split(separator: "-").first.map(String.init) ?? $0 }
        }
        var taken = Set<Int>()
        var pairs: [Int?] = renditions.map { rendition in
            guard let wanted = primary(rendition.language),
                let match = languages.indices.first(where: { !taken.contains($0) && primary(languages[$0]) == wanted })
            else { return nil }
            taken.insert(match)
            return match
        }
        for index in pairs.indices where pairs[index] == nil {
            guard let next = languages.indices.first(where: { !taken.contains($0) }) else { break }
            taken.insert(next)
            pairs[index] = next
        }
        return pairs
    }
}

/// The renditions a multivariant playlist declares that are read apart from the variants'
/// bytes: WebVTT subtitle playlists and the closed captions inside the pictures.
package struct DeclaredRenditions: Sendable, Equatable {
    /// `EXT-X-MEDIA:TYPE=SUBTITLES` entries, URIs absolute.
    package var subtitles: [SubtitleRendition] = []
    /// The `CLOSED-CAPTIONS` declaration, when the playlist makes one.
    package var captions: HLSCaptionDeclaration?
    /// `EXT-X-SESSION-DATA` tags (a `URI`'s document read by the streamer, when it could be).
    package var sessionData: [HLSSessionData] = []

    /// Reads them from a multivariant playlist's text; `base` resolves relative URIs.
    package init(playlist text: String, base: URL?) {
        subtitles = HLSSubtitleRenditions.parse(text, base: base)
        captions = HLSSubtitleRenditions.parseCaptions(text)
        sessionData = HLSSessionData.parse(text, base: base)
    }

    /// None.
    package init() {}
}

extension StreamingInput {
    /// None, unless the input says otherwise.
    package var declaredRenditions: DeclaredRenditions { DeclaredRenditions() }
    /// As `restart(at:)`: no keyframe is fetched alone.
    package func restart(at seconds: Double, keyframe step: KeyframeStep) -> StreamingSection? { restart(at: seconds) }
    /// None is.
    package var servesKeyframesAlone: Bool { false }
    /// None, unless the input keeps a table.
    package var timelineOffsets: TimelineOffsets? { nil }
    /// Where it was announced.
    package var readingSectionStart: Double? { nil }
    /// HLS, the one format a loader streams today.
    package var formatName: String { "hls" }
    /// Nothing to stop: an input that fetches nothing ahead.
    package func park() {}
    /// Never parked.
    package var isParked: Bool { false }
    /// Never starves.
    package func leaveWhenStarved(_ leave: Bool) {}
    /// None, unless the input has some.
    package var companions: [any StreamingInput] { [] }
    /// Nil: the main input.
    package var rendition: CompanionRendition? { nil }
    /// None: the input's sound, if any, is named by its container.
    package var carriedRenditions: [CompanionRendition] { [] }
    /// Nil: the reader's time-out bounds each read.
    package var longestWait: Double? { nil }
    /// None, unless the input says why it failed.
    package var failure: MediaFailure? { nil }
    /// None, unless the input adapts over variants.
    package var declaredVariants: [StreamVariant] { [] }
}

/// An AVIOContext reading a `StreamingInput`; closes the input and frees the context in `deinit`.
final class StreamingIO: CustomIO {
    private static let bufferSize: Int32 = 64 * 1024

    /// owned by the format context's thread; freed in deinit
    private(set) var context: UnsafeMutablePointer<AVIOContext>
    private let reader: Unmanaged<StreamingReader>

    init?(_ input: any StreamingInput, interrupt: InterruptDeadline) {
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { return nil }
        let reader = Unmanaged.passRetained(StreamingReader(input: input, interrupt: interrupt))
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque, buffer, size in
            guard let opaque, let buffer else { return CFFmpeg_AVERROR(EINVAL) }
            return Unmanaged<StreamingReader>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
        }
        guard
            let context = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, reader.toOpaque(), read, nil, nil)
        else {
            av_free(buffer)
            reader.release()
            return nil
        }
        context.pointee.seekable = 0
        self.context = context
        self.reader = reader
    }

    deinit {
        freeCustomIOContext(context)
        reader.release()
    }
}

/// The read callback's state: the input and the interrupt it honours.
final class StreamingReader {
    let input: any StreamingInput
    let interrupt: InterruptDeadline

    init(input: any StreamingInput, interrupt: InterruptDeadline) {
        self.input = input
        self.interrupt = interrupt
    }

    /// Waits for bytes in 50 ms slices; AVERROR_EXIT once the interrupt says stop (a kick
    /// that stops it is noted as a cut read, so the demux thread knows its position is lost).
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let target = UnsafeMutableRawBufferPointer(start: buffer, count: Int(size))
        while true {
            if interrupt.stopsRead { return FFmpegError.exit }
            switch input.read(into: target, waiting: 0.05) {
            case .bytes(let count): return Int32(count)
            case .waiting: continue
            case .end: return CFFmpeg_AVERROR_EOF()
            case .failure: return CFFmpeg_AVERROR(EIO)
            }
        }
    }
}
