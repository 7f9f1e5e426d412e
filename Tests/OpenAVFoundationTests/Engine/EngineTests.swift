// Playhead: the parent suite for engine tests, plus small threading helpers they share.
import Foundation
import OpenAVFoundation
import Synchronization
import Testing

/// Groups every engine suite so `swift test --filter Engine` selects them.
@Suite enum EngineTests {}

/// A background thread running one closure, which a test can join.
final class TestThread: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            self.finished.store(true, ordering: .releasing)
            self.done.signal()
        }
        thread.start()
    }

    /// Whether the closure has returned.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Waits (real time) for the closure to return; `false` on timeout.
    @discardableResult
    func join(timeout: Double = 10) -> Bool {
        done.wait(timeout: .now() + timeout) == .success
    }
}

/// Sleeps the test thread for a short real-time hand-off.
func briefPause(milliseconds: Int = 20) {
    usleep(useconds_t(milliseconds * 1000))
}

/// A CMTime of `milliseconds` / 1000 s.
func ms(_ milliseconds: Int64) -> CMTime { CMTime(value: milliseconds, timescale: 1000) }

/// Whether two times differ by at most `tolerance` seconds.
func isClose(_ lhs: CMTime?, _ rhs: CMTime, tolerance: Double = 1e-6) -> Bool {
    guard let lhs, lhs.isNumeric, rhs.isNumeric else { return false }
    return abs((lhs - rhs).seconds) <= tolerance
}
