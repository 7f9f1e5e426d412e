// Playhead: playlist files among `playhead play`'s inputs (a `.m3u` of songs, a station's
// `.pls`): each is replaced by its entries, in order, as desktop players queue them; a list
// naming lists is followed three deep. A list that names nothing stays, and fails as an input
// saying so; an HLS playlist is media and stays.
//
// Concurrency: `expanding` reads the files on a global queue, never on the main actor.
import Foundation
import OpenAVFoundation

extension PlayInput {
    /// The most lists followed one into another.
    static let listDepth = 3
    /// The most inputs lists may add (a list of a million lines queues its first 10,000).
    static let listEntryLimit = 10_000

    /// `inputs` with each playlist file replaced by its entries (files as paths, streams as
    /// URLs). Reads the disk off the calling thread.
    static func expanding(_ inputs: [PlayInput]) async -> [PlayInput] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                var budget = listEntryLimit
                continuation.resume(
                    returning: inputs.flatMap { expand($0, depth: 0, budget: &budget) })
            }
        }
    }

    private static func expand(_ input: PlayInput, depth: Int, budget: inout Int) -> [PlayInput] {
        guard case .given(let text) = input, depth < listDepth,
            case .entries(let urls) = LocalMediaList.read(InputURL.from(text)), !urls.isEmpty
        else { return [input] }
        var expanded: [PlayInput] = []
        for url in urls where budget > 0 {
            budget -= 1
            let entry = PlayInput.given(url.isFileURL ? url.path : url.absoluteString)
            expanded += expand(entry, depth: depth + 1, budget: &budget)
        }
        return expanded
    }
}
