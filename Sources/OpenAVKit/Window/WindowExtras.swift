// Playhead: the player window's playlist panel and seek-slider preview: their pointer
// handling and drawing, kept out of PlayerWindow behind three small hooks.
//
// Concurrency: confined to the window's thread (SDL rendering is single-threaded), except the
// preview cache, which is thread-safe and reports new previews on the main queue through
// `wake` (thread-safe).
internal import CSDL2
import Foundation
import OpenAVFoundation
import Synchronization

/// The playlist button and panel (queue players only) and the preview shown while the
/// pointer hovers the seek slider.
final class WindowExtras {
    private enum Palette {
        static let panel = SDL_Color(20, 20, 20, 220)
        static let currentRow = SDL_Color(229, 57, 53, 200)
        static let text = SDL_Color(235, 235, 235)
        static let icon = SDL_Color(255, 255, 255)
        static let frame = SDL_Color(255, 255, 255)
    }

    private let player: AVPlayer
    private let renderer: OpaquePointer
    private let shapes: Shapes
    private let text: TextRenderer
    private let previews: SeekPreviewCache
    /// Set (any thread) when a preview arrives.
    private let previewArrived = ArrivalFlag()
    /// Set when the hovered position changed since the last draw.
    private var hoverChanged = false
    /// True while the playlist panel is open.
    private(set) var isPanelOpen = false
    /// The slider position under the pointer (0 to 1) while it hovers the slider.
    private var hoverFraction: Double?
    /// owned by this object: the texture of the preview on screen and its bucket
    private var previewTexture: (texture: OpaquePointer, bucket: Int, item: ObjectIdentifier, width: Int, height: Int)?

    /// Extras for `player` drawn with `target`; `wake` is called (any thread) when a preview
    /// arrives so the window redraws.
    init(player: AVPlayer, target: RenderTarget, wake: @escaping @Sendable () -> Void) {
        self.player = player
        renderer = target.renderer
        shapes = Shapes(renderer: target.renderer)
        text = TextRenderer(renderer: target.renderer)
        let arrived = previewArrived
        previews = SeekPreviewCache {
            arrived.set()
            wake()
        }
    }

    deinit {
        if let previewTexture { SDL_DestroyTexture(previewTexture.texture) }
    }

    /// True when the player plays a queue (the playlist button shows).
    private var hasPlaylist: Bool { player is AVQueuePlayer }

    /// True when something changed that needs a redraw (a preview arrived).
    func takeNeedsRedraw() -> Bool {
        defer { hoverChanged = false }
        return previewArrived.take() || hoverChanged
    }

    // MARK: - Pointer

    /// Handles a pointer event while the bars show; true when it was the extras' (the
    /// controller must not see it).
    func handle(_ event: SDL_Event, controls: ControlsLayout, barsVisible: Bool) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_MOUSEMOTION:
            let point = CGPoint(x: Int(event.motion.x), y: Int(event.motion.y))
            let hovering = barsVisible && controls.sliderHitArea.contains(point)
            let fraction = hovering ? controls.sliderFraction(atX: point.x) : nil
            if fraction.map(SeekPreviewCache.bucket(forFraction:)) != hoverFraction.map(SeekPreviewCache.bucket(forFraction:)) {
                hoverChanged = true
            }
            hoverFraction = fraction
            return false
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: Int(event.button.x), y: Int(event.button.y))
            return click(at: point, controls: controls, barsVisible: barsVisible)
        default:
            return false
        }
    }

    /// Called when the playlist button is pressed (the window tells its delegate).
    var playlistButtonPressed: (() -> Void)?

    private func click(at point: CGPoint, controls: ControlsLayout, barsVisible: Bool) -> Bool {
        guard hasPlaylist else { return false }
        let rows = PlaylistNavigator.rows(of: player)
        let layout = PlaylistPanelLayout(controls: controls, rowCount: rows.count)
        if barsVisible, layout.button.contains(point) {
            isPanelOpen.toggle()
            playlistButtonPressed?()
            return true
        }
        guard isPanelOpen else { return false }
        if let row = layout.row(at: point) {
            PlaylistNavigator.jump(player, toIndex: row)
            return true
        }
        if layout.panel.contains(point) { return true }
        isPanelOpen = false
        return false
    }

    // MARK: - Drawing

    /// Draws the button, the open panel and the hover preview over the controls.
    func draw(controls: ControlsLayout, barsVisible: Bool) {
        guard barsVisible else { return }
        if hasPlaylist { drawPlaylist(controls: controls) }
        drawPreview(controls: controls)
    }

    private func drawPlaylist(controls: ControlsLayout) {
        let rows = PlaylistNavigator.rows(of: player)
        let layout = PlaylistPanelLayout(controls: controls, rowCount: rows.count)
        // The button: three lines, a list.
        let box = layout.button.insetBy(dx: 13, dy: 15)
        for line in 0..<3 {
            let y = box.minY + CGFloat(line) * box.height / 2
            shapes.line(CGPoint(x: box.minX, y: y), CGPoint(x: box.maxX, y: y), width: 2.5, Palette.icon)
        }
        guard isPanelOpen else { return }
        shapes.fill(layout.panel, Palette.panel)
        for (rect, row) in zip(layout.rows, rows) {
            if row.isCurrent { shapes.fill(CGRect(x: rect.minX, y: rect.minY, width: 4, height: rect.height), Palette.currentRow) }
            let label = (row.isCurrent ? "▶ " : "   ") + row.title
            text.draw(label, size: 14, color: Palette.text, in: rect.insetBy(dx: 12, dy: 0))
        }
    }

    private func drawPreview(controls: ControlsLayout) {
        guard let fraction = hoverFraction, let item = player.currentItem else { return }
        let duration = item.duration.seconds
        guard duration.isFinite, duration > 0,
            let image = previews.image(forFraction: fraction, of: item, duration: duration),
            let texture = texture(for: image, bucket: SeekPreviewCache.bucket(forFraction: fraction), item: item)
        else { return }
        let width = CGFloat(texture.width), height = CGFloat(texture.height)
        let track = controls.sliderTrack
        let x = min(max(track.minX + track.width * fraction - width / 2, 4), controls.size.width - width - 4)
        let area = CGRect(x: x, y: controls.bottomBar.minY - height - 28, width: width, height: height)
        shapes.fill(area.insetBy(dx: -2, dy: -2), Palette.frame)
        var destination = SDL_Rect(x: Int32(area.minX), y: Int32(area.minY), w: Int32(width), h: Int32(height))
        SDL_RenderCopy(renderer, texture.texture, nil, &destination)
        let seconds = SeekPreviewCache.seconds(ofBucket: SeekPreviewCache.bucket(forFraction: fraction), duration: duration)
        let label = TimeText.labels(current: seconds, duration: duration).current
        let labelArea = CGRect(x: area.midX - 36, y: area.maxY + 4, width: 72, height: 20)
        shapes.fill(labelArea, Palette.panel)
        text.draw(label, size: 13, color: Palette.text, in: labelArea, alignment: .center)
    }

    /// The texture for `image`, made once per shown preview.
    private func texture(
        for image: CGImage, bucket: Int, item: AVPlayerItem
    ) -> (texture: OpaquePointer, bucket: Int, item: ObjectIdentifier, width: Int, height: Int)? {
        if let previewTexture, previewTexture.bucket == bucket, previewTexture.item == ObjectIdentifier(item) {
            return previewTexture
        }
        if let previewTexture { SDL_DestroyTexture(previewTexture.texture) }
        previewTexture = nil
        guard
            let texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                Int32(image.width), Int32(image.height))
        else { return nil }
        let updated = image.rgbaBytes.withUnsafeBytes { bytes in
            SDL_UpdateTexture(texture, nil, bytes.baseAddress, Int32(image.bytesPerRow)) == 0
        }
        guard updated else {
            SDL_DestroyTexture(texture)
            return nil
        }
        previewTexture = (texture, bucket, ObjectIdentifier(item), image.width, image.height)
        return previewTexture
    }
}

/// A flag one thread sets and another takes.
private final class ArrivalFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    func take() -> Bool { value.exchange(false, ordering: .acquiringAndReleasing) }
}
