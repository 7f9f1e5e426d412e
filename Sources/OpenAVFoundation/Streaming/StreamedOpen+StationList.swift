// Playhead: opening a plain list of streams (StationList.swift) found at a network URL: its
// entries are opened in the list's order, with the same request settings, as if the app had
// named each, until one opens (a station lists mirrors so that a dead one is passed over; the
// one that opened last for the same list in this process is tried first, StationListMemory); a
// list naming a list is followed, three deep at most, opening only that list's first entry. An
// https list's entries must be https (no downgrade), and no entry may leave the network
// (`file:`).
//
// Concurrency: runs on the thread that opens the input, as the rest of `StreamedOpen`; the
// interrupt is reset between two entries' opens on that thread, when no context uses it.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// The most lists followed one into another before the input fails.
    static let maximumListsFollowed = 3

    /// The most entries of the first list tried before the input fails (a list it names opens
    /// its first entry only, so one open tries at most this many). Each may wait the time-out
    /// at each of its steps (the request, the container's open, its stream information).
    static let maximumEntriesTried = 4

    /// The entries of the list `listing` (its bytes as read from `location`) that may be opened,
    /// in the list's order, each once.
    ///
    /// - Throws: `.io` saying why no entry may be opened (a refused or missing one, lists
    ///   nested too deep, not text, a web page), or `.cancelled`.
    static func stationListEntries(
        _ listing: FetchedResource?, of location: MediaLocation, interrupt: InterruptDeadline, listsFollowed: Int
    ) throws(MediaFailure) -> [MediaLocation] {
        if interrupt.isAborted { throw .cancelled }
        guard listsFollowed < maximumListsFollowed else {
            throw .io(detail: "lists of streams nested more than \(maximumListsFollowed) deep")
        }
        guard let listing, let text = StationList.text(of: listing.data) else {
            throw .io(detail: "a list of streams that is not text")
        }
        guard !StationList.isWebPage(text) else { throw .io(detail: "a web page, not a list of streams") }
        var seen = Set<URL>()
        let urls = try StationList.playable(
            StationList.entries(of: text, base: listing.finalURL), secure: location.requiresTLS
        ).get().filter { seen.insert($0).inserted }
        let opened = urls.compactMap { url in try? MediaLocation(url: url, network: location.network) }
        guard !opened.isEmpty else { throw .io(detail: "the list of streams names no stream") }
        return opened
    }

    /// A file on disk: itself, unless it is a playlist file (LocalMediaList.swift), which is
    /// not media: its entries are items of their own (`playhead play` queues them). An asset
    /// stands for one input, whose URL every part of the engine reads (side-car subtitles,
    /// whether its subtitles and keys may come from the network, thumbnails), so it does not
    /// stand in for an entry.
    ///
    /// - Throws: `.io` saying it is a list and how many entries it names.
    static func localList(at path: String, of location: MediaLocation) throws(MediaFailure) -> Resolution {
        guard case .entries(let urls) = LocalMediaList.read(URL(fileURLWithPath: path)) else {
            return .input(location, nil)
        }
        if urls.isEmpty { throw .io(detail: "the list names no media") }
        let count = urls.count == 1 ? "1 entry" : "\(urls.count) entries"
        throw .io(detail: "a playlist file of \(count), not media (play its entries as items of their own)")
    }

    /// Opens the first of `entries` (the list at `list`) that opens: at most
    /// `maximumEntriesTried` of the first list, the entry that opened last for it in this
    /// process first (`StationListMemory`), then the others in the list's order; the first
    /// entry of a list it names.
    ///
    /// - Throws: the failure of the entry listed first of those tried when none opens, or
    ///   `.cancelled`.
    static func firstOpened(
        of entries: [MediaLocation], list: MediaLocation, timeout: Double, interrupt: InterruptDeadline,
        limits: MediaLimits, readsSessionDocuments: Bool, listsFollowed: Int, caps: VariantAdaptation.Caps = .init()
    ) throws(MediaFailure) -> Opened {
        let topLevel = listsFollowed <= 1
        let tried = topLevel
            ? Array(StationListMemory.ordered(entries, forList: list.ffmpegURL).prefix(maximumEntriesTried))
            : Array(entries.prefix(1))
        // The failure reported is that of the entry the list names first (the remembered
        // entry, tried first, may stand lower in it).
        var firstFailure: (position: Int, failure: MediaFailure)?
        for (index, entry) in tried.enumerated() {
            if interrupt.isAborted { throw .cancelled }
            // What the last entry's failed open left in the interrupt (its counted inputs,
            // its https rule, a refusal) must not touch this one's.
            if index > 0 { interrupt.resetAfterFailedOpen() }
            do throws(MediaFailure) {
                let opened = try demuxer(
                    for: entry, timeout: timeout, interrupt: interrupt, limits: limits,
                    readsSessionDocuments: readsSessionDocuments, listsFollowed: listsFollowed, caps: caps)
                if topLevel { StationListMemory.remember(entry, forList: list.ffmpegURL) }
                return opened
            } catch {
                if case .cancelled = error { throw error }
                let position = entries.firstIndex { $0.ffmpegURL == entry.ffmpegURL } ?? index
                if position < firstFailure?.position ?? .max { firstFailure = (position, error) }
            }
        }
        if interrupt.isAborted { throw .cancelled }
        throw firstFailure?.failure ?? .io(detail: "the list of streams names no stream")
    }
}
