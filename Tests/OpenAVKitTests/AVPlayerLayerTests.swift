// Playhead: AVPlayerLayer attached to real players: readiness (observable), video rect,
// rotation, detaching.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct AVPlayerLayerTests {
    /// Polls `condition` every 20 ms for up to `timeout` seconds (scaled under sanitizers): a
    /// hang guard, long enough for a main-queue hop while the parallel pass keeps every thread
    /// of the machine busy (10 s was not, twice in six passes on two cores).
    func eventually(timeout: Double = 30, _ condition: () -> Bool) async -> Bool {
        var deadline = PatientDeadline(seconds: timeout)
        while !deadline.hasPassed() {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    func silentPlayer(_ fixture: Fixture) throws -> AVPlayer {
        let item = AVPlayerItem(url: try Fixture.url(fixture))
        return AVPlayer(environment: PlaybackEnvironment(makeAudioOutput: nil), playerItem: item)
    }

    @Test func defaultsMatchAVFoundation() async {
        let layer = AVPlayerLayer()
        #expect(layer.videoGravity == .resizeAspect)
        #expect(layer.player == nil)
        #expect(!layer.isReadyForDisplay)
        #expect(layer.videoRect == .zero)
        #expect(AVLayerVideoGravity.resizeAspectFill.rawValue == "AVLayerVideoGravityResizeAspectFill")
    }

    @Test func becomesReadyForDisplayWithThePlayersFirstPictureAndTellsObservers() async throws {
        let player = try silentPlayer(.mp4)
        let layer = AVPlayerLayer(player: player)
        layer.frame = CGRect(x: 0, y: 0, width: 640, height: 640)
        let changes = Locked<[Bool]>([])
        let observation = layer.observe(\.isReadyForDisplay, options: [.new]) { _, change in
            changes.withLock { $0.append(change.newValue ?? false) }
        }
        player.play()
        #expect(await eventually { layer.isReadyForDisplay })
        #expect(await eventually { changes.withLock { $0 } == [true] })
        // 320×240 (4:3) letterboxed into a square: 640×480, centred.
        #expect(layer.videoRect == CGRect(x: 0, y: 80, width: 640, height: 480))
        player.pause()
        observation.invalidate()
        layer.player = nil
        #expect(await eventually { !layer.isReadyForDisplay })
    }

    @Test func aPicturesNewsArrivingAfterTheClearLeavesTheLayerNotReady() async {
        let layer = AVPlayerLayer()
        layer.slot.put(TestPicture.rgba(width: 16, height: 16) { _, _ in (0, 0, 0) })
        #expect(await eventually { layer.isReadyForDisplay })
        // The presentation thread handed a picture over and left the slot's lock; the player
        // was detached (cleared) before that thread told the layer.
        layer.slot.clear()
        layer.slot.notify(true)
        #expect(await eventually { !layer.isReadyForDisplay })
        await mainQueueDrained()
        #expect(!layer.isReadyForDisplay)
        // Later pictures still make it ready.
        layer.slot.put(TestPicture.rgba(width: 16, height: 16) { _, _ in (0, 0, 0) })
        #expect(await eventually { layer.isReadyForDisplay })
    }

    /// Returns once the main queue ran everything queued before the call.
    func mainQueueDrained() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }

    @Test func aRotatedTrackTurnsTheVideoRect() async throws {
        let player = try silentPlayer(.rotatedMP4)
        let layer = AVPlayerLayer(player: player)
        layer.frame = CGRect(x: 0, y: 0, width: 480, height: 480)
        player.play()
        #expect(await eventually { layer.isReadyForDisplay && player.currentItem?.status == .readyToPlay })
        player.pause()
        // The fixture's display matrix turns the picture a quarter counter-clockwise (see
        // AVAssetTrackTests): 270° clockwise.
        #expect(layer.rotationDegrees() == 270)
        // 320×240 turned a quarter: 240×320 displayed, pillarboxed to 360×480.
        #expect(layer.videoRect == CGRect(x: 60, y: 0, width: 360, height: 480))
    }

    @Test func aDetachedLayerReceivesNoMorePictures() async throws {
        let player = try silentPlayer(.mp4)
        let layer = AVPlayerLayer(player: player)
        player.play()
        #expect(await eventually { layer.isReadyForDisplay })
        layer.player = nil
        let generation = layer.slot.latest().generation
        try await Task.sleep(for: .milliseconds(300))
        #expect(layer.slot.latest().generation == generation)
        #expect(layer.slot.latest().picture == nil)
        player.pause()
    }
}
