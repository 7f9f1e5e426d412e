// Playhead: what a track's samples are (`formatDescriptions`) and how its media maps onto
// the asset's timeline (`segments`).
// Concurrency: pure functions over a track's immutable description.
import FFmpegBridge
import Foundation

/// One edit of a track: a span of its media (or nothing, for an empty edit) placed on the
/// asset's timeline.
///
/// - Important: Immutable; thread-safe.
open class AVAssetTrackSegment: NSObject, @unchecked Sendable {
    /// The span of the track's media and where it plays; `timeMapping.source.start` is invalid
    /// for an empty edit.
    public let timeMapping: CMTimeMapping
    /// True for an empty edit: nothing of the track plays during `timeMapping.target`.
    public let isEmpty: Bool

    init(timeMapping: CMTimeMapping, isEmpty: Bool) {
        self.timeMapping = timeMapping
        self.isEmpty = isEmpty
        super.init()
    }
}

extension AVAssetTrack {
    /// The track's edits in timeline order. FFmpeg applies a container's edit list while it
    /// reads, so the media plays where the timeline says: one segment mapping `timeRange` onto
    /// itself, after an empty edit when the track starts later than the asset.
    public var segments: [AVAssetTrackSegment] {
        guard timeRange.isValid, timeRange.start.isNumeric else { return [] }
        var result: [AVAssetTrackSegment] = []
        if timeRange.start > .zero {
            let gap = CMTimeRange(start: .zero, duration: timeRange.start)
            result.append(AVAssetTrackSegment(timeMapping: CMTimeMappingMakeEmpty(gap), isEmpty: true))
        }
        result.append(AVAssetTrackSegment(timeMapping: CMTimeMapping(source: timeRange, target: timeRange), isEmpty: false))
        return result
    }

    /// The segment whose target range holds `trackTime`, else the one nearest to it; nil for a
    /// track without segments.
    public func segment(forTrackTime trackTime: CMTime) -> AVAssetTrackSegment? {
        let all = segments
        if let hit = all.first(where: { $0.timeMapping.target.containsTime(trackTime) }) { return hit }
        return trackTime < (all.first?.timeMapping.target.start ?? .zero) ? all.first : all.last
    }

    /// Describes `stream`'s samples as Core Media would: media type, codec code, picture
    /// size (as coded, before pixel aspect and rotation) or audio layout.
    static func formatDescription(for stream: StreamDescription, mediaType: AVMediaType) -> CMFormatDescription {
        let type = CMFormatDescription.MediaType(FourCharCode(fourCharacters: mediaType.rawValue))
        let subType = CMFormatDescription.MediaSubType(FormatCodes.subType(for: stream))
        var extensions: [String: String] = [:]
        if let name = stream.codecLongName { extensions["FormatName"] = name }
        switch stream.kind {
        case .video:
            if let stated = stream.statedColour {
                extensions.merge(CoreVideoColourNames.values(of: stated, isYCbCr: true)) { _, new in new }
            }
            let size = CMVideoDimensions(width: Int32(clamping: stream.width), height: Int32(clamping: stream.height))
            return CMFormatDescription(mediaType: type, mediaSubType: subType, dimensions: size, extensions: extensions)
        case .audio:
            return CMFormatDescription(
                mediaType: type, mediaSubType: subType,
                audioStreamBasicDescription: FormatCodes.basicDescription(for: stream, formatID: subType.rawValue),
                extensions: extensions)
        default:
            return CMFormatDescription(mediaType: type, mediaSubType: subType, extensions: extensions)
        }
    }
}

/// FFmpeg codec names to Core Media's and Core Audio's four-character codes.
///
/// Concurrency: pure functions.
enum FormatCodes {
    private static let byCodec: [String: String] = [
        "h264": "avc1", "hevc": "hvc1", "vp9": "vp09", "vp8": "vp08", "av1": "av01",
        "mpeg4": "mp4v", "mpeg2video": "mp2v", "mpeg1video": "mp1v", "h263": "h263",
        "mjpeg": "jpeg", "prores": "apcn", "theora": "XiTh", "png": "png ",
        "aac": "aac ", "mp3": ".mp3", "mp2": ".mp2", "opus": "opus", "flac": "flac",
        "ac3": "ac-3", "eac3": "ec-3", "alac": "alac", "vorbis": "vorb",
        "pcm_alaw": "alaw", "pcm_mulaw": "ulaw",
        "webvtt": "wvtt", "mov_text": "tx3g", "eia_608": "c608", "subrip": "srt ",
        "ass": "ass ", "ssa": "ssa ", "hdmv_pgs_subtitle": "pgs ", "dvd_subtitle": "vobs",
        "dvb_subtitle": "dvbs", "timed_id3": "id3 ", "ttml": "stpp",
    ]
    /// Sample tags that name the codec more exactly than its FFmpeg name ('hev1' HEVC,
    /// 'avc3' H.264, the ProRes flavours).
    private static let preferredTags: Set<String> = [
        "hev1", "hvc1", "avc1", "avc3", "apch", "apcn", "apcs", "apco", "ap4h", "ap4x", "dvh1", "dvhe",
    ]

    /// The four-character code for `stream`'s codec: the container's own sample tag when it is
    /// a more exact name, else Core Media's code for the codec, else the container's tag, else
    /// the first four letters of FFmpeg's name.
    static func subType(for stream: StreamDescription) -> FourCharCode {
        let tag = stream.codecTag.flatMap(printableTag)
        if let tag, preferredTags.contains(tag) { return FourCharCode(fourCharacters: tag) }
        if stream.codecName.hasPrefix("pcm_"), byCodec[stream.codecName] == nil {
            return kAudioFormatLinearPCM
        }
        if let code = byCodec[stream.codecName] { return FourCharCode(fourCharacters: code) }
        return FourCharCode(fourCharacters: tag ?? String(stream.codecName.prefix(4)))
    }

    /// The container tag when it is four printable characters (FFmpeg prints unknown bytes as
    /// "[0]" and the like).
    private static func printableTag(_ tag: String) -> String? {
        let scalars = tag.unicodeScalars
        guard scalars.count == 4, scalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f && $0 != "[" })
        else { return nil }
        return tag
    }

    /// Frames per packet of the codecs whose packets hold a fixed number.
    private static let framesPerPacket: [String: UInt32] = [
        "aac": 1024, "mp3": 1152, "mp2": 1152, "ac3": 1536, "eac3": 1536, "opus": 960, "alac": 4096,
    ]

    /// The audio layout of `stream`: sample rate and channels always; for PCM also the sample
    /// size, signedness, float and byte order read from FFmpeg's codec name ("pcm_s16le").
    static func basicDescription(for stream: StreamDescription, formatID: AudioFormatID) -> AudioStreamBasicDescription {
        var result = AudioStreamBasicDescription()
        result.mSampleRate = Double(stream.sampleRate)
        result.mFormatID = formatID
        result.mChannelsPerFrame = UInt32(max(stream.channels, 0))
        result.mFramesPerPacket = framesPerPacket[stream.codecName] ?? 0
        guard formatID == kAudioFormatLinearPCM else { return result }
        let name = stream.codecName.dropFirst("pcm_".count)
        let bits = UInt32(name.filter(\.isNumber)) ?? 0
        var flags = kAudioFormatFlagIsPacked
        if name.hasPrefix("f") { flags |= kAudioFormatFlagIsFloat }
        if name.hasPrefix("s") { flags |= kAudioFormatFlagIsSignedInteger }
        if name.hasSuffix("be") { flags |= kAudioFormatFlagIsBigEndian }
        if name.hasSuffix("planar") { flags |= kAudioFormatFlagIsNonInterleaved }
        result.mFormatFlags = flags
        result.mBitsPerChannel = bits
        result.mFramesPerPacket = 1
        result.mBytesPerFrame = bits / 8 * result.mChannelsPerFrame
        result.mBytesPerPacket = result.mBytesPerFrame
        return result
    }
}
