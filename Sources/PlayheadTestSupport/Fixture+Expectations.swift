// Playhead: what each fixture is known to contain, for tests to check against.
import Foundation

extension Fixture {
    /// The `title` tag written into ``mp4``.
    public static let mp4Title = "Playhead MP4 fixture"
    /// The `title` tag written into ``audioOnlyM4A``.
    public static let m4aTitle = "Playhead audio-only fixture"
    /// The `title` tag written into ``rotatedMP4``.
    public static let rotatedTitle = "Playhead rotated fixture"
    /// The four-character code that replaces `avc1` in ``undecodableVideoMP4``.
    public static let undecodableCodecTag = "plhd"
    /// The tags written into ``mp3WithCoverArt``.
    public static let songTags = [
        "title": "Playhead Test Tone", "artist": "Playhead Fixtures", "album": "Generated Media",
    ]

    /// The streams `ffprobe` finds in this fixture.
    public var expectedStreams: StreamCounts {
        switch self {
        case .matroska:
            return StreamCounts(video: 1, audio: 2, subtitle: 1)
        case .videoOnlyMP4:
            return StreamCounts(video: 1)
        case .mp3WithCoverArt:
            return StreamCounts(audio: 1, attachedPictures: 1)
        case .audioOnlyM4A, .aacADTS, .ac3, .aiff, .oggOpus, .wav, .wavPack, .flac, .caf:
            return StreamCounts(audio: 1)
        default:
            return StreamCounts(video: 1, audio: 1)
        }
    }

    /// The `ffprobe` codec names of all streams, in no particular order.
    public var expectedCodecNames: Set<String> {
        switch self {
        case .mp4, .mov, .m4v, .mpegTransportStream, .rotatedMP4: return ["h264", "aac"]
        case .threeGP, .threeG2: return ["h263", "aac"]
        case .matroska: return ["h264", "aac", "subrip"]
        case .webM: return ["vp9", "opus"]
        case .avi: return ["mpeg4", "mp3"]
        case .flv: return ["flv1", "mp3"]
        case .mpegProgramStream: return ["mpeg2video", "mp2"]
        case .vob: return ["mpeg2video", "ac3"]
        case .oggTheora: return ["theora", "vorbis"]
        case .windowsMedia: return ["wmv2", "wmav2"]
        case .realMedia: return ["rv20", "ra_144"]
        case .nut: return ["mpeg4", "pcm_s16le"]
        case .mxf: return ["mpeg2video", "pcm_s16le"]
        case .videoOnlyMP4: return ["h264"]
        case .undecodableVideoMP4: return ["aac"]  // ffprobe gives the video no codec name
        case .audioOnlyM4A, .aacADTS: return ["aac"]
        case .mp3WithCoverArt: return ["mp3", "png"]
        case .ac3: return ["ac3"]
        case .aiff: return ["pcm_s16be"]
        case .oggOpus: return ["opus"]
        case .wav: return ["pcm_s16le"]
        case .wavPack: return ["wavpack"]
        case .flac: return ["flac"]
        case .caf: return ["alac"]
        }
    }

    /// Format-level tags the fixture was written with (empty when none were set).
    public var expectedTags: [String: String] {
        switch self {
        case .mp4: return ["title": Fixture.mp4Title]
        case .audioOnlyM4A: return ["title": Fixture.m4aTitle]
        case .rotatedMP4: return ["title": Fixture.rotatedTitle]
        case .mp3WithCoverArt: return Fixture.songTags
        default: return [:]
        }
    }

    /// The display rotation in degrees that ffprobe reports for the video, if any.
    public var expectedRotation: Double? {
        self == .rotatedMP4 ? 90 : nil
    }

    /// The languages of the audio streams, in stream order, where the fixture sets them.
    public var expectedAudioLanguages: [String]? {
        self == .matroska ? ["eng", "fre"] : nil
    }
}
