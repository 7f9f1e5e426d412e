// Playhead: player windows' own now-playing sessions, several at once: the window opened last
// takes the desktop, and when it closes the desktop goes back to the window still open (not to
// the process's own centers); without a session bus no session is made. Runs in the serial pass
// with the other bus suites (`OnASessionBus`): the active session is process-wide.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit
@testable import OpenMediaPlayer

@MainActor
@Suite(
    .serialized, .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil)
)
struct WindowNowPlayingSlotTestsOnASessionBus {
    @Test func aClosingWindowGivesTheDesktopBackToTheWindowStillOpen() async throws {
        let bus = try await offPool { try SessionBus() }
        MPRISService.shared.start(address: bus.address, warnings: { _ in })
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        defer {
            unsetenv("DBUS_SESSION_BUS_ADDRESS")
            MPRISService.shared.stop()
            bus.stop()
        }
        let (first, second) = (NowPlayingSlot(), NowPlayingSlot())
        first.start(player: AVPlayer())
        weak var firstSession = MPNowPlayingSession.active
        #expect(firstSession != nil, "the first window's session is active")
        second.start(player: AVPlayer())
        weak var secondSession = MPNowPlayingSession.active
        #expect(
            secondSession != nil && secondSession !== firstSession,
            "the window opened last takes the desktop")
        second.end()
        #expect(secondSession == nil, "the closed window's session went with it")
        #expect(
            MPNowPlayingSession.active === firstSession,
            "the window still open has the desktop again")
        #expect(MPRISService.shared.publishedCenters.info === firstSession?.nowPlayingInfoCenter)
        first.end()
        #expect(MPNowPlayingSession.active == nil)
        #expect(MPRISService.shared.publishedCenters.info === MPNowPlayingInfoCenter.default())
    }

    @Test func withoutASessionBusNoSessionIsMade() {
        unsetenv("DBUS_SESSION_BUS_ADDRESS")
        let slot = NowPlayingSlot()
        slot.start(player: AVPlayer())
        #expect(MPNowPlayingSession.active == nil)
        slot.end()
    }
}
