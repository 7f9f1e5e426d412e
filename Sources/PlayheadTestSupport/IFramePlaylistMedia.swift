// Playhead: an HLS stream with I-frame playlists, as Apple's packagers write them for trick
// play and scrubbing thumbnails: two MPEG-TS variants (640x360 and 320x180, video and sound,
// a keyframe every second, 4 s segments), each with an `EXT-X-I-FRAMES-ONLY` playlist whose
// segments are the byte ranges of its keyframes (from a keyframe's first TS packet to the
// next video packet's) behind an `EXT-X-MAP` of the first segment's tables (SDT, PAT, PMT).
// FFmpeg's HLS muxer writes no I-frame playlists: they are made here from ffprobe's packet
// positions.
//
// Concurrency: files generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// The I-frame playlist fixture; see the file comment.
public enum IFramePlaylistMedia {
    /// Seconds of media, and of each segment; a keyframe every `keyframeInterval` seconds.
    public static let duration = 8.0
    public static let segmentDuration = 4.0
    public static let keyframeInterval = 1.0
    /// The variants: folder name, width, height, bandwidth.
    public static let variants: [(name: String, width: Int, height: Int, bandwidth: Int)] = [
        ("small", 320, 180, 600_000), ("large", 640, 360, 1_800_000),
    ]

    /// The folder holding `master.m3u8` (`<variant>/index.m3u8`, `<variant>/iframes.m3u8`,
    /// `<variant>/seg<N>.ts`), of `duration` seconds (whole seconds; `duration` by default).
    public static func folder(duration: Double = duration) throws -> URL {
        let name = duration == Self.duration ? "iframe-playlists-v1" : "iframe-playlists-v1-\(Int(duration))s"
        return try FixtureCache.file(named: name) { folder in
            var master = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
            for variant in variants {
                let directory = folder.appendingPathComponent(variant.name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let frames = Int(keyframeInterval * 25)
                try FFmpeg.run([
                    "-f", "lavfi", "-i", "testsrc2=s=\(variant.width)x\(variant.height):r=25:d=\(Int(duration))",
                    "-f", "lavfi", "-i", "sine=f=440:d=\(Int(duration))",
                    "-c:v", "libx264", "-g", "\(frames)", "-keyint_min", "\(frames)", "-sc_threshold", "0", "-bf", "2",
                    "-c:a", "aac", "-f", "hls", "-hls_time", "\(Int(segmentDuration))", "-hls_playlist_type", "vod",
                    "-hls_segment_filename", directory.appendingPathComponent("seg%d.ts").path,
                    directory.appendingPathComponent("index.m3u8").path,
                ])
                try writeIFramePlaylist(in: directory, duration: duration)
                master += [
                    "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height),"
                        + "CODECS=\"avc1.64001e,mp4a.40.2\"",
                    "\(variant.name)/index.m3u8",
                ]
            }
            for variant in variants {
                master.append(
                    "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(variant.bandwidth / 8),RESOLUTION=\(variant.width)x\(variant.height),"
                        + "CODECS=\"avc1.64001e\",URI=\"\(variant.name)/iframes.m3u8\"")
            }
            try Data((master.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        }
    }

    /// The IV every segment of the encrypted copy is encrypted with (stated in its playlists).
    public static let encryptionIV = Data((0..<16).map { UInt8(0x10 + $0) })

    /// ``folder(duration:)`` with every segment encrypted whole with AES-128
    /// (`AdaptiveMedia.key`, served as `key.bin`, and ``encryptionIV``), as a packager
    /// encrypts a stream with I-frame playlists: both playlists of each variant name the key
    /// (the I-frame playlist before its `EXT-X-MAP`), and the I-frame playlists' byte ranges
    /// stay those of the clear segments. The clear segments are kept as `seg<N>.ts.clear`.
    public static func encryptedFolder(duration: Double = duration) throws -> URL {
        let clear = try folder(duration: duration)
        return try FixtureCache.file(named: "iframe-playlists-aes-v1-\(Int(duration))s") { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AdaptiveMedia.key.write(to: folder.appendingPathComponent("key.bin"))
            try FileManager.default.copyItem(
                at: clear.appendingPathComponent("master.m3u8"), to: folder.appendingPathComponent("master.m3u8"))
            let keyLine = "#EXT-X-KEY:METHOD=AES-128,URI=\"../key.bin\",IV=0x\(AES128Files.hex(encryptionIV))"
            for variant in variants {
                let source = clear.appendingPathComponent(variant.name)
                let target = folder.appendingPathComponent(variant.name)
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                for segment in 0..<Int((duration / segmentDuration).rounded(.up)) {
                    let name = "seg\(segment).ts"
                    try AES128Files.encrypt(
                        source.appendingPathComponent(name), to: target.appendingPathComponent(name),
                        key: AdaptiveMedia.key, iv: encryptionIV)
                    try FileManager.default.copyItem(
                        at: source.appendingPathComponent(name), to: target.appendingPathComponent(name + ".clear"))
                }
                for (playlist, before) in [("index.m3u8", "#EXTINF"), ("iframes.m3u8", "#EXT-X-MAP")] {
                    var lines = try String(contentsOf: source.appendingPathComponent(playlist), encoding: .utf8)
                        .components(separatedBy: "\n")
                    guard let first = lines.firstIndex(where: { $0.hasPrefix(before) }) else {
                        throw TestSupportError("\(playlist) has no \(before)")
                    }
                    lines.insert(keyLine, at: first)
                    try lines.joined(separator: "\n").write(
                        to: target.appendingPathComponent(playlist), atomically: true, encoding: .utf8)
                }
            }
        }
    }

    /// The keyframes of the variant's segments in `directory` as `iframes.m3u8`.
    private static func writeIFramePlaylist(in directory: URL, duration: Double) throws {
        var keyframes: [(segment: Int, time: Double, range: Range<Int>)] = []
        var tables = 0
        var origin: Double?
        var segment = 0
        while true {
            let file = directory.appendingPathComponent("seg\(segment).ts")
            guard let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int else { break }
            let packets = try videoPackets(of: file)
            if segment == 0 {
                tables = packets.first?.position ?? 0
                origin = packets.map(\.time).min()
            }
            for (index, packet) in packets.enumerated() where packet.isKey {
                let end = index + 1 < packets.count ? packets[index + 1].position : size
                keyframes.append((segment, packet.time - (origin ?? 0), packet.position..<end))
            }
            segment += 1
        }
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:\(Int(keyframeInterval.rounded(.up)))",
            "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-MAP:URI=\"seg0.ts\",BYTERANGE=\"\(tables)@0\"",
        ]
        for (index, keyframe) in keyframes.enumerated() {
            let next = index + 1 < keyframes.count ? keyframes[index + 1].time : duration
            lines += [
                String(format: "#EXTINF:%.5f,", next - keyframe.time),
                "#EXT-X-BYTERANGE:\(keyframe.range.count)@\(keyframe.range.lowerBound)", "seg\(keyframe.segment).ts",
            ]
        }
        lines.append("#EXT-X-ENDLIST")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("iframes.m3u8"))
    }

    /// The video packets of `file` in file order: byte position, presentation seconds, keyframe.
    private static func videoPackets(of file: URL) throws -> [(position: Int, time: Double, isKey: Bool)] {
        let tool = try Subprocess.tool(named: "ffprobe")
        let result = try Subprocess.run(tool, [
            "-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,pts_time,flags", "-of", "csv=p=0", file.path,
        ])
        guard result.status == 0 else { throw TestSupportError("ffprobe could not read \(file.path): \(result.errorText)") }
        return String(decoding: result.outputData, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let time = Double(fields[0]), let position = Int(fields[1]) else { return nil }
            return (position, time, fields[2].hasPrefix("K"))
        }.sorted { $0.position < $1.position }
    }

    /// The keyframe times of every variant (item seconds): 0, 1, 2, ... up to the end.
    public static var keyframeTimes: [Double] {
        stride(from: 0.0, to: duration, by: keyframeInterval).map { $0 }
    }
}
