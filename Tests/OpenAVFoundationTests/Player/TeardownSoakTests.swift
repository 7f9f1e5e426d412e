// Playhead: the teardown soak: many create → play → seek → replace → release cycles, after
// which threads, file descriptors and memory are back where they started and every player,
// item and engine has been freed.
//
// Odd cycles play untimed and silent; even cycles run on a manual clock (with a silent
// clock-driven audio output) that never advances, so players are released mid-playback.
// `make test` runs 30 cycles; `make soak` runs 500 (PLAYHEAD_SOAK_CYCLES=500). The cycles run
// in a child process (an exit test) so other suites' players cannot disturb the counts.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct TeardownSoakTests {
    @Test func createPlaySeekReplaceReleaseCyclesLeaveNothingBehind() async throws {
        // The child writes its report where this process can read it, pass or fail.
        let reportFile = TeardownSoak.reportFile(parent: getpid())
        defer { try? FileManager.default.removeItem(at: reportFile) }
        await #expect(processExitsWith: .success) {
            let cycles =
                Int(ProcessInfo.processInfo.environment["PLAYHEAD_SOAK_CYCLES"] ?? "") ?? 30
            let report = await TeardownSoak.run(cycles: cycles)
            let text = report.lines.joined(separator: "\n") + "\n"
            try? Data(text.utf8).write(to: TeardownSoak.reportFile(parent: getppid()))
            exit(report.failures.isEmpty ? 0 : 1)
        }
        let text = (try? String(contentsOf: reportFile, encoding: .utf8)) ?? "soak: no report\n"
        print(text, terminator: "")
        for line in text.split(separator: "\n") where line.hasPrefix("soak FAILED") {
            Issue.record("\(line)")
        }
    }
}

/// The soak itself, run inside the exit test's child process.
@MainActor
enum TeardownSoak {
    struct Report {
        var lines: [String] = []
        var failures: [String] = []
    }

    /// Fixtures the cycles go through: containers with video and audio, audio only, video only.
    static let fixtures: [Fixture] = [.mp4, .webM, .wav, .matroska, .mov, .videoOnlyMP4, .flac]
    /// Cycles run before the baseline is taken, so one-time allocations (codec tables, thread
    /// pools, the fixture cache, glibc's per-thread malloc arenas reaching their working size)
    /// are not counted as growth.
    static let warmUpCycles = 50
    static let allowedGrowth = 5 * 1024 * 1024

    static func run(cycles: Int) async -> Report {
        var report = Report()
        let urls: [URL]
        do {
            urls = try fixtures.map { try Fixture.url($0) }
        } catch {
            report.failures.append("fixtures: \(error)")
            return report
        }
        for index in 0..<warmUpCycles { _ = await cycle(index, urls) }
        // The warm-up's engines finish tearing down in the background: the baseline is taken
        // once their threads are gone (nothing plays between cycles).
        var warmUpDeadline = PatientDeadline(seconds: 30)
        while !warmUpDeadline.hasPassed(), !playheadThreadNames().isEmpty { await settle() }
        await settle()
        let threads = playheadThreadNames().sorted()
        let fds = openDescriptors()
        let allThreads = allThreadCount()
        peakAllThreads = allThreads
        let rss = residentBytes()
        var halfwayRSS = rss
        var released: [Released] = []
        let start = Date()
        peakThreads = threads.count
        for index in 0..<cycles {
            released += await cycle(index, urls)
            if index % 50 == 49 { released.removeAll { $0.isFree } }
            if index == cycles / 2 { halfwayRSS = residentBytes() }
        }
        let seconds = Date().timeIntervalSince(start)
        var deadline = PatientDeadline(seconds: 30)
        while !deadline.hasPassed(),
            playheadThreadNames().sorted() != threads || !released.allSatisfy(\.isFree)
                || openDescriptors().count > fds.count
        {
            await settle()
        }
        await settle()
        let finalRSS = residentBytes()
        let growth = finalRSS - rss
        let secondHalfGrowth = finalRSS - halfwayRSS
        let alive = released.filter { !$0.isFree }.count
        let leftoverThreads = playheadThreadNames().sorted()
        let leftoverFDs = openDescriptors().subtracting(fds)
        report.lines.append(
            "soak: \(cycles) cycles in \(String(format: "%.1f", seconds)) s; "
                + "playhead.* threads \(threads.count) before, peak \(peakThreads), \(leftoverThreads.count) after; "
                + "fds \(fds.count) before, \(openDescriptors().count) after; "
                + "all threads \(allThreads) before, peak \(peakAllThreads), \(allThreadCount()) after; "
                + "RSS \(rss / 1024) KB before, growth \(growth / 1024) KB "
                + "(\(secondHalfGrowth / 1024) KB in the second half); objects alive \(alive)")
        if leftoverThreads != threads {
            report.failures.append("threads left: \(leftoverThreads) (baseline \(threads))")
        }
        // Dispatch may keep a couple of idle pool threads; engine threads must all be gone.
        if allThreadCount() > allThreads + 2 {
            report.failures.append("\(allThreadCount()) threads left (baseline \(allThreads))")
        }
        if !leftoverFDs.isEmpty {
            report.failures.append("descriptors left open: \(leftoverFDs.sorted())")
        }
        // glibc's heap keeps some high-water pages whatever malloc_trim does, so the whole-run
        // growth levels off at a few MB; a leak keeps growing, which the second half shows.
        if secondHalfGrowth > allowedGrowth {
            report.failures.append("RSS grew by \(secondHalfGrowth) bytes over the second half")
        }
        // A full soak (`make soak`) also holds the whole run after the warm-up to the limit;
        // short runs inside `make test` only check that growth levels off.
        if cycles >= 500, growth > allowedGrowth {
            report.failures.append("RSS grew by \(growth) bytes over \(cycles) cycles")
        }
        if failedItems > 0 { report.failures.append("\(failedItems) items failed to open") }
        if alive > 0 { report.failures.append("\(alive) players, items or engines never freed") }
        report.lines += report.failures.map { "soak FAILED: \($0)" }
        return report
    }

    /// The most playhead.* threads seen at once.
    static var peakThreads = 0

    /// The most threads of any kind seen at once.
    static var peakAllThreads = 0

    /// Items that failed to open (none should: every fixture plays).
    static var failedItems = 0

    /// Untimed playback into `sink` with the silent audio output `playhead play --untimed` uses.
    static func environment(_ sink: RecordingVideoSink) -> PlaybackEnvironment {
        let sinks = VideoSinks()
        sinks.add(sink)
        return PlaybackEnvironment(
            makeAudioOutput: { @Sendable in UntimedAudioOutput() }, videoSinks: sinks, untimed: true
        )
    }

    /// One create → play → seek → replace → release cycle; returns weak references to check.
    static func cycle(_ index: Int, _ urls: [URL]) async -> [Released] {
        let sink = RecordingVideoSink()
        var first: AVPlayerItem? = AVPlayerItem(url: urls[index % urls.count])
        // Odd cycles play untimed (the whole clip decodes at once and the engine reaches the end);
        // even cycles run on a manual clock that never advances, so the engine threads are
        // alive and waiting when the player is released.
        let env =
            index.isMultiple(of: 2)
            ? timedEnvironment(sink, clock: ManualClock(), audio: true) : environment(sink)
        var player: AVPlayer? = AVPlayer(environment: env, playerItem: first)
        player?.play()
        await waitUntil(timeout: 30, "first item ready") { first?.status != .unknown }
        _ = await player?.seek(to: CMTime(value: 1, timescale: 1))
        let firstReleased = Released(player: nil, item: first, engine: player.flatMap(engine(of:)))
        var second: AVPlayerItem? = AVPlayerItem(url: urls[(index + 3) % urls.count])
        player?.replaceCurrentItem(with: second)
        player?.play()
        await waitUntil(timeout: 30, "second item ready") { second?.status != .unknown }
        if first?.status == .failed || second?.status == .failed {
            failedItems += 1
        }
        peakThreads = max(peakThreads, playheadThreadNames().count)
        peakAllThreads = max(peakAllThreads, allThreadCount())
        let secondReleased = Released(
            player: player, item: second, engine: player.flatMap(engine(of:)))
        first = nil
        second = nil
        player = nil
        return [firstReleased, secondReleased]
    }

    /// Threads in this process, of any name.
    static func allThreadCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    /// Where the exit test's child leaves its report for the parent test process.
    nonisolated static func reportFile(parent: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("playhead-soak-\(parent).txt")
    }

    /// Lets engine threads wind down and the main queue drain.
    static func settle() async {
        await mainQueueSleep(nanoseconds: 20_000_000)
    }

    /// The process's open file descriptors, by number (as /proc/self/fd lists them).
    static func openDescriptors() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
    }

    /// Resident set size from /proc/self/statm.
    static func residentBytes() -> Int {
        // Hand freed heap pages back first, so the number is what is still allocated rather
        // than what glibc keeps cached in its arenas.
        if let trim = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            return 0
        }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
