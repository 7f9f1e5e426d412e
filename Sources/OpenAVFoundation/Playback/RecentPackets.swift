// Playhead: the recent packets of a track that is not playing, kept so a switch to it can
// start just before the playhead.
//
// Concurrency: a value; its owner's contract applies (the switchboard's lock for audio, the
// demux thread's router for subtitles).
import FFmpegBridge

/// Packets appended as they are read and let go from the front once they end before a
/// horizon, at most `limit` of them. Appending and letting go cost amortised O(1): a head
/// index over an array that is compacted once half of it is spent, so a long backlog is never
/// copied per packet.
struct RecentPackets<Entry> {
    /// The most entries kept; later ones are dropped until older ones are let go.
    let limit: Int
    private var storage: [Entry] = []
    /// The first live entry in `storage`.
    private var head = 0
    /// Entries moved by compaction since creation (a check that appends stay O(1)).
    private(set) var movedEntries = 0

    /// An empty backlog of at most `limit` entries.
    init(limit: Int) { self.limit = limit }

    /// The entries kept, oldest first.
    var entries: ArraySlice<Entry> { storage[head...] }

    /// How many entries are kept.
    var count: Int { storage.count - head }

    /// Lets go of the entries at the front whose `end` is before `horizon`, then appends
    /// `entry` unless `limit` entries are kept.
    mutating func append(_ entry: Entry, droppingEndedBefore horizon: CMTime, end: (Entry) -> CMTime) {
        while head < storage.count, end(storage[head]) < horizon { head += 1 }
        if head > 32, head * 2 >= storage.count {
            movedEntries += storage.count - head
            storage.removeFirst(head)
            head = 0
        }
        if count < limit { storage.append(entry) }
    }

    /// Takes every entry out, oldest first.
    mutating func removeAll() -> ArraySlice<Entry> {
        defer { storage = []; head = 0 }
        return storage[head...]
    }
}
