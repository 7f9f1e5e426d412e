// Playhead: subtitles, chapter ticks and selection keys drawn by SDL's software renderer into
// an offscreen surface, checked pixel by pixel (no display needed).
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct SubtitleRenderingTests {
    typealias Pixel = (red: UInt8, green: UInt8, blue: UInt8)

    /// A 400×300 target filled with dark blue.
    func blueTarget() throws -> RenderTarget {
        let target = try RenderTarget(offscreenWidth: 400, height: 300)
        Shapes(renderer: target.renderer).fill(
            CGRect(x: 0, y: 0, width: 400, height: 300), .init(r: 0, g: 0, b: 120, a: 255))
        return target
    }

    func pixels(_ target: RenderTarget, in rect: CGRect, step: Int = 2) -> [Pixel] {
        var result: [Pixel] = []
        for y in stride(from: Int(rect.minY), to: Int(rect.maxY), by: step) {
            for x in stride(from: Int(rect.minX), to: Int(rect.maxX), by: step) {
                result.append(target.pixel(x: x, y: y))
            }
        }
        return result
    }

    func isWhite(_ pixel: Pixel) -> Bool {
        pixel.red > 220 && pixel.green > 220 && pixel.blue > 220
    }
    func isBlack(_ pixel: Pixel) -> Bool { pixel.red < 30 && pixel.green < 30 && pixel.blue < 30 }
    func isBlue(_ pixel: Pixel) -> Bool { pixel.red < 10 && pixel.green < 10 && pixel.blue > 100 }

    let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))

    @Test func textCueDrawsOutlinedWhiteTextAtTheBottomOfTheVideo() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        let target = try blueTarget()
        let renderer = SubtitleRenderer(renderer: target.renderer)
        let video = CGRect(x: 0, y: 50, width: 400, height: 200)  // letterboxed video rect
        renderer.draw(
            [AVSubtitleCue(timeRange: range, runs: [AVSubtitleTextRun(text: "HELLO WORLD")])],
            in: video)
        // Text 12.5 px high sits in the bottom 5 % margin's band: y ≈ 222…240.
        let band = pixels(target, in: CGRect(x: 100, y: 215, width: 200, height: 30), step: 1)
        #expect(band.contains(where: isWhite), "white text in the subtitle band")
        #expect(band.contains(where: isBlack), "black outline around it")
        let above = pixels(target, in: CGRect(x: 0, y: 0, width: 400, height: 200))
        #expect(above.allSatisfy(isBlue), "nothing drawn above the subtitle band")
        let sides = pixels(target, in: CGRect(x: 0, y: 215, width: 60, height: 30))
        #expect(sides.allSatisfy(isBlue), "short text stays centred")
    }

    @Test func hiDPITextIsLaidOutInPoints() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        // An 800×600-pixel target drawn in 400×300 points.
        let target = try RenderTarget(offscreenWidth: 800, height: 600)
        Shapes(renderer: target.renderer).fill(
            CGRect(x: 0, y: 0, width: 800, height: 600), .init(r: 0, g: 0, b: 120, a: 255))
        target.setPointScale(2)
        SubtitleRenderer(renderer: target.renderer).draw(
            [AVSubtitleCue(timeRange: range, runs: [AVSubtitleTextRun(text: "HELLO WORLD")])],
            in: CGRect(x: 0, y: 50, width: 400, height: 200))
        target.setPointScale(1)
        // The same band as at 1x, in pixels: y ≈ 430…490, centred.
        let band = pixels(target, in: CGRect(x: 200, y: 430, width: 400, height: 60), step: 1)
        #expect(band.contains(where: isWhite))
        #expect(pixels(target, in: CGRect(x: 0, y: 0, width: 800, height: 400)).allSatisfy(isBlue))
    }

    @Test func textScalesWithTheVideoRect() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        #expect(SubtitleRenderer.fontSize(for: CGRect(x: 0, y: 0, width: 1600, height: 800)) == 50)
        #expect(SubtitleRenderer.fontSize(for: CGRect(x: 0, y: 0, width: 320, height: 180)) == 12)
        let small = try blueTarget()
        let large = try blueTarget()
        let cue = AVSubtitleCue(timeRange: range, runs: [AVSubtitleTextRun(text: "MMMM")])
        SubtitleRenderer(renderer: small.renderer).draw(
            [cue], in: CGRect(x: 0, y: 0, width: 200, height: 150))
        SubtitleRenderer(renderer: large.renderer).draw(
            [cue], in: CGRect(x: 0, y: 0, width: 400, height: 300))
        let smallInk = pixels(small, in: CGRect(x: 0, y: 0, width: 400, height: 300)).filter(
            isWhite
        ).count
        let largeInk = pixels(large, in: CGRect(x: 0, y: 0, width: 400, height: 300)).filter(
            isWhite
        ).count
        #expect(largeInk > smallInk * 2, "a larger video rect draws larger text")
    }

    @Test func topAlignedAndPositionedCuesMove() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        let target = try blueTarget()
        let video = CGRect(x: 0, y: 0, width: 400, height: 300)
        SubtitleRenderer(renderer: target.renderer).draw(
            [AVSubtitleCue(timeRange: range, runs: [AVSubtitleTextRun(text: "TOP")], alignment: 8)],
            in: video)
        #expect(
            pixels(target, in: CGRect(x: 150, y: 10, width: 100, height: 30), step: 1).contains(
                where: isWhite))
        #expect(
            pixels(target, in: CGRect(x: 0, y: 200, width: 400, height: 100)).allSatisfy(isBlue))
    }

    @Test func coloredRunUsesItsColour() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        let target = try blueTarget()
        let red = AVSubtitleTextRun(
            text: "REDREDRED", isBold: true, color: AVSubtitleColor(red: 1, green: 0, blue: 0))
        SubtitleRenderer(renderer: target.renderer).draw(
            [AVSubtitleCue(timeRange: range, runs: [red])],
            in: CGRect(x: 0, y: 0, width: 400, height: 300))
        let band = pixels(target, in: CGRect(x: 0, y: 230, width: 400, height: 60), step: 1)
        #expect(band.contains { $0.red > 200 && $0.green < 40 && $0.blue < 40 })
        #expect(!band.contains(where: isWhite))
    }

    @Test func bitmapCueIsScaledToTheVideoRect() throws {
        let target = try blueTarget()
        // A 4×2 opaque green picture covering x 25–75 %, y 50–75 % of the video.
        let green = [UInt8](repeating: 0, count: 32).enumerated().map {
            $0.offset % 4 == 1 || $0.offset % 4 == 3 ? 255 : 0
        }
        let bitmap = AVSubtitleBitmap(
            x: 0.25, y: 0.5, width: 0.5, height: 0.25, pixelWidth: 4, pixelHeight: 2,
            rgba: green.map(UInt8.init))
        let video = CGRect(x: 0, y: 50, width: 400, height: 200)
        SubtitleRenderer(renderer: target.renderer).draw(
            [AVSubtitleCue(timeRange: range, runs: [], bitmaps: [bitmap])], in: video)
        let inside = target.pixel(x: 200, y: 175)
        #expect(inside.green > 200 && inside.red < 30 && inside.blue < 30)
        #expect(isBlue(target.pixel(x: 90, y: 175)))  // left of 25 % (x 100)
        #expect(isBlue(target.pixel(x: 200, y: 145)))  // above 50 % (y 150)
        #expect(isBlue(target.pixel(x: 200, y: 205)))  // below 75 % (y 200)
    }

    @Test func chapterTicksMarkTheSlider() throws {
        let target = try blueTarget()
        ChapterTicks.draw(
            [0.5], on: CGRect(x: 100, y: 280, width: 200, height: 4), renderer: target.renderer)
        let tick = target.pixel(x: 200, y: 282)
        #expect(tick.red > 200 && tick.green > 150)
        #expect(isBlue(target.pixel(x: 150, y: 282)))
    }

    @Test func linesSplitRunsAtNewlines() {
        let lines = SubtitleRenderer.lines(of: [
            AVSubtitleTextRun(text: "one\ntwo ", isBold: true), AVSubtitleTextRun(text: "three"),
        ])
        #expect(lines.map { $0.map(\.text) } == [["one"], ["two ", "three"]])
        #expect(lines[1][0].isBold && !lines[1][1].isBold)
    }

    @Test func selectionKeysAreFree() {
        #expect(SelectionCommand.bound(to: .letter("a")) == .cycleAudio)
        #expect(SelectionCommand.bound(to: .letter("s")) == .cycleSubtitles)
        #expect(SelectionCommand.bound(to: .pageDown) == .nextChapter)
        #expect(SelectionCommand.bound(to: .pageUp) == .previousChapter)
        for key: PlayerKeyInput in [.letter("a"), .letter("s"), .pageUp, .pageDown] {
            #expect(ControlCommand.bound(to: key) == nil, "\(key) is not taken by the controls")
        }
    }

    @MainActor
    @Test func selectionControlsCycleTracksAndJumpBetweenChapters() async throws {
        let item = AVPlayerItem(url: try SelectionMedia.film.url())
        let player = AVPlayer(playerItem: item)
        player.isMuted = true
        var deadline = PatientDeadline(seconds: 20)
        while item.status != .readyToPlay, !deadline.hasPassed() { await mainSleep() }
        #expect(item.status == .readyToPlay)
        let controls = SelectionControls(player: player)
        #expect(controls.chapterStarts == [0, 2])
        #expect(controls.chapterFractions.map { ($0 * 3).rounded() } == [1])
        let audible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        let legible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(controls.perform(.cycleAudio) == "Audio: French")
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1])
        #expect(controls.perform(.cycleAudio) == "Audio: English")
        #expect(controls.perform(.cycleSubtitles) != nil)
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == legible.options[0])
        controls.perform(.cycleSubtitles)
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == legible.options[1])
        #expect(controls.perform(.cycleSubtitles) == "Subtitles: off")
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        #expect(controls.perform(.nextChapter) == "Chapter 2")
        var moved = PatientDeadline(seconds: 10)
        while abs(player.currentTime().seconds - 2) > 0.01, !moved.hasPassed() { await mainSleep() }
        #expect(abs(player.currentTime().seconds - 2) < 0.01)
        player.replaceCurrentItem(with: nil)
    }

    @MainActor
    @Test func selectionKeysShowANoteAtTheTopLeft() async throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        let item = AVPlayerItem(url: try SelectionMedia.film.url())
        let player = AVPlayer(playerItem: item)
        var deadline = PatientDeadline(seconds: 20)
        while item.status != .readyToPlay, !deadline.hasPassed() { await mainSleep() }
        let target = try blueTarget()
        let selection = WindowMediaSelection(player: player, renderer: target.renderer)
        let layer = AVPlayerLayer(player: nil)
        layer.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        #expect(!selection.handle(.letter("k")), "other keys stay with the controls")
        #expect(selection.handle(.letter("a")))
        #expect(selection.needsRedraw(over: layer))
        selection.drawMessage(over: layer)
        #expect(
            pixels(target, in: CGRect(x: 10, y: 20, width: 150, height: 40), step: 1).contains(
                where: isWhite))
        #expect(
            pixels(target, in: CGRect(x: 0, y: 150, width: 400, height: 150)).allSatisfy(isBlue))
        let audible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1])
        player.replaceCurrentItem(with: nil)
    }

    @MainActor
    private func mainSleep() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(5)) { done.resume() }
        }
    }
}
