// Playhead: plain subtitles (here EIA-608 captions, which FFmpeg hands over as ASS events
// with no styles of their own) drawn by the window's libass renderer: the default look, the
// item's text style rules, the subtitle delay, and HiDPI output at the screen's pixels.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@MainActor
@Suite(.serialized) struct LibassPlainSubtitleTests {
    typealias Rendering = LibassRenderingTests
    /// The captions' clip: 160x120 at 25 fps, "Hello world" 1–2 s, "Second line" 3–4 s.
    static let frameRate = 25

    /// Counts pixels of the lower half of `drawn` (a 640x480 target) that `matches` accepts.
    static func count(_ drawn: Rendering.Drawn, width: Int = 640, height: Int = 480,
                      _ matches: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var found = 0
        for y in (height / 2)..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                if matches(drawn.rgb[offset], drawn.rgb[offset + 1], drawn.rgb[offset + 2]) { found += 1 }
            }
        }
        return found
    }

    /// The box around the white pixels of the lower half.
    static func whiteBox(_ drawn: Rendering.Drawn, width: Int, height: Int) -> (x: Int, width: Int, height: Int)? {
        var left = Int.max, right = -1, top = Int.max, bottom = -1
        for y in (height / 2)..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                guard white(drawn.rgb[offset], drawn.rgb[offset + 1], drawn.rgb[offset + 2]) else { continue }
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        return right < 0 ? nil : (left, right - left + 1, bottom - top + 1)
    }

    static func white(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 220 && g > 220 && b > 220 }
    static func red(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g < 60 && b < 60 }

    @Test func captionsShowWhiteAtTheBottomAndTextStyleRulesRecolourThem() async throws {
        let (player, layer) = try await Rendering.pausedPlayer(try CaptionMedia.h264SEI.url())
        defer { player.replaceCurrentItem(with: nil) }
        let plain = try await Rendering.draw(
            frame: 35, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate)
        #expect(Self.count(plain, Self.white) > 200, "white caption text in the lower half")
        #expect(plain.picture.y + plain.picture.height > 400, "placed near the bottom")
        // mpv's default size: capitals about 55/720 of the height high, the box a bit taller.
        #expect((30...70).contains(plain.picture.height), "text height \(plain.picture.height) px")

        let item = try #require(player.currentItem)
        item.textStyleRules = [
            try #require(AVTextStyleRule(textMarkupAttributes: [
                kCMTextMarkupAttribute_ForegroundColorARGB: [1.0, 1.0, 0.0, 0.0],
                kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight: 12.0,
            ]))
        ]
        let styled = try await Rendering.draw(
            frame: 35, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate
        ) { $0.appearance = item.subtitleAppearance }
        #expect(Self.count(styled, Self.red) > 200, "the rule's red")
        #expect(Self.count(styled, Self.white) < 20, "no white text left")
        #expect(styled.picture.height > plain.picture.height * 5 / 4, "12% of the height is bigger")
    }

    @Test func bottomSubtitlesAreLiftedAboveTheControlBar() async throws {
        let (player, layer) = try await Rendering.pausedPlayer(try CaptionMedia.h264SEI.url())
        defer { player.replaceCurrentItem(with: nil) }
        let drawn = try await Rendering.draw(
            frame: 35, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate)
        let bottom = CGFloat(drawn.picture.y + drawn.picture.height)
        #expect(drawn.subtitles.lift(above: 480) == 0, "no bar: the subtitle stays where libass put it")
        #expect(bottom > 400, "the caption sits in the bottom 80 px")
        let lifted = drawn.subtitles.lift(above: 400)
        #expect(bottom - lifted <= 400, "lifted \(lifted) pt so its bottom (\(bottom)) clears the bar")
    }

    @Test func theDelayMovesSubtitlesLater() async throws {
        let (player, layer) = try await Rendering.pausedPlayer(try CaptionMedia.h264SEI.url())
        defer { player.replaceCurrentItem(with: nil) }
        // 2.4 s lies between the captions; a 1 s delay shows the first one (1–2 s) then.
        let between = try await Rendering.draw(
            frame: 60, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate,
            expectsText: false)
        #expect(between.picture.isEmpty)
        let delayed = try await Rendering.draw(
            frame: 60, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate
        ) { $0.delay = 1.0 }
        #expect(Self.count(delayed, Self.white) > 200)
    }

    @Test func onAHiDPIOutputLibassDrawsAtThePixelSize() async throws {
        let (player, layer) = try await Rendering.pausedPlayer(try CaptionMedia.h264SEI.url())
        defer { player.replaceCurrentItem(with: nil) }
        let single = try await Rendering.draw(
            frame: 35, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate)
        let double = try await Rendering.draw(
            frame: 35, player: player, layer: layer, width: 640, height: 480, frameRate: Self.frameRate,
            pointScale: 2)
        // The white glyphs: twice as wide and high, drawn with the screen's pixels.
        let one = try #require(Self.whiteBox(single, width: 640, height: 480))
        let two = try #require(Self.whiteBox(double, width: 1280, height: 960))
        #expect(abs(two.width - 2 * one.width) <= 6, "\(two.width) px wide against \(one.width) px")
        #expect(abs(two.height - 2 * one.height) <= 4, "\(two.height) px high against \(one.height) px")
        #expect(abs(two.x - 2 * one.x) <= 4)
    }
}
