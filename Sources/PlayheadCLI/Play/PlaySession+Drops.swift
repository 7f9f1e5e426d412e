// Playhead: files and URLs dropped on `playhead play`'s window: a plain drop plays them instead
// of what plays (the rest of the queue is dropped too), a drop with Shift held adds them to the
// end of the queue, as VLC's and mpv's windows do.
//
// Concurrency: main actor (the window's drop arrives on the main queue).
import Foundation
import OpenAVFoundation
import OpenAVKit

extension PlaySession {
    /// Plays a drop: appended with Shift, else instead of the current item and the rest.
    func play(_ drop: PlayerWindowDrop) {
        let dropped = drop.urls.map { PlayInput.given($0.isFileURL ? $0.path : $0.absoluteString) }
        guard !dropped.isEmpty else { return }
        // Drops are played in the order they came, each after the one before.
        let before = lastDrop
        lastDrop = Task { @MainActor in
            await before?.value
            let expansion = await PlayInput.expanding(dropped)
            expansion.warnings.forEach(console.printError)
            await play(expansion.inputs, appending: drop.appends)
        }
    }

    /// Plays the inputs of a drop (playlist files replaced by their entries), unless the run
    /// ended meanwhile.
    private func play(_ inputs: [PlayInput], appending appends: Bool) async {
        guard !isEnding, !inputs.isEmpty else { return }
        if appends {
            passInputs += inputs
        } else {
            passInputs = inputs
            // What was queued after the current item goes; the current one stops below.
            if position + 1 < ordered.count {
                for dropped in ordered[(position + 1)...] {
                    player.remove(dropped.item)
                    dropped.stopObserving()
                    watches[ObjectIdentifier(dropped.item)] = nil
                }
                ordered.removeSubrange((position + 1)...)
            }
        }
        var added: [ItemWatch] = []
        for input in inputs { added.append(await enqueue(input)) }
        // Stopping the current item moves the queue on to the first dropped one (unless the
        // queue already moved on to a dropped one while they were made).
        guard !appends, position < ordered.count,
            !added.contains(where: { $0 === ordered[position] })
        else { return }
        finishCurrent?(.stopped, nil)
    }
}
