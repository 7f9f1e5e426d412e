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
