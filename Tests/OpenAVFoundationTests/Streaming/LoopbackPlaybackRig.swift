// Playhead test support: a stream played from a loopback server step by step on a manual
// clock, for the serial pass's `OverLoopback` tests (audio renditions, audio tiers).
//
// Concurrency: main actor; the engine's threads run as in playback, the clock moves only when
// the test steps it.
import Foundation
import PlayheadTestSupport
import Synchronization
import Testing

@testable import OpenAVFoundation

/// A stream played from a loopback server on a manual clock into a recording audio output
/// (4 s forward buffer), the engine's threads real; `startsHigh` starts it on its highest
/// variant (as if this process had measured a fast server).
@MainActor
struct LoopbackPlaybackRig {
    let server: LoopbackHTTPServer
    let clock = ManualClock()
    let output: RecordingAudioOutput
    let item: AVPlayerItem
    let player: AVPlayer
    let pipeline: Pipeline
    let ring: AudioRingBuffer
    /// Set once stepping failed: later steps are not taken (each would wait out its guard).
    private let stuck = Locked(false)

    init(_ server: LoopbackHTTPServer, path: String, startsHigh: Bool = false) async throws {
        self.server = server
        if startsHigh { ProcessThroughput.remember(50_000_000, for: HLSStreamLoader.serverKey(server.url(for: ""))) }
        output = RecordingAudioOutput(clock: clock)
        item = AVPlayerItem(url: server.url(for: path))
        item.preferredForwardBufferDuration = 4
        let output = output
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: item)
        self.player = player
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // The engine starts the output a moment later: the clock waits for it.
        await waitUntil("the output runs") { output.isRunning }
        pipeline = try #require(engine(of: player)?.pipeline)
        ring = try #require(pipeline.ring)
    }

    /// Advances in 10 ms steps, letting the real-time threads refill the ring first (a hang
    /// guard that counts only the time this test got to look). A ring that stays empty, or an
    /// output that does not catch up, fails the test with where playback stands and ends the
    /// stepping (instead of waiting out the guard at every step that is left).
    func play(for seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<Int((seconds / 0.01).rounded()) where !stuck.withLock({ $0 }) {
            var refill = PatientDeadline(seconds: 20)
            while ring.bufferedDuration.seconds < 0.1, player.timeControlStatus != .paused,
                !(pipeline.audioPackets.statistics.endOfStreamMarked && pipeline.audioPackets.statistics.isEmpty)
            {
                if refill.hasPassed() {
                    Issue.record("the ring was not refilled: \(state())", sourceLocation: sourceLocation)
                    stuck.withLock { $0 = true }
                    return
                }
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            clock.advance(by: 0.01)
            guard await output.caughtUp() else {
                Issue.record("the output did not catch up: \(state())", sourceLocation: sourceLocation)
                stuck.withLock { $0 = true }
                return
            }
        }
    }

    /// Positive-going zero crossings per second of the mono 48 kHz sound heard from `from`
    /// seconds for `length` seconds (0 when it does not reach that far); nil `from`: the
    /// last `length` seconds.
    func tone(from: Double? = nil, length: Double) -> Double {
        let samples = output.samples
        let count = Int(length * 48_000)
        let first = from.map { Int($0 * 48_000) } ?? samples.count - count
        guard first >= 0, first + count <= samples.count, count > 1 else { return 0 }
        var crossings = 0
        for index in (first + 1)..<(first + count) where samples[index - 1] < 0 && samples[index] >= 0 { crossings += 1 }
        return Double(crossings) / length
    }

    /// Where playback stands, for a failure's message.
    func state() -> String {
        let audio = pipeline.audioPackets.statistics, video = pipeline.videoPackets.statistics
        return "item \(player.currentTime().seconds) s at clock \(clock.now), status \(item.status.rawValue) "
            + "\(String(describing: item.error)), rate \(player.rate) \(player.timeControlStatus.rawValue) "
            + "\(player.reasonForWaitingToPlay?.rawValue ?? "-") engine \(engine(of: player)?.coordinator.read { $0.rate } ?? -1), "
            + "ring \(ring.bufferedDuration.seconds) s in \(ring.markerWrite.load(ordering: .relaxed) - ring.markerRead.load(ordering: .relaxed)) chunks, "
            + "audio queue \(audio.count) ended \(audio.endOfStreamMarked), video queue \(video.count) ended "
            + "\(video.endOfStreamMarked), routed \(String(describing: pipeline.switchboard.routedAudio)), errors "
            + "\(item.errorLog()?.events.map(\.errorComment) ?? []), "
            + "requests \(server.requests.map(\.path))"
    }

    /// The paths the server was asked for that start with `prefix`, in order.
    func requested(_ prefix: String) -> [String] { server.requests.map(\.path).filter { $0.hasPrefix(prefix) } }
}
