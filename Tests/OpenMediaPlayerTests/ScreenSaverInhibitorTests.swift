// Playhead: tests for ScreenSaverInhibitor's bookkeeping with a recording transport in place of
// the bus: quick changes are merged (a long settle time, then `flush` applies the last wish),
// release and dropping a hold give the cookie back, and a service that does not answer makes
// every hold fall back with one warning.
import Foundation
import Testing

@testable import OpenMediaPlayer

@Suite struct ScreenSaverInhibitorTests {
    /// Records the calls and hands out cookies 1, 2, 3...; `answers` false: Inhibit fails.
    final class Recorder: ScreenSaverTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []
        private var next: UInt32 = 1
        var answers = true
        var calls: [String] { lock.withLock { log } }
        func inhibit(application: String, reason: String) -> UInt32? {
            lock.withLock {
                guard answers else {
                    log.append("inhibit failed")
                    return nil
                }
                defer { next += 1 }
                log.append("inhibit \(next) \(application): \(reason)")
                return next
            }
        }
        func unInhibit(_ cookie: UInt32) -> Bool {
            lock.withLock { log.append("uninhibit \(cookie)") }
            return true
        }
    }

    private func inhibitor(_ recorder: Recorder, warnings: NSMutableArray = [])
        -> ScreenSaverInhibitor
    {
        let box = UncheckedWarnings(warnings)
        return ScreenSaverInhibitor(
            address: "unix:path=/unused", application: "Test", settle: 3600,
            makeTransport: { _ in recorder },
            warn: { line in box.add(line) })
    }

    @Test func aQuickPauseAndPlayMakesNoCalls() throws {
        let recorder = Recorder()
        let inhibitor = inhibitor(recorder)
        let hold = try #require(inhibitor.hold(reason: "Playing video"))
        hold.setActive(true)
        inhibitor.flush(timeout: 60)
        #expect(recorder.calls == ["inhibit 1 Test: Playing video"])
        hold.setActive(false)
        hold.setActive(true)
        hold.setActive(false)
        hold.setActive(true)
        inhibitor.flush(timeout: 60)
        #expect(
            recorder.calls == ["inhibit 1 Test: Playing video"],
            "pauses and plays inside the settle time cancel out")
        #expect(inhibitor.heldCookies == [1])
        hold.setActive(false)
        inhibitor.flush(timeout: 60)
        #expect(recorder.calls.last == "uninhibit 1")
        #expect(inhibitor.heldCookies.isEmpty)
    }

    @Test func releaseGivesTheCookieBackAtOnceAndIgnoresLaterWishes() throws {
        let recorder = Recorder()
        let inhibitor = inhibitor(recorder)
        let hold = try #require(inhibitor.hold(reason: "Playing video"))
        hold.setActive(true)
        inhibitor.flush(timeout: 60)
        hold.release()  // applied without waiting for the settle time
        _ = inhibitor.heldCookies  // waits for the queue
        #expect(recorder.calls == ["inhibit 1 Test: Playing video", "uninhibit 1"])
        hold.setActive(true)
        inhibitor.flush(timeout: 60)
        #expect(recorder.calls.count == 2)
    }

    @Test func droppingAHoldGivesItsCookieBack() throws {
        let recorder = Recorder()
        let inhibitor = inhibitor(recorder)
        do {
            let hold = try #require(inhibitor.hold(reason: "Playing video"))
            hold.setActive(true)
            inhibitor.flush(timeout: 60)
        }
        #expect(inhibitor.heldCookies.isEmpty)
        #expect(recorder.calls == ["inhibit 1 Test: Playing video", "uninhibit 1"])
    }

    @Test func noServiceMakesEveryHoldFallBackWithOneWarning() throws {
        let recorder = Recorder()
        recorder.answers = false
        let warnings = NSMutableArray()
        let inhibitor = inhibitor(recorder, warnings: warnings)
        let first = try #require(inhibitor.hold(reason: "Playing video"))
        let second = try #require(inhibitor.hold(reason: "Playing video"))
        first.setActive(true)
        second.setActive(true)
        inhibitor.flush(timeout: 60)
        #expect(first.isFallingBack && second.isFallingBack)
        #expect(recorder.calls == ["inhibit failed"], "asked once, then no more")
        #expect(warnings.count == 1)
        #expect(inhibitor.hold(reason: "later")?.isFallingBack == true)
    }

    @Test func noBusAddressMeansNoHold() {
        let recorder = Recorder()
        let inhibitor = ScreenSaverInhibitor(
            address: "", application: "Test", settle: 1, makeTransport: { _ in recorder },
            warn: { _ in })
        #expect(inhibitor.hold(reason: "x") == nil)
    }
}

/// Warnings collected from the inhibitor's queue.
private final class UncheckedWarnings: @unchecked Sendable {
    let array: NSMutableArray
    let lock = NSLock()
    init(_ array: NSMutableArray) { self.array = array }
    func add(_ line: String) { lock.withLock { array.add(line) } }
}
