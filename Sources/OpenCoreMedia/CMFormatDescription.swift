// Playhead: what a track's samples are: media type, codec, picture size, audio layout.
// Concurrency: immutable values; thread-safe.

/// A four-character code packed big-endian into 32 bits ('avc1' is 0x61766331).
public typealias FourCharCode = UInt32
/// A media type code such as `kCMMediaType_Video` ('vide').
public typealias CMMediaType = FourCharCode
/// A video codec code such as `kCMVideoCodecType_H264` ('avc1').
public typealias CMVideoCodecType = FourCharCode
/// An audio format code such as `kAudioFormatMPEG4AAC` ('aac ').
public typealias AudioFormatID = UInt32
/// Audio format flags (`kAudioFormatFlagIsFloat` and friends).
public typealias AudioFormatFlags = UInt32

extension FourCharCode {
    /// The code for a four-character ASCII string ("avc1"); shorter strings are padded with
    /// spaces, as 'aac ' is.
    public init(fourCharacters text: String) {
        var bytes = Array(text.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        self = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four characters of the code ("avc1").
    public var fourCharacterString: String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: self >> $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The width and height of a video format in pixels.
public struct CMVideoDimensions: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int32
    /// Height in pixels.
    public var height: Int32
    /// Dimensions of `width` by `height` pixels.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
    /// Zero by zero.
    public init() { self.init(width: 0, height: 0) }
}

/// How one packet of an audio stream is laid out, as Core Audio describes it. Compressed
/// formats leave the byte counts at zero; PCM fills them in.
public struct AudioStreamBasicDescription: Hashable, Sendable {
    /// Frames per second.
    public var mSampleRate: Double
    /// The codec ('lpcm', 'aac ', '.mp3', 'opus', ...).
    public var mFormatID: AudioFormatID
    /// Format flags: float, signed, big-endian, packed, non-interleaved (PCM).
    public var mFormatFlags: AudioFormatFlags
    /// Bytes in one packet; 0 when packets vary in size.
    public var mBytesPerPacket: UInt32
    /// Frames in one packet (1024 for AAC, 1152 for MP3); 0 when they vary.
    public var mFramesPerPacket: UInt32
    /// Bytes in one frame of all channels; 0 for compressed formats.
    public var mBytesPerFrame: UInt32
    /// Channels in each frame.
    public var mChannelsPerFrame: UInt32
    /// Bits per sample of one channel; 0 for compressed formats.
    public var mBitsPerChannel: UInt32
    /// Always 0.
    public var mReserved: UInt32

    /// Every field zero.
    public init() {
        self.init(
            mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
            mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    /// A description with each field given.
    public init(
        mSampleRate: Double, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags,
        mBytesPerPacket: UInt32, mFramesPerPacket: UInt32, mBytesPerFrame: UInt32,
        mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32, mReserved: UInt32
    ) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}

/// The description of a track's samples: its media type, its codec (the media subtype) and,
/// for video and audio, the picture size or the audio layout. Assets hand these out through
/// `AVAssetTrack.formatDescriptions`.
///
/// - Important: Immutable; thread-safe.
public final class CMFormatDescription: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// A media type such as video or audio.
    public struct MediaType: RawRepresentable, Hashable, Sendable {
        /// The four-character code.
        public let rawValue: FourCharCode
        /// The media type with this code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// The media type with this code.
        public init(_ rawValue: FourCharCode) { self.rawValue = rawValue }
        /// Video ('vide').
        public static let video = MediaType(kCMMediaType_Video)
        /// Audio ('soun').
        public static let audio = MediaType(kCMMediaType_Audio)
        /// Subtitles ('sbtl').
        public static let subtitle = MediaType(kCMMediaType_Subtitle)
        /// Closed captions ('clcp').
        public static let closedCaption = MediaType(kCMMediaType_ClosedCaption)
        /// Text ('text').
        public static let text = MediaType(kCMMediaType_Text)
        /// Timed metadata ('meta').
        public static let metadata = MediaType(kCMMediaType_Metadata)
        /// Multiplexed media ('muxx').
        public static let muxed = MediaType(kCMMediaType_Muxed)
        /// Time codes ('tmcd').
        public static let timeCode = MediaType(kCMMediaType_TimeCode)
    }

    /// A codec or format within a media type, such as H.264 video or AAC audio.
    public struct MediaSubType: RawRepresentable, Hashable, Sendable {
        /// The four-character code.
        public let rawValue: FourCharCode
        /// The subtype with this code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// The subtype with this code.
        public init(_ rawValue: FourCharCode) { self.rawValue = rawValue }
        /// H.264 ('avc1').
        public static let h264 = MediaSubType(kCMVideoCodecType_H264)
        /// HEVC ('hvc1').
        public static let hevc = MediaSubType(kCMVideoCodecType_HEVC)
        /// VP9 ('vp09').
        public static let vp9 = MediaSubType(kCMVideoCodecType_VP9)
        /// AV1 ('av01').
        public static let av1 = MediaSubType(kCMVideoCodecType_AV1)
        /// MPEG-4 part 2 video ('mp4v').
        public static let mpeg4Video = MediaSubType(kCMVideoCodecType_MPEG4Video)
        /// MPEG-2 video ('mp2v').
        public static let mpeg2Video = MediaSubType(kCMVideoCodecType_MPEG2Video)
        /// Motion JPEG ('jpeg').
        public static let jpeg = MediaSubType(kCMVideoCodecType_JPEG)
        /// Linear PCM ('lpcm').
        public static let linearPCM = MediaSubType(kAudioFormatLinearPCM)
        /// AAC ('aac ').
        public static let mpeg4AAC = MediaSubType(kAudioFormatMPEG4AAC)
        /// MP3 ('.mp3').
        public static let mpegLayer3 = MediaSubType(kAudioFormatMPEGLayer3)
        /// Opus ('opus').
        public static let opus = MediaSubType(kAudioFormatOpus)
        /// FLAC ('flac').
        public static let flac = MediaSubType(kAudioFormatFLAC)
        /// AC-3 ('ac-3').
        public static let ac3 = MediaSubType(kAudioFormatAC3)
        /// E-AC-3 ('ec-3').
        public static let enhancedAC3 = MediaSubType(kAudioFormatEnhancedAC3)
        /// WebVTT text ('wvtt').
        public static let webVTT = MediaSubType(kCMSubtitleFormatType_WebVTT)
        /// 3GPP timed text ('tx3g').
        public static let text3G = MediaSubType(kCMSubtitleFormatType_3GText)
        /// CEA-608 captions ('c608').
        public static let cea608 = MediaSubType(kCMClosedCaptionFormatType_CEA608)
    }

    /// The media type.
    public let mediaType: MediaType
    /// The codec or format.
    public let mediaSubType: MediaSubType
    /// The picture size (video; zero otherwise).
    public let dimensions: CMVideoDimensions
    /// The audio layout (audio; nil otherwise).
    public let audioStreamBasicDescription: AudioStreamBasicDescription?
    /// Extra facts about the format, keyed by Core Media's extension names
    /// ("FormatName", "Depth", ...). Playhead puts the codec's readable name under "FormatName".
    public let extensions: [String: String]
    /// A copy of `audioStreamBasicDescription` at a stable address, for
    /// `CMAudioFormatDescriptionGetStreamBasicDescription`; freed with the description.
    let basicDescriptionStorage: UnsafeMutablePointer<AudioStreamBasicDescription>?

    /// A description of `mediaType` samples in the `mediaSubType` format.
    public init(
        mediaType: MediaType, mediaSubType: MediaSubType, dimensions: CMVideoDimensions = CMVideoDimensions(),
        audioStreamBasicDescription: AudioStreamBasicDescription? = nil, extensions: [String: String] = [:]
    ) {
        self.mediaType = mediaType
        self.mediaSubType = mediaSubType
        self.dimensions = dimensions
        self.audioStreamBasicDescription = audioStreamBasicDescription
        self.extensions = extensions
        basicDescriptionStorage = audioStreamBasicDescription.map { description in
            let storage = UnsafeMutablePointer<AudioStreamBasicDescription>.allocate(capacity: 1)
            storage.initialize(to: description)
            return storage
        }
    }

    deinit { basicDescriptionStorage?.deallocate() }

    /// Equal when every field is.
    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        lhs.mediaType == rhs.mediaType && lhs.mediaSubType == rhs.mediaSubType
            && lhs.dimensions == rhs.dimensions
            && lhs.audioStreamBasicDescription == rhs.audioStreamBasicDescription
            && lhs.extensions == rhs.extensions
    }

    /// Hashes the media type, subtype and dimensions.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaType)
        hasher.combine(mediaSubType)
        hasher.combine(dimensions)
    }

    /// "CMFormatDescription(vide/avc1 1920x1080)" and the like.
    public var description: String {
        var text = "CMFormatDescription(\(mediaType.rawValue.fourCharacterString)/\(mediaSubType.rawValue.fourCharacterString)"
        if dimensions.width > 0 { text += " \(dimensions.width)x\(dimensions.height)" }
        if let audio = audioStreamBasicDescription {
            text += " \(Int(audio.mSampleRate)) Hz \(audio.mChannelsPerFrame) ch"
        }
        return text + ")"
    }
}

/// A format description of video samples.
public typealias CMVideoFormatDescription = CMFormatDescription
/// A format description of audio samples.
public typealias CMAudioFormatDescription = CMFormatDescription

/// The media type of `desc` ('vide', 'soun', ...).
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType {
    desc.mediaType.rawValue
}

/// The codec or format of `desc` ('avc1', 'aac ', ...).
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode {
    desc.mediaSubType.rawValue
}

/// The picture size of a video format description (zero for other media).
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}

/// The audio layout of an audio format description; nil for other media. The pointer stays
/// valid as long as `desc` lives.
public func CMAudioFormatDescriptionGetStreamBasicDescription(
    _ desc: CMAudioFormatDescription
) -> UnsafePointer<AudioStreamBasicDescription>? {
    desc.basicDescriptionStorage.map { UnsafePointer($0) }
}
