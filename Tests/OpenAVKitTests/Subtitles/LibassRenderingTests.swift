// Playhead: styled ASS subtitles drawn by the window's libass renderer compared with FFmpeg's
// own libass burning (`-vf subtitles=`) of the same track into the same frames: PSNR over the
// subtitle area. The player is paused on each frame (exact seeks), so the check does not
// depend on the machine's speed.
import FFmpegBridge
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@MainActor
@Suite(.serialized) struct LibassRenderingTests {
    /// A paused player on `clip` with its first legible option selected, and a layer on it.
    static func pausedPlayer(_ clip: URL) async throws -> (AVPlayer, AVPlayerLayer) {
        let asset = AVURLAsset(url: clip)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let item = AVPlayerItem(asset: asset)
        item.select(group.options.first, in: group)
        let player = AVPlayer(
            environment: PlaybackEnvironment(makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: false),
            playerItem: item)
        let layer = AVPlayerLayer(player: player)
        let ready = await Self.wait { item.status == .readyToPlay }
        #expect(ready)
        return (player, layer)
    }

    /// What one draw produced: the target's RGB bytes and libass's picture.
    struct Drawn {
        var rgb: [UInt8]
        var picture: SubtitlePicture
        /// The window part that drew (kept with its last picture).
        var subtitles: WindowTextSubtitles
    }

    /// Seeks exactly to frame `number`, waits for its picture and for subtitles (one showing
    /// at the frame's time minus the delay, when `expectsText`), and draws the layer and the
    /// libass subtitles into a `width` x `height` point offscreen target with `pointScale`
    /// pixels a point. `configure` sets the delay and look before drawing.
    static func draw(
        frame number: Int, player: AVPlayer, layer: AVPlayerLayer, width: Int, height: Int, frameRate: Int,
        pointScale: Int = 1, expectsText: Bool = true, configure: (WindowTextSubtitles) -> Void = { _ in }
    ) async throws -> Drawn {
        let time = CMTime(value: Int64(number), timescale: Int32(frameRate))
        _ = await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero)
        let shows = await Self.wait { layer.slot.latest().picture?.presentationTime == time }
        #expect(shows, "frame \(number) shows")
        let target = try RenderTarget(offscreenWidth: width * pointScale, height: height * pointScale)
        target.setPointScale(Float(pointScale))
        layer.frame = CGRect(x: 0, y: 0, width: width, height: height)
        let subtitles = WindowTextSubtitles(player: player, renderer: target.renderer)
        configure(subtitles)
        let shown = time - CMTime(seconds: subtitles.delay, preferredTimescale: 1000)
        // Cues arrive from the demux or video thread: wait until the script holds one showing
        // then (or any, when nothing should show).
        let arrived = await Self.wait {
            _ = subtitles.update(over: layer)
            return subtitles.isActive
                && (!expectsText || Self.dialogues(of: player).contains { $0.start <= shown && shown < $0.end })
        }
        #expect(arrived, "the subtitles of frame \(number) arrive")
        _ = subtitles.update(over: layer)
        VideoRenderer(target: target).draw(layer)
        subtitles.draw()
        return Drawn(rgb: target.rgbPixels().rgb, picture: subtitles.currentPicture, subtitles: subtitles)
    }

    /// Waits, letting the main queue run, until `condition` holds (false after 20 s, scaled).
    static func wait(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(TestTimeouts.scaled(20))
        while !condition() {
            if Date() > deadline { return false }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(5)) { done.resume() }
            }
        }
        return true
    }

    static func dialogues(of player: AVPlayer) -> [SubtitleDialogue] {
        guard case .replace(let script) = player.currentItem?.subtitleScript(since: .empty) else { return [] }
        return script.dialogues
    }

    @Test func styledASSMatchesFFmpegsLibassBurning() async throws {
        let fixture = StyledSubtitleFixture.self
        let clip = try fixture.clip()
        let (player, layer) = try await Self.pausedPlayer(clip)
        defer { player.replaceCurrentItem(with: nil) }
        for number in fixture.frames {
            let ours = try await Self.draw(
                frame: number, player: player, layer: layer, width: fixture.width, height: fixture.height,
                frameRate: fixture.frameRate
            ).rgb
            let reference = try fixture.reference(clip, frame: number, withSubtitles: true)
            let plain = try fixture.reference(clip, frame: number, withSubtitles: false)
            let area = try #require(
                fixture.differingArea(reference, plain), "FFmpeg draws subtitles on frame \(number)")
            let quality = fixture.psnr(ours, reference, over: area)
            if ProcessInfo.processInfo.environment["PLAYHEAD_DUMP_SUBTITLES"] != nil {
                try Data(ours).write(to: fixture.folder.appendingPathComponent("ours-\(number).rgb"))
                print("frame \(number): \(quality) dB over \(area)")
            }
            #expect(quality >= 30, "frame \(number): PSNR \(quality) dB over \(area)")
        }
    }

    @Test func aStyleNamingAnAttachedFontDrawsWithThatFont() async throws {
        let fixture = StyledSubtitleFixture.self
        let clip = try fixture.fontClip(attached: true)
        let (player, layer) = try await Self.pausedPlayer(clip)
        defer { player.replaceCurrentItem(with: nil) }
        let ours = try await Self.draw(
            frame: 20, player: player, layer: layer, width: fixture.width, height: fixture.height,
            frameRate: fixture.frameRate
        ).rgb
        let reference = try fixture.referenceWithFontFolder(clip, script: "font-attached", frame: 20)
        let plain = try fixture.reference(clip, frame: 20, withSubtitles: false)
        let fallback = try fixture.reference(try fixture.fontClip(attached: false), frame: 20, withSubtitles: true)
        let area = try #require(fixture.differingArea(reference, plain))
        let withFont = fixture.psnr(ours, reference, over: area)
        let againstFallback = fixture.psnr(ours, fallback, over: area)
        if ProcessInfo.processInfo.environment["PLAYHEAD_DUMP_SUBTITLES"] != nil {
            try Data(ours).write(to: fixture.folder.appendingPathComponent("ours-font.rgb"))
            try Data(fallback).write(to: fixture.folder.appendingPathComponent("fallback-font.rgb"))
        }
        #expect(withFont >= 30, "PSNR \(withFont) dB against FFmpeg with the attached font")
        #expect(againstFallback < 20, "PSNR \(againstFallback) dB against the fallback font: it should differ")
    }
}
