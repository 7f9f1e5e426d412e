// Playhead: Core Media's and Core Audio's four-character codes for media types and formats.
// Concurrency: constants.

/// Video ('vide').
public let kCMMediaType_Video = FourCharCode(fourCharacters: "vide")
/// Audio ('soun').
public let kCMMediaType_Audio = FourCharCode(fourCharacters: "soun")
/// Multiplexed media ('muxx').
public let kCMMediaType_Muxed = FourCharCode(fourCharacters: "muxx")
/// Text ('text').
public let kCMMediaType_Text = FourCharCode(fourCharacters: "text")
/// Closed captions ('clcp').
public let kCMMediaType_ClosedCaption = FourCharCode(fourCharacters: "clcp")
/// Subtitles ('sbtl').
public let kCMMediaType_Subtitle = FourCharCode(fourCharacters: "sbtl")
/// Time codes ('tmcd').
public let kCMMediaType_TimeCode = FourCharCode(fourCharacters: "tmcd")
/// Timed metadata ('meta').
public let kCMMediaType_Metadata = FourCharCode(fourCharacters: "meta")

/// H.264 ('avc1').
public let kCMVideoCodecType_H264 = FourCharCode(fourCharacters: "avc1")
/// HEVC ('hvc1').
public let kCMVideoCodecType_HEVC = FourCharCode(fourCharacters: "hvc1")
/// VP9 ('vp09').
public let kCMVideoCodecType_VP9 = FourCharCode(fourCharacters: "vp09")
/// AV1 ('av01').
public let kCMVideoCodecType_AV1 = FourCharCode(fourCharacters: "av01")
/// MPEG-4 part 2 video ('mp4v').
public let kCMVideoCodecType_MPEG4Video = FourCharCode(fourCharacters: "mp4v")
/// MPEG-2 video ('mp2v').
public let kCMVideoCodecType_MPEG2Video = FourCharCode(fourCharacters: "mp2v")
/// MPEG-1 video ('mp1v').
public let kCMVideoCodecType_MPEG1Video = FourCharCode(fourCharacters: "mp1v")
/// H.263 ('h263').
public let kCMVideoCodecType_H263 = FourCharCode(fourCharacters: "h263")
/// Motion JPEG ('jpeg').
public let kCMVideoCodecType_JPEG = FourCharCode(fourCharacters: "jpeg")
/// Apple ProRes 422 ('apcn').
public let kCMVideoCodecType_AppleProRes422 = FourCharCode(fourCharacters: "apcn")

/// WebVTT ('wvtt').
public let kCMSubtitleFormatType_WebVTT = FourCharCode(fourCharacters: "wvtt")
/// 3GPP timed text ('tx3g').
public let kCMSubtitleFormatType_3GText = FourCharCode(fourCharacters: "tx3g")
/// CEA-608 captions ('c608').
public let kCMClosedCaptionFormatType_CEA608 = FourCharCode(fourCharacters: "c608")
/// CEA-708 captions ('c708').
public let kCMClosedCaptionFormatType_CEA708 = FourCharCode(fourCharacters: "c708")
/// ID3 timed metadata ('id3 ').
public let kCMMetadataFormatType_ID3 = FourCharCode(fourCharacters: "id3 ")
/// Boxed timed metadata ('mebx').
public let kCMMetadataFormatType_Boxed = FourCharCode(fourCharacters: "mebx")

/// Linear PCM ('lpcm').
public let kAudioFormatLinearPCM: AudioFormatID = FourCharCode(fourCharacters: "lpcm")
/// AAC ('aac ').
public let kAudioFormatMPEG4AAC: AudioFormatID = FourCharCode(fourCharacters: "aac ")
/// MP3 ('.mp3').
public let kAudioFormatMPEGLayer3: AudioFormatID = FourCharCode(fourCharacters: ".mp3")
/// MPEG-1 layer 2 ('.mp2').
public let kAudioFormatMPEGLayer2: AudioFormatID = FourCharCode(fourCharacters: ".mp2")
/// Opus ('opus').
public let kAudioFormatOpus: AudioFormatID = FourCharCode(fourCharacters: "opus")
/// FLAC ('flac').
public let kAudioFormatFLAC: AudioFormatID = FourCharCode(fourCharacters: "flac")
/// AC-3 ('ac-3').
public let kAudioFormatAC3: AudioFormatID = FourCharCode(fourCharacters: "ac-3")
/// E-AC-3 ('ec-3').
public let kAudioFormatEnhancedAC3: AudioFormatID = FourCharCode(fourCharacters: "ec-3")
/// Apple Lossless ('alac').
public let kAudioFormatAppleLossless: AudioFormatID = FourCharCode(fourCharacters: "alac")
/// A-law ('alaw').
public let kAudioFormatALaw: AudioFormatID = FourCharCode(fourCharacters: "alaw")
/// µ-law ('ulaw').
public let kAudioFormatULaw: AudioFormatID = FourCharCode(fourCharacters: "ulaw")

/// PCM samples are floating point.
public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
/// PCM samples are big-endian.
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
/// PCM integer samples are signed.
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
/// PCM samples fill their bytes with no padding.
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
/// Each channel has a buffer of its own (planar).
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
