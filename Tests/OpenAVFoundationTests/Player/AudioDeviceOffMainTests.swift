// Playhead: a sound server that hangs cannot hang the app: the audio device is started,
// stopped and closed off the main queue.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// A clock-driven output whose start, stop and close each block for `hang` seconds first, as
/// a device behind a hung sound server does.
final class HangingAudioOutput: AudioOutput, @unchecked Sendable {
    private let inner: ClockDrivenAudioOutput
    private let hang: Double
    /// Threads that ran start, stop or close: true when one was the main thread.
    private let calledOnMain = Locked(false)
    private let finishedCalls = Locked<[String]>([])
    /// The device calls that finished ("start", "stop", "close"), in order.
    var calls: [String] { finishedCalls.withLock { $0 } }

    init(clock: any HostClock, hang: Double) {
        inner = ClockDrivenAudioOutput(clock: clock)
        self.hang = hang
    }

    var name: String { "hanging" }
    var outputLatency: Double { inner.outputLatency }
    var wasCalledOnMain: Bool { calledOnMain.withLock { $0 } }

    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        try inner.open(format: format, source: source)
    }

    private func blockLikeADevice() {
        if Thread.isMainThread { calledOnMain.withLock { $0 = true } }
        Thread.sleep(forTimeInterval: hang)
    }

    func start() { blockLikeADevice(); inner.start(); finished("start") }
    func stop() { blockLikeADevice(); inner.stop(); finished("stop") }
    func close() { blockLikeADevice(); inner.close(); finished("close") }
    private func finished(_ call: String) { finishedCalls.withLock { $0.append(call) } }
}

@MainActor
@Suite struct AudioDeviceOffMainTests {
    @Test func pauseAndReleaseReturnAtOnceWhileTheDeviceHangs() async throws {
        let output = HangingAudioOutput(clock: SystemHostClock.shared, hang: 6)
        let sinks = VideoSinks()
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: sinks)
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }

        // Each call would block for the device's 6 s if it ran the device on this thread. The
        // time the main thread spent blocked in it is measured, not the wall time a busy
        // machine stretches (the bound is loose; that no device call ran on main is exact).
        let playing = blockedSeconds { player.play() }
        #expect(playing < 3, "play waited \(playing) s for the device")
        let pausing = blockedSeconds { player.pause() }
        #expect(pausing < 3, "pause waited \(pausing) s for the device")
        let releasing = blockedSeconds { player.replaceCurrentItem(with: nil) }
        #expect(releasing < 3, "releasing the item waited \(releasing) s for the device")
        #expect(!output.wasCalledOnMain)
    }

    @Test func pauseReturnsAtOnceWhileTheDevicesStartHangs() async throws {
        let output = HangingAudioOutput(clock: SystemHostClock.shared, hang: 4)
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks())
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        // The device's start is under way (and hangs) on the engine's output queue; what the
        // player reads of the device meanwhile (its latency, for the time) must not wait for it.
        // (The time the main thread spent blocked, not the wall time a busy machine stretches.)
        await mainQueueSleep(nanoseconds: 500_000_000)
        let pausing = blockedSeconds {
            player.pause()
            _ = player.currentTime()
        }
        #expect(pausing < 2, "pause waited \(pausing) s for the device's start")
        let releasing = blockedSeconds { player.replaceCurrentItem(with: nil) }
        #expect(releasing < 2, "releasing the item waited \(releasing) s for the device's start")
    }

    /// A program about to exit waits for lingering audio: a close still queued behind a slow
    /// device call counts, since that close is what plays the item's last audio out (a loaded
    /// machine once let `playhead` exit before it ran, and the tail was never heard).
    @Test func aCloseStillQueuedCountsAsLingeringAudio() async throws {
        let output = HangingAudioOutput(clock: SystemHostClock.shared, hang: 0.5)
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks())
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        await waitUntil("the device started") { output.calls.contains("start") }
        player.replaceCurrentItem(with: nil)
        // The lane's close waits on the engine's output queue; it stops the device (0.5 s).
        // (Other tests' players may keep it from going quiet: the wait then only lasts longer.)
        _ = try await offPool { LingeringAudio.waitUntilQuiet(timeout: 20) }
        #expect(output.calls.contains("stop"), "the program would have exited first: \(output.calls)")
    }
}
