// Playhead: Playhead's HLS loader (over an HLS ladder and the same ladder as DASH) in real time
// on a link whose bandwidth follows a schedule:
// 8 Mbit/s, a drop to 1 Mbit/s, and recovery. It must switch down before the buffer runs dry
// (no stall), climb back within about ten seconds of the recovery, and hold steady in between;
// played at 2x it must choose the variant the link carries at that rate.
// The serial pass of `make test` only (`PLAYHEAD_REALTIME_TESTS`, `OverAShapedLink`): it plays
// 40 s on the wall clock.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AdaptiveScheduleTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aDropAndARecoveryAdaptWithoutAStallOverAShapedLink() async throws {
        try await adaptsToADropAndARecovery(folder: try AdaptiveMedia.longFolder(), path: "ladder/master.m3u8") { path in
            path.hasSuffix(".ts") ? path.split(separator: "/").dropLast().last.map(String.init) : nil
        }
    }

    /// The same schedule on the same ladder as a DASH presentation: the loader adapts over its
    /// Representations exactly as over HLS variants.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aDASHPresentationAdaptsToADropAndARecoveryOverAShapedLink() async throws {
        let names = ["chunk-stream0-": "low", "chunk-stream1-": "mid", "chunk-stream2-": "high"]
        try await adaptsToADropAndARecovery(folder: try DASHMedia.longFolder(), path: "long/manifest.mpd") { path in
            let file = path.split(separator: "/").last.map(String.init) ?? ""
            return names.first { file.hasPrefix($0.key) }?.value
        }
    }

    /// Plays `path` from `folder` on the 8 → 1 → 8 Mbit/s schedule and checks the switches;
    /// `variant` names the variant of a requested path ("low", "mid", "high"), nil for
    /// requests that are not video segments.
    private func adaptsToADropAndARecovery(
        folder: URL, path: String, variant: @escaping (String) -> String?
    ) async throws {
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        server.bytesPerSecond = 1_000_000  // 8 Mbit/s
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: path))
        item.preferredForwardBufferDuration = 10
        let player = AVPlayer(environment: timedEnvironment(sink, clock: SystemHostClock.shared), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        let started = Date()
        var requests: [(seconds: Double, variant: String)] = []
        var seen = 0
        func note() {
            let named = server.requests.compactMap { variant($0.path) }
            for name in named.dropFirst(seen) {
                requests.append((Date().timeIntervalSince(started), name))
            }
            seen = named.count
        }
        player.play()
        await waitUntil(timeout: 30, "eight seconds played") {
            note()
            return player.currentTime().seconds >= 8
        }
        let drop = Date().timeIntervalSince(started)
        server.bytesPerSecond = 125_000  // 1 Mbit/s
        await waitUntil(timeout: 40, "eighteen seconds played") {
            note()
            return player.currentTime().seconds >= 18
        }
        let recovery = Date().timeIntervalSince(started)
        server.bytesPerSecond = 1_000_000
        await waitUntil(timeout: 40, "the end") {
            note()
            return log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1
        }
        let summary = requests.map { "\(String(format: "%.1f", $0.seconds)) \($0.variant)" }.joined(separator: ", ")
        #expect(item.stallCount == 0, "no stall: \(summary)")
        #expect(requests.contains { $0.seconds < drop && $0.variant == "high" }, "the top variant at 8 Mbit/s: \(summary)")
        let down = requests.first { $0.seconds > drop && $0.variant != "high" }
        #expect(down.map { $0.seconds - drop < 7 } == true, "down within a few seconds of the drop: \(summary)")
        let up = requests.first { $0.seconds > recovery && $0.variant == "high" }
        #expect(up.map { $0.seconds - recovery <= 10 } == true, "back up within 10 s: \(summary)")
        let steady = requests.filter { $0.seconds < drop }.map(\.variant)
        let switches = zip(steady, steady.dropFirst()).filter { $0 != $1 }.count
        #expect(switches <= 2, "steady at 8 Mbit/s after the climb: \(summary)")
        let events = item.accessLog()?.events ?? []
        #expect(events.count >= 3 && events.count <= 8, "\(events.map(\.indicatedBitrate))")
        player.replaceCurrentItem(with: nil)
    }

    /// A steady 4.8 Mbit/s link carries the top variant (2.5 Mbit/s) at 1x, not at 2x, where it
    /// would take 5 Mbit/s: once the rate goes to 2 the loader goes down to the middle variant
    /// (1.8 Mbit/s at 2x) and stays there, with no stall, as Media3 and hls.js do.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func playingFasterChoosesTheVariantTheLinkCarriesAtThatRateOverAShapedLink() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.longFolder())
        defer { server.stop() }
        server.bytesPerSecond = 600_000  // 4.8 Mbit/s
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredForwardBufferDuration = 10
        let player = AVPlayer(environment: timedEnvironment(sink, clock: SystemHostClock.shared), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        func variants() -> [String] {
            server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
                .compactMap { $0.split(separator: "/").dropLast().last.map(String.init) }
        }
        player.play()
        await waitUntil(timeout: 30, "the top variant at 1x") { variants().contains("high") }
        player.rate = 2
        let atTheChange = variants().count
        await waitUntil(timeout: 40, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let all = variants()
        let after = Array(all.dropFirst(atTheChange))
        #expect(item.stallCount == 0, "no stall: \(all)")
        // A segment or two already chosen at 1x may still come, then the middle variant.
        let firstMid = try #require(after.firstIndex(of: "mid"), "down at 2x: \(all)")
        #expect(firstMid <= 2, "down within a segment or two of the change: \(all)")
        #expect(after[firstMid...].allSatisfy { $0 == "mid" }, "the middle variant to the end, no climb: \(all)")
        player.replaceCurrentItem(with: nil)
    }
}
