// Playhead: the window's subtitle source: a legible output on the player's current item that
// keeps the cues showing now.
//
// Concurrency: created and updated on the window's thread (the main thread when it drains
// the main queue); the legible output calls `legibleOutput(_:didOutputCues:forItemTime:)` on
// the main queue. The showing cues live behind a lock so both sides may touch them.
import Foundation
import OpenAVFoundation
import Synchronization

/// Follows the player's current item and remembers the subtitle cues it shows now.
final class SubtitleOverlay: AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
    private struct Showing {
        var cues: [AVSubtitleCue] = []
        var version = 0
    }

    private let output = AVPlayerItemLegibleOutput()
    private let showing = Locked(Showing())
    /// owned by the window's thread: the item the output is attached to
    private weak var attachedItem: AVPlayerItem?

    init() { output.setDelegate(self, queue: nil) }

    /// Moves the output to `item` when the player's current item changed (window thread).
    func follow(_ item: AVPlayerItem?) {
        guard item !== attachedItem else { return }
        attachedItem?.remove(output)
        attachedItem = item
        item?.add(output)
        showing.withLock { $0 = Showing(cues: [], version: $0.version + 1) }
    }

    /// True when another legible output of the item asks the player not to draw subtitles.
    var isSuppressed: Bool {
        (attachedItem?.outputs ?? []).contains {
            $0 !== output && $0 is AVPlayerItemLegibleOutput && $0.suppressesPlayerRendering
        }
    }

    /// The cues showing now and a counter that changes whenever they do.
    var current: (cues: [AVSubtitleCue], version: Int) {
        showing.withLock { ($0.cues, $0.version) }
    }

    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputCues cues: [AVSubtitleCue],
        forItemTime itemTime: CMTime
    ) {
        showing.withLock { $0 = Showing(cues: cues, version: $0.version + 1) }
    }
}
