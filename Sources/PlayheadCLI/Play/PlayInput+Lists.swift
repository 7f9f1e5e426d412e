// Playhead: playlist files among `playhead play`'s inputs (a `.m3u` of songs, a station's
// `.pls`): each is replaced by its entries, in order, as desktop players queue them; a list
// naming lists is followed three deep. A list that names nothing stays, and fails as an input
// saying so; an HLS playlist is media and stays.
//
// Concurrency: `expanding` reads the files on a global queue, never on the main actor; the
// expansion's state is its own.
import Foundation
import OpenAVFoundation

extension PlayInput {
    /// The most lists followed one into another.
    static let listDepth = 3
    /// The most inputs lists may add (a list of a million lines queues its first 10,000).
    static let listEntryLimit = 10_000

    /// What expanding the inputs gave: the inputs to play, and lines to tell the user.
    struct Expansion: Sendable {
        var inputs: [PlayInput] = []
        var warnings: [String] = []
    }

    /// `inputs` with each playlist file replaced by its entries (files as paths, streams as
    /// URLs). Reads the disk off the calling thread, on a thread of its own (Dispatch's pool
    /// may be busy with blocking opens, and a loaded machine gets it no new thread for long);
    /// each list file once. Inputs without a list's extension come back at once.
    static func expanding(_ inputs: [PlayInput]) async -> Expansion {
        guard inputs.contains(where: \.mayBeList) else { return Expansion(inputs: inputs) }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var expander = ListExpander()
                for input in inputs { expander.add(input, within: []) }
                continuation.resume(returning: expander.result)
            }
            thread.name = "playhead.lists"
            thread.start()
        }
    }

    /// True for a file path or `file:` URL with a playlist file's extension.
    var mayBeList: Bool {
        guard case .given(let text) = self else { return false }
        let url = InputURL.from(text)
        return url.isFileURL
            && LocalMediaList.fileExtensions.contains(url.pathExtension.lowercased())
    }
}

/// One expansion's state: what was read, what is left of the entry budget.
private struct ListExpander {
    var result = PlayInput.Expansion()
    private var budget = PlayInput.listEntryLimit
    private var cutShort = false
    /// Each list file read, by path.
    private var read: [String: LocalMediaList.Reading] = [:]

    /// Adds `input`, or the entries of the list it names; `within`: the lists that led here.
    mutating func add(_ input: PlayInput, within lists: [String]) {
        guard case .given(let text) = input else { return result.inputs.append(input) }
        let url = InputURL.from(text)
        let path = url.isFileURL ? url.standardizedFileURL.path : nil
        guard let path, lists.count < PlayInput.listDepth, case .entries(let urls) = reading(path),
            !urls.isEmpty
        else { return take(input, listedIn: lists.last) }
        guard !lists.contains(path) else {
            return result.warnings.append(
                "playhead: \(lists.last ?? text): warning: the list names itself; left out")
        }
        for entry in urls {
            add(.given(entry.isFileURL ? entry.path : entry.absoluteString), within: lists + [path])
        }
    }

    private mutating func take(_ input: PlayInput, listedIn list: String?) {
        guard list != nil else { return result.inputs.append(input) }
        guard budget > 0 else {
            if !cutShort, let list {
                cutShort = true
                result.warnings.append(
                    "playhead: \(list): warning: only the first \(PlayInput.listEntryLimit) entries of the lists are queued"
                )
            }
            return
        }
        budget -= 1
        result.inputs.append(input)
    }

    private mutating func reading(_ path: String) -> LocalMediaList.Reading {
        if let known = read[path] { return known }
        let reading = LocalMediaList.read(URL(fileURLWithPath: path))
        read[path] = reading
        return reading
    }
}
