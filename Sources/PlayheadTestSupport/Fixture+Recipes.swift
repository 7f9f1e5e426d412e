// Playhead: the ffmpeg arguments behind each fixture.
import Foundation

extension Fixture {
    /// How ffmpeg makes this fixture. Each command was checked by hand against FFmpeg 5.1.
    var recipe: FixtureRecipe {
        typealias R = FixtureRecipe
        switch self {
        case .mp4:
            return R(
                fileExtension: "mp4",
                arguments: R.picture() + R.tone() + R.h264 + R.aac + ["-ac", "2"]
                    + ["-metadata", "title=\(Fixture.mp4Title)"])
        case .mov:
            return R(fileExtension: "mov", arguments: R.picture() + R.tone() + R.h264 + R.aac)
        case .m4v:
            return R(fileExtension: "m4v", arguments: R.picture() + R.tone() + R.h264 + R.aac)
        case .threeGP, .threeG2:
            return R(
                fileExtension: self == .threeGP ? "3gp" : "3g2",
                arguments: R.picture(size: "176x144", rate: 15) + R.tone(sampleRate: 8000)
                    + ["-c:v", "h263", "-q:v", "5", "-c:a", "aac", "-b:a", "24k"])
        case .matroska:
            return R(
                fileExtension: "mkv",
                arguments: R.picture() + R.tone() + R.tone(frequency: 660)
                    + ["-i", R.subtitlesPlaceholder]
                    + ["-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s"]
                    + R.h264 + R.aac + ["-ac", "2", "-c:s", "srt"]
                    + ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre"]
                    + ["-metadata:s:s:0", "language=eng"],
                subtitles: Fixture.subRipText)
        case .webM:
            return R(
                fileExtension: "webm",
                arguments: R.picture() + R.tone(sampleRate: 48000)
                    + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"]
                    + ["-b:v", "200k", "-c:a", "libopus", "-b:a", "48k"])
        case .avi:
            return R(
                fileExtension: "avi",
                arguments: R.picture() + R.tone() + ["-c:v", "mpeg4", "-q:v", "5"] + R.mp3)
        case .flv:
            return R(
                fileExtension: "flv",
                arguments: R.picture() + R.tone() + ["-c:v", "flv", "-q:v", "5"] + R.mp3)
        case .mpegProgramStream:
            return R(
                fileExtension: "mpg",
                arguments: R.picture() + R.tone(sampleRate: 48000) + R.mpeg2
                    + ["-c:a", "mp2", "-b:a", "128k", "-f", "mpeg"])
        case .vob:
            return R(
                fileExtension: "vob",
                arguments: R.picture() + R.tone(sampleRate: 48000) + R.mpeg2
                    + ["-c:a", "ac3", "-b:a", "128k", "-f", "vob"])
        case .mpegTransportStream:
            return R(fileExtension: "ts", arguments: R.picture() + R.tone() + R.h264 + R.aac)
        case .oggTheora:
            return R(
                fileExtension: "ogv",
                arguments: R.picture() + R.tone()
                    + ["-c:v", "libtheora", "-q:v", "5", "-c:a", "libvorbis", "-q:a", "3"])
        case .windowsMedia:
            return R(
                fileExtension: "wmv",
                arguments: R.picture() + R.tone()
                    + ["-c:v", "wmv2", "-q:v", "5", "-c:a", "wmav2", "-b:a", "64k"])
        case .realMedia:
            return R(
                fileExtension: "rm",
                arguments: R.picture() + R.tone(sampleRate: 8000)
                    + ["-c:v", "rv20", "-q:v", "5", "-c:a", "real_144"])
        case .nut:
            return R(
                fileExtension: "nut",
                arguments: R.picture() + R.tone()
                    + ["-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le"])
        case .mxf:
            return R(
                fileExtension: "mxf",
                arguments: R.picture() + R.tone(sampleRate: 48000) + R.mpeg2
                    + ["-c:a", "pcm_s16le"])
        case .videoOnlyMP4:
            return R(fileExtension: "mp4", arguments: R.picture() + R.h264 + ["-an"])
        case .audioOnlyM4A:
            return R(
                fileExtension: "m4a",
                arguments: R.tone() + R.aac + ["-metadata", "title=\(Fixture.m4aTitle)"])
        case .rotatedMP4:
            // Re-encoding drops the `rotate` tag in FFmpeg 5.1; a stream-copy remux turns it
            // into a display matrix (ffprobe: side data "Display Matrix", rotation 90).
            return R(
                fileExtension: "mp4",
                arguments: ["-i", R.sourcePlaceholder, "-map", "0", "-c", "copy"]
                    + ["-metadata:s:v:0", "rotate=90"]
                    + ["-metadata", "title=\(Fixture.rotatedTitle)"],
                source: .mp4)
        case .undecodableVideoMP4:
            return R(
                fileExtension: "mp4",
                arguments: ["-i", R.sourcePlaceholder, "-map", "0", "-c", "copy"],
                source: .mp4,
                patch: .renameFirstSampleEntry(from: "avc1", to: Fixture.undecodableCodecTag))
        case .mp3WithCoverArt:
            return R(
                fileExtension: "mp3",
                arguments: R.tone()
                    + ["-f", "lavfi", "-i", "color=c=orange:size=64x64:duration=1"]
                    + ["-map", "0:a", "-map", "1:v", "-frames:v", "1"] + R.mp3
                    + ["-c:v", "png", "-disposition:v", "attached_pic", "-id3v2_version", "3"]
                    + Fixture.songTags.sorted { $0.key < $1.key }.flatMap {
                        ["-metadata", "\($0.key)=\($0.value)"]
                    })
        case .aacADTS:
            return R(fileExtension: "aac", arguments: R.tone() + R.aac + ["-f", "adts"])
        case .ac3:
            return R(
                fileExtension: "ac3",
                arguments: R.tone(sampleRate: 48000) + ["-c:a", "ac3", "-b:a", "96k"])
        case .aiff:
            return R(fileExtension: "aiff", arguments: R.tone() + ["-c:a", "pcm_s16be"])
        case .oggOpus:
            return R(
                fileExtension: "opus",
                arguments: R.tone(sampleRate: 48000) + ["-c:a", "libopus", "-b:a", "48k"])
        case .wav:
            return R(fileExtension: "wav", arguments: R.tone() + ["-c:a", "pcm_s16le"])
        case .wavPack:
            return R(fileExtension: "wv", arguments: R.tone() + ["-c:a", "wavpack"])
        case .flac:
            return R(fileExtension: "flac", arguments: R.tone() + ["-c:a", "flac"])
        case .caf:
            return R(fileExtension: "caf", arguments: R.tone() + ["-c:a", "alac"])
        }
    }

    static let subRipText = """
        1
        00:00:00,000 --> 00:00:01,000
        Hello from Playhead

        2
        00:00:01,000 --> 00:00:02,000
        Second subtitle

        """
}

// MARK: - Building blocks

extension FixtureRecipe {
    /// Two seconds of the `testsrc2` test pattern.
    static func picture(size: String = "320x240", rate: Int = 25) -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=2"]
    }

    /// Two seconds of a mono sine tone.
    static func tone(sampleRate: Int = 44100, frequency: Int = 440) -> [String] {
        ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=2"]
    }

    /// H.264 with B-frames (veryfast preset) and a keyframe every second.
    static let h264 = [
        "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
    ]
    static let aac = ["-c:a", "aac", "-b:a", "64k"]
    static let mp3 = ["-c:a", "libmp3lame", "-b:a", "64k"]
    static let mpeg2 = ["-c:v", "mpeg2video", "-q:v", "5", "-g", "12"]
}
