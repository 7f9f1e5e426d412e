// Playhead: redundant variant streams. A multivariant playlist may list a variant again with
// the same attributes and another URI (a backup on another server: RFC 8216's redundant
// variant streams); the parser keeps one variant with the others as its `backups`. When the
// variant's playlist cannot be read, a segment is refused by its server, or a segment fails
// for every attempt, the loader moves that variant to its next backup and goes on from there:
// the backup's playlist is read (its segments matched by media sequence number live, by time
// for VOD, as any variant's) and the segment asked for again. Each backup is tried once;
// after the last the variant fails as one without backups does. A DASH manifest's other
// locations are backups too (DASHBaseURLs.swift), their playlists known from the start.
//
// Concurrency: the loader thread's (`backupInUse` is its state, like `playlists`).
import Foundation

extension HLSStreamLoader {
    /// Where variant `index`'s playlist is read from now: its own URI, or the backup it failed
    /// over to; at the place a live DASH manifest moved to (its `Location`), when it did.
    func playlistURL(of index: Int) -> URL {
        let url = backupInUse[index].map { variants[index].backups[$0] } ?? variants[index].url
        // A moved live DASH manifest: the new place, naming the same Representation.
        guard let relocation, var moved = URLComponents(url: relocation, resolvingAgainstBaseURL: true) else { return url }
        moved.fragment = URLComponents(url: url, resolvingAgainstBaseURL: true)?.fragment
        return moved.url ?? url
    }

    /// Moves variant `index` to its next backup (its playlist the one known for that backup, or
    /// read from it when asked for; unless `keepingPlaylist`: a live reload merges the backup's
    /// into the timeline); false when it has none left to try.
    func failOver(_ index: Int, keepingPlaylist: Bool = false) -> Bool {
        let next = backupInUse[index].map { $0 + 1 } ?? 0
        guard next < variants[index].backups.count else { return false }
        backupInUse[index] = next
        if !keepingPlaylist {
            let known = knownBackupPlaylists[index] ?? []
            playlists[index] = known.indices.contains(next) ? known[next] : nil
        }
        return true
    }
}
