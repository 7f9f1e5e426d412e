// Playhead: finds subtitle files beside a media file (`clip.srt`, `clip.en.vtt`, `clip.fre.ass`).
// Concurrency: pure functions (the directory was listed while the media was inspected, on a
// background thread).
import Foundation

/// How an asset finds subtitle files that are not inside the media.
struct SidecarSubtitleSettings: Sendable {
    /// Look beside a local media file for `name.srt`, `name.vtt`, `name.ass`, `name.ssa`,
    /// `name.ttml`, `name.dfxp` (and the other extensions of `SidecarSubtitles.extensions`), with
    /// an optional language part (`name.eng.srt`, `name.fr.vtt`).
    var discoversBesideMedia = true
    /// Files given explicitly, listed after the discovered ones.
    var explicitFiles: [URL] = []
}

/// One subtitle file and what its name says about it.
struct SidecarSubtitle: Sendable, Equatable {
    let url: URL
    /// The language part of the name, as written ("eng", "fr", "pt-BR"), when there is one.
    let languageCode: String?
    /// True when the name says "forced".
    let isForced: Bool
}

/// Discovery of sidecar subtitle files.
///
/// Concurrency: pure functions.
enum SidecarSubtitles {
    static let extensions: Set<String> = [
        "srt", "vtt", "webvtt", "ass", "ssa", "sub", "smi", "sami", "sup", "ttml", "dfxp",
    ]

    /// The subtitle files for the media at `mediaURL` under `settings`, among `neighbours`
    /// (the names of the files beside it, listed when the media was inspected).
    static func find(for mediaURL: URL, neighbours: [String], settings: SidecarSubtitleSettings)
        -> [SidecarSubtitle]
    {
        var found: [SidecarSubtitle] = []
        if settings.discoversBesideMedia, mediaURL.isFileURL {
            let folder = mediaURL.deletingLastPathComponent()
            let stem = mediaURL.deletingPathExtension().lastPathComponent
            for name in neighbours.sorted() {
                guard let sidecar = parse(name: name, stem: stem, folder: folder) else { continue }
                found.append(sidecar)
            }
        }
        for url in settings.explicitFiles
        where !found.contains(where: { $0.url.standardizedFileURL == url.standardizedFileURL }) {
            let stem = url.deletingPathExtension().deletingPathExtension().lastPathComponent
            found.append(
                parse(
                    name: url.lastPathComponent, stem: stem, folder: url.deletingLastPathComponent()
                )
                    ?? SidecarSubtitle(url: url, languageCode: nil, isForced: false))
        }
        return found
    }

    /// Reads `stem[.lang][.forced].ext`; nil when `name` is not a subtitle file for `stem`.
    static func parse(name: String, stem: String, folder: URL) -> SidecarSubtitle? {
        guard name.hasPrefix(stem + "."), name.count > stem.count + 1 else { return nil }
        let rest = name.dropFirst(stem.count + 1)
        var parts = rest.split(separator: ".").map(String.init)
        guard let ext = parts.popLast()?.lowercased(), extensions.contains(ext) else { return nil }
        var forced = false
        if let last = parts.last?.lowercased(), last == "forced" {
            forced = true
            parts.removeLast()
        }
        let language = parts.last.flatMap { part -> String? in
            let lowered = part.lowercased()
            guard (2...3).contains(lowered.prefix { $0 != "-" && $0 != "_" }.count),
                lowered.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" })
            else { return nil }
            return part
        }
        return SidecarSubtitle(
            url: folder.appendingPathComponent(name), languageCode: language, isForced: forced)
    }
}

/// Options key: subtitle files (`[URL]`) to offer as extra legible options, after those found
/// beside the media.
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadSubtitleFilesKey: String = "PlayheadSubtitleFiles"

/// Options key: `false` stops the asset looking for subtitle files beside the media
/// (`clip.srt`, `clip.en.vtt`, ...). Default `true`.
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadDiscoversSubtitleFilesKey: String = "PlayheadDiscoversSubtitleFiles"

extension SidecarSubtitleSettings {
    /// Settings from `AVURLAsset` options.
    init(options: [String: Any]?) {
        discoversBesideMedia =
            options?[AVURLAssetPlayheadDiscoversSubtitleFilesKey] as? Bool ?? true
        explicitFiles = options?[AVURLAssetPlayheadSubtitleFilesKey] as? [URL] ?? []
    }
}
