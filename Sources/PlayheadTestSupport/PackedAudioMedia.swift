// Playhead: HLS packed audio for tests of Playhead's loader: a two-variant ladder of raw AAC
// (ADTS), MP3 or AC-3 segments, each led by an ID3 tag whose PRIV frame carries its 90 kHz
// timestamp (`com.apple.streaming.transportStreamTimestamp`), as Apple's packagers write
// audio-only streams. FFmpeg's HLS muxer writes MPEG-TS only, so the segments are cut by its
// segment muxer (MP3 without a Xing frame, which would have each segment's start trimmed as
// encoder delay) and tagged here. The pitch steps every second, so where a sound plays can be heard;
// the tags also name the song playing (a TIT2 frame), as a radio station's do.
//
// Concurrency: files generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// Packed-audio HLS fixtures; see the file comment.
public enum PackedAudioMedia {
    /// The codecs packed audio comes in, each with its segments' name extension.
    public enum Codec: String, CaseIterable, Sendable {
        /// AAC in ADTS, MP3, AC-3, E-AC-3 (named by their segments' file extensions).
        case aac, mp3, ac3, ec3

        /// The samples each frame holds.
        public var samplesPerFrame: Int {
            switch self {
            case .aac: return 1024
            case .mp3: return 1152
            case .ac3, .ec3: return 1536
            }
        }

        /// FFmpeg's encoder, its segment format (and options), and the playlist's CODECS.
        var encoding: (encoder: String, format: [String], codecs: String) {
            switch self {
            case .aac: return ("aac", ["-segment_format", "adts"], "mp4a.40.2")
            case .mp3:
                return ("libmp3lame", ["-segment_format", "mp3", "-segment_format_options", "write_xing=0"], "mp4a.40.34")
            case .ac3: return ("ac3", ["-segment_format", "ac3"], "ac-3")
            case .ec3: return ("eac3", ["-segment_format", "eac3"], "ec-3")
            }
        }
    }

    /// Seconds of sound.
    public static let duration = 6
    /// The variants, lowest first: folder name and AAC bit rate.
    public static let variants: [(name: String, bitRate: Int)] = [("low", 48_000), ("high", 128_000)]
    /// The sample rate (mono).
    public static let sampleRate = 44_100

    /// The pitch of second `second` of the sound: 200 Hz, then 100 Hz more each second.
    public static func pitch(atSecond second: Int) -> Double { Double(200 + 100 * second) }

    /// The song each segment's tag names: "First song" for the first two, then "Second song".
    public static func title(ofSegment index: Int) -> String { index < 2 ? "First song" : "Second song" }

    /// The folder holding `master.m3u8` (both variants, `low/index.m3u8` and
    /// `high/index.m3u8`, of about 2 s segments `seg<N>.aac`, `.mp3`, `.ac3` or `.ec3` by `codec`).
    public static func folder(_ codec: Codec = .aac) throws -> URL {
        try FixtureCache.file(named: codec == .aac ? "packed-audio-v2" : "packed-audio-\(codec.rawValue)-v1") { folder in
            var lines = ["#EXTM3U"]
            for variant in variants {
                let directory = folder.appendingPathComponent(variant.name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try FFmpeg.run([
                    "-f", "lavfi", "-i",
                    "aevalsrc=exprs=sin(2*PI*(200+100*floor(t))*t):s=\(sampleRate):d=\(duration)",
                    // (Mapped by hand: the segment muxer picks no stream for E-AC-3 by itself.)
                    "-map", "0:a", "-c:a", codec.encoding.encoder, "-b:a", "\(variant.bitRate)", "-f", "segment", "-segment_time", "2",
                ] + codec.encoding.format + [directory.appendingPathComponent("raw%d.\(codec.rawValue)").path])
                try writePlaylist(in: directory, codec: codec, origin: 10)
                lines += [
                    "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bitRate * 5 / 4),CODECS=\"\(codec.encoding.codecs)\"",
                    "\(variant.name)/index.m3u8",
                ]
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        }
    }

    /// How far after the first picture the sound of `videoWithAudioRendition()` starts on
    /// their shared clock (seconds).
    public static let renditionLead = 0.5

    /// The folder holding `master.m3u8`: one MPEG-TS video variant (`video/index.m3u8`, 6 s of
    /// 30 fps pictures with B-frames, 2 s segments) whose AAC audio rendition
    /// (`audio/index.m3u8`) is packed audio, its tags' timestamps on the video's PTS clock
    /// with the sound starting `renditionLead` after the first picture (as a packager that
    /// cuts the audio elsewhere writes it). Its playlist starts at zero all the same.
    public static func videoWithAudioRendition() throws -> URL {
        try FixtureCache.file(named: "packed-audio-rendition-v1") { folder in
            let video = folder.appendingPathComponent("video")
            let audio = folder.appendingPathComponent("audio")
            for directory in [video, audio] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try FFmpeg.run([
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=\(duration)", "-c:v", "libx264", "-bf", "2", "-g", "60",
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                "-hls_segment_filename", video.appendingPathComponent("seg%d.ts").path,
                video.appendingPathComponent("index.m3u8").path,
            ])
            let firstPicture = try FFprobe.startTime(of: video.appendingPathComponent("seg0.ts"))
            try FFmpeg.run([
                "-f", "lavfi", "-i",
                "aevalsrc=exprs=sin(2*PI*(200+100*floor(t))*t):s=\(sampleRate):d=\(duration)",
                "-map", "0:a", "-c:a", "aac", "-b:a", "64000", "-f", "segment", "-segment_time", "2",
                "-segment_format", "adts", audio.appendingPathComponent("raw%d.aac").path,
            ])
            try writePlaylist(in: audio, codec: .aac, origin: firstPicture + renditionLead)
            let master = [
                "#EXTM3U",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8\"",
                "#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS=\"avc1.64000d,mp4a.40.2\",AUDIO=\"aud\"",
                "video/index.m3u8",
            ]
            try Data((master.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        }
    }

    /// Tags the raw segments in `directory` (`raw<N>.<ext>`) into `seg<N>.<ext>` and lists them,
    /// the first timestamp `origin` seconds (as an encoder's clock gives it).
    private static func writePlaylist(in directory: URL, codec: Codec, origin: Double) throws {
        let ext = codec.rawValue
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:3", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD"]
        var start = 0.0
        var index = 0
        while true {
            let rawURL = directory.appendingPathComponent("raw\(index).\(ext)")
            guard let raw = FileManager.default.contents(atPath: rawURL.path) else { break }
            // (The segment muxer may leave a last file of a few hundred bytes, no whole frame.)
            let frames = codec == .aac
                ? adtsFrameCount(raw) : raw.count < 1_024 ? 0 : try FFprobe.packetCount(of: rawURL)
            if frames > 0 {
                let seconds = Double(frames * codec.samplesPerFrame) / Double(sampleRate)
                let tagged = id3Tag(timestamp: UInt64(((origin + start) * 90_000).rounded()), title: title(ofSegment: index)) + raw
                try tagged.write(to: directory.appendingPathComponent("seg\(index).\(ext)"))
                lines += [String(format: "#EXTINF:%.6f,", seconds), "seg\(index).\(ext)"]
                start += seconds
            }
            try FileManager.default.removeItem(at: rawURL)
            index += 1
        }
        lines.append("#EXT-X-ENDLIST")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("index.m3u8"))
    }

    /// How many ADTS frames `data` holds (each header's 13-bit frame length leads to the next).
    static func adtsFrameCount(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        var offset = 0
        var count = 0
        while offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 {
            let length = (Int(bytes[offset + 3] & 0x03) << 11) | (Int(bytes[offset + 4]) << 3) | Int(bytes[offset + 5] >> 5)
            guard length >= 7 else { break }
            offset += length
            count += 1
        }
        return count
    }

    /// An ID3v2.4 tag holding a PRIV frame with the 33-bit 90 kHz `timestamp` and a TIT2 frame
    /// with `title` (UTF-8).
    public static func id3Tag(timestamp: UInt64, title: String) -> Data {
        func syncsafe(_ value: Int) -> [UInt8] {
            [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
        }
        let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        let stamp = (0..<8).map { UInt8((timestamp >> (8 * (7 - $0))) & 0xFF) }
        let priv = Array("PRIV".utf8) + syncsafe(owner.count + 8) + [0, 0] + owner + stamp
        let text = [UInt8(3)] + Array(title.utf8)
        let tit2 = Array("TIT2".utf8) + syncsafe(text.count) + [0, 0] + text
        return Data(Array("ID3".utf8) + [4, 0, 0] + syncsafe(priv.count + tit2.count) + priv + tit2)
    }
}
