// Playhead: both loading APIs — `load(_:)` and `loadValuesAsynchronously` with
// `statusOfValue(forKey:error:)` — and that loading never blocks its caller.
import FFmpegBridge
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite("Asset loading")
struct AssetLoadingTests {
    // MARK: - async load

    @Test func loadReturnsDurationAndTracksTogether() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(duration.seconds == 2)
        #expect(tracks.map(\.mediaType) == [.video, .audio])
        // Loading again returns the very same track objects.
        let again = try await asset.load(.tracks)
        #expect(zip(tracks, again).allSatisfy { $0 === $1 })
        if case .loaded(let value) = asset.status(of: .duration) {
            #expect(value == duration)
        } else {
            Issue.record("duration should be loaded")
        }
    }

    @Test func statusOfAPropertyMovesFromNotYetLoadedToLoaded() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.flac))
        guard case .notYetLoaded = asset.status(of: .duration) else {
            Issue.record("a fresh asset has loaded nothing")
            return
        }
        _ = try await asset.load(.tracks)
        guard case .notYetLoaded = asset.status(of: .duration) else {
            Issue.record("duration was never requested")
            return
        }
        _ = try await asset.load(.duration)
        guard case .loaded(let duration) = asset.status(of: .duration) else {
            Issue.record("duration should be loaded")
            return
        }
        #expect(duration.seconds == 2)
    }

    @Test func concurrentLoadsShareOneInspection() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.matroska))
        let trackLists = try await withThrowingTaskGroup(of: [AVAssetTrack].self) { group in
            for _ in 0..<8 { group.addTask { try await asset.load(.tracks) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let first = try #require(trackLists.first)
        #expect(first.count == 4)
        for list in trackLists {
            #expect(zip(list, first).allSatisfy { $0 === $1 })
        }
    }

    /// Main-actor state touched by the task that runs while an asset loads.
    @MainActor final class Ticker {
        var ticks = 0
        var statusSeen: AVKeyValueStatus?
    }

    /// Runs `load` on the main actor and checks that another main-actor task ran before it
    /// returned, i.e. that loading suspended the main actor instead of blocking it.
    @MainActor func expectMainActorRunsWhileLoading(
        _ asset: AVURLAsset, sourceLocation: SourceLocation = #_sourceLocation,
        _ load: () async throws -> Void
    ) async throws {
        let state = Ticker()
        let ticked = DispatchSemaphore(value: 0)
        // Main-actor work that can only run while this test is suspended.
        let ticker = Task { @MainActor in
            state.ticks += 1
            state.statusSeen = asset.statusOfValue(forKey: "tracks", error: nil)
            ticked.signal()
        }
        // A gate: the inspection calls its waiters in order, so `load`'s own completion (queued
        // after this one) cannot resume the test before the ticker has run on the main actor.
        // Were `load` to block the main actor, the ticker could not run and the gate would give
        // up after 30 s, leaving `ticks` at 0.
        asset.loadValuesAsynchronously(forKeys: ["duration"]) { _ = ticked.wait(timeout: .now() + 30) }
        let stillLoading = asset.statusOfValue(forKey: "duration", error: nil) == .loading
        try await load()
        if stillLoading {
            #expect(state.ticks == 1, "load must suspend, not block, the main actor", sourceLocation: sourceLocation)
            // "tracks" was requested by `load`, so the ticker ran after loading had begun.
            #expect(state.statusSeen != .unknown && state.statusSeen != nil, sourceLocation: sourceLocation)
        }
        await ticker.value
    }

    @MainActor @Test func loadingFromTheMainActorLetsOtherMainActorWorkRun() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.webM))
        try await expectMainActorRunsWhileLoading(asset) {
            let (duration, tracks) = try await asset.load(.duration, .tracks)
            #expect(duration.isNumeric && tracks.count == 2)
        }
    }

    @MainActor @Test func aFailingLoadDoesNotBlockTheMainActorEither() async throws {
        let asset = AVURLAsset(url: try BadInput.url(.truncatedMP4))
        try await expectMainActorRunsWhileLoading(asset) {
            let error = await loadingError { _ = try await asset.load(.duration, .tracks) }
            #expect(error?.localizedDescription.hasPrefix("damaged or truncated media file") == true)
        }
    }

    @MainActor @Test func legacyLoadingReturnsAtOnceOnTheMainActor() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.oggTheora))
        let done = Locked(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Opening the file takes I/O; the call itself must not wait for it (time blocked,
            // which a busy machine does not inflate).
            let stopwatch = TransferStopwatch()
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) {
                done.withLock { $0 = true }
                continuation.resume()
            }
            let blocked = stopwatch.elapsedWaiting
            // Still inside the call's caller: the handler has not run on this actor yet.
            #expect(blocked < 0.25, "the call waited \(blocked) s")
        }
        #expect(done.withLock { $0 })
    }

    // MARK: - Legacy API

    @Test func legacyLoadingReportsEachRequestedKeyLoaded() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks", "playable", "commonMetadata"]) {
                done.resume()
            }
        }
        for key in ["duration", "tracks", "playable", "commonMetadata"] {
            #expect(asset.statusOfValue(forKey: key, error: &error) == .loaded, "\(key)")
        }
        #expect(error == nil)
        // A loadable key that was never requested is still unknown.
        #expect(asset.statusOfValue(forKey: "hasProtectedContent", error: &error) == .unknown)
        #expect(asset.duration.seconds == 2)
        #expect(asset.tracks.count == 2)
        #expect(asset.isPlayable)
    }

    @Test func legacyLoadingOfAnUnknownKeyFailsWithAnError() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.wav))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["duration", "frobnication"]) { done.resume() }
        }
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "frobnication", error: &error) == .failed)
        #expect(error?.localizedDescription.contains("frobnication") == true)
        var durationError: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &durationError) == .loaded)
        #expect(durationError == nil)
    }

    @Test func legacyLoadingOfABadInputFailsWithTheReason() async throws {
        let asset = AVURLAsset(url: try BadInput.url(.missingFile))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) { done.resume() }
        }
        for key in ["duration", "tracks"] {
            var error: NSError?
            #expect(asset.statusOfValue(forKey: key, error: &error) == .failed)
            #expect(error?.localizedDescription == "no such file")
            #expect(error?.domain == NSURLErrorDomain)
            #expect(error?.code == NSURLErrorFileDoesNotExist)
        }
        guard case .failed(let error) = asset.status(of: .duration) else {
            Issue.record("status(of:) should say failed")
            return
        }
        #expect(error.localizedDescription == "no such file")
    }

    @Test func aLoadedAssetCallsLaterHandlersToo() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.aiff))
        _ = try await asset.load(.duration)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["tracks"]) { done.resume() }
        }
        #expect(asset.statusOfValue(forKey: "tracks", error: nil) == .loaded)
    }

    @Test func cancellingBeforeLoadingReportsCancelled() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        asset.cancelLoading()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["duration"]) { done.resume() }
        }
        #expect(asset.statusOfValue(forKey: "duration", error: nil) == .cancelled)
        await #expect(throws: CancellationError.self) { try await asset.load(.duration) }
        #expect(asset.duration == .invalid)
        #expect(asset.tracks.isEmpty)
    }
}
