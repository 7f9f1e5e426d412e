// Playhead: redundant variant streams (RFC 8216 6.2.4). A multivariant playlist may list a
// variant again with the same attributes and another URI: a backup of it on another server.
// Playhead adapts over one variant and turns to the backup when the first fails. A backup
// may name an audio group of its own, a copy of the first's group on the backup's server (the
// same renditions by name and language, other URIs), as Apple's authoring guidance has backup
// streams do so that the sound fails over with the pictures: each rendition of that copy
// becomes a backup of the first group's rendition, and the copy is no group of its own. A
// backup's own subtitle group (the same renditions by name and language) is such a copy too:
// the backup stays a backup, and the copy offers no choice of its own (the subtitle
// renditions offered are those of groups the variants left name).
//
// Concurrency: pure functions, used while a playlist is parsed.
import FFmpegBridge
import Foundation

enum HLSRedundantStreams {
    /// `variants` with each backup folded into the first variant it copies, and `audio` with
    /// the renditions of the backups' own audio groups folded into the first's renditions.
    /// `subtitles`: the multivariant playlist's subtitle renditions, whose copies a backup may
    /// name.
    static func merged(
        _ variants: [HLSVariant], audio: [HLSAudioRendition], subtitles: [HLSRenditionName] = []
    ) -> (variants: [HLSVariant], audio: [HLSAudioRendition]) {
        var merged: [HLSVariant] = []
        var audio = audio
        var folded: Set<String> = []
        for variant in variants {
            guard
                let first = merged.firstIndex(where: {
                    isBackup(variant, of: $0, audio: audio, subtitles: subtitles)
                })
            else {
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

    /// True when `variant` differs from `first` in its URI alone, or also in audio and
    /// subtitle groups that copy `first`'s.
    static func isBackup(
        _ variant: HLSVariant, of first: HLSVariant, audio: [HLSAudioRendition], subtitles: [HLSRenditionName] = []
    ) -> Bool {
        var same = variant
        same.url = first.url
        same.backups = first.backups
        same.backupPathways = first.backupPathways
        if let own = first.audioGroup, let copy = variant.audioGroup, own != copy,
            copies(copy, own, in: audio.map(HLSRenditionName.init))
        {
            same.audioGroup = own
        }
        if let own = first.subtitleGroup, let copy = variant.subtitleGroup, own != copy,
            copies(copy, own, in: subtitles)
        {
            same.subtitleGroup = own
        }
        return same == first
    }

    /// True when group `copy` lists the same renditions as `group` (by name and language, in
    /// order), each with a URI of its own where `group`'s has one.
    static func copies(_ copy: String, _ group: String, in renditions: [HLSRenditionName]) -> Bool {
        let originals = renditions.filter { $0.group == group }
        let copies = renditions.filter { $0.group == copy }
        guard !originals.isEmpty, originals.count == copies.count else { return false }
        return zip(originals, copies).allSatisfy { original, copy in
            original.name == copy.name && original.language == copy.language && original.hasURI == copy.hasURI
                && original.isForced == copy.isForced && original.characteristics == copy.characteristics
        }
    }
}

/// What tells one `EXT-X-MEDIA` rendition from another of its type: its group, name,
/// language, `FORCED` and `CHARACTERISTICS`, and whether it has a playlist of its own.
struct HLSRenditionName: Equatable, Sendable {
    let group: String
    let name: String
    let language: String?
    let hasURI: Bool
    var isForced = false
    var characteristics: String?

    init(group: String, name: String, language: String?, hasURI: Bool, isForced: Bool = false, characteristics: String? = nil) {
        self.group = group
        self.name = name
        self.language = language
        self.hasURI = hasURI
        self.isForced = isForced
        self.characteristics = characteristics
    }

    /// An audio rendition's.
    init(_ rendition: HLSAudioRendition) {
        self.init(group: rendition.group, name: rendition.name, language: rendition.language, hasURI: rendition.url != nil)
    }
}

extension HLSMultivariantPlaylist {
    /// `renditions` (read from the playlist kept by `keepingSubtitleGroupsItsVariantsName`)
    /// with the copies the whole playlist `text` lists of each (the same name, language and
    /// forced flag, in a group the variants no longer name: a backup's) as its backups.
    func withSubtitleBackups(_ renditions: [SubtitleRendition], from text: String, base: URL) -> [SubtitleRendition] {
        let named = Set(variants.compactMap(\.subtitleGroup))
        guard !named.isEmpty else { return renditions }
        var copies: [(rendition: SubtitleRendition, group: String)] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("#EXT-X-MEDIA:") {
            let media = HLSPlaylist.attributes(line.dropFirst("#EXT-X-MEDIA:".count))
            guard media["TYPE"] == "SUBTITLES", let group = media["GROUP-ID"], !named.contains(group) else { continue }
            for rendition in HLSSubtitleRenditions.parse("#EXTM3U\n" + line, base: base) { copies.append((rendition, group)) }
        }
        let characteristics = { (line: Substring) in HLSPlaylist.attributes(line.dropFirst("#EXT-X-MEDIA:".count))["CHARACTERISTICS"] }
        var characteristicsByURL: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("#EXT-X-MEDIA:") {
            guard let uri = HLSPlaylist.attributes(line.dropFirst("#EXT-X-MEDIA:".count))["URI"],
                let url = URL(string: uri, relativeTo: base)?.absoluteURL.absoluteString
            else { continue }
            characteristicsByURL[url] = characteristics(line) ?? ""
        }
        return renditions.map { rendition in
            var withBackups = rendition
            var seen: Set<String> = [rendition.url]
            withBackups.backupURLs = copies.map(\.rendition).filter {
                $0.name == rendition.name && $0.language == rendition.language && $0.isForced == rendition.isForced
                    && characteristicsByURL[$0.url] == characteristicsByURL[rendition.url] && seen.insert($0.url).inserted
            }.map(\.url)
            return withBackups
        }
    }

    /// The playlist's `text` without the subtitle renditions of groups its variants (folded,
    /// or steered to one pathway) do not name, so a backup's or another pathway's copies of
    /// them are not offered again.
    /// When none of the groups the variants name is listed (a broken playlist), every
    /// subtitle rendition stays.
    func keepingSubtitleGroupsItsVariantsName(_ text: String) -> String {
        let named = Set(variants.compactMap(\.subtitleGroup))
        guard !named.isEmpty else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func subtitleGroup(_ line: Substring) -> String?? {
            guard line.hasPrefix("#EXT-X-MEDIA:") else { return nil }
            let media = HLSPlaylist.attributes(line.dropFirst("#EXT-X-MEDIA:".count))
            return media["TYPE"] == "SUBTITLES" ? .some(media["GROUP-ID"]) : nil
        }
        let listed = Set(lines.compactMap { subtitleGroup($0) ?? nil })
        guard !listed.isDisjoint(with: named) else { return text }
        return lines.filter { line in
            guard case .some(let group) = subtitleGroup(line) else { return true }
            return group.map(named.contains) ?? true
        }.joined(separator: "\n")
    }
}
