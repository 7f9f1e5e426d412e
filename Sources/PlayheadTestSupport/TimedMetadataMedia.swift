// Playhead: test media with timed metadata: an MPEG-TS (and an HLS stream cut from it) with a
// timed ID3 stream of song titles, and Shoutcast-style ICY bodies for the loopback server.
import FFmpegBridge
import Foundation

/// Media whose metadata changes as it plays.
public enum TimedMetadataMedia {
    /// The titles the ID3 stream carries and when: one tag each, frames TIT2 and TPE1.
    public static let titles: [(seconds: Double, title: String)] = [
        (0.5, "First song"), (2.0, "Second song"), (4.0, "Third song"),
    ]
    /// The artist every tag names (TPE1).
    public static let artist = "Playhead Ensemble"

    /// A 6 s MPEG-TS (160x120 H.264 at 10 fps, AAC) with a `timed_id3` stream of ``titles``.
    public static func transportStream() throws -> URL {
        try FixtureCache.file(named: "timed-metadata-v2/titles.ts") { output in
            let plain = FixtureCache.scratchFile(named: "titles-plain.ts")
            defer { try? FileManager.default.removeItem(at: plain) }
            try FFmpeg.run(
                sources + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-c:a", "aac", "-f", "mpegts", plain.path])
            let tags = titles.map { entry in
                TimedTag(seconds: entry.seconds, bytes: id3Tag([("TIT2", entry.title), ("TPE1", artist)]))
            }
            do {
                try TimedMetadataMuxer.writeTransportStream(copying: plain.path, adding: tags, to: output.path)
            } catch {
                throw TestSupportError("cannot mux timed ID3: \(error)")
            }
        }
    }

    /// An HLS stream (2 s MPEG-TS segments, the same pictures, sound and titles as
    /// ``transportStream()``), each segment carrying the tags of its stretch, as packagers
    /// write them. Segments are tagged one by one with libavformat's muxer: copying an ID3
    /// stream through the ffmpeg CLI loses the tags' first five bytes.
    public static func hls() throws -> URL {
        try FixtureCache.file(named: "timed-metadata-v3/hls/titles.m3u8") { output in
            let folder = output.deletingLastPathComponent()
            let scratch = FixtureCache.scratchFile(named: "hls")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let plainPlaylist = scratch.appendingPathComponent("plain.m3u8")
            try FFmpeg.run(
                sources + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-c:a", "aac"]
                    + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
                    + ["-hls_segment_filename", scratch.appendingPathComponent("seg%d.ts").path, plainPlaylist.path])
            let playlist = try String(contentsOf: plainPlaylist, encoding: .utf8)
            let lines = playlist.split(separator: "\n").map(String.init)
            do {
                let origin = try TimedMetadataMuxer.startTime(of: scratch.appendingPathComponent("seg0.ts").path)
                var start = 0.0
                for (index, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") {
                    let duration = Double(line.dropFirst(8).split(separator: ",").first ?? "") ?? 0
                    let name = lines[index + 1]
                    let tags = titles.filter { $0.seconds >= start && $0.seconds < start + duration }.map { entry in
                        TimedTag(seconds: entry.seconds, bytes: id3Tag([("TIT2", entry.title), ("TPE1", artist)]))
                    }
                    try TimedMetadataMuxer.writeTransportStream(
                        copying: scratch.appendingPathComponent(name).path, adding: tags,
                        to: folder.appendingPathComponent(name).path, origin: origin ?? 0)
                    start += duration
                }
            } catch {
                throw TestSupportError("cannot mux timed ID3 into the segments: \(error)")
            }
            try Data(playlist.utf8).write(to: output)
        }
    }

    /// The pictures and sound of the timed metadata media (6 s).
    private static let sources = [
        "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=6",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=6",
    ]

    /// 8 s of MP3 at a constant 128 kb/s (16,000 bytes a second), for ICY streams.
    public static func mp3() throws -> URL {
        try FixtureCache.file(named: "timed-metadata-v2/tone.mp3") { output in
            try FFmpeg.run(
                ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=8"]
                    + ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", output.path])
        }
    }

    /// An ID3v2.4 tag of UTF-8 text frames, as HLS packagers write them.
    public static func id3Tag(_ frames: [(id: String, text: String)]) -> [UInt8] {
        var body: [UInt8] = []
        for (id, text) in frames {
            let payload = [3] + Array(text.utf8)  // encoding 3: UTF-8
            body += Array(id.utf8.prefix(4)) + syncSafe(payload.count) + [0, 0] + payload
        }
        return Array("ID3".utf8) + [4, 0, 0] + syncSafe(body.count) + body
    }

    private static func syncSafe(_ value: Int) -> [UInt8] {
        [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7f) }
    }
}

/// Builds the body a Shoutcast/Icecast server sends: audio with a metadata block after every
/// `metaInterval` bytes (a length byte in 16-byte units, then `StreamTitle='…';` padded).
public enum ICYStream {
    /// `audio` with metadata blocks: at each block the title in force is the last of `titles`
    /// whose audio byte offset has been reached (an empty block when it did not change).
    public static func body(audio: Data, metaInterval: Int, titles: [(atByte: Int, title: String)]) -> Data {
        var result = Data()
        var offset = 0
        var announced: String?
        while offset < audio.count {
            let end = min(offset + metaInterval, audio.count)
            result += audio[offset..<end]
            offset = end
            guard end % metaInterval == 0 else { break }  // a block follows full chunks only
            let current = titles.last { $0.atByte <= offset }?.title
            if let current, current != announced {
                announced = current
                var text = Array("StreamTitle='\(current)';".utf8)
                let blocks = (text.count + 15) / 16
                text += [UInt8](repeating: 0, count: blocks * 16 - text.count)
                result.append(UInt8(blocks))
                result += text
            } else {
                result.append(0)
            }
        }
        return result
    }
}
