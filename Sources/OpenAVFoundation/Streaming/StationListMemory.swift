// Playhead: which entry of each radio station's list of streams opened last in this process,
// so the next open of the same list tries it first: a dead mirror at the top of the list costs
// its wait once, not at every tap on the station (radio apps make a new item each time), and
// a player opened after the asset's inspection settles on the mirror the inspection described.
//
// Concurrency: any thread (the opens run on threads of their own); the table is behind a lock
// held only to read or write it.
import FFmpegBridge
import Foundation

enum StationListMemory {
    /// The most lists remembered; the oldest is forgotten first.
    static let capacity = 64

    private struct Remembered {
        var list: String
        var entry: String
    }
    private static let remembered = Locked<[Remembered]>([])

    /// `entries` with the one that opened last for `list` (its address as FFmpeg is given
    /// it) moved first, the rest in the list's order.
    static func ordered(_ entries: [MediaLocation], forList list: String) -> [MediaLocation] {
        guard let entry = remembered.withLock({ table in table.first { $0.list == list }?.entry }),
            let index = entries.firstIndex(where: { $0.ffmpegURL == entry }), index > 0
        else { return entries }
        var ordered = entries
        ordered.insert(ordered.remove(at: index), at: 0)
        return ordered
    }

    /// Notes that `entry` opened for `list`.
    static func remember(_ entry: MediaLocation, forList list: String) {
        remembered.withLock { table in
            table.removeAll { $0.list == list }
            table.append(Remembered(list: list, entry: entry.ffmpegURL))
            if table.count > capacity { table.removeFirst(table.count - capacity) }
        }
    }
}
