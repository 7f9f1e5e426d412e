// Playhead: the playlist panel of the player window: where its button, panel and rows sit,
// what a click on them means, and how a jump to a queued item is carried out.
//
// Concurrency: `PlaylistPanelLayout` is an immutable value; `PlaylistNavigator` calls the
// queue player's thread-safe methods.
import Foundation
import OpenAVFoundation

/// One row of the playlist panel.
struct PlaylistRow: Equatable, Sendable {
    /// The item's name (its metadata title when loaded, else the file name).
    var title: String
    /// True for the item playing now.
    var isCurrent: Bool
}

/// The playlist button (in the top bar, left of the close button), the panel under the top bar
/// on the right, and its rows, for one window size.
struct PlaylistPanelLayout: Equatable, Sendable {
    static let rowHeight: CGFloat = 32
    static let panelWidth: CGFloat = 360
    static let maximumRows = 12

    let button: CGRect
    let panel: CGRect
    let rows: [CGRect]

    /// The layout for `controls` with `rowCount` items listed (at most `maximumRows` show).
    init(controls: ControlsLayout, rowCount: Int) {
        let side = ControlsLayout.topBarHeight
        button = CGRect(x: controls.closeButton.minX - side, y: 0, width: side, height: side)
        let width = min(Self.panelWidth, max(0, controls.size.width - 16))
        let shown = min(rowCount, Self.maximumRows)
        let room = max(0, controls.bottomBar.minY - controls.topBar.maxY - 16)
        let visible = min(shown, Int(room / Self.rowHeight))
        let panel = CGRect(
            x: controls.size.width - width - 8, y: controls.topBar.maxY + 8, width: width,
            height: CGFloat(visible) * Self.rowHeight)
        self.panel = panel
        rows = (0..<visible).map { index in
            CGRect(
                x: panel.minX, y: panel.minY + CGFloat(index) * Self.rowHeight, width: width,
                height: Self.rowHeight)
        }
    }

    /// The row under `point`, if any.
    func row(at point: CGPoint) -> Int? { rows.firstIndex { $0.contains(point) } }
}

/// Reads a queue player's items for the panel and jumps to one of them.
enum PlaylistNavigator {
    /// The rows for `player`'s queue: the current item first (marked), then the next ones.
    static func rows(of player: AVPlayer) -> [PlaylistRow] {
        guard let queue = player as? AVQueuePlayer else { return [] }
        let current = queue.currentItem
        return queue.items().map { item in
            PlaylistRow(title: title(of: item), isCurrent: item === current)
        }
    }

    /// Makes the item at `index` of `player`'s queue current: the items between are taken out,
    /// then the queue advances once (a queue only goes forward: items already played have left
    /// it). Returns false when there is nothing to do.
    @discardableResult
    static func jump(_ player: AVPlayer, toIndex index: Int) -> Bool {
        guard let queue = player as? AVQueuePlayer else { return false }
        let items = queue.items()
        guard index > 0, index < items.count else { return false }
        for skipped in items[1..<index] { queue.remove(skipped) }
        queue.advanceToNextItem()
        if queue.rate == 0 { queue.play() }
        return true
    }

    /// The item's title: the title metadata when it has loaded, else the file name.
    static func title(of item: AVPlayerItem) -> String {
        if let url = (item.asset as? AVURLAsset)?.url {
            return url.isFileURL ? url.lastPathComponent : url.absoluteString
        }
        return "Untitled"
    }
}
