// Playhead: one track of an asset (video, audio, subtitles, data).
import FFmpegBridge
import Foundation

/// A track of an asset. Tracks arrive fully loaded with their asset, so their properties
/// never block.
///
/// - Important: Thread-safe: every property is immutable.
open class AVAssetTrack: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    /// The track's identifier within its asset (never 0).
    public let trackID: CMPersistentTrackID
    /// What the track carries.
    public let mediaType: AVMediaType
    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    /// The picture size in pixels with non-square pixels stretched to square (zero for
    /// non-video tracks), before `preferredTransform`.
    public let naturalSize: CGSize
    /// How to turn the picture for display: a rotation (and the translation that keeps the
    /// picture at the origin) read from the container's display matrix.
    public let preferredTransform: CGAffineTransform
    /// Frames per second as the container states it (0 when unknown or not video).
    public let nominalFrameRate: Float
    /// Bits per second (0 when unknown).
    public let estimatedDataRate: Float
    /// The shortest time a frame is shown, for video: one frame at the container's average
    /// frame rate on a 90 kHz scale (exact for 24, 25, 30, 50, 60 and the 1000/1001 rates);
    /// `.invalid` for other tracks and when the rate is unknown. Variable-frame-rate streams
    /// report their average, not their shortest frame.
    public let minFrameDuration: CMTime
    /// The track's extent on the asset timeline.
    public let timeRange: CMTimeRange
    /// The language as stored, usually ISO 639-2 ("eng"); nil when unknown.
    public let languageCode: String?
    /// The language as a BCP 47 tag ("en"), when it can be derived.
    public let extendedLanguageTag: String?
    /// Whether the track is enabled for playback (always true: containers FFmpeg reads do
    /// not disable tracks; see `isDefault` for the container's preferred track).
    public let isEnabled: Bool
    /// True when the codec can be decoded on this system.
    public let isPlayable: Bool
    /// True when the codec can be decoded on this system.
    public var isDecodable: Bool { isPlayable }
    /// The units per second of the track's timestamps.
    public let naturalTimeScale: CMTimeScale
    /// The track's metadata (its title and other tags).
    public let metadata: [AVMetadataItem]
    /// The subset of `metadata` with common keys.
    public var commonMetadata: [AVMetadataItem] { metadata.filter { $0.commonKey != nil } }
    /// What the samples are, as `CMFormatDescription`s (one per track: FFmpeg streams have a
    /// single format). Typed `[Any]` as Apple's is; `load(.formatDescriptions)` gives them typed.
    public var formatDescriptions: [Any] { sampleFormats }
    /// The format descriptions behind `formatDescriptions`.
    let sampleFormats: [CMFormatDescription]
    /// The container's index of the track's stream.
    let streamIndex: Int
    /// The asset's sample byte counts, measured on first use.
    let sampleData: SampleDataTotals?

    // MARK: - Playhead additions

    /// The codec's short name, e.g. "h264", "aac", "subrip". A Playhead addition.
    public let codec: String
    /// The codec's readable name, e.g. "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10".
    public let codecDescription: String?
    /// The codec profile, e.g. "High" or "LC", when known.
    public let codecProfile: String?
    /// Audio samples per second (0 for non-audio tracks). A Playhead addition.
    public let sampleRate: Double
    /// Audio channels (0 for non-audio tracks). A Playhead addition.
    public let channelCount: Int
    /// The channel layout's name ("stereo", "5.1"), when known.
    public let channelLayoutName: String?
    /// Clockwise rotation in degrees implied by `preferredTransform` (0, 90, 180, 270).
    public let rotationDegrees: Int
    /// The track's title tag, when present.
    public let title: String?
    /// True when the container marks the track as the default choice of its type.
    public let isDefault: Bool
    /// True when the container marks the track as forced (subtitles for foreign dialogue only).
    /// A Playhead addition; `hasMediaCharacteristic(.containsOnlyForcedSubtitles)` reports it too.
    public let isForced: Bool
    /// True for video with a high dynamic range transfer function (PQ or HLG), as its codec
    /// parameters state; `hasMediaCharacteristic(.containsHDRVideo)` reports it.
    let isHighDynamicRange: Bool

    /// A track for `stream` of an asset whose presentation starts at `assetStart` on the
    /// container's timeline and lasts `assetDuration`.
    init(stream: StreamDescription, assetStart: CMTime = .zero, assetDuration: CMTime, asset: AVAsset) {
        trackID = stream.trackID
        mediaType = AVAssetTrack.mediaType(for: stream)
        self.asset = asset
        naturalSize = AVAssetTrack.displaySize(stream)
        rotationDegrees = stream.rotationDegrees
        preferredTransform = AVAssetTrack.transform(rotation: stream.rotationDegrees, size: naturalSize)
        nominalFrameRate = stream.kind == .video ? Float(stream.averageFrameRate ?? 0) : 0
        estimatedDataRate = Float(stream.bitRate ?? 0)
        minFrameDuration = AVAssetTrack.frameDuration(stream)
        timeRange = AVAssetTrack.timeRange(
            of: stream, assetStart: assetStart, assetDuration: assetDuration)
        languageCode = stream.language
        extendedLanguageTag = stream.language.flatMap(LanguageTags.bcp47)
        isEnabled = true
        isPlayable = stream.decoderAvailable
        naturalTimeScale = stream.timeBase.isNumeric ? stream.timeBase.timescale : 0
        metadata = MetadataMapping.items(tags: stream.tags, artwork: [])
        codec = stream.codecName
        codecDescription = stream.codecLongName
        codecProfile = stream.profileName
        sampleRate = Double(stream.sampleRate)
        channelCount = stream.channels
        channelLayoutName = stream.channelLayout
        title = stream.title
        isDefault = stream.isDefault
        isForced = stream.isForced
        isHighDynamicRange = stream.isHighDynamicRange
        sampleFormats = [AVAssetTrack.formatDescription(for: stream, mediaType: mediaType)]
        streamIndex = stream.index
        sampleData = asset.sampleDataTotals
        super.init()
    }

    // MARK: - AVAsynchronousKeyValueLoading

    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        .loaded
    }

    /// Calls `handler` on a background queue once `keys` are loaded: at once, but for
    /// "totalSampleDataLength", which is measured there first.
    open func loadValuesAsynchronously(
        forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil
    ) {
        let totals = keys.contains("totalSampleDataLength") ? sampleData : nil
        DispatchQueue.global(qos: .userInitiated).async {
            _ = totals?.measured()
            handler?()
        }
    }

    /// True when the track has `mediaCharacteristic` (visual, audible or legible; forced
    /// subtitles; HDR video).
    open func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        switch mediaCharacteristic {
        case .visual: return mediaType == .video
        case .audible: return mediaType == .audio
        case .legible: return [.subtitle, .text, .closedCaption].contains(mediaType)
        case .containsOnlyForcedSubtitles: return isForced
        case .containsHDRVideo: return mediaType == .video && isHighDynamicRange
        default: return false
        }
    }

    /// The characteristics the track has, of those ``hasMediaCharacteristic(_:)`` knows.
    public var mediaCharacteristics: [AVMediaCharacteristic] {
        [.visual, .audible, .legible, .containsOnlyForcedSubtitles, .containsHDRVideo].filter(hasMediaCharacteristic)
    }

    open override var description: String {
        "AVAssetTrack(\(trackID), \(mediaType.rawValue), \(codec))"
    }

    // MARK: - Mapping

    private static func mediaType(for stream: StreamDescription) -> AVMediaType {
        switch stream.kind {
        case .video: return .video
        case .audio: return .audio
        case .subtitle:
            return stream.codecName == "eia_608" ? .closedCaption : .subtitle
        case .data, .attachment, .unknown: return .metadata
        }
    }

    /// The stream's extent on the asset timeline, which starts at zero where the container's
    /// presentation starts (MPEG-TS streams, for instance, start seconds into their clock).
    /// A stream without a duration of its own runs to the end of the asset; so does one whose
    /// container states zero (RealMedia's audio does), which no track with samples can last.
    static func timeRange(
        of stream: StreamDescription, assetStart: CMTime, assetDuration: CMTime
    ) -> CMTimeRange {
        let origin = assetStart.isNumeric ? assetStart : .zero
        var start = stream.startTime.isNumeric ? stream.startTime - origin : .zero
        if start < .zero { start = .zero }
        if stream.duration.isNumeric && stream.duration > .zero {
            return CMTimeRange(start: start, duration: stream.duration)
        }
        guard assetDuration.isNumeric else { return CMTimeRange(start: start, duration: assetDuration) }
        let remaining = assetDuration - start
        return CMTimeRange(start: start, duration: remaining < .zero ? .zero : remaining)
    }

    private static func displaySize(_ stream: StreamDescription) -> CGSize {
        guard stream.kind == .video else { return .zero }
        var width = Double(stream.width)
        if let aspect = stream.sampleAspect, aspect.numerator != aspect.denominator {
            width = (width * Double(aspect.numerator) / Double(aspect.denominator)).rounded()
        }
        return CGSize(width: width, height: Double(stream.height))
    }

    /// A quarter-turn rotation that keeps the turned picture in the positive quadrant, as
    /// Apple's cameras write it (90°: a 0, b 1, c -1, d 0, tx height).
    static func transform(rotation: Int, size: CGSize) -> CGAffineTransform {
        switch rotation {
        case 90: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: size.height, ty: 0)
        case 180: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: size.width, ty: size.height)
        case 270: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: size.width)
        case 0: return .identity
        default:
            let turned = CGAffineTransform(rotationAngle: CGFloat(Double(rotation) * .pi / 180))
            let bounds = CGRect(origin: .zero, size: size).applying(turned)
            return turned.concatenating(CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY))
        }
    }
}

extension AVAssetTrack {
    /// One frame at `stream`'s average frame rate, on a 90 kHz scale; `.invalid` when there is
    /// no rate (not video, or unknown).
    static func frameDuration(_ stream: StreamDescription) -> CMTime {
        guard stream.kind == .video, let rate = stream.averageFrameRate, rate > 0, rate.isFinite else {
            return .invalid
        }
        return CMTime(value: CMTimeValue((90_000 / rate).rounded()), timescale: 90_000)
    }
}
