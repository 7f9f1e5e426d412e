// Playhead: the window's text subtitles drawn by libass: follows the player's current item,
// feeds its subtitle script to the libass renderer, renders at the time of the picture on
// screen (minus the subtitle delay) and draws the result over the video's rectangle.
//
// Concurrency: confined to the window's thread, like the window itself, except that the
// libass renderer is made on a background queue (loading libass and setting up fontconfig
// takes tens of milliseconds, a dropped frame on the window's thread) and handed over once
// through `handOff` (a lock); from then on only the window's thread touches it. The item's
// script is read through `AVPlayerItem.subtitleScript(since:)`, which locks the cue store.
internal import CSDL2
import Foundation
import OpenAVFoundation

/// Text subtitles through libass; inactive (the plain renderer draws text) until a script
/// with dialogue arrives, and for good when libass cannot be loaded.
final class WindowTextSubtitles {
    private let player: AVPlayer
    private let renderer: OpaquePointer
    private let texture: SubtitlePictureTexture
    /// made when the first dialogue arrives, so runs without text subtitles never load libass
    private var libass: LibassRenderer?
    private var libassUnavailable = false
    /// True while the renderer is being made in the background.
    private var preparing = false
    /// Where the background queue leaves the renderer it made (nil inside: libass unavailable).
    private let handOff = Locked<UncheckedBox<LibassRenderer?>?>(nil)
    private weak var item: AVPlayerItem?
    /// Where the video's frame starts on screen, in points, and pixels per point.
    private var frameOrigin = CGPoint.zero
    private var scale: CGFloat = 1
    /// The frame's height in pixels.
    private var frameHeight: CGFloat = 0

    /// Seconds subtitles show later than their times (negative: earlier).
    var delay = 0.0
    /// The look for plain formats and the scale for all: the window's `subtitleRendering`
    /// (the item's text style rules with the user's choices over them).
    var appearance = SubtitleAppearance()

    init(player: AVPlayer, renderer: OpaquePointer) {
        self.player = player
        self.renderer = renderer
        texture = SubtitlePictureTexture(renderer: renderer)
    }

    /// True when libass draws text subtitles (the plain renderer then draws only pictures).
    var isActive: Bool { libass?.hasTrack == true }

    /// True when text subtitles are libass's to draw: drawing, or about to once it is loaded
    /// (the plain renderer then leaves the text alone rather than flash it unstyled).
    var handlesText: Bool { isActive || (preparing && !libassUnavailable) }

    /// Brings the subtitle picture up to date for `layer`; true when it changed.
    func update(over layer: AVPlayerLayer) -> Bool {
        let current = player.currentItem
        if current !== item {
            item = current
            libass?.clear()
        }
        guard let current else { return false }
        let change = current.subtitleScript(since: libass?.scriptCursor ?? .empty)
        if libass == nil, !libassUnavailable {
            prepareRenderer(for: change)
        }
        guard let libass else { return false }
        libass.apply(change)
        guard let rect = videoRect(of: layer) else { return false }
        var scaleX: Float = 1
        var scaleY: Float = 1
        SDL_RenderGetScale(renderer, &scaleX, &scaleY)
        scale = CGFloat(scaleX > 0 ? scaleX : 1)
        // Whole pixels, so libass's output lands 1:1 on the screen's pixels.
        let left = (rect.minX * scale).rounded()
        let top = (rect.minY * scale).rounded()
        let width = Int((rect.maxX * scale).rounded() - left)
        let height = Int((rect.maxY * scale).rounded() - top)
        frameOrigin = CGPoint(x: left / scale, y: top / scale)
        frameHeight = CGFloat(height)
        let picture = layer.slot.latest().picture
        let now = picture?.presentationTime ?? current.engineItemTime(atHost: SystemHostClock.shared.now)
        guard let now else { return false }
        let time = now - CMTime(seconds: delay, preferredTimescale: 1000)
        let changed = libass.render(
            at: time, width: width, height: height, aspect: rect.width / max(1, rect.height),
            videoSize: picture.map { ($0.width, $0.height) }, appearance: appearance)
        if changed { texture.upload(libass.picture) }
        return changed
    }

    /// The picture libass drew last, in frame pixels (empty when none or inactive).
    var currentPicture: SubtitlePicture { libass?.picture ?? .empty }

    /// Draws the current picture (call after `update`); subtitles at the bottom of the video
    /// are lifted to stay above `limit` (the top of the control bar while it shows), as the
    /// plain renderer does.
    func draw(above limit: CGFloat = .infinity) {
        guard isActive else { return }
        let raise = lift(above: limit)
        texture.draw(frameOrigin: frameOrigin, scale: scale) { self.isLow($0) ? raise : 0 }
    }

    /// True when `piece` starts in the lower third of the frame (a subtitle at the bottom).
    private func isLow(_ piece: SubtitlePicture.Piece) -> Bool {
        CGFloat(piece.y) > frameHeight * 2 / 3
    }

    /// How far to move the subtitles in the lower third of the frame up so their bottom
    /// clears `limit`, in points (never above their frame's top).
    func lift(above limit: CGFloat) -> CGFloat {
        let low = currentPicture.pieces.filter(isLow)
        guard limit.isFinite, let top = low.map(\.y).min(), let bottom = low.map({ $0.y + $0.height }).max()
        else { return 0 }
        let overlap = frameOrigin.y + CGFloat(bottom) / scale - limit
        guard overlap > 0 else { return 0 }
        return min(overlap + 4, CGFloat(top) / scale)
    }

    /// The video's rectangle in the layer, in points (the whole layer for audio).
    private func videoRect(of layer: AVPlayerLayer) -> CGRect? {
        let rect =
            layer.displaySize().map {
                VideoGeometry.videoRect(content: $0, in: layer.frame, gravity: layer.videoGravity)
            } ?? layer.frame
        return rect.width >= 1 && rect.height >= 1 ? rect : nil
    }

    /// Starts making the renderer in the background once a text track is selected (its
    /// header or first dialogue is known), and takes it over when it is made.
    private func prepareRenderer(for change: SubtitleScriptChange?) {
        if preparing {
            guard let made = handOff.withLock({ box -> UncheckedBox<LibassRenderer?>? in defer { box = nil }; return box }) else {
                return
            }
            preparing = false
            libass = made.value
            libassUnavailable = made.value == nil
            return
        }
        guard let change, Self.selectsText(change) else { return }
        preparing = true
        let handOff = handOff
        DispatchQueue.global(qos: .userInitiated).async {
            let box = UncheckedBox(LibassRenderer())
            handOff.withLock { $0 = box }
            // Wakes the window's loop, which drains the main queue, to take it over.
            DispatchQueue.main.async {}
        }
    }

    /// True when `change` says a text track is selected.
    private static func selectsText(_ change: SubtitleScriptChange) -> Bool {
        switch change {
        case .replace(let script): return script.header != nil || !script.dialogues.isEmpty
        case .append(let dialogues, _): return !dialogues.isEmpty
        }
    }
}
