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
        let url = sourceURL(index, source(of: index))
        // A moved live DASH manifest: the new place, naming the same Representation.
        guard let relocation, var moved = URLComponents(url: relocation, resolvingAgainstBaseURL: true) else { return url }
        moved.fragment = URLComponents(url: url, resolvingAgainstBaseURL: true)?.fragment
        return moved.url ?? url
    }

    /// Moves variant `index` to its next source not tried since it last moved (its backups in
    /// order, ranked by the steering server's pathway priority when there is one), its playlist
    /// the one known for that backup or read from it when asked for (unless `keepingPlaylist`:
    /// a live reload merges the backup's into the timeline); false when it has none left to
    /// try. Leaving a pathway for another gives it up for a while and moves every variant
    /// there (HLSStreamLoader+Pathways.swift).
    func failOver(_ index: Int, keepingPlaylist: Bool = false) -> Bool {
        let current = source(of: index)
        var tried = triedSources[index] ?? []
        tried.insert(current)
        triedSources[index] = tried
        guard let next = sourcesByPriority(of: index).first(where: { !tried.contains($0) }) else { return false }
        let (left, reached) = (sourcePathway(index, current), sourcePathway(index, next))
        use(source: next, for: index, keepingPlaylist: keepingPlaylist)
        triedSources[index] = tried.union([next])
        if left != reached { leavePathway(left, for: reached, except: index) }
        return true
    }

    /// Reads variant `index` from `source` (0 its own URI, N its backup N - 1, then the sources
    /// on cloned pathways) from now on.
    func use(source: Int, for index: Int, keepingPlaylist: Bool = false) {
        backupInUse[index] = source == 0 ? nil : source - 1
        guard !keepingPlaylist else { return }
        playlists[index] = knownPlaylist(index, source)
    }

    /// The playlist known from the start for variant `index` on `source`: its own, a
    /// backup's, or (DASH) a cloned location's copy of one of those; nil when it is read
    /// from the source's URL.
    private func knownPlaylist(_ index: Int, _ source: Int) -> HLSMediaPlaylist? {
        clonedPlaylist(index, source) { read in
            let known = knownBackupPlaylists[index] ?? []
            return read == 0 ? knownOwnPlaylists[index] : known.indices.contains(read - 1) ? known[read - 1] : nil
        }
    }

    /// The source variant `index` is read from: 0 its own URI, N its backup N - 1 (or clone).
    func source(of index: Int) -> Int { backupInUse[index].map { $0 + 1 } ?? 0 }
}
