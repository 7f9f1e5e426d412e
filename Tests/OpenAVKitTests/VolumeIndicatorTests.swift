// Playhead: the volume indicator shows for a moment after ↑/↓, the wheel or m, and is drawn
// below the top bar with the level and the percentage.
import Foundation
import OpenAVFoundation
import Testing

@testable import OpenAVKit

@Suite struct VolumeIndicatorTests {
    let player = FakePlayer()
    let clock = ManualClock(now: 50)
    let controller: PlayerControlsController

    init() {
        controller = PlayerControlsController(
            actions: player, clock: clock, size: CGSize(width: 800, height: 450))
        controller.playbackStateDidChange(PlayerControlsControllerTests.playing)
    }

    @Test func volumeKeysWheelAndMuteShowItForASecondAndAHalf() {
        #expect(controller.scene.volumeIndicator == nil)
        for command in [
            ControlCommand.changeVolume(by: 0.1), .changeVolume(by: -0.1), .wheel(notches: 2)!,
            .toggleMute,
        ] {
            controller.perform(command)
            #expect(controller.scene.volumeIndicator != nil, "\(command)")
            clock.advance(by: 1.4)
            #expect(controller.scene.volumeIndicator != nil, "\(command)")
            clock.advance(by: 0.2)
            #expect(controller.scene.volumeIndicator == nil, "\(command)")
        }
        // Other commands do not show it.
        controller.perform(.seek(by: 5))
        #expect(controller.scene.volumeIndicator == nil)
    }

    @Test func minusAndEqualsShiftTheSoundInFiftyMillisecondStepsAndSaySo() {
        #expect(ControlCommand.bound(to: .minus) == .changeAudioDelay(by: -0.05))
        #expect(ControlCommand.bound(to: .equals) == .changeAudioDelay(by: 0.05))
        controller.perform(.changeVolume(by: 0.1))
        for key: PlayerKeyInput in [.equals, .equals] { controller.perform(ControlCommand.bound(to: key)!) }
        #expect(player.calls.suffix(2) == [.audioDelay(0.05), .audioDelay(0.1)])
        // The newer indicator replaces the volume's in the same place.
        #expect(controller.scene.audioDelayText == "Audio delay +100 ms")
        #expect(controller.scene.volumeIndicator == nil)
        var state = PlayerControlsControllerTests.playing
        state.audioDelay = -0.2
        controller.playbackStateDidChange(state)
        controller.perform(.changeAudioDelay(by: -0.05))
        #expect(player.calls.last == .audioDelay(-0.25))
        #expect(controller.scene.audioDelayText == "Audio delay -250 ms")
        clock.advance(by: 1.6)
        #expect(controller.scene.audioDelayText == nil)
    }

    @Test func itShowsWhatThePlayerReports() {
        var state = PlayerControlsControllerTests.playing
        state.volume = 0.7
        controller.playbackStateDidChange(state)
        controller.perform(.changeVolume(by: 0.1))
        #expect(controller.scene.volumeIndicator == VolumeIndicator(level: 0.7, isMuted: false))
        #expect(controller.scene.volumeIndicator?.text == "70%")
        state.isMuted = true
        controller.playbackStateDidChange(state)
        #expect(controller.scene.volumeIndicator?.text == "Muted")
    }

    @Test func itIsDrawnBelowTheTopBarWithTheLevelFilled() throws {
        let target = try RenderTarget(offscreenWidth: 800, height: 450)
        let shapes = Shapes(renderer: target.renderer)
        shapes.fill(CGRect(x: 0, y: 0, width: 800, height: 450), .init(0, 0, 0))
        let layout = ControlsLayout(size: CGSize(width: 800, height: 450))
        ControlsRenderer(target: target).drawVolumeIndicator(
            VolumeIndicator(level: 0.5, isMuted: false), layout: layout)
        let box = ControlsRenderer.volumeIndicatorBox(in: layout)
        let trackStart = box.minX + 14
        let trackY = Int(box.midY)
        // The first half of the track is white (the level), the second half grey.
        let filled = target.pixel(x: Int(trackStart + 30), y: trackY)
        let empty = target.pixel(x: Int(trackStart + 110), y: trackY)
        #expect(filled.red > 240 && filled.green > 240)
        #expect(empty.red > 60 && empty.red < 120)
        // Outside the box nothing is drawn.
        #expect(target.pixel(x: Int(box.minX) - 5, y: trackY).red == 0)
    }
}
