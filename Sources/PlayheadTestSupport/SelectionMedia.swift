// Playhead: generated media for media-selection tests: two audio languages, embedded
// subtitles (SubRip, ASS, mov_text), chapters and subtitle files beside the media.
// Concurrency: files are made at most once per machine under FixtureCache's lock.
import Foundation

/// Test media for audio-track switching, subtitles and chapters, made with the ffmpeg CLI and
/// cached like the other fixtures.
public enum SelectionMedia: String, CaseIterable, Sendable {
    /// Matroska, 6 s: 160x120 video; audio 440 Hz "eng" (default) and 880 Hz "fre"
    /// (pcm_s16le, 48 kHz mono); SubRip "eng" and ASS "fre" subtitles (cues 1–2 s and 3–4 s);
    /// chapters "Opening" (0–2 s) and "Finale" (2–6 s).
    case film
    /// Matroska, 8 s, audio only: 440 Hz "eng" (default) and 880 Hz "fre" (pcm_s16le, 48 kHz mono).
    case twoLanguagesAudio
    /// MP4, 5 s: video, AAC and a mov_text "eng" subtitle track (cues 1–2 s and 3–4 s).
    case movText
    /// Matroska, 5 s, audio only (440 Hz), in a folder with `clip.srt`, `clip.fr.vtt`, and
    /// `other.srt` (which belongs to no media).
    case sidecarClip
    /// Matroska, 5 s: 320x240 video and DVD (bitmap) subtitles: an opaque 120x20 box at
    /// (100, 180) from 1 s to about 3 s, and a 120x20 box at (40, 20) from 3 s to 4 s.
    case dvdSubtitles
    /// MPEG-TS, 5 s: the same pictures as ``dvdSubtitles`` as DVB subtitles.
    case dvbSubtitles
    /// Matroska, 5 s: 320x240 video and a PGS (`hdmv_pgs_subtitle`) track, language "jpn",
    /// written by hand (``PGSSubtitleBytes``): a 640x480 presentation with a 240x40 picture
    /// at (160, 360), opaque red, translucent blue and transparent columns, from 1 s to 3 s.
    case pgsSubtitles
    /// An HLS master playlist (6 s, 2 s segments, MPEG-TS video and AAC) with one WebVTT
    /// subtitle rendition, LANGUAGE "en", holding ``subRip``'s cues.
    case hlsWithSubtitles
    /// An HLS master playlist (6 s, 2 s segments, MPEG-TS) whose variant carries the video and
    /// names an audio group of two renditions of their own: 440 Hz "en" (DEFAULT=YES) and
    /// 880 Hz "fr" (AAC, 48 kHz).
    case hlsAudioRenditions
    /// ``hlsAudioRenditions`` 20 s long (ten segments a playlist), in a folder of its own.
    case hlsLongAudioRenditions
    /// An HLS master playlist at the folder's top, `muxed-audio.m3u8`, over the files of
    /// ``hlsWithSubtitles`` and ``hlsAudioRenditions``: its variant (``hlsWithSubtitles``'s)
    /// carries video and 440 Hz sound, the audio group's DEFAULT=YES rendition "English"
    /// (LANGUAGE "en", no URI: the variant's own sound); a second rendition "Français"
    /// (LANGUAGE "fr") is ``hlsAudioRenditions``'s 880 Hz playlist.
    case hlsMuxedAudioRendition
    /// Matroska, 5 s: 160x120 video and two SubRip tracks holding ``subRip``'s cues, "eng"
    /// (not flagged default) then "fre", flagged default (`-disposition:s:1 default`).
    case secondSubtitleDefault
    /// An HLS master playlist (12 s, 2 s segments, MPEG-TS) with tiered audio groups: variant
    /// 160x120 at 300 kb/s names group "lo", 320x240 at 900 kb/s group "hi"; each group lists
    /// "English" (LANGUAGE "en", DEFAULT=YES) and "Français" ("fr") with playlists of their
    /// own, told apart by their tones: "lo" 440 Hz English and 880 Hz French, "hi" 660 Hz
    /// English and 1320 Hz French (AAC, 48 kHz mono).
    case hlsTieredAudio
    /// An HLS master playlist (6 s, 2 s MPEG-TS segments) whose one variant carries video and
    /// two audio streams, 440 Hz tagged "eng" then 880 Hz tagged "fre" (AAC, 48 kHz mono), and
    /// names both as renditions without a URI, listed the other way round: "Français"
    /// (LANGUAGE "fr") first, then "English" (LANGUAGE "en", DEFAULT=YES).
    case hlsTwoCarriedAudioRenditions

    /// The cache sub-folder holding these files.
    public static let folderName = "selection-v1"

    /// The text of the SubRip track and sidecar: "<b>Hello</b> world" 1–2 s, "Second line" 3–4 s.
    public static let subRip = """
        1
        00:00:01,000 --> 00:00:02,000
        <b>Hello</b> world

        2
        00:00:03,000 --> 00:00:04,000
        Second line

        """

    /// The WebVTT sidecar: "Bonjour" 0.5–1.5 s.
    public static let webVTT = """
        WEBVTT

        00:00:00.500 --> 00:00:01.500
        Bonjour

        """

    /// The ASS track: italic "Bonjour" and red "rouge" 1–2 s; "Au milieu" at the centre
    /// (`\\pos(320,240)` of 640x480) in the bold yellow top-aligned style "Loud" 3–4 s.
    public static let ass = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 480

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1
        Style: Loud,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,2,0,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}Bonjour{\\i0} {\\c&H0000FF&}rouge
        Dialogue: 0,0:00:03.00,0:00:04.00,Loud,,0,0,0,,{\\pos(320,240)}Au milieu

        """

    static let chapters = """
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=2000
        title=Opening
        [CHAPTER]
        TIMEBASE=1/1000
        START=2000
        END=6000
        title=Finale

        """

    /// Returns the file, making it (and its folder's sidecar files) first when missing.
    public func url() throws -> URL {
        switch self {
        case .film: return try make("film/film.mkv", film)
        case .twoLanguagesAudio: return try make("audio/two-languages.mkv", twoLanguages)
        case .movText: return try make("movtext/movtext.mp4", movText)
        case .dvdSubtitles:
            return try make("bitmap/dvd.mkv") { try bitmapSubtitles($0, codec: "copy") }
        case .dvbSubtitles:
            return try make("bitmap/dvb.ts") { try bitmapSubtitles($0, codec: "dvbsub") }
        case .pgsSubtitles: return try make("bitmap/pgs.mkv", pgsSubtitles)
        case .hlsWithSubtitles: return try make("hls/master.m3u8", hls)
        case .hlsAudioRenditions: return try make("hls-audio/master.m3u8") { try hlsAudioRenditions($0, seconds: 6) }
        case .hlsLongAudioRenditions:
            return try make("hls-audio-long/master.m3u8") { try hlsAudioRenditions($0, seconds: 20) }
        case .hlsMuxedAudioRendition:
            _ = try Self.hlsWithSubtitles.url()
            _ = try Self.hlsAudioRenditions.url()
            return try make("muxed-audio.m3u8") { output in
                let text = [
                    "#EXTM3U",
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES"#,
                    #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="hls-audio/out_2.m3u8""#,
                    #"#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="aud""#,
                    "hls/out_0.m3u8",
                ].joined(separator: "\n")
                try Data((text + "\n").utf8).write(to: output)
            }
        case .secondSubtitleDefault: return try make("default/second-default.mkv", secondDefault)
        case .hlsTieredAudio: return try make("hls-tiers/master.m3u8", hlsTieredAudio)
        case .hlsTwoCarriedAudioRenditions: return try make("hls-carried/master.m3u8", hlsTwoCarriedAudio)
        case .sidecarClip:
            let clip = try make("sidecar/clip.mkv") { output in
                try FFmpeg.run(Self.tone(440, seconds: 5) + ["-c:a", "pcm_s16le", output.path])
            }
            let folder = clip.deletingLastPathComponent()
            for (name, text) in [
                ("clip.srt", Self.subRip), ("clip.fr.vtt", Self.webVTT), ("other.srt", Self.subRip),
            ] {
                let file = folder.appendingPathComponent(name)
                if !FileManager.default.fileExists(atPath: file.path) {
                    try Data(text.utf8).write(to: file, options: .atomic)
                }
            }
            return clip
        }
    }

    private func make(_ name: String, _ produce: (URL) throws -> Void) throws -> URL {
        try FixtureCache.file(named: "\(Self.folderName)/\(name)", produce: produce)
    }

    private static func tone(_ frequency: Int, seconds: Int) -> [String] {
        ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)"]
    }

    private static func scratch(_ text: String, _ name: String) throws -> URL {
        let file = FixtureCache.scratchFile(named: name)
        try Data(text.utf8).write(to: file)
        return file
    }

    private func film(_ output: URL) throws {
        let srt = try Self.scratch(Self.subRip, "s.srt")
        let ass = try Self.scratch(Self.ass, "s.ass")
        let chapters = try Self.scratch(Self.chapters, "chapters.txt")
        defer {
            for file in [srt, ass, chapters] { try? FileManager.default.removeItem(at: file) }
        }
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=6"]
                + Self.tone(440, seconds: 6) + Self.tone(880, seconds: 6)
                + ["-i", srt.path, "-i", ass.path, "-i", chapters.path]
                + [
                    "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s", "-map", "4:s",
                    "-map_chapters", "5",
                ]
                + [
                    "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", "-c:s:0", "srt",
                    "-c:s:1", "ass",
                ]
                + ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre"]
                + [
                    "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
                    output.path,
                ])
    }

    private func bitmapSubtitles(_ output: URL, codec: String) throws {
        let stream = FixtureCache.scratchFile(named: "spu.mpg")
        try Data(DVDSubtitleBytes.programStream()).write(to: stream)
        defer { try? FileManager.default.removeItem(at: stream) }
        try FFmpeg.run(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=5", "-f", "mpeg", "-i",
                stream.path,
            ]
                + [
                    "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-preset", "ultrafast", "-c:s",
                    codec,
                ]
                + ["-copyts", output.path])
    }

    private func pgsSubtitles(_ output: URL) throws {
        let stream = FixtureCache.scratchFile(named: "pgs.sup")
        try Data(PGSSubtitleBytes.stream()).write(to: stream)
        defer { try? FileManager.default.removeItem(at: stream) }
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=5", "-f", "sup"]
                + ["-i", stream.path, "-map", "0:v", "-map", "1:s"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-c:s", "copy"]
                + ["-metadata:s:s:0", "language=jpn", "-copyts", output.path])
    }

    private func hls(_ output: URL) throws {
        let srt = try Self.scratch(Self.subRip, "s.srt")
        defer { try? FileManager.default.removeItem(at: srt) }
        let folder = output.deletingLastPathComponent()
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=6"]
                + Self.tone(440, seconds: 6)
                + ["-i", srt.path, "-map", "0:v", "-map", "1:a", "-map", "2:s"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "webvtt"]
                + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
                + ["-master_pl_name", output.lastPathComponent]
                + ["-var_stream_map", "v:0,a:0,s:0,sgroup:subs,language:en"]
                + [folder.appendingPathComponent("out_%v.m3u8").path])
    }

    private func hlsAudioRenditions(_ output: URL, seconds: Int) throws {
        let folder = output.deletingLastPathComponent()
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=\(seconds)"]
                + Self.tone(440, seconds: seconds) + Self.tone(880, seconds: seconds)
                + ["-map", "0:v", "-map", "1:a", "-map", "2:a"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "20", "-c:a", "aac", "-ac", "1"]
                + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
                + ["-master_pl_name", output.lastPathComponent]
                + ["-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,language:en,default:yes a:1,agroup:aud,language:fr"]
                + [folder.appendingPathComponent("out_%v.m3u8").path])
    }

    private func hlsTwoCarriedAudio(_ output: URL) throws {
        let folder = output.deletingLastPathComponent()
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=6"]
                + Self.tone(440, seconds: 6) + Self.tone(880, seconds: 6)
                + ["-map", "0:v", "-map", "1:a", "-map", "2:a"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "20", "-c:a", "aac", "-ac", "1"]
                + ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre"]
                + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
                + ["-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path]
                + [folder.appendingPathComponent("index.m3u8").path])
        let text = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES"#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES"#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="aud""#,
            "index.m3u8",
        ].joined(separator: "\n")
        try Data((text + "\n").utf8).write(to: output)
    }

    private func hlsTieredAudio(_ output: URL) throws {
        let folder = output.deletingLastPathComponent()
        var arguments: [String] = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=12"]
        arguments += ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=12"]
        for frequency in [440, 880, 660, 1320] { arguments += Self.tone(frequency, seconds: 12) }
        arguments += ["-map", "0:v", "-map", "1:v", "-map", "2:a", "-map", "3:a", "-map", "4:a", "-map", "5:a"]
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-g", "20", "-c:a", "aac", "-ac", "1"]
        arguments += ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
        arguments += ["-var_stream_map", "v:0 v:1 a:0 a:1 a:2 a:3", folder.appendingPathComponent("out_%v.m3u8").path]
        try FFmpeg.run(arguments)
        let text = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="out_2.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="out_3.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="out_4.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="out_5.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=160x120,AUDIO="lo""#,
            "out_0.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x240,AUDIO="hi""#,
            "out_1.m3u8",
        ].joined(separator: "\n")
        try Data((text + "\n").utf8).write(to: output)
    }

    private func secondDefault(_ output: URL) throws {
        let srt = try Self.scratch(Self.subRip, "s.srt")
        defer { try? FileManager.default.removeItem(at: srt) }
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=5", "-i", srt.path, "-i", srt.path]
                + ["-map", "0:v", "-map", "1:s", "-map", "2:s", "-c:v", "libx264", "-preset", "ultrafast"]
                + ["-c:s", "srt", "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre"]
                + ["-disposition:s:0", "0", "-disposition:s:1", "default", output.path])
    }

    private func twoLanguages(_ output: URL) throws {
        try FFmpeg.run(
            Self.tone(440, seconds: 8) + Self.tone(880, seconds: 8)
                + ["-map", "0:a", "-map", "1:a", "-c:a", "pcm_s16le"]
                + [
                    "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre",
                    output.path,
                ])
    }

    private func movText(_ output: URL) throws {
        let srt = try Self.scratch(Self.subRip, "s.srt")
        defer { try? FileManager.default.removeItem(at: srt) }
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=5"]
                + Self.tone(440, seconds: 5)
                + ["-i", srt.path, "-map", "0:v", "-map", "1:a", "-map", "2:s"]
                + ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "mov_text"]
                + ["-metadata:s:s:0", "language=eng", output.path])
    }
}
