// Playhead: tests for ManualClock, SystemHostClock and WakeupSignal.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct HostClockTests {
        @Test func manualTimeMovesOnlyWhenAdvancedAndSumsExactly() async {
            let clock = ManualClock(now: 5)
            #expect(clock.now == 5)
            for _ in 0..<10 { clock.advance(by: 0.1) }
            #expect(clock.now == 6)
            clock.advance(to: 5.5)
            #expect(clock.now == 6)
            clock.advance(to: 7.25)
            #expect(clock.now == 7.25)
        }

        @Test func aManualWaitEndsOnlyWhenAnAdvanceReachesTheDeadline() async {
            let clock = ManualClock()
            let signal = WakeupSignal()
            let waiter = TestThread {
                #expect(clock.wait(until: 1, on: signal) == .deadlineReached)
            }
            #expect(clock.waitForWaiters(count: 1))
            clock.advance(by: 0.999)
            briefPause()
            #expect(!waiter.isFinished)
            #expect(clock.waiterCount == 1)
            clock.advance(by: 0.001)
            #expect(waiter.join())
            #expect(clock.waiterCount == 0)
        }

        @Test func aPastDeadlineReturnsImmediately() async {
            let clock = ManualClock(now: 2)
            #expect(clock.wait(until: 2, on: WakeupSignal()) == .deadlineReached)
            #expect(clock.wait(until: 1, on: WakeupSignal()) == .deadlineReached)
        }

        @Test func wakingTheSignalEndsAManualWaitEarly() async {
            let clock = ManualClock()
            let signal = WakeupSignal()
            let waiter = TestThread { #expect(clock.wait(until: 100, on: signal) == .woken) }
            #expect(clock.waitForWaiters(count: 1))
            signal.wake()
            #expect(waiter.join())
            #expect(clock.waiterCount == 0)
        }

        @Test func aWakeBeforeTheWaitIsNotLost() async {
            let clock = ManualClock()
            let signal = WakeupSignal()
            signal.wake()
            signal.wake()
            #expect(clock.wait(until: 100, on: signal) == .woken)
            #expect(clock.wait(until: 0, on: signal) == .deadlineReached)
        }

        @Test func oneAdvanceWakesEveryExpiredWaiterInDeadlineOrder() async {
            let clock = ManualClock()
            let order = Locked<[Int]>([])
            let deadlines = [0.3, 0.1, 0.2, 5]
            let threads = deadlines.enumerated().map { index, deadline in
                TestThread {
                    clock.wait(until: deadline, on: WakeupSignal())
                    order.withLock { $0.append(index) }
                }
            }
            #expect(clock.waitForWaiters(count: 4))
            clock.advance(by: 0.3)
            for index in 0..<3 { #expect(threads[index].join()) }
            #expect(order.withLock { Set($0) } == [0, 1, 2])
            #expect(clock.waiterCount == 1)
            clock.advance(by: 10)
            #expect(threads[3].join())
        }

        @Test func systemWaitReturnsAtTheDeadline() async {
            let clock = SystemHostClock.shared
            let start = clock.now
            #expect(clock.wait(until: start + 0.005, on: WakeupSignal()) == .deadlineReached)
            #expect(clock.now >= start + 0.005)
            #expect(clock.now >= start)
        }

        @Test func systemWaitEndsEarlyWhenWoken() async {
            let clock = SystemHostClock()
            let signal = WakeupSignal()
            let start = clock.now
            let waiter = TestThread {
                #expect(clock.wait(until: start + 30, on: signal) == .woken)
            }
            briefPause(milliseconds: 5)
            signal.wake()
            #expect(waiter.join(timeout: 5))
            #expect(clock.now - start < 10)
        }
    }

    @Suite struct MediaClockTests {
        @Test func anUnsetClockReadsInvalid() async {
            let clock = MediaClock()
            #expect(!clock.time(atHost: 3).isValid)
            #expect(!clock.isValid)
        }

        @Test func theClockRunsFromItsAnchorAtTheRate() async {
            var clock = MediaClock(rate: 2)
            clock.set(media: ms(10_000), host: 100, generation: 0)
            #expect(clock.time(atHost: 100) == ms(10_000))
            #expect(clock.time(atHost: 100.5) == ms(11_000))
            #expect(clock.time(atHost: 99.5) == ms(9_000))
        }

        @Test(arguments: [0.5, 1.0, 2.0, 0.0, -1.0])
        func changingTheRateKeepsTheReadingContinuous(newRate: Double) async {
            var clock = MediaClock(rate: 1)
            clock.set(media: ms(2_000), host: 10, generation: 0)
            let before = clock.time(atHost: 11.25)
            clock.setRate(newRate, host: 11.25)
            #expect(clock.time(atHost: 11.25) == before)
            #expect(isClose(clock.time(atHost: 12.25), ms(3_250) + secondsTime(newRate)))
        }

        @Test func pauseFreezesAndResumeContinuesWithoutAJump() async {
            var clock = MediaClock(rate: 1.5)
            clock.set(media: .zero, host: 0, generation: 0)
            clock.pause(host: 2)
            #expect(clock.isPaused && clock.effectiveRate == 0)
            #expect(clock.time(atHost: 2) == ms(3_000))
            #expect(clock.time(atHost: 50) == ms(3_000))
            clock.setRate(3, host: 60)
            #expect(clock.time(atHost: 70) == ms(3_000))
            clock.resume(host: 80)
            #expect(clock.time(atHost: 80) == ms(3_000))
            #expect(clock.time(atHost: 81) == ms(6_000))
        }

        @Test func aFlushMakesTheClockStaleUntilSetWithTheNewGeneration() async {
            var clock = MediaClock()
            clock.set(media: ms(5_000), host: 0, generation: 1)
            clock.invalidate(generation: 2)
            #expect(!clock.time(atHost: 1).isValid)
            clock.set(media: ms(6_000), host: 1, generation: 1)
            #expect(!clock.time(atHost: 1).isValid)
            clock.set(media: ms(60_000), host: 1, generation: 2)
            #expect(clock.time(atHost: 2) == ms(61_000))
        }

        @Test func settingANewerGenerationAdvancesTheCurrentOne() async {
            var clock = MediaClock(generation: 0)
            clock.set(media: .zero, host: 0, generation: 4)
            #expect(clock.currentGeneration == 4)
            #expect(clock.time(atHost: 1) == ms(1_000))
        }

        private func secondsTime(_ seconds: Double) -> CMTime {
            CMTime(seconds: seconds, preferredTimescale: 1_000_000)
        }
    }
}
