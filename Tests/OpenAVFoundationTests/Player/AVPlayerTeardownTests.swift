// Playhead: releasing players stops their engines and frees everything.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Weak references to a player's objects, to check they are freed.
/// Each engine thread retains its engine, and the clock-driven output's render thread retains
/// the output, so both being freed proves all their threads ended.
struct Released {
    weak var player: AVPlayer?
    weak var item: AVPlayerItem?
    weak var engine: ItemPlayback?
    weak var output: AnyObject?

    init(player: AVPlayer?, item: AVPlayerItem?, engine: ItemPlayback?) {
        self.player = player
        self.item = item
        self.engine = engine
        output = engine?.pipeline?.audioOutput
    }

    var isFree: Bool { player == nil && item == nil && engine == nil && output == nil }
}

// Thread counts are process-wide and other suites play media in parallel, so every check of
// "no playhead.* thread left" runs in its own process (an exit test) where nothing else plays.
@MainActor
@Suite struct AVPlayerTeardownTests {
    @Test func releasingAPlayingPlayerFreesThePlayerItemAndEngine() async throws {
        let released = try await TeardownScenarios.playAndRelease(.mp4, clock: SystemHostClock.shared, audio: true)
        await waitUntil("objects freed") { released.isFree }
    }

    @Test func releasingAPlayerWithAFailedItemFreesIt() async throws {
        var item: AVPlayerItem? = AVPlayerItem(url: try BadInput.url(.truncatedMP4))
        var player: AVPlayer? = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("failed") { item?.status == .failed }
        let released = Released(player: player, item: item, engine: player.flatMap(engine(of:)))
        item = nil
        player = nil
        await waitUntil("objects freed") { released.isFree }
    }

    @Test func replacedItemsAndTheirEnginesAreFreed() async throws {
        let player = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock.shared, audio: true))
        var released: [Released] = []
        for fixture in [Fixture.mp4, .wav, .mov] {
            player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(fixture)))
            player.play()
            await waitUntil("playing") { startedPlaying(player) }
            released.append(Released(player: nil, item: player.currentItem, engine: engine(of: player)))
        }
        player.replaceCurrentItem(with: nil)
        await waitUntil("old items and engines freed") { released.allSatisfy(\.isFree) }
    }

    @Test func manyCreatePlaySeekReleaseCyclesFreeEverything() async throws {
        let clock = ManualClock()
        var released: [Released] = []
        for index in 0..<20 {
            let fixture: Fixture = [.mp4, .wav, .webM, .mov][index % 4]
            released.append(
                try await TeardownScenarios.playAndRelease(fixture, clock: clock, audio: fixture == .wav || index % 2 == 0))
            clock.advance(by: 0.1)
        }
        await waitUntil("objects freed") { released.allSatisfy(\.isFree) }
    }

    /// Counts "playhead.*" threads process-wide, so it needs a process where nothing else plays:
    /// run it alone with `PLAYHEAD_THREAD_AUDIT=1 swift test --filter engineThreadsReturnToBaseline`.
    /// (An exit test would isolate it, but the child process does not service the main queue.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_THREAD_AUDIT"] != nil))
    func engineThreadsReturnToBaseline() async {
        let failures = await TeardownScenarios.runAll()
        #expect(failures.isEmpty, "\(failures)")
    }
}

/// Teardown scenarios, each checking that the playhead.* threads return to their baseline.
@MainActor
enum TeardownScenarios {
    /// Creates a player, plays and seeks, then drops every strong reference.
    static func playAndRelease(_ fixture: Fixture, clock: any HostClock, audio: Bool) async throws -> Released {
        var item: AVPlayerItem? = AVPlayerItem(url: try Fixture.url(fixture))
        var player: AVPlayer? = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: clock, audio: audio), playerItem: item)
        player?.play()
        await waitUntil("playing") { player.map(startedPlaying) ?? true }
        let seeks = CompletionLog()
        player?.seek(to: CMTime(value: 1, timescale: 1), completionHandler: seeks.handler())
        await waitUntil("seek in \(fixture), audio \(audio)") { !seeks.results.isEmpty }
        let released = Released(player: player, item: item, engine: player.flatMap(engine(of:)))
        item = nil
        player = nil
        return released
    }

    /// Runs every scenario; returns what went wrong.
    static func runAll() async -> [String] {
        var failures: [String] = []
        func check(_ what: String, _ body: () async throws -> [Released]) async {
            let baseline = playheadThreadNames().sorted()
            do {
                let released = try await body()
                let deadline = Date().addingTimeInterval(1.5)
                while playheadThreadNames().sorted() != baseline || !released.allSatisfy(\.isFree) {
                    if Date() > deadline {
                        failures.append(
                            "\(what): threads \(playheadThreadNames().sorted()) (baseline \(baseline)), "
                                + "\(released.filter { !$0.isFree }.count) objects alive")
                        return
                    }
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
            } catch {
                failures.append("\(what): \(error)")
            }
        }
        await check("one playing player, real time, with audio") {
            [try await playAndRelease(.mp4, clock: SystemHostClock.shared, audio: true)]
        }
        await check("players released right after creation") {
            var released: [Released] = []
            for fixture in [Fixture.mp4, .wav, .matroska] {
                var player: AVPlayer? = AVPlayer(
                    environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock.shared, audio: true),
                    playerItem: AVPlayerItem(url: try Fixture.url(fixture)))
                player?.play()
                released.append(
                    Released(player: player, item: player?.currentItem, engine: player.flatMap(engine(of:))))
                player = nil
            }
            return released
        }
        await check("20 create, play, seek, release cycles") {
            let clock = ManualClock()
            var released: [Released] = []
            for index in 0..<20 {
                let fixture: Fixture = [.mp4, .wav, .webM, .mov][index % 4]
                released.append(
                    try await playAndRelease(fixture, clock: clock, audio: fixture == .wav || index % 2 == 0))
                clock.advance(by: 0.1)
            }
            return released
        }
        await check("replaced items") {
            let player = AVPlayer(
                environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock.shared, audio: true))
            var released: [Released] = []
            for fixture in [Fixture.mp4, .wav, .mov, .mp4] {
                player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(fixture)))
                player.play()
                while player.timeControlStatus != .playing { await mainQueueSleep(nanoseconds: 5_000_000) }
                released.append(Released(player: nil, item: player.currentItem, engine: engine(of: player)))
            }
            player.replaceCurrentItem(with: nil)
            return released
        }
        return failures
    }
}
