// Playhead: how long tests wait for something before calling it a hang.
//
// Concurrency: reads the environment once; safe from any thread.
import Foundation

/// Scales the tests' hang guards (the time a wait gives up after, never a measured duration).
///
/// Sanitizer runs (`make test-tsan`, `make test-asan`) slow the code 5 to 15 times and set
/// `PLAYHEAD_TEST_TIMEOUT_SCALE`, so a wait that guards against a hang in 20 s gives it 80 s
/// there instead of failing a test whose behaviour is right but slow.
public enum TestTimeouts {
    /// The factor from `PLAYHEAD_TEST_TIMEOUT_SCALE` (at least 1; 1 when unset).
    public static let scale: Double = {
        let value = ProcessInfo.processInfo.environment["PLAYHEAD_TEST_TIMEOUT_SCALE"].flatMap(Double.init) ?? 1
        return max(1, value)
    }()

    /// `seconds` of hang guard, scaled.
    public static func scaled(_ seconds: Double) -> Double { seconds * scale }
}

/// A hang guard that counts only the time its waiter got to look: each look adds the real time
/// since the last one, but at most `longestStep`. In the parallel test pass another test can
/// hold the thread a wait runs on (the main queue, or one of the cooperative pool's two
/// threads on this machine) for many seconds, generating a fixture with `ffmpeg` or waiting on
/// a subprocess; a plain deadline then expires although the waiter never got to look, and a
/// right but starved test fails. A real hang still fails: the waiter looks, and the budget runs
/// out. Past `realTimeFactor` times the budget of real time it gives up whatever it counted.
///
/// Concurrency: a value owned by the waiting task.
public struct PatientDeadline {
    /// The most a single look adds to the time counted.
    public static let longestStep = 0.1
    /// How many times the budget of real time passes at most before the guard gives up.
    public static let realTimeFactor = 8.0

    private let budget: Double
    private let start = Date()
    private var last = Date()
    private var counted = 0.0

    /// A guard of `seconds` (scaled by ``TestTimeouts``) counted from now.
    public init(seconds: Double) { budget = TestTimeouts.scaled(seconds) }

    /// Counts the time since the last look; true when the budget is spent.
    public mutating func hasPassed() -> Bool {
        let now = Date()
        counted += min(max(0, now.timeIntervalSince(last)), Self.longestStep)
        last = now
        return counted > budget || now.timeIntervalSince(start) > budget * Self.realTimeFactor
    }
}
