// Playhead: redundant variant streams (RFC 8216 6.2.4). A multivariant playlist may list a
// variant again with the same attributes and another URI: a backup of it on another server.
// Playhead adapts over one variant and turns to the backup when the first fails. A backup
// may name an audio group of its own, a copy of the first's group on the backup's server (the
// same renditions by name and language, other URIs), as Apple's authoring guidance has backup
// streams do so that the sound fails over with the pictures: each rendition of that copy
// becomes a backup of the first group's rendition, and the copy is no group of its own.
//
// Concurrency: pure functions, used while a playlist is parsed.
import Foundation

enum HLSRedundantStreams {
    /// `variants` with each backup folded into the first variant it copies, and `audio` with
    /// the renditions of the backups' own audio groups folded into the first's renditions.
    static func merged(_ variants: [HLSVariant], audio: [HLSAudioRendition])
        -> (variants: [HLSVariant], audio: [HLSAudioRendition])
    {
        var merged: [HLSVariant] = []
        var audio = audio
        var folded: Set<String> = []
        for variant in variants {
            guard let first = merged.firstIndex(where: { isBackup(variant, of: $0, audio: audio) }) else {
                merged.append(variant)
                continue
            }
            merged[first].backups.append(variant.url)
            merged[first].backupPathways.append(variant.pathway)
            guard let own = merged[first].audioGroup, let copy = variant.audioGroup, own != copy else { continue }
            audio = audio.map { rendition in
                guard rendition.group == own,
                    let url = audio.first(where: {
                        $0.group == copy && $0.name == rendition.name && $0.language == rendition.language
                    })?.url,
                    url != rendition.url, !rendition.backups.contains(url)
                else { return rendition }
                var withBackup = rendition
                withBackup.backups.append(url)
                withBackup.backupPathways.append(variant.pathway)
                return withBackup
            }
            folded.insert(copy)
        }
        // A copied group no variant plays with any more offers no choice of its own.
        let playing = Set(merged.compactMap(\.audioGroup))
        audio.removeAll { folded.contains($0.group) && !playing.contains($0.group) }
        return (merged, audio)
    }

    /// True when `variant` differs from `first` in its URI alone, or also in an audio group
    /// that copies `first`'s.
    static func isBackup(_ variant: HLSVariant, of first: HLSVariant, audio: [HLSAudioRendition]) -> Bool {
        var same = variant
        same.url = first.url
        same.backups = first.backups
        same.backupPathways = first.backupPathways
        if let own = first.audioGroup, let copy = variant.audioGroup, own != copy,
            copies(copy, own, in: audio)
        {
            same.audioGroup = own
        }
        return same == first
    }

    /// True when audio group `copy` lists the same renditions as `group` (by name and
    /// language, in order), each with a URI of its own where `group`'s has one.
    static func copies(_ copy: String, _ group: String, in audio: [HLSAudioRendition]) -> Bool {
        let originals = audio.filter { $0.group == group }
        let copies = audio.filter { $0.group == copy }
        guard !originals.isEmpty, originals.count == copies.count else { return false }
        return zip(originals, copies).allSatisfy { original, copy in
            original.name == copy.name && original.language == copy.language
                && (original.url == nil) == (copy.url == nil)
        }
    }
}
