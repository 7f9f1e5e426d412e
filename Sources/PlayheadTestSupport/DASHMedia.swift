// Playhead: DASH presentations made with FFmpeg's DASH muxer for tests of Playhead's loader:
// a two-Representation video ladder with an English audio AdaptationSet, addressed by
// `SegmentTemplate` (`$Number$` with a `SegmentTimeline`), and the same presentation in one
// file per Representation addressed by `SegmentList` byte ranges or by `SegmentBase` (a `sidx`
// index).
//
// Concurrency: files generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// DASH fixtures; see the file comment.
public enum DASHMedia {
    /// Seconds of media.
    public static let duration = 6.0
    /// The video Representations, lowest first: id, picture size, target bit rate.
    public static let representations: [(id: String, width: Int, height: Int, bitRate: Int)] = [
        ("0", 160, 90, 200_000), ("1", 320, 180, 800_000),
    ]

    /// The folder holding `template/manifest.mpd` (segments `chunk-stream<ID>-<NNNNN>.m4s`,
    /// initialisation sections `init-stream<ID>.m4s`; Representation 2 is the audio) and
    /// `list/manifest.mpd` (`manifest-stream<ID>.mp4`, one file per Representation), and
    /// `indexed/manifest.mpd` (see `makeIndexed`), and `sound/manifest.mpd` (audio only: two
    /// AAC Representations, Representation 0 at 64 kbit/s and 1 at 128 kbit/s).
    public static func folder() throws -> URL {
        try FixtureCache.file(named: "dash-v3") { folder in
            for (name, extra) in [
                ("template", ["-use_template", "1", "-use_timeline", "1"]), ("list", ["-single_file", "1"]),
            ] {
                let directory = folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                var arguments = [
                    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(duration),noise=alls=20:allf=t",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)",
                    "-map", "0:v", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast",
                    "-pix_fmt", "yuv420p", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                ]
                arguments += ladderArguments(representations)
                arguments += [
                    "-c:a", "aac", "-b:a", "64k", "-metadata:s:a:0", "language=eng", "-f", "dash",
                    "-seg_duration", "1", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                ] + extra + [directory.appendingPathComponent("manifest.mpd").path]
                try FFmpeg.run(arguments)
            }
            try makeIndexed(in: folder.appendingPathComponent("indexed"))
            // Sound only: two AAC Representations (64 and 128 kbit/s) in one AdaptationSet.
            let sound = folder.appendingPathComponent("sound")
            try FileManager.default.createDirectory(at: sound, withIntermediateDirectories: true)
            try FFmpeg.run([
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)",
                "-map", "0:a", "-map", "0:a", "-c:a", "aac", "-b:a:0", "64k", "-b:a:1", "128k", "-f", "dash",
                "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1", "-adaptation_sets", "id=0,streams=a",
                sound.appendingPathComponent("manifest.mpd").path,
            ])
        }
    }

    /// `tiers/manifest.mpd`, 12 s in 2 s `SegmentTemplate` segments: ``representations``'
    /// two video Representations (ids 0 and 1) and one English audio AdaptationSet of two
    /// Representations told apart by their tones: id 2 at 64 kbit/s, 440 Hz, and id 3 at
    /// 128 kbit/s, 660 Hz (AAC, 48 kHz mono).
    public static func tiersFolder() throws -> URL {
        try FixtureCache.file(named: "dash-tiers-v1") { folder in
            let directory = folder.appendingPathComponent("tiers")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var arguments = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=12"]
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12"]
            arguments += ["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=12"]
            arguments += ["-map", "0:v", "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "libx264"]
            arguments += ["-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0"]
            for (index, representation) in representations.enumerated() {
                arguments += ["-b:v:\(index)", "\(representation.bitRate)"]
                arguments += ["-s:v:\(index)", "\(representation.width)x\(representation.height)"]
            }
            arguments += ["-c:a", "aac", "-ac", "1", "-b:a:0", "64k", "-b:a:1", "128k"]
            arguments += ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=eng", "-f", "dash"]
            arguments += ["-seg_duration", "2", "-use_template", "1", "-use_timeline", "1"]
            arguments += ["-adaptation_sets", "id=0,streams=v id=1,streams=a"]
            arguments += [directory.appendingPathComponent("manifest.mpd").path]
            try FFmpeg.run(arguments)
        }
    }

    /// `languages/manifest.mpd`, 12 s of sound only in 2 s `SegmentTemplate` segments, in two
    /// AdaptationSets: English (`lang="eng"`, listed first) of two Representations, ids 0 and
    /// 1 (64 and 128 kbit/s, 440 Hz), and French (`lang="fra"`) of one, id 2 (64 kbit/s,
    /// 880 Hz); AAC, 48 kHz mono.
    public static func languagesFolder() throws -> URL {
        try FixtureCache.file(named: "dash-languages-v1") { folder in
            let directory = folder.appendingPathComponent("languages")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var arguments = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12"]
            arguments += ["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=12"]
            arguments += ["-map", "0:a", "-map", "0:a", "-map", "1:a", "-c:a", "aac", "-ac", "1"]
            arguments += ["-b:a:0", "64k", "-b:a:1", "128k", "-b:a:2", "64k"]
            arguments += ["-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=eng"]
            arguments += ["-metadata:s:a:2", "language=fra", "-f", "dash", "-seg_duration", "2"]
            arguments += ["-use_template", "1", "-use_timeline", "1", "-adaptation_sets", "id=0,streams=0,1 id=1,streams=2"]
            arguments += [directory.appendingPathComponent("manifest.mpd").path]
            try FFmpeg.run(arguments)
        }
    }

    /// The video Representation of the introduction Period of `periods/manifest.mpd`.
    public static let introduction = (width: 240, height: 136, bitRate: 300_000, seconds: 4.0)

    /// `periods/manifest.mpd`: two Periods, each made by FFmpeg's DASH muxer on its own
    /// timestamps from zero, in 2 s `SegmentTemplate` segments: an introduction
    /// (``introduction``: one video Representation, an 880 Hz English sound; files under
    /// `intro/`) and then the programme, 8 s of ``representations``' two video Representations
    /// with a 440 Hz English sound (files under `programme/`). The first Period states its
    /// duration; the second its start.
    public static func periodsFolder() throws -> URL {
        try FixtureCache.file(named: "dash-periods-v1") { folder in
            let directory = folder.appendingPathComponent("periods")
            var periods: [String] = []
            let parts: [(String, Double, Int, [(Int, Int, Int)])] = [
                ("intro", introduction.seconds, 880, [(introduction.width, introduction.height, introduction.bitRate)]),
                ("programme", 8.0, 440, representations.map { ($0.width, $0.height, $0.bitRate) }),
            ]
            for (name, seconds, tone, ladder) in parts {
                let part = directory.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: part, withIntermediateDirectories: true)
                var arguments = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(seconds)"]
                arguments += ["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=\(seconds)"]
                arguments += ladder.flatMap { _ in ["-map", "0:v"] } + ["-map", "1:a", "-c:v", "libx264"]
                arguments += ["-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0"]
                for (index, (width, height, rate)) in ladder.enumerated() {
                    arguments += ["-b:v:\(index)", "\(rate)", "-s:v:\(index)", "\(width)x\(height)"]
                }
                arguments += ["-c:a", "aac", "-ac", "1", "-b:a", "64k", "-metadata:s:a:0", "language=eng", "-f", "dash"]
                arguments += ["-seg_duration", "2", "-use_template", "1", "-use_timeline", "1"]
                arguments += ["-adaptation_sets", "id=0,streams=v id=1,streams=a", part.appendingPathComponent("part.mpd").path]
                try FFmpeg.run(arguments)
                // The muxer's Period, its AdaptationSets kept, under a BaseURL of its folder.
                let text = try String(contentsOf: part.appendingPathComponent("part.mpd"), encoding: .utf8)
                guard let open = text.range(of: "<Period"), let body = text[open.upperBound...].firstIndex(of: ">"),
                    let close = text.range(of: "</Period>")
                else { throw CocoaError(.fileReadCorruptFile) }
                let timing = periods.isEmpty ? "duration=\"PT\(seconds)S\"" : "start=\"PT\(introduction.seconds)S\""
                periods.append(
                    "<Period id=\"\(name)\" \(timing)>\n<BaseURL>\(name)/</BaseURL>"
                        + text[text.index(after: body)..<close.lowerBound] + "</Period>")
            }
            let manifest = """
                <?xml version="1.0" encoding="utf-8"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT12S" \
                minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
                \(periods.joined(separator: "\n"))
                </MPD>

                """
            try manifest.write(to: directory.appendingPathComponent("manifest.mpd"), atomically: true, encoding: .utf8)
        }
    }

    /// The text of `periods/manifest.mpd` with the introduction's Period cut to `seconds` (its
    /// last segment then holds media past the Period's end) and the programme's starting there;
    /// serve it from the `periods` folder.
    public static func periodsManifest(introductionEndingAt seconds: Double) throws -> String {
        let text = try String(
            contentsOf: periodsFolder().appendingPathComponent("periods/manifest.mpd"), encoding: .utf8)
        let whole = introduction.seconds
        return text.replacingOccurrences(of: "duration=\"PT\(whole)S\"", with: "duration=\"PT\(seconds)S\"")
            .replacingOccurrences(of: "start=\"PT\(whole)S\"", with: "start=\"PT\(seconds)S\"")
            .replacingOccurrences(
                of: "mediaPresentationDuration=\"PT12S\"", with: "mediaPresentationDuration=\"PT\(seconds + 8)S\"")
    }

    /// FFmpeg's output options giving each of `ladder`'s video streams (in order) its bit rate,
    /// held to it, and its size.
    static func ladderArguments(_ ladder: [(id: String, width: Int, height: Int, bitRate: Int)]) -> [String] {
        ladder.enumerated().flatMap { index, representation in
            [
                "-b:v:\(index)", "\(representation.bitRate)", "-maxrate:v:\(index)", "\(representation.bitRate)",
                "-bufsize:v:\(index)", "\(representation.bitRate)", "-s:v:\(index)", "\(representation.width)x\(representation.height)",
            ]
        }
    }

    /// Seconds of media in the long ladder.
    public static let longDuration = 40.0

    /// `long/manifest.mpd`: the HLS ladder's three variants (``AdaptiveMedia/variants``: sizes
    /// and bit rates) as one DASH AdaptationSet, Representations `0`, `1`, `2` lowest first,
    /// with the audio as Representation `3`; 40 s in 2 s `SegmentTemplate` segments (for real
    /// time runs on a bandwidth schedule).
    public static func longFolder() throws -> URL {
        try FixtureCache.file(named: "dash-long-v1") { folder in
            let directory = folder.appendingPathComponent("long")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let top = AdaptiveMedia.variants.last!
            var arguments = [
                "-f", "lavfi", "-i",
                "testsrc2=size=\(top.width)x\(top.height):rate=25:duration=\(longDuration),noise=alls=20:allf=t",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(longDuration)",
            ]
            arguments += AdaptiveMedia.variants.flatMap { _ in ["-map", "0:v"] } + ["-map", "1:a"]
            arguments += [
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "50", "-keyint_min", "50",
                "-sc_threshold", "0",
            ]
            for (index, variant) in AdaptiveMedia.variants.enumerated() {
                // As the HLS ladder: the stated bandwidth covers video, audio and overhead.
                let rate = variant.bandwidth * 8 / 10 - 64_000
                arguments += [
                    "-b:v:\(index)", "\(rate)", "-maxrate:v:\(index)", "\(rate)", "-bufsize:v:\(index)", "\(rate)",
                    "-s:v:\(index)", "\(variant.width)x\(variant.height)",
                ]
            }
            arguments += [
                "-c:a", "aac", "-b:a", "64k", "-f", "dash", "-seg_duration", "2", "-use_template", "1",
                "-use_timeline", "1", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                directory.appendingPathComponent("manifest.mpd").path,
            ]
            try FFmpeg.run(arguments)
        }
    }

    /// `indexed/manifest.mpd`: the same presentation as on-demand DASH: one fragmented MP4 a
    /// Representation (`low.mp4`, `high.mp4`, `audio.mp4`), each with a global `sidx` box after
    /// its `moov`, addressed by `SegmentBase` (`indexRange` and `Initialization` found by
    /// walking the file's top-level boxes).
    static func makeIndexed(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fragmented = [
            "-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx", "-frag_duration", "1000000",
        ]
        var entries: [String] = []
        for (name, representation) in zip(["low", "high"], representations) {
            let file = directory.appendingPathComponent("\(name).mp4")
            try FFmpeg.run([
                "-f", "lavfi", "-i",
                "testsrc2=size=\(representation.width)x\(representation.height):rate=25:duration=\(duration),noise=alls=20:allf=t",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "25", "-keyint_min", "25",
                "-sc_threshold", "0", "-b:v", "\(representation.bitRate)", "-maxrate", "\(representation.bitRate)",
                "-bufsize", "\(representation.bitRate)",
            ] + fragmented + [file.path])
            entries.append(
                "<AdaptationSet contentType=\"video\"><Representation id=\"\(name)\" bandwidth=\"\(representation.bitRate)\" "
                    + "width=\"\(representation.width)\" height=\"\(representation.height)\">"
                    + "<BaseURL>\(name).mp4</BaseURL>\(try segmentBase(of: file))</Representation></AdaptationSet>")
        }
        let audio = directory.appendingPathComponent("audio.mp4")
        try FFmpeg.run(
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)", "-c:a", "aac", "-b:a", "64k"]
                + fragmented + [audio.path])
        entries.append(
            "<AdaptationSet contentType=\"audio\" lang=\"en\"><Representation id=\"audio\" bandwidth=\"64000\">"
                + "<BaseURL>audio.mp4</BaseURL>\(try segmentBase(of: audio))</Representation></AdaptationSet>")
        // Both video Representations in one AdaptationSet.
        let video = entries[0].replacingOccurrences(of: "</AdaptationSet>", with: "")
            + entries[1].replacingOccurrences(of: "<AdaptationSet contentType=\"video\">", with: "")
        let manifest = """
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(Int(duration))S" \
            profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
            <Period>
            \(video)
            \(entries[2])
            </Period>
            </MPD>

            """
        try manifest.write(to: directory.appendingPathComponent("manifest.mpd"), atomically: true, encoding: .utf8)
    }

    /// The `SegmentBase` element of a fragmented MP4 whose `sidx` box follows its `moov`.
    private static func segmentBase(of file: URL) throws -> String {
        let data = try Data(contentsOf: file)
        var offset = 0
        var moovEnd: Int?
        while offset + 8 <= data.count {
            let size = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard size >= 8 else { break }
            if type == "moov" { moovEnd = offset + size }
            if type == "sidx", let moovEnd {
                return "<SegmentBase indexRange=\"\(offset)-\(offset + size - 1)\">"
                    + "<Initialization range=\"0-\(moovEnd - 1)\"/></SegmentBase>"
            }
            offset += size
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
