// Playhead: exact seeks through AVPlayer on wavefront HEVC (slice-threaded catch-up decoder,
// then the hand-over back to frame threading), on tiled VP9 (frame threading throughout)
// and on H.264 with B-frames and one keyframe (seeks forward go on from where the decoder
// stands): the frame shown at each target and every frame played after the seeks match
// linear decoding.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerSeekCatchUpTests {
    /// Writes a 2-second clip with ffmpeg into the temporary directory once per process.
    static func clip(_ name: String, _ codec: [String]) throws -> URL {
        let process = ProcessInfo.processInfo.processIdentifier
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-catchup-\(process)-\(name)")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let arguments =
            ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=d=2:s=640x360:r=25"]
            + codec + [url.path]
        let result = try Subprocess.run(try Subprocess.tool(named: "ffmpeg"), arguments)
        guard result.status == 0 else { throw TestSupportError("ffmpeg: \(result.errorText)") }
        return url
    }

    static func vp9() throws -> URL {
        try clip(
            "vp9.webm",
            ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25",
             "-tile-columns", "1"])
    }

    static func hevc() throws -> URL {
        try clip(
            "hevc.mp4",
            ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
             "keyint=25:min-keyint=25:open-gop=0:log-level=error", "-pix_fmt", "yuv420p"])
    }

    /// H.264 as real content is encoded (B-frames, CABAC) with one keyframe, at 0: the seeks
    /// forward go on decoding from where the decoder stands (`DecoderRun`), the seeks back
    /// start again at the keyframe.
    static func h264() throws -> URL {
        try clip(
            "h264.mp4",
            ["-c:v", "libx264", "-preset", "medium", "-g", "50", "-bf", "3", "-pix_fmt", "yuv420p"])
    }

    @Test(arguments: ["vp9", "hevc", "h264"])
    func exactSeeksAndPlaybackAfterThemMatchLinearDecoding(_ codec: String) async throws {
        let url = try codec == "vp9" ? Self.vp9() : codec == "hevc" ? Self.hevc() : Self.h264()
        let reference = await linearChecksums(of: url)
        #expect(reference.count == 50)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("first frame") { item.status == .readyToPlay && sink.count == 1 }
        // Mid-GOP, just before a keyframe, back into the first GOP, and after the last keyframe.
        let targets = [(0.6, 600), (0.96, 960), (0.2, 200), (1.72, 1720), (0.44, 440)]
        for (seconds, expectedPTS) in targets {
            sink.reset()
            let completions = CompletionLog()
            player.seek(
                to: CMTime(value: Int64(seconds * 1000), timescale: 1000),
                toleranceBefore: .zero, toleranceAfter: .zero,
                completionHandler: completions.handler())
            await waitUntil("seek to \(seconds)") { !completions.results.isEmpty }
            #expect(completions.results == [true], "seek to \(seconds)")
            let shown = try #require(sink.last, "no frame after seeking to \(seconds)")
            #expect(millis(shown.pts) == expectedPTS, "\(codec) seek to \(seconds)")
            #expect(shown.frame.checksum() == reference[expectedPTS], "\(codec) seek to \(seconds)")
        }
        // Play on from 0.44 s: through the hand-over at the keyframe at 1 s, to the end.
        sink.reset()
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let played = sink.frames.map { millis($0.pts) }
        #expect(played == Array(stride(from: 480, through: 1960, by: 40)), "\(codec)")
        for entry in sink.frames {
            let pts = millis(entry.pts)
            #expect(entry.frame.checksum() == reference[pts], "\(codec) \(pts)")
        }
        player.replaceCurrentItem(with: nil)
    }
}
