// Playhead: generated media with EIA-608 closed captions: in H.264 SEI (MP4, and HLS with a
// named caption rendition), in MPEG-2 user data, and as a QuickTime caption track ('c608').
// Concurrency: files are made at most once per machine under FixtureCache's lock.
import Foundation

/// Test media carrying closed captions, made with the ffmpeg CLI and ``ClosedCaptionScript``.
///
/// Each shows ``script``: "Hello world" from 1 s to 2 s, "Second line" from 3 s to 4 s.
public enum CaptionMedia: String, CaseIterable, Sendable {
    /// MP4, 5 s: 160x120 H.264 at 25 fps (no B-frames) with the captions in the SEI of
    /// every picture (padding where nothing is said), and a 440 Hz AAC tone.
    case h264SEI
    /// MPEG-TS, 5 s: 160x120 MPEG-2 video at 25 fps with the captions in the picture user data.
    case mpeg2UserData
    /// QuickTime, 5 s: 160x120 H.264 video and a 'c608' caption track (from an SCC file),
    /// language "eng".
    case quickTimeTrack
    /// HLS: ``h264SEI``'s video and audio remuxed unchanged into MPEG-TS segments
    /// (`hls/media.m3u8`), under a master playlist (`hls/master.m3u8`, the URL) whose variant
    /// names the CLOSED-CAPTIONS group "cc": CC1 named "English", LANGUAGE "en", DEFAULT and
    /// AUTOSELECT, with the two accessibility characteristics. Serve the folder over HTTP.
    case hlsSEI
    /// MP4, 5 s: 160x120 H.264 with no captions (the control).
    case noCaptions
    /// Matroska, 3 s: 160x120 H.264 and two SubRip tracks ("Hi" 1–2 s): the first marked
    /// forced, the second ("eng") marked for the hearing impaired.
    case flaggedSubtitles

    /// The cache sub-folder holding these files.
    public static let folderName = "captions-v1"
    /// The captions' frame rate.
    static let fps = 25.0

    /// The captions every file shows.
    public static let script = ClosedCaptionScript(popOn: [
        (text: "Hello world", start: 1, end: 2), (text: "Second line", start: 3, end: 4),
    ])

    /// Returns the file, making it first when missing.
    public func url() throws -> URL {
        switch self {
        case .h264SEI: return try make("sei.mp4", Self.h264SEI)
        case .mpeg2UserData: return try make("mpeg2.ts", Self.mpeg2)
        case .quickTimeTrack: return try make("c608.mov", Self.quickTime)
        case .hlsSEI: return try make("hls/master.m3u8", Self.hls)
        case .noCaptions: return try make("plain.mp4", Self.plain)
        case .flaggedSubtitles: return try make("flagged.mkv", Self.flagged)
        }
    }

    private func make(_ name: String, _ produce: (URL) throws -> Void) throws -> URL {
        try FixtureCache.file(named: "\(Self.folderName)/\(name)", produce: produce)
    }

    private static let picture = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=5"]
    private static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=5"]

    /// Encodes the picture with `codec` into a raw elementary stream, lets `insert` add the
    /// captions, and muxes the result (with the tone as AAC when `audio`) into `output`.
    private static func elementary(
        _ output: URL, format: String, demuxer: String, codec: [String], audio: Bool,
        insert: ([UInt8]) -> [UInt8]
    ) throws {
        let raw = FixtureCache.scratchFile(named: "video.\(format)")
        let captioned = FixtureCache.scratchFile(named: "captioned.\(format)")
        defer {
            for file in [raw, captioned] { try? FileManager.default.removeItem(at: file) }
        }
        try FFmpeg.run(picture + codec + ["-bf", "0", "-f", format, raw.path])
        try Data(insert(Array(try Data(contentsOf: raw)))).write(to: captioned)
        try FFmpeg.run(
            ["-fflags", "+genpts", "-r", "25", "-f", demuxer, "-i", captioned.path]
                + (audio ? tone + ["-map", "0:v", "-map", "1:a", "-c:a", "aac"] : [])
                + ["-c:v", "copy", output.path])
    }

    private static func h264SEI(_ output: URL) throws {
        try elementary(
            output, format: "h264", demuxer: "h264",
            codec: ["-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "aud=1"],
            audio: true
        ) { script.insertingSEI(into: $0, fps: fps) }
    }

    private static func mpeg2(_ output: URL) throws {
        try elementary(
            output, format: "mpeg2video", demuxer: "mpegvideo", codec: ["-c:v", "mpeg2video", "-g", "12"], audio: false
        ) { script.insertingUserData(into: $0, fps: fps) }
    }

    private static func quickTime(_ output: URL) throws {
        let scc = FixtureCache.scratchFile(named: "captions.scc")
        // The QuickTime muxer leaves out the caption track's last sample (it has no duration):
        // a second "erase displayed memory" after the last one is that sample.
        try Data((script.scc + "00:00:04:15\t942c\n\n").utf8).write(to: scc)
        defer { try? FileManager.default.removeItem(at: scc) }
        try FFmpeg.run(
            picture + ["-f", "scc", "-i", scc.path, "-map", "0:v", "-map", "1:s"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-c:s", "copy"]
                + ["-metadata:s:s:0", "language=eng", output.path])
    }

    private static func flagged(_ output: URL) throws {
        let srt = FixtureCache.scratchFile(named: "hi.srt")
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHi\n\n".utf8).write(to: srt)
        defer { try? FileManager.default.removeItem(at: srt) }
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=3"]
                + ["-i", srt.path, "-i", srt.path, "-map", "0:v", "-map", "1:s", "-map", "2:s"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-c:s", "srt"]
                + ["-disposition:s:0", "forced", "-disposition:s:1", "hearing_impaired"]
                + ["-metadata:s:s:1", "language=eng", output.path])
    }

    /// The master playlist of ``hlsSEI``.
    public static let hlsMasterPlaylist = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1",\
        DEFAULT=YES,AUTOSELECT=YES,\
        CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"
        #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=160x120,CODECS="avc1.42c00c,mp4a.40.2",\
        CLOSED-CAPTIONS="cc"
        media.m3u8

        """

    private static func hls(_ output: URL) throws {
        let folder = output.deletingLastPathComponent()
        let source = try CaptionMedia.h264SEI.url().path
        let segments = folder.appendingPathComponent("seg%d.ts").path
        try FFmpeg.run(
            ["-i", source, "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
                + ["-hls_segment_filename", segments]
                + [folder.appendingPathComponent("media.m3u8").path])
        try Data(hlsMasterPlaylist.utf8).write(to: output)
    }

    private static func plain(_ output: URL) throws {
        try FFmpeg.run(picture + ["-c:v", "libx264", "-preset", "ultrafast", output.path])
    }
}
