// Playhead: `playhead play`'s audio language and subtitle options, and applying them to an item.
// Concurrency: a value; `apply` awaits asset loading and calls the item's thread-safe `select`.
import Foundation
import OpenAVFoundation

/// Which audio language and subtitles `playhead play` should use.
public struct PlaySelection: Sendable, Equatable {
    /// Play the audio track in this language (BCP 47 or ISO 639-2, e.g. "fr" or "fre").
    public var audioLanguage: String?
    /// Show the subtitle track (embedded or beside the media) in this language.
    public var subtitleLanguage: String?
    /// Show the subtitles in this file.
    public var subtitleFile: String?
    /// Show no subtitles, not even the track flagged as default or a forced one.
    public var noSubtitles = false

    /// No preference: the default audio track and the subtitle track flagged as default (else
    /// a forced one; else none).
    public init() {}

    static let audioLanguageOption = CommandOption.value(
        "audio-lang", valueName: "LANG",
        help: "Play the audio track in language LANG (e.g. fr or fre).")
    static let subtitleLanguageOption = CommandOption.value(
        "sub-lang", valueName: "LANG",
        help:
            "Show the subtitles in language LANG (embedded, or a file beside the media such as clip.fr.srt)."
    )
    static let subtitleFileOption = CommandOption.value(
        "sub", valueName: "FILE", help: "Show the subtitles in FILE (SubRip, WebVTT, ASS/SSA).")
    static let noSubtitlesOption = CommandOption.flag(
        "no-sub", help: "Show no subtitles, not even the default or forced track.")

    /// The options, in help order.
    static let options = [
        audioLanguageOption, subtitleLanguageOption, subtitleFileOption, noSubtitlesOption,
    ]

    /// Reads and checks the options.
    static func from(_ arguments: ParsedArguments) throws(UsageError) -> PlaySelection {
        var selection = PlaySelection()
        selection.audioLanguage = try language(arguments, audioLanguageOption)
        selection.subtitleLanguage = try language(arguments, subtitleLanguageOption)
        selection.noSubtitles = arguments.flag(noSubtitlesOption.name)
        selection.subtitleFile = arguments.value(subtitleFileOption.name)
        if selection.noSubtitles, selection.subtitleFile != nil || selection.subtitleLanguage != nil
        {
            throw UsageError(.other("--no-sub cannot be combined with --sub or --sub-lang"))
        }
        return selection
    }

    private static func language(_ arguments: ParsedArguments, _ option: CommandOption)
        throws(UsageError) -> String?
    {
        guard let value = arguments.value(option.name) else { return nil }
        let valid =
            (2...8).contains(value.count)
            && value.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" }
        guard valid else {
            throw UsageError(
                .invalidValue(
                    option: option.longSpelling, value: value,
                    expected: "a language code such as fr or fre"))
        }
        return value
    }

    /// Why the `--sub` file cannot be used ("no such file", "is a directory, not a subtitle
    /// file"), or nil when it can (or none was given). Checked before playing: the CLI then
    /// exits 1 with `playhead: FILE: reason`.
    var subtitleFileProblem: String? {
        guard let subtitleFile else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: subtitleFile, isDirectory: &isDirectory) else {
            return "no such file"
        }
        if isDirectory.boolValue { return "is a directory, not a subtitle file" }
        guard FileManager.default.isReadableFile(atPath: subtitleFile) else {
            return "permission denied"
        }
        return nil
    }

    /// True when nothing was asked for: the item plays the default audio track and the player
    /// shows the subtitle track flagged as default (else a forced one), with no extra loading.
    var isDefault: Bool { self == PlaySelection() }

    /// Whether the player should show the subtitle track the container flags as default when
    /// no other is chosen (as mpv and VLC do; Apple's API leaves subtitles off): unless --no-sub.
    var showsFlaggedDefaultSubtitles: Bool { !noSubtitles }

    /// The asset for `url`, offering the `--sub` file as an extra subtitle option.
    func asset(for url: URL) -> AVURLAsset {
        guard let subtitleFile else { return AVURLAsset(url: url) }
        return AVURLAsset(
            url: url,
            options: [AVURLAssetPlayheadSubtitleFilesKey: [URL(fileURLWithPath: subtitleFile)]])
    }

    /// Loads the item's selection groups and selects what was asked for. Returns one warning per
    /// request that nothing matched (the item then plays with the player's automatic choice:
    /// for subtitles, the flagged track on a player that shows it).
    func apply(to item: AVPlayerItem) async -> [String] {
        guard !isDefault else { return [] }
        var warnings: [String] = []
        let asset = item.asset
        if let language = audioLanguage {
            let group = try? await asset.loadMediaSelectionGroup(for: .audible)
            if let group, let option = Self.match(group, language) {
                item.select(option, in: group)
            } else {
                warnings.append("no audio track in language \(language)")
            }
        }
        guard subtitleLanguage != nil || subtitleFile != nil || noSubtitles else { return warnings }
        let group = try? await asset.loadMediaSelectionGroup(for: .legible)
        if noSubtitles {
            if let group { item.select(nil, in: group) }
        } else if let file = subtitleFile {
            let wanted = URL(fileURLWithPath: file).standardizedFileURL.path
            let option = group?.options.first { $0.fileURL?.standardizedFileURL.path == wanted }
            if let group, let option {
                item.select(option, in: group)
            } else {
                warnings.append("cannot read subtitles \(file)")
            }
        } else if let language = subtitleLanguage {
            if let group, let option = Self.match(group, language) {
                item.select(option, in: group)
            } else {
                warnings.append("no subtitles in language \(language)")
            }
        }
        return warnings
    }

    /// The first playable option of `group` in `language`.
    static func match(_ group: AVMediaSelectionGroup, _ language: String) -> AVMediaSelectionOption?
    {
        let playable = AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options)
        return AVMediaSelectionGroup.mediaSelectionOptions(
            from: playable, filteredAndSortedAccordingToPreferredLanguages: [language]
        ).first
    }
}

extension PlayInput {
    /// A new player item for this input, offering the `--sub` file when one was given.
    @MainActor func makeItem(selection: PlaySelection) -> AVPlayerItem {
        switch self {
        case .given(let input):
            return AVPlayerItem(asset: selection.asset(for: InputURL.from(input)))
        case .builtInDemo: return makeItem()
        }
    }
}
