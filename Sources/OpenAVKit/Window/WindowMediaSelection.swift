// Playhead: what the player window adds for media selection: subtitles drawn over the video,
// chapter ticks on the slider, and the chapter, audio and subtitle keys.
//
// Concurrency: confined to the window's thread, like the window itself.
import Foundation
import OpenAVFoundation

/// The window's subtitle overlay, chapter ticks and selection keys, behind a few hooks.
final class WindowMediaSelection {
    private let player: AVPlayer
    private let overlay = SubtitleOverlay()
    private let subtitles: SubtitleRenderer
    private let controls: SelectionControls
    private let renderer: OpaquePointer
    private var drawnVersion = -1

    init(player: AVPlayer, renderer: OpaquePointer) {
        self.player = player
        self.renderer = renderer
        subtitles = SubtitleRenderer(renderer: renderer)
        controls = SelectionControls(player: player)
    }

    /// Handles `key` when it is a selection key; false lets the window's controls have it.
    func handle(_ key: PlayerKeyInput) -> Bool {
        guard let command = SelectionCommand.bound(to: key) else { return false }
        controls.perform(command)
        return true
    }

    /// True when the subtitles showing changed since they were last drawn.
    var needsRedraw: Bool {
        overlay.follow(player.currentItem)
        return overlay.current.version != drawnVersion
    }

    /// Draws the cues showing now over the layer's video rect (the whole layer for audio),
    /// kept above the bottom `inset` (the control bar while it shows).
    func drawSubtitles(over layer: AVPlayerLayer, bottomInset inset: CGFloat = 0) {
        overlay.follow(player.currentItem)
        let (cues, version) = overlay.current
        drawnVersion = version
        guard !cues.isEmpty, !overlay.isSuppressed else { return }
        let rect = layer.displaySize().map {
            VideoGeometry.videoRect(content: $0, in: layer.frame, gravity: layer.videoGravity)
        } ?? layer.frame
        subtitles.draw(cues, in: rect.intersection(layer.frame), above: layer.frame.maxY - inset)
    }

    /// Draws chapter ticks on the seek slider `track`.
    func drawChapterTicks(on track: CGRect) {
        ChapterTicks.draw(controls.chapterFractions, on: track, renderer: renderer)
    }
}
