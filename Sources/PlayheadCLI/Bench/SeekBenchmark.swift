// Playhead: `playhead bench seek`: exact seeks on a paused, video-only player, timed from the
// call to the completion handler.
//
// Concurrency: main actor. Completion handlers arrive on the main queue and stamp their own
// time before resuming the waiting task, so the hop back to the task is not measured.
import Foundation
import OpenAVFoundation

/// Runs the seek benchmark.
@MainActor
enum SeekBenchmark {
    /// How many timed seeks.
    nonisolated static let seekCount = 20
    /// The fixed seed of the seek positions ("playhead" in ASCII).
    nonisolated static let seed: UInt64 = 0x706c_6179_6865_6164
    /// Positions stay in the first 90 % of the item, so no seek lands past the last frame.
    nonisolated static let usableFraction = 0.9
    /// Seconds one seek may take before the run fails.
    nonisolated static let seekTimeout = 30.0

    /// `count` positions in seconds (millisecond steps) in [0, duration × 0.9), fixed by `seed`.
    nonisolated static func positions(duration: Double, count: Int = seekCount, seed: UInt64 = seed)
        -> [Double]
    {
        var generator = BenchRandom(seed: seed)
        let span = max(0, duration * usableFraction)
        return (0..<count).map { _ in
            let fraction = Double(generator.next() >> 11) / Double(1 << 53)
            return (fraction * span * 1_000).rounded(.down) / 1_000
        }
    }

    /// Opens `url` paused without audio, makes one untimed warm-up seek to zero, then the timed
    /// exact seeks.
    ///
    /// - Throws: the item's error when it cannot be played, `BenchFailure` when a seek is
    ///   interrupted or times out.
    static func run(url: URL) async throws -> SeekReport {
        let sinks = VideoSinks()
        let sink = BenchVideoSink()
        sinks.add(sink)
        let player = AVPlayer(
            environment: PlaybackEnvironment(makeAudioOutput: nil, videoSinks: sinks))
        defer { player.replaceCurrentItem(with: nil) }
        let item = AVPlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        try await BenchWait.untilReady(item)
        guard item.duration.isNumeric, item.duration.seconds > 0 else {
            throw BenchFailure(reason: "has no known duration to seek within")
        }
        guard try await BenchWait.untilFirstFrame(sink, item: item, timeout: seekTimeout) != nil
        else {
            throw BenchFailure(reason: "has no video to seek in")
        }
        _ = try await timedSeek(player, to: 0)
        let targets = positions(duration: item.duration.seconds)
        var timings: [Double] = []
        for target in targets {
            timings.append(try await timedSeek(player, to: target))
        }
        player.replaceCurrentItem(with: nil)
        let floor = try await Task.detached(priority: .userInitiated) {
            try SeekDecodeFloor.measure(url: url, targets: targets)
        }.value
        return SeekReport(positions: targets, timings: timings, decodeOnlyTimings: floor)
    }

    /// Makes one exact seek and returns the milliseconds until its completion handler ran.
    private static func timedSeek(_ player: AVPlayer, to seconds: Double) async throws -> Double {
        let time = CMTime(seconds: seconds, preferredTimescale: 1_000_000)
        let result: Double? = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let start = BenchClock.now()
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { finished in
                once.resume(
                    finished ? BenchClock.milliseconds(from: start, to: BenchClock.now()) : nil)
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + seekTimeout) { once.resume(nil) }
        }
        guard let result else {
            throw BenchFailure(reason: "exact seek to \(seconds) s was interrupted or timed out")
        }
        return result
    }
}

/// The timings of one seek run.
struct SeekReport: Equatable {
    /// The seek targets in seconds, in order.
    var positions: [Double]
    /// Milliseconds from each seek call to its completion handler, in order.
    var timings: [Double]
    /// Milliseconds the same seeks take to decode with no player (`SeekDecodeFloor`), in order.
    var decodeOnlyTimings: [Double] = []

    /// Median, mean and maximum of `timings`.
    var statistics: BenchStatistics { BenchStatistics(timings) }

    /// `{"n","medianMs","meanMs","maxMs","seeks","positions","decodeOnlyMedianMs",
    /// "decodeOnlySeeks"}`.
    var json: JSONValue {
        let stats = statistics
        return [
            "n": .integer(stats.count),
            "medianMs": .number(BenchClock.rounded(stats.median)),
            "meanMs": .number(BenchClock.rounded(stats.mean)),
            "maxMs": .number(BenchClock.rounded(stats.maximum)),
            "seeks": .array(timings.map { .number(BenchClock.rounded($0)) }),
            "positions": .array(positions.map { .number($0) }),
            "decodeOnlyMedianMs": .number(BenchClock.rounded(BenchStatistics(decodeOnlyTimings).median)),
            "decodeOnlySeeks": .array(decodeOnlyTimings.map { .number(BenchClock.rounded($0)) }),
        ]
    }

    /// The readable summary.
    var text: String {
        let stats = statistics
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
        return """
            \(stats.count) exact seeks (paused, video only)
            median \(ms(stats.median)), mean \(ms(stats.mean)), max \(ms(stats.maximum))
            decoding alone (no player): median \(ms(BenchStatistics(decodeOnlyTimings).median))
            """
    }
}

/// Resumes a continuation once; later calls do nothing. Thread-safe.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<Value, Never>?>

    /// Wraps `continuation`.
    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Locked(continuation)
    }

    /// Resumes with `value` the first time; ignored afterwards.
    func resume(_ value: Value) {
        let pending = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        pending?.resume(returning: value)
    }
}
