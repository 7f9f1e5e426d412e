// Playhead: ProbeSummary, the media-independent result `playhead probe` prints.

/// Everything `playhead probe` reports about one input, gathered by a loader and
/// formatted as text or JSON. Plain data, so formatting is testable without media.
public struct ProbeSummary: Sendable, Equatable {
    /// The input as the user typed it.
    public var input: String
    /// The duration in seconds; `nil` when unknown, as for a live stream.
    public var durationSeconds: Double?
    /// Whether the engine believes it can play the input.
    public var isPlayable: Bool
    /// The container's FFmpeg short name, such as `"mov,mp4,m4a,3gp,3g2,mj2"`.
    public var format: String
    /// The container's long name, such as `"QuickTime / MOV"`.
    public var formatDescription: String
    /// The overall bit rate in bits per second, if known.
    public var bitRate: Int?
    /// The tracks in container order.
    public var tracks: [Track]
    /// Container-level metadata in display order; artwork is summarised, not embedded.
    public var metadata: [MetadataEntry]
    /// Whether any track is encrypted or otherwise protected.
    public var hasProtectedContent: Bool
    /// The chapters in time order (empty when there are none).
    public var chapters: [Chapter] = []
    /// The closed caption options, in the legible group's order (empty when there are none).
    public var captions: [Caption] = []
    /// The fonts attached to the container (Matroska), which styled subtitles may name.
    public var fonts: [Font] = []
    /// The variants of an adaptive stream (HLS or DASH), lowest peak bit rate first (empty
    /// for other inputs).
    public var variants: [Variant] = []

    /// Creates a summary.
    public init(
        input: String, durationSeconds: Double?, isPlayable: Bool, format: String,
        formatDescription: String, bitRate: Int? = nil, tracks: [Track] = [],
        metadata: [MetadataEntry] = [], hasProtectedContent: Bool = false
    ) {
        self.input = input
        self.durationSeconds = durationSeconds
        self.isPlayable = isPlayable
        self.format = format
        self.formatDescription = formatDescription
        self.bitRate = bitRate
        self.tracks = tracks
        self.metadata = metadata
        self.hasProtectedContent = hasProtectedContent
    }

    // MARK: - Track

    /// One elementary stream of the input.
    public struct Track: Sendable, Equatable {
        /// The track identifier (1-based, as AVAssetTrack's `trackID`).
        public var id: Int
        /// `"video"`, `"audio"`, `"subtitle"` or `"data"`.
        public var mediaType: String
        /// The codec's short name, such as `"h264"` or `"aac"`.
        public var codec: String
        /// The codec's long name, such as `"H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10"`.
        public var codecDescription: String?
        /// The codec profile, such as `"High"` or `"LC"`.
        public var profile: String?
        /// The coded picture width in pixels (video).
        public var width: Int?
        /// The coded picture height in pixels (video).
        public var height: Int?
        /// The nominal frame rate in frames per second (video).
        public var frameRate: Double?
        /// The sample rate in hertz (audio).
        public var sampleRate: Int?
        /// The channel count (audio).
        public var channels: Int?
        /// The channel layout name, such as `"stereo"` or `"5.1"` (audio).
        public var channelLayout: String?
        /// The track language as an ISO 639-2 code, such as `"eng"`.
        public var language: String?
        /// The display rotation in degrees clockwise (0, 90, 180, 270); `nil` for non-video.
        public var rotation: Int?
        /// The track bit rate in bits per second, if known.
        public var bitRate: Int?
        /// The track's title, if the container names it.
        public var title: String?
        /// Whether the container marks this track as a default choice.
        public var isDefault: Bool
        /// Whether the container marks this track as forced (subtitles).
        public var isForced = false
        /// The colour the video states, by Core Video's names: `matrix`, `primaries` and
        /// `transfer` (such as `ITU_R_709_2`, `SMPTE_ST_2084_PQ`), where stated.
        public var colour: [String: String] = [:]

        /// Creates a track; every descriptive field defaults to absent.
        public init(
            id: Int, mediaType: String, codec: String, codecDescription: String? = nil,
            profile: String? = nil, width: Int? = nil, height: Int? = nil,
            frameRate: Double? = nil, sampleRate: Int? = nil, channels: Int? = nil,
            channelLayout: String? = nil, language: String? = nil, rotation: Int? = nil,
            bitRate: Int? = nil, title: String? = nil, isDefault: Bool = false, isForced: Bool = false
        ) {
            self.id = id
            self.mediaType = mediaType
            self.codec = codec
            self.codecDescription = codecDescription
            self.profile = profile
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
            self.channelLayout = channelLayout
            self.language = language
            self.rotation = rotation
            self.bitRate = bitRate
            self.title = title
            self.isDefault = isDefault
            self.isForced = isForced
        }
    }

    // MARK: - Metadata

    /// One metadata key and its display value, such as `title` → `My Film`, or
    /// `artwork` → `image/jpeg, 1234 bytes`.
    public struct MetadataEntry: Sendable, Equatable {
        /// The metadata key, such as `"title"`.
        public var key: String
        /// The value as text.
        public var value: String

        /// Creates an entry.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    // MARK: - Chapter

    /// One chapter: its title and time range in seconds.
    public struct Chapter: Sendable, Equatable {
        /// The chapter's title.
        public var title: String
        /// Where it starts, in seconds.
        public var start: Double
        /// Where it ends, in seconds.
        public var end: Double

        /// Creates a chapter.
        public init(title: String, start: Double, end: Double) {
            self.title = title
            self.start = start
            self.end = end
        }
    }

    // MARK: - Variant

    /// One variant of an adaptive stream, as its playlist or manifest declares it.
    public struct Variant: Sendable, Equatable {
        /// The peak and average bit rates, bits per second, when stated.
        public var peakBitRate: Int?
        public var averageBitRate: Int?
        /// The picture size, when stated.
        public var width: Int?
        public var height: Int?
        /// The codecs as four-character codes ("avc1", "aac ").
        public var codecs: [String]
        /// Frames per second, when stated.
        public var frameRate: Double?
        /// "SDR", "PQ" or "HLG" for a variant with video (SDR when not stated); nil without.
        public var videoRange: String?
        /// The ways the video may be viewed, most preferred first, as "mono rectangular",
        /// "stereo rectangular", "mono equirectangular" and so on; empty without video.
        public var layouts: [String]

        /// Creates a variant entry.
        public init(
            peakBitRate: Int?, averageBitRate: Int?, width: Int?, height: Int?, codecs: [String],
            frameRate: Double? = nil, videoRange: String? = nil, layouts: [String] = []
        ) {
            self.peakBitRate = peakBitRate
            self.averageBitRate = averageBitRate
            self.width = width
            self.height = height
            self.codecs = codecs
            self.frameRate = frameRate
            self.videoRange = videoRange
            self.layouts = layouts
        }
    }

    // MARK: - Caption

    /// One font attached to the container.
    public struct Font: Sendable, Equatable {
        /// The attachment's file name, such as `"Kaiti.ttf"`.
        public var fileName: String
        /// Its MIME type, when the container gives one.
        public var mimeType: String?

        /// Creates a font entry.
        public init(fileName: String, mimeType: String? = nil) {
            self.fileName = fileName
            self.mimeType = mimeType
        }
    }

    /// One closed caption option: EIA-608 in a track of its own or inside the video.
    public struct Caption: Sendable, Equatable {
        /// The name a player shows, such as `"CC1"` or `"English CC"`.
        public var name: String
        /// The codec, `"eia_608"`.
        public var codec: String
        /// The stream that carries the captions: the caption track, or the video stream.
        public var streamIndex: Int?
        /// True when the captions are inside the video's pictures.
        public var inVideo: Bool
        /// The language as a BCP 47 tag, when known.
        public var language: String?

        /// Creates a caption entry.
        public init(name: String, codec: String, streamIndex: Int?, inVideo: Bool, language: String? = nil) {
            self.name = name
            self.codec = codec
            self.streamIndex = streamIndex
            self.inVideo = inVideo
            self.language = language
        }

        /// Where the captions are, as the text report says it: `in video stream 0`, `stream 1`.
        public var carriage: String {
            let stream = streamIndex.map { " \($0)" } ?? ""
            return inVideo ? "in video stream\(stream)" : "stream\(stream)"
        }
    }
}
