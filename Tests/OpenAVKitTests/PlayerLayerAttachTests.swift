// Playhead: a layer attached to a player that is not playing shows the current frame at once,
// as an AVPlayerLayer attached to a paused AVPlayer does.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct PlayerLayerAttachTests {
    @Test func aLayerAttachedWhileStoppedShowsTheCurrentFrameAndNothingAfterTheItemGoes()
        async throws
    {
        let player = AVPlayer(
            environment: PlaybackEnvironment(
                makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: true))
        let first = AVPlayerLayer(player: player)
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mp4)))
        player.play()
        let stopped = await waitOnMainQueue {
            player.currentItem?.status == .readyToPlay && player.rate == 0 && first.slot.latest().picture != nil
        }
        let state =
            "status \(String(describing: player.currentItem?.status.rawValue)), rate \(player.rate), "
            + "picture \(first.slot.latest().picture != nil), time \(player.currentTime().seconds)"
        #expect(stopped, "played to the end with a picture: \(state)")
        let shown = try #require(first.slot.latest().picture)

        // Playback has stopped (at the end): no frame will come, yet a new layer has a picture.
        let late = AVPlayerLayer(player: player)
        let picture = try #require(
            late.slot.latest().picture, "the current frame should be replayed to a new layer")
        #expect(picture === shown)
        #expect(await waitOnMainQueue { late.isReadyForDisplay })

        // Once the item is gone there is no current frame to show.
        player.replaceCurrentItem(with: nil)
        #expect(await waitOnMainQueue { first.slot.latest().picture == nil })
        let afterwards = AVPlayerLayer(player: player)
        #expect(afterwards.slot.latest().picture == nil)
        withExtendedLifetime(first) {}
    }
}
