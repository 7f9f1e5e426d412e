// Playhead: z and x move the window's subtitles 0.1 s earlier or later and say so for a
// moment; the window keeps the delay and look for its subtitle renderer, merged with the
// item's textStyleRules.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct SubtitleDelayTests {
    let player = FakePlayer()
    let clock = ManualClock(now: 50)
    let controller: PlayerControlsController

    init() {
        controller = PlayerControlsController(
            actions: player, clock: clock, size: CGSize(width: 800, height: 450))
        controller.playbackStateDidChange(PlayerControlsControllerTests.playing)
    }

    @Test func zAndXAreMpvsKeysAndNotSelectionKeys() {
        #expect(ControlCommand.bound(to: .letter("z")) == .changeSubtitleDelay(by: -0.1))
        #expect(ControlCommand.bound(to: .letter("x")) == .changeSubtitleDelay(by: 0.1))
        #expect(SelectionCommand.bound(to: .letter("z")) == nil)
        #expect(SelectionCommand.bound(to: .letter("x")) == nil)
    }

    @Test func stepsAddUpWithoutDriftAndShowTheValue() {
        #expect(controller.scene.subtitleDelayText == nil)
        for _ in 0..<3 { controller.perform(ControlCommand.bound(to: .letter("x"))!) }
        #expect(controller.subtitleDelay == 0.3)
        #expect(controller.scene.subtitleDelayText == "Subtitle delay: +0.3 s")
        for _ in 0..<5 { controller.perform(ControlCommand.bound(to: .letter("z"))!) }
        #expect(controller.subtitleDelay == -0.2)
        #expect(controller.scene.subtitleDelayText == "Subtitle delay: -0.2 s")
        // The player is not touched: the delay is the window's.
        #expect(player.calls.isEmpty)
        clock.advance(by: 1.4)
        #expect(controller.scene.subtitleDelayText != nil)
        clock.advance(by: 0.2)
        #expect(controller.scene.subtitleDelayText == nil)
    }

    @Test func theNewestIndicatorWins() {
        controller.perform(.changeSubtitleDelay(by: 0.1))
        #expect(controller.scene.subtitleDelayText != nil)
        clock.advance(by: 0.1)
        controller.perform(.changeVolume(by: 0.1))
        #expect(controller.scene.subtitleDelayText == nil)
        #expect(controller.scene.volumeIndicator != nil)
        clock.advance(by: 0.1)
        controller.perform(.changeAudioDelay(by: 0.05))
        #expect(controller.scene.audioDelayText != nil)
        clock.advance(by: 0.1)
        controller.perform(.changeSubtitleDelay(by: 0.1))
        #expect(controller.scene.subtitleDelayText == "Subtitle delay: +0.2 s")
        #expect(controller.scene.audioDelayText == nil)
        #expect(controller.scene.volumeIndicator == nil)
    }

    @Test func theTextAndTheBounds() {
        #expect(SubtitleDelay.text(0) == "Subtitle delay: 0.0 s")
        #expect(SubtitleDelay.text(0.25) == "Subtitle delay: +0.25 s")
        #expect(SubtitleDelay.text(-1) == "Subtitle delay: -1.0 s")
        #expect(SubtitleDelay.text(12.3456) == "Subtitle delay: +12.346 s")
        #expect(SubtitleDelay.clamped(1000) == 600)
        #expect(SubtitleDelay.clamped(-.infinity) == -600)
        #expect(SubtitleDelay.clamped(.nan) == 0)
        #expect(SubtitleDelay.adjusted(599.95, by: 0.1) == 600)
    }

    @Test func theWindowKeepsTheDelayAndLookOverTheItemsRules() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        item.textStyleRules = [
            AVTextStyleRule(textMarkupAttributes: [
                kCMTextMarkupAttribute_ForegroundColorARGB: [1, 1, 1, 0],
                kCMTextMarkupAttribute_FontFamilyName: "DejaVu Sans Mono",
                kCMTextMarkupAttribute_RelativeFontSize: 200,
            ])!
        ]
        let player = AVPlayer(
            environment: PlaybackEnvironment(makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: true),
            playerItem: item)
        #expect(await waitOnMainQueue { player.currentItem === item })
        typealias Seen = (delay: Double, font: String?, scale: Double, rendering: SubtitleRendering)
        let seen: Seen? = await withCheckedContinuation { done in
            Thread {
                guard let window = try? PlayerWindow(player: player) else {
                    done.resume(returning: nil)
                    return
                }
                window.subtitleDelay = 0.25
                window.subtitleFontName = "DejaVu Serif"
                window.subtitleScale = 1.5
                window.subtitleScale = -2  // ignored
                done.resume(
                    returning: (window.subtitleDelay, window.subtitleFontName, window.subtitleScale, window.subtitleRendering))
            }.start()
        }
        guard let result = seen else { return }  // no SDL video here
        #expect(result.delay == 0.25)
        #expect(result.font == "DejaVu Serif")
        #expect(result.scale == 1.5)
        #expect(result.rendering.delay == 0.25)
        // The window's font wins over the rules'; the scales multiply; the rules' colour stays.
        #expect(result.rendering.appearance.fontName == "DejaVu Serif")
        #expect(result.rendering.appearance.scale == 3)
        #expect(result.rendering.appearance.textColor == AVSubtitleColor(red: 1, green: 1, blue: 0))
        player.replaceCurrentItem(with: nil)
    }
}
