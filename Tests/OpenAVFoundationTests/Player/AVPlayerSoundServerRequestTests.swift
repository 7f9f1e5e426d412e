// Playhead: the sound server's own requests to pause and resume (PulseAudio's cork requests
// while a call plays) reach the player as an interruption does on Apple platforms: the rate
// goes to 0 and back with `.audioSessionInterrupted`, time stands meanwhile, and an app that
// set the rate during the interruption keeps its choice. The real server's side is in
// OpenAVKitTests/PulseCorkRequestTests.swift.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// An output on the manual clock whose test plays the sound server, sending requests.
private final class RequestingAudioOutput: AudioOutput, @unchecked Sendable {
    let base: ClockDrivenAudioOutput
    private let handler = Locked<(@Sendable (SoundServerRequest) -> Void)?>(nil)

    init(clock: any HostClock) { base = ClockDrivenAudioOutput(clock: clock) }

    var name: String { "requesting" }
    var outputLatency: Double { base.outputLatency }
    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        try base.open(format: format, source: source)
    }
    func start() { base.start() }
    func stop() { base.stop() }
    func close() { base.close() }
    func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    /// Sends `request` as a sound server would (off the main queue); false while nobody listens.
    func send(_ request: SoundServerRequest) -> Bool {
        guard let handler = handler.withLock({ $0 }) else { return false }
        DispatchQueue.global().async { handler(request) }
        return true
    }
}

/// The reasons of the rate changes posted for one player, in order ("none" for none).
@MainActor
private final class RateReasons {
    private let reasons = Locked<[String]>([])
    nonisolated(unsafe) private var token: (any NSObjectProtocol)?

    init(_ player: AVPlayer) {
        let reasons = self.reasons
        token = NotificationCenter.default.addObserver(forName: AVPlayer.rateDidChangeNotification, object: player, queue: nil) {
            note in
            let reason = note.userInfo?[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason
            reasons.withLock { $0.append(reason.map { $0 == .audioSessionInterrupted ? "interrupted" : "app" } ?? "none") }
        }
    }

    var values: [String] { reasons.withLock { $0 } }

    isolated deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }
}

@MainActor
@Suite struct AVPlayerSoundServerRequestTests {
    /// A player of a clip with sound on a manual clock, playing at `rate` 0.2 s in.
    private func playing(rate: Float = 1) async throws -> (AVPlayer, AVPlayerItem, RequestingAudioOutput, ManualClock) {
        let clock = ManualClock()
        let output = RequestingAudioOutput(clock: clock)
        let environment = PlaybackEnvironment(
            hostClock: clock, makeAudioOutput: { @Sendable in output }, videoSinks: VideoSinks())
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.rate = rate
        await advance(clock, by: 0.2, thenUpTo: 1) { item.currentTime().seconds >= 0.2 }
        return (player, item, output, clock)
    }

    @Test func aRequestToPauseStopsTimeAndTheRequestToResumeBringsTheRateBack() async throws {
        let (player, item, output, clock) = try await playing(rate: 1.5)
        let reasons = RateReasons(player)
        #expect(output.send(.pause))
        await waitUntil("paused for the server") { player.rate == 0 }
        #expect(player.timeControlStatus == .paused)
        let stood = item.currentTime()
        await advance(clock, by: 0.3)
        #expect(item.currentTime() == stood, "time stands while the call plays")
        #expect(output.send(.resume))
        await waitUntil("resumed") { player.rate == 1.5 }
        await advance(clock, by: 0.2, thenUpTo: 1) { item.currentTime() > stood }
        #expect(item.currentTime() > stood)
        #expect(reasons.values == ["interrupted", "interrupted"])
        player.pause()
    }

    @Test func aSpeedChosenDuringTheInterruptionIsTheOneResumed() async throws {
        let (player, _, output, _) = try await playing(rate: 1.5)
        #expect(output.send(.pause))
        await waitUntil("paused for the server") { player.rate == 0 }
        // The speed menu sets the default rate while paused.
        player.defaultRate = 2
        #expect(output.send(.resume))
        await waitUntil("resumed at the chosen speed") { player.rate == 2 }
        player.pause()
    }

    @Test func anAppThatSetsTheRateDuringTheInterruptionKeepsItsChoice() async throws {
        let (player, _, output, _) = try await playing()
        let reasons = RateReasons(player)
        #expect(output.send(.pause))
        await waitUntil("paused for the server") { player.rate == 0 }
        // The app pauses as well (its own choice): the end of the call does not resume.
        player.pause()
        #expect(output.send(.resume))
        await mainQueueSleep(nanoseconds: 200_000_000)
        #expect(player.rate == 0)
        // A request to resume with no interruption before it, or to pause a paused player,
        // changes nothing.
        #expect(output.send(.pause))
        #expect(output.send(.resume))
        await mainQueueSleep(nanoseconds: 200_000_000)
        #expect(player.rate == 0)
        #expect(reasons.values == ["interrupted"])
    }

    @Test func anotherItemDuringTheInterruptionIsNotStartedByItsEnd() async throws {
        let (player, _, output, _) = try await playing()
        #expect(output.send(.pause))
        await waitUntil("paused for the server") { player.rate == 0 }
        let next = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: next)
        await waitUntil("the next item is ready") { next.status == .readyToPlay }
        #expect(output.send(.resume))
        await mainQueueSleep(nanoseconds: 200_000_000)
        #expect(player.rate == 0, "an item the user never played is not started")
    }

    @Test func aPlayerPausedByTheAppStaysPausedThroughACall() async throws {
        let (player, _, output, _) = try await playing()
        // (The app's own change is heard before the call begins, however late it is posted.)
        let before = RateReasons(player)
        player.pause()
        await waitUntil("paused by the app") { player.rate == 0 && before.values == ["app"] }
        let reasons = RateReasons(player)
        #expect(output.send(.pause))
        #expect(output.send(.resume))
        await mainQueueSleep(nanoseconds: 200_000_000)
        #expect(player.rate == 0)
        #expect(reasons.values.isEmpty)
    }
}
