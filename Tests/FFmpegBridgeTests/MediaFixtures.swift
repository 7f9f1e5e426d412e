import FFmpegBridge
// Playhead: small media files made with the ffmpeg CLI for the FFmpegBridge tests.
import Foundation
import PlayheadTestSupport
import Testing

// Concurrency: each fixture is a `static let`, made once (thread-safe lazy initialisation)
// in a per-process temporary directory, and only read afterwards.

enum MediaFixtures {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "playhead-bridge-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// 3 s of 320×240 H.264 (GOP 30, B-frames) at 30 fps with 440 Hz mono AAC, in MP4.
    static let h264MP4: URL = make(
        "h264.mp4",
        [
            "-f", "lavfi", "-i", "testsrc2=d=3:s=320x240:r=30", "-f", "lavfi", "-i",
            "sine=f=440:d=3",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a",
            "aac",
        ])

    /// 2 s of 160×120 VP9 at 25 fps with stereo Opus at 48 kHz, in WebM.
    static let vp9WebM: URL = make(
        "vp9.webm",
        [
            "-f", "lavfi", "-i", "testsrc2=d=2:s=160x120:r=25", "-f", "lavfi",
            "-i", "sine=f=440:d=2:sample_rate=48000", "-ac", "2",
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25",
            "-c:a", "libopus",
        ])

    /// 2 s of 192×108 H.264 with FLAC audio, in Matroska.
    static let h264MKV: URL = make(
        "h264.mkv",
        [
            "-f", "lavfi", "-i", "testsrc2=d=2:s=192x108:r=24", "-f", "lavfi", "-i",
            "sine=f=220:d=2",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "12", "-pix_fmt", "yuv420p", "-c:a",
            "flac",
        ])

    /// Runs `ffmpeg -y <arguments> <directory/name>` once and returns the output's URL.
    static func make(_ name: String, _ arguments: [String]) -> URL {
        let url = directory.appendingPathComponent(name)
        let result = run(
            "ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments + [url.path])
        precondition(result.status == 0, "ffmpeg failed to make \(name)")
        return url
    }

    static func location(_ url: URL) -> MediaLocation {
        // A file URL always yields a location.
        try! MediaLocation(url: url)
    }

    /// Runs a tool from PATH through the test support's process runner, returning its exit
    /// status and standard output (-1 and nothing when the tool is missing).
    static func run(_ tool: String, _ arguments: [String]) -> (status: Int32, output: Data) {
        guard let executable = try? Subprocess.tool(named: tool),
            let result = try? Subprocess.run(executable, arguments)
        else { return (-1, Data()) }
        return (result.status, result.outputData)
    }

    /// Packet counts per stream, as `ffprobe -count_packets` reports them.
    static func probePacketCounts(_ url: URL) -> [Int] {
        let output = run(
            "ffprobe",
            [
                "-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of",
                "csv=p=0", url.path,
            ]
        ).output
        return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap
        {
            Int(
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: ",")))
        }
    }

    /// Every frame of the first video stream as FNV-1a checksums of ffmpeg's rawvideo output.
    static func referenceChecksums(_ url: URL, width: Int, height: Int) -> [UInt64] {
        let output = run(
            "ffmpeg",
            [
                "-v", "error", "-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f",
                "rawvideo",
                "-pix_fmt", "yuv420p", "-",
            ]
        ).output
        let frameSize = width * height + 2 * (((width + 1) / 2) * ((height + 1) / 2))
        return output.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
                VideoFrame.fnv1a64(UnsafeBufferPointer(rebasing: bytes[start..<start + frameSize]))
            }
        }
    }

    /// The number of f32 samples per channel ffmpeg decodes from the first audio stream.
    static func referenceSampleCount(_ url: URL, channels: Int) -> Int {
        let output = run(
            "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le", "-"]
        ).output
        return output.count / 4 / channels
    }
}

/// Helpers that decode whole streams on the calling thread.
enum Decode {
    /// Every video frame of the best video stream, decoded linearly from the start.
    static func allVideoFrames(_ url: URL, threadCount: Int? = nil) throws -> [VideoFrame] {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try VideoDecoder(
            demuxer: demuxer, streamIndex: index, threadCount: threadCount)
        demuxer.setActiveStreams([index])
        var frames: [VideoFrame] = []
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull {
                if let frame = decoder.receiveFrame().frame { frames.append(frame) }
            }
            while let frame = decoder.receiveFrame().frame { frames.append(frame) }
        }
        decoder.sendEndOfStream()
        while let frame = decoder.receiveFrame().frame { frames.append(frame) }
        return frames
    }

    /// Every audio frame of the best audio stream.
    static func allAudioFrames(_ url: URL) throws -> [AudioFrame] {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let index = try #require(demuxer.bestStream(of: .audio))
        let decoder = try AudioDecoder(demuxer: demuxer, streamIndex: index)
        demuxer.setActiveStreams([index])
        var frames: [AudioFrame] = []
        while case .packet(let packet) = demuxer.readPacket() {
            decoder.send(packet)
            while let frame = decoder.receiveFrame().frame { frames.append(frame) }
        }
        decoder.sendEndOfStream()
        while let frame = decoder.receiveFrame().frame { frames.append(frame) }
        return frames
    }
}
