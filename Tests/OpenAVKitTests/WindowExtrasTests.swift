// Playhead: the playlist panel's geometry and jumps, and the seek-preview cache (no window).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

@MainActor
@Suite struct WindowExtrasTests {
    let controls = ControlsLayout(size: CGSize(width: 800, height: 450))

    @Test func thePanelSitsUnderTheTopBarWithOneRowPerItem() {
        let layout = PlaylistPanelLayout(controls: controls, rowCount: 3)
        #expect(layout.button.maxX == controls.closeButton.minX)
        #expect(layout.button.height == ControlsLayout.topBarHeight)
        #expect(layout.panel.minY > controls.topBar.maxY && layout.panel.maxX <= 800)
        #expect(layout.rows.count == 3)
        #expect(layout.row(at: CGPoint(x: layout.panel.midX, y: layout.rows[1].midY)) == 1)
        #expect(layout.row(at: CGPoint(x: 10, y: 200)) == nil)
        // Many items: only as many rows as fit above the bottom bar.
        let long = PlaylistPanelLayout(controls: ControlsLayout(size: CGSize(width: 400, height: 240)), rowCount: 50)
        #expect(long.rows.count >= 1 && (long.rows.last?.maxY ?? 0) <= 240 - ControlsLayout.bottomBarHeight)
    }

    @Test func rowsMarkTheCurrentItemAndAClickJumpsForward() async throws {
        let urls = [try Fixture.url(.mp4), try Fixture.url(.webM), try Fixture.url(.videoOnlyMP4)]
        let items = urls.map { AVPlayerItem(url: $0) }
        let environment = PlaybackEnvironment(makeAudioOutput: nil, videoSinks: VideoSinks())
        let player = AVQueuePlayer(environment: environment, items: items)
        let rows = PlaylistNavigator.rows(of: player)
        #expect(rows.map(\.isCurrent) == [true, false, false])
        #expect(rows.map(\.title) == urls.map(\.lastPathComponent))
        #expect(PlaylistNavigator.jump(player, toIndex: 2))
        #expect(player.currentItem === items[2])
        #expect(PlaylistNavigator.rows(of: player).map(\.isCurrent) == [true])
        #expect(!PlaylistNavigator.jump(player, toIndex: 5))
        #expect(PlaylistNavigator.rows(of: AVPlayer()).isEmpty, "a plain player has no playlist")
        player.removeAllItems()
    }

    @Test func previewsAreGeneratedOncePerBucketAndCached() async throws {
        #expect(SeekPreviewCache.bucket(forFraction: 0) == 0)
        #expect(SeekPreviewCache.bucket(forFraction: 1) == SeekPreviewCache.bucketCount - 1)
        #expect(SeekPreviewCache.bucket(forFraction: 2) == SeekPreviewCache.bucketCount - 1)
        #expect(SeekPreviewCache.seconds(ofBucket: SeekPreviewCache.bucketCount - 1, duration: 80) == 80)
        let ready = Locked(0)
        let cache = SeekPreviewCache { ready.withLock { $0 += 1 } }
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        #expect(cache.image(forFraction: 0.5, of: item, duration: 2) == nil, "generated in the background")
        #expect(cache.image(forFraction: 0.501, of: item, duration: 2) == nil, "same bucket: one request")
        let deadline = Date().addingTimeInterval(20)
        while ready.withLock({ $0 }) == 0 && Date() < deadline {
            await withCheckedContinuation { done in
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { done.resume() }
            }
        }
        #expect(ready.withLock { $0 } == 1)
        let image = try #require(cache.image(forFraction: 0.5, of: item, duration: 2))
        #expect(image.width <= 160 && image.height <= 90 && image.width > 0)
        #expect(cache.count == 1)
        // Another item starts a fresh cache.
        let other = AVPlayerItem(url: try Fixture.url(.webM))
        #expect(cache.image(forFraction: 0.5, of: other, duration: 2) == nil)
        #expect(cache.count == 0)
    }
}
