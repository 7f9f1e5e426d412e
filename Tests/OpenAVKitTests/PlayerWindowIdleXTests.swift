// Playhead: a paused window sleeps: the whole `playhead` process wakes less than twice a
// second once nothing moves (mpv, measured beside it in Benchmarks/compare, about once).
import Foundation
import PlayheadTestSupport
import Testing

@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil,
        "runs in the real-time pass of `make test` (PLAYHEAD_REALTIME_TESTS set)"),
    .enabled(if: XSession.shared != nil, "needs Xvfb, openbox, xdotool and ImageMagick"))
struct PlayerWindowIdleXTests {
    let windows = PlayerWindowXTests()

    @Test func aPausedWindowWakesTheProcessLessThanTwiceASecond() async throws {
        let clip = try PlayerWindowXTests.longClip()
        let run = try #require(windows.launch(clip, options: ["--pause"]))
        defer { run.stop() }
        _ = try #require(await windows.windowID(named: clip.lastPathComponent), "no window appeared")
        // The window goes idle five seconds after the last thing that moved.
        try await Task.sleep(for: .seconds(7))
        let pid = run.box.process.processIdentifier
        let before = ContextSwitches.total(of: pid)
        try await Task.sleep(for: .seconds(6))
        let after = ContextSwitches.total(of: pid)
        let perSecond = Double(after - before) / 6
        #expect(perSecond < 2, "\(perSecond) context switches a second while paused")
    }
}

/// Context switches of a process, summed over its threads (/proc).
enum ContextSwitches {
    static func total(of pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { return sum }
            return sum + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
        }
    }
}
