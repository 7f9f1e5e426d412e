// Playhead: what inspecting a media file found, as plain Sendable values.
import Foundation
import OpenCoreMedia

/// A container's description: format, duration, streams and tags. Pure values, no FFmpeg
/// pointers, so it can cross threads and outlive the demuxer that produced it.
package struct MediaDescription: Sendable, Equatable {
    /// FFmpeg's short demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    package var formatName: String
    /// FFmpeg's long demuxer name, e.g. "QuickTime / MOV".
    package var formatLongName: String
    /// The container's duration; `.indefinite` when the container does not know it.
    package var duration: CMTime
    /// The first timestamp of the presentation; `.zero` when unknown.
    package var startTime: CMTime
    /// The overall bit rate in bits per second, when known.
    package var bitRate: Int?
    /// Every stream, in container order, including attached pictures.
    package var streams: [StreamDescription]
    /// Container-level tags in the order FFmpeg reports them (keys lowercased).
    package var tags: [MediaTag]
    /// Embedded cover art found as attached-picture streams.
    package var artwork: [Artwork]
    /// How sure FFmpeg was of the format (0–100).
    package var probeScore: Int
    /// True when FFmpeg estimated the duration from the bit rate instead of reading it.
    package var durationIsEstimated: Bool
    /// The container's chapters in time order (empty when it has none).
    package var chapters: [MediaChapter] = []
    /// The subtitle renditions of an HLS master playlist (empty for everything else).
    package var subtitleRenditions: [SubtitleRendition] = []
    /// An HLS multivariant playlist's `EXT-X-SESSION-DATA` tags.
    package var sessionData: [HLSSessionData] = []
    /// The variants of an adaptive stream Playhead's loader reads (none otherwise).
    package var variants: [StreamVariant] = []
    /// What an HLS master playlist says about closed captions in its video (named renditions,
    /// or `CLOSED-CAPTIONS=NONE`); nil when it says nothing and for everything else.
    package var hlsCaptions: HLSCaptionDeclaration?
    /// The container timestamp, in seconds, at item time zero (the start time the item's
    /// timeline is moved by): where an HLS WebVTT rendition's `X-TIMESTAMP-MAP` is measured.
    package var timestampOrigin: Double = 0
    /// For a local file, the names of the files beside it whose name starts with its own
    /// (without extension) and a dot: where subtitle files are looked for. Listed while
    /// inspecting, so no later caller touches the disk.
    package var neighbourFileNames: [String] = []

    /// Streams that are real tracks: not attached pictures or attachments.
    package var tracks: [StreamDescription] {
        streams.filter { !$0.isAttachedPicture && $0.kind != .attachment }
    }

    /// True when some audio or video track has a decoder in this FFmpeg build.
    package var hasDecodableTrack: Bool {
        tracks.contains { ($0.kind == .audio || $0.kind == .video) && $0.decoderAvailable }
    }
}

/// A key and value from a container's or stream's tag dictionary.
package struct MediaTag: Sendable, Equatable {
    /// The tag's key, lowercased ("title", "artist", "language", ...).
    package var key: String
    /// The tag's text.
    package var value: String

    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// An embedded picture (cover art), with its encoded bytes.
package struct Artwork: Sendable, Equatable {
    /// The image bytes as stored (PNG, JPEG, ...).
    package var data: [UInt8]
    /// The image's MIME type, e.g. "image/jpeg".
    package var mimeType: String
}

/// The kind of a stream, as FFmpeg classifies it.
package enum StreamKind: String, Sendable, Equatable {
    case video, audio, subtitle, data, attachment, unknown
}

/// One stream of a container.
package struct StreamDescription: Sendable, Equatable {
    /// The stream's index in the container.
    package var index: Int
    /// A stable, non-zero identifier: the container's track ID when it has unique ones,
    /// otherwise index + 1.
    package var trackID: Int32
    /// Video, audio, subtitle, data or attachment.
    package var kind: StreamKind
    /// FFmpeg's short codec name ("h264", "aac", "subrip", ...).
    package var codecName: String
    /// FFmpeg's long codec name, when known.
    package var codecLongName: String?
    /// The codec profile's name ("High", "LC", ...), when known.
    package var profileName: String?
    /// The four-character code the container stored, when printable.
    package var codecTag: String?
    /// True when this FFmpeg build has a decoder for the codec.
    package var decoderAvailable: Bool
    /// The stream's time base as a CMTime of one tick.
    package var timeBase: CMTime
    /// The stream's first timestamp; `.invalid` when unknown.
    package var startTime: CMTime
    /// The stream's duration; `.invalid` when unknown.
    package var duration: CMTime
    /// Coded picture width and height (0 for non-video).
    package var width: Int
    package var height: Int
    /// Sample (pixel) aspect ratio, when the stream states one.
    package var sampleAspect: SampleAspect?
    /// The pixel format name ("yuv420p"), when known.
    package var pixelFormat: String?
    /// The average frame rate in frames per second, when known.
    package var averageFrameRate: Double?
    /// Audio sample rate in Hz (0 for non-audio).
    package var sampleRate: Int
    /// Audio channel count (0 for non-audio).
    package var channels: Int
    /// The channel layout's name ("stereo", "5.1"), when known.
    package var channelLayout: String?
    /// Bits per second, when known.
    package var bitRate: Int?
    /// The number of frames the container claims, when it says.
    package var frameCount: Int?
    /// The language tag as stored (usually ISO 639-2, e.g. "eng"), or nil for "und"/absent.
    package var language: String?
    /// The stream's title tag, when present.
    package var title: String?
    /// True for the container's default stream of its kind.
    package var isDefault: Bool
    /// True when the container marks the stream as forced (subtitles shown even when
    /// subtitles are off, for foreign-language dialogue).
    package var isForced: Bool = false
    /// True when the container marks the stream as meant for the hearing impaired (SDH).
    package var isHearingImpaired: Bool = false
    /// True for a video stream whose pictures carry closed captions (EIA-608 in ATSC A/53
    /// caption data: H.264/HEVC SEI or MPEG-2 user data), seen in its first pictures when
    /// the demuxer opened (`ClosedCaptionScan`). Always false from `MediaInspector.describe`.
    package var hasClosedCaptions: Bool = false
    /// True for cover art stored as a one-picture video stream.
    package var isAttachedPicture: Bool
    /// True when the stream carries encryption information (a `pssh` box), or, for a stream
    /// a demuxer opened, when the first packets it read of it were encrypted.
    package var isEncrypted: Bool
    /// The display matrix (3×3, fixed point as in the container), when the stream has one.
    package var displayMatrix: [Int32]?
    /// Stream-level tags in FFmpeg's order (keys lowercased).
    package var tags: [MediaTag]
    /// True for video whose transfer function is a high dynamic range one (SMPTE ST 2084
    /// "PQ", or ARIB STD-B67 "HLG"), as its codec parameters state it.
    package var isHighDynamicRange = false
    /// For video, the colour its codec parameters state (matrix, range, primaries, transfer);
    /// nil when they state none.
    package var statedColour: StatedColour?
    /// For an MP4/QuickTime timed metadata track (codec tag 'mebx'), the keys its sample
    /// description declares, read from the movie box (FFmpeg keeps them nowhere); empty for
    /// every other stream, and when the input could not be read for them.
    package var boxedMetadataKeys: [BoxedMetadataKey] = []

    /// Clockwise rotation in degrees (0, 90, 180 or 270 for the usual cases), from the
    /// display matrix; 0 when there is none.
    package var rotationDegrees: Int {
        guard let matrix = displayMatrix, matrix.count == 9 else { return 0 }
        let a = Double(matrix[0]) / 65536, b = Double(matrix[1]) / 65536
        let degrees = (atan2(b, a) * 180 / Double.pi).rounded()
        let normalised = Int(degrees) % 360
        return normalised < 0 ? normalised + 360 : normalised
    }
}

/// A sample (pixel) aspect ratio: the width of a pixel relative to its height.
package struct SampleAspect: Sendable, Equatable {
    package var numerator: Int
    package var denominator: Int
    package init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }
}

/// One chapter of a container: a titled time range on the item timeline.
package struct MediaChapter: Sendable, Equatable {
    /// The chapter's title tag; nil when the container names none.
    package var title: String?
    /// Where the chapter starts.
    package var start: CMTime
    /// Where the chapter ends.
    package var end: CMTime
    /// Every tag of the chapter (keys lowercased), including the title.
    package var tags: [MediaTag]

    package init(title: String?, start: CMTime, end: CMTime, tags: [MediaTag] = []) {
        self.title = title
        self.start = start
        self.end = end
        self.tags = tags
    }
}
