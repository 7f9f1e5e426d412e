// Playhead: the host-app callbacks of a player window: which events, in which order, on the
// main queue; the explicit end-of-item mark behind the replay button.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

/// Collects events and whether each arrived on the main thread.
final class EventLog: Sendable {
    private let entries = Locked<[(PlayerWindowEvent, onMain: Bool)]>([])

    func record(_ event: PlayerWindowEvent) {
        // The main queue (under `swift test` on Linux it is not drained by the main thread).
        let onMain = MainQueue.isCurrent
        entries.withLock { $0.append((event, onMain)) }
    }

    var events: [PlayerWindowEvent] { entries.withLock { $0.map(\.0) } }
    var allOnMain: Bool { entries.withLock { $0.allSatisfy(\.onMain) } }
}

/// Waits, letting the main queue run, until `condition` holds or `timeout` passes (counting
/// only the time this waiter got to look: another test may hold the main queue).
func waitOnMainQueue(timeout: Double = 20, _ condition: () -> Bool) async -> Bool {
    var deadline = PatientDeadline(seconds: timeout)
    while !condition() {
        if deadline.hasPassed() { return false }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(5)) { done.resume() }
        }
    }
    return true
}

@Suite struct PlayerWindowEventsTests {
    static func untimedPlayer() -> AVPlayer {
        AVPlayer(
            environment: PlaybackEnvironment(
                makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: true))
    }

    @Test func statusBufferingAndReadinessChangesAreReportedOnceEachOnTheMainQueue() async throws {
        let log = EventLog()
        let player = AVPlayer()
        let events = PlayerWindowEvents(player: player) { log.record($0) }
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        var state = PlaybackState()
        events.stateDidChange(state, item: item)  // loading
        state.phase = .ready
        events.stateDidChange(state, item: item)  // ready, paused
        events.stateDidChange(state, item: item)  // nothing new
        state.isPlaying = true
        events.stateDidChange(state, item: item)
        state.isWaiting = true
        events.stateDidChange(state, item: item)
        state.isWaiting = false
        events.stateDidChange(state, item: item)
        state.phase = .failed("broken")
        events.stateDidChange(state, item: item)
        #expect(await waitOnMainQueue { log.events.count >= 9 })
        #expect(
            log.events == [
                .statusChanged(.loading), .readyToPlay, .statusChanged(.paused),
                .statusChanged(.playing),
                .bufferingChanged(true), .statusChanged(.buffering), .bufferingChanged(false),
                .statusChanged(.playing), .statusChanged(.failed),
            ])
        #expect(log.allOnMain)
    }

    @Test func playingToTheEndSetsTheEndMarkAndReportsItWithoutError() async throws {
        let log = EventLog()
        let player = Self.untimedPlayer()
        let events = PlayerWindowEvents(player: player) { log.record($0) }
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await waitOnMainQueue { log.events.contains(.playedToEnd(error: nil)) })
        #expect(log.allOnMain)
        let end = player.currentTime().seconds
        #expect(events.isAtEnd(item: item, currentTime: end))
        // Somewhere else, or after a seek or play, the mark no longer holds.
        #expect(!events.isAtEnd(item: item, currentTime: 0))
        events.clearEnd()
        #expect(!events.isAtEnd(item: item, currentTime: end))
    }

    @Test func aFailureBeforeTheEndIsReportedWithItsError() async throws {
        let log = EventLog()
        let player = AVPlayer()
        let events = PlayerWindowEvents(player: player) { log.record($0) }
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: item)
        let error = NSError(
            domain: AVFoundationErrorDomain, code: -11819,
            userInfo: [NSLocalizedDescriptionKey: "lost"])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                NotificationCenter.default.post(
                    name: AVPlayerItem.failedToPlayToEndTimeNotification, object: item,
                    userInfo: [AVPlayerItemFailedToPlayToEndTimeErrorKey: error])
                // Another player's item is not this window's business.
                NotificationCenter.default.post(
                    name: AVPlayerItem.didPlayToEndTimeNotification,
                    object: AVPlayerItem(url: URL(fileURLWithPath: "/x.mp4")))
                done.resume()
            }
        }
        #expect(await waitOnMainQueue { !log.events.isEmpty })
        #expect(log.events == [.playedToEnd(error: error)])
        #expect(log.allOnMain)
        withExtendedLifetime(events) {}
    }

    @Test func controlActionsReportSeeksButtonsAndClearTheEndMark() async throws {
        let log = EventLog()
        let player = Self.untimedPlayer()
        let events = PlayerWindowEvents(player: player) { log.record($0) }
        let bridge = AVPlayerControlsBridge(player: player)
        bridge.events = events
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mp4)))
        bridge.seek(to: 0.5, exact: true)
        bridge.close()
        bridge.showPlaylist()
        let target = CMTime(seconds: 0.5, preferredTimescale: 90_000)
        let seekDone = {
            log.events.contains { event in
                if case .seekFinished(let time, _) = event { return time == target }
                return false
            }
        }
        #expect(await waitOnMainQueue { log.events.count >= 3 && seekDone() })
        #expect(log.events.contains(.closeRequested))
        #expect(log.events.contains(.playlistRequested))
        #expect(log.allOnMain)
    }
}
