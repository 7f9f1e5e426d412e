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
    /// Text subtitles through libass (the plain `subtitles` renderer draws pictures, the key
    /// notes, and text only when libass is unavailable).
    let text: WindowTextSubtitles
    private let controls: SelectionControls
    private let renderer: OpaquePointer
    private var drawnVersion = -1
    /// A short note after a key ("Audio: French", "Chapter 2") and when it goes away.
    private var message: (text: String, until: Double)?
    private var messageDrawn = false
    /// How long a key's note shows.
    static let messageDuration = 2.0

    init(player: AVPlayer, renderer: OpaquePointer) {
        self.player = player
        self.renderer = renderer
        subtitles = SubtitleRenderer(renderer: renderer)
        text = WindowTextSubtitles(player: player, renderer: renderer)
        controls = SelectionControls(player: player)
    }

    /// Handles `key` when it is a selection key; false lets the window's controls have it.
    func handle(_ key: PlayerKeyInput) -> Bool {
        guard let command = SelectionCommand.bound(to: key) else { return false }
        if let text = controls.perform(command) {
            message = (text, SystemHostClock.shared.now + Self.messageDuration)
        }
        return true
    }

    /// Shows `text` at the top left for a while, as a key's note.
    func note(_ text: String) {
        message = (text, SystemHostClock.shared.now + Self.messageDuration)
    }

    /// True when the subtitles showing over `layer` changed since they were last drawn.
    func needsRedraw(over layer: AVPlayerLayer) -> Bool {
        overlay.follow(player.currentItem)
        let textChanged = text.update(over: layer)
        return textChanged || overlay.current.version != drawnVersion
            || messageDrawn != (visibleMessage != nil)
    }

    /// The note to show now, if any.
    private var visibleMessage: String? {
        guard let message, SystemHostClock.shared.now < message.until else { return nil }
        return message.text
    }

    /// Draws the note of the last selection key at the top left of the layer, for a while.
    func drawMessage(over layer: AVPlayerLayer) {
        let text = visibleMessage
        messageDrawn = text != nil
        if text == nil { message = nil }
        guard let text else { return }
        let cue = AVSubtitleCue(
            timeRange: CMTimeRange(start: .zero, duration: .positiveInfinity),
            runs: [AVSubtitleTextRun(text: text)], alignment: 7)
        subtitles.draw([cue], in: layer.frame.insetBy(dx: 0, dy: ControlsLayout.topBarHeight / 2))
    }

    /// Draws the cues showing now over the layer's video rect (the whole layer for audio),
    /// kept above the bottom `inset` (the control bar while it shows).
    func drawSubtitles(over layer: AVPlayerLayer, bottomInset inset: CGFloat = 0) {
        overlay.follow(player.currentItem)
        let (cues, version) = overlay.current
        drawnVersion = version
        guard !overlay.isSuppressed else { return }
        text.draw(above: layer.frame.maxY - inset)
        // With libass drawing the text, the plain renderer draws only the pictures.
        let plain = text.handlesText ? cues.filter { !$0.bitmaps.isEmpty }.map { cue -> AVSubtitleCue in
            var pictures = cue
            pictures.runs = []
            return pictures
        } : cues
        guard !plain.isEmpty else { return }
        let rect =
            layer.displaySize().map {
                VideoGeometry.videoRect(content: $0, in: layer.frame, gravity: layer.videoGravity)
            } ?? layer.frame
        subtitles.draw(plain, in: rect.intersection(layer.frame), above: layer.frame.maxY - inset)
    }

    /// Draws chapter ticks on the seek slider `track`.
    func drawChapterTicks(on track: CGRect) {
        ChapterTicks.draw(controls.chapterFractions, on: track, renderer: renderer)
    }
}
