// Playhead: an asset's media selection groups (audio languages, subtitle tracks and files).
// Concurrency: groups are built once per loaded asset (AssetContents) and immutable; the
// synchronous getters block until the asset is loaded.
import FFmpegBridge
import Foundation

extension AVAsset {
    /// The characteristics that have selection groups: `.audible` when the asset has audio,
    /// `.legible` when it has subtitle tracks, closed captions or subtitle files beside it.
    /// Blocks until loaded.
    public var availableMediaCharacteristicsWithMediaSelectionOptions: [AVMediaCharacteristic] {
        contentsWaiting(for: "availableMediaCharacteristicsWithMediaSelectionOptions")?
            .selectionGroups.map(\.characteristic) ?? []
    }

    /// The group of options with `mediaCharacteristic` (`.audible` or `.legible`); nil when
    /// there is none. Blocks until loaded.
    ///
    /// - Note: Deprecated on Apple platforms in favour of ``loadMediaSelectionGroup(for:)``.
    public func mediaSelectionGroup(
        forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic
    )
        -> AVMediaSelectionGroup?
    {
        contentsWaiting(for: "availableMediaCharacteristicsWithMediaSelectionOptions")?
            .selectionGroups.first { $0.characteristic == mediaCharacteristic }
    }

    /// Loads the asset, then returns the group of options with `mediaCharacteristic`.
    public func loadMediaSelectionGroup(for mediaCharacteristic: AVMediaCharacteristic) async throws
        -> AVMediaSelectionGroup?
    {
        _ = try await load(.availableMediaCharacteristicsWithMediaSelectionOptions)
        return try loadedContents().selectionGroups.first {
            $0.characteristic == mediaCharacteristic
        }
    }

    /// The selection playback starts with: each group's default option. Blocks until loaded.
    public var preferredMediaSelection: AVMediaSelection {
        let groups =
            contentsWaiting(for: "availableMediaCharacteristicsWithMediaSelectionOptions")?
            .selectionGroups ?? []
        var selected: [AVMediaCharacteristic: AVMediaSelectionOption] = [:]
        for group in groups { selected[group.characteristic] = group.defaultOption }
        return AVMediaSelection(asset: self, selected: selected)
    }

    /// Every combination of one option from each selection group (subtitles off counts as a
    /// choice in groups that allow it), in container order. Blocks until loaded.
    public var allMediaSelections: [AVMediaSelection] {
        let groups =
            contentsWaiting(for: "availableMediaCharacteristicsWithMediaSelectionOptions")?
            .selectionGroups ?? []
        return Self.mediaSelections(of: groups, asset: self)
    }

    /// The combinations of `groups`' options, the first group varying slowest.
    static func mediaSelections(of groups: [AVMediaSelectionGroup], asset: AVAsset) -> [AVMediaSelection] {
        var combinations: [[AVMediaCharacteristic: AVMediaSelectionOption]] = [[:]]
        for group in groups {
            let choices: [AVMediaSelectionOption?] = group.options.map { $0 } + (group.allowsEmptySelection ? [nil] : [])
            combinations = combinations.flatMap { partial in
                choices.map { choice in
                    var next = partial
                    next[group.characteristic] = choice
                    return next
                }
            }
        }
        return combinations.map { AVMediaSelection(asset: asset, selected: $0) }
    }

    /// Every selection group, without blocking: empty while the asset is not loaded.
    var loadedSelectionGroups: [AVMediaSelectionGroup] {
        (try? loadedContents().selectionGroups) ?? []
    }
}

extension AVPartialAsyncProperty where Root: AVAsset {
    /// Every combination of the selection groups' options.
    public static var allMediaSelections: AVAsyncProperty<Root, [AVMediaSelection]> {
        AVAsyncProperty(key: "allMediaSelections") { asset in
            AVAsset.mediaSelections(of: try asset.loadedContents().selectionGroups, asset: asset)
        }
    }

    /// The characteristics that have media selection groups.
    public static var availableMediaCharacteristicsWithMediaSelectionOptions:
        AVAsyncProperty<Root, [AVMediaCharacteristic]>
    {
        AVAsyncProperty(key: "availableMediaCharacteristicsWithMediaSelectionOptions") {
            try $0.loadedContents().selectionGroups.map(\.characteristic)
        }
    }
}

/// Builds the selection groups of a media description.
///
/// Concurrency: pure functions (plus the sidecar directory listing).
enum SelectionGroups {
    static func make(_ description: MediaDescription, sidecars: [SidecarSubtitle])
        -> [AVMediaSelectionGroup]
    {
        var groups: [AVMediaSelectionGroup] = []
        let audio = description.tracks.filter { $0.kind == .audio }.map { stream in
            AVMediaSelectionOption(
                mediaType: .audio, source: .stream(stream.index), languageCode: stream.language,
                title: stream.title, codecName: stream.codecName,
                isPlayable: stream.decoderAvailable,
                characteristics: [.audible], isFlaggedDefault: stream.isDefault)
        }
        if !audio.isEmpty {
            let streams = description.tracks.filter { $0.kind == .audio }
            let preferred =
                streams.firstIndex { $0.isDefault && $0.decoderAvailable }
                ?? streams.firstIndex { $0.decoderAvailable } ?? 0
            groups.append(
                AVMediaSelectionGroup(
                    characteristic: .audible, options: audio, defaultOption: audio[preferred]))
        }
        var legible = description.tracks.filter { $0.kind == .subtitle }.map { stream in
            let isCaptions = stream.codecName == "eia_608"
            var traits: Set<AVMediaCharacteristic> = [.legible]
            if stream.isForced { traits.insert(.containsOnlyForcedSubtitles) }
            if stream.isHearingImpaired || isCaptions { traits.formUnion(accessibilityTraits) }
            return AVMediaSelectionOption(
                mediaType: isCaptions ? .closedCaption : .subtitle, source: .stream(stream.index),
                languageCode: stream.language, title: stream.title, codecName: stream.codecName,
                isPlayable: stream.decoderAvailable,
                characteristics: traits, isFlaggedDefault: stream.isDefault)
        }
        // Captions inside the pictures of a video track (H.264/HEVC SEI, MPEG-2 user data).
        legible += description.tracks.filter { $0.kind == .video && $0.hasClosedCaptions }.map {
            AVMediaSelectionOption(
                mediaType: .closedCaption, source: .closedCaptions(videoStream: $0.index),
                languageCode: nil, title: nil, codecName: "eia_608",
                isPlayable: $0.decoderAvailable,
                characteristics: accessibilityTraits.union([.legible]))
        }
        // HLS subtitle renditions: WebVTT media playlists, read like subtitle files.
        legible += description.subtitleRenditions.compactMap { rendition in
            guard let url = URL(string: rendition.url) else { return nil }
            var traits: Set<AVMediaCharacteristic> = [.legible]
            if rendition.isForced { traits.insert(.containsOnlyForcedSubtitles) }
            return AVMediaSelectionOption(
                mediaType: .subtitle, source: .sidecar(url), languageCode: rendition.language,
                title: rendition.name, codecName: "webvtt", isPlayable: true,
                characteristics: traits, isFlaggedDefault: rendition.isDefault)
        }
        legible += sidecars.map { file in
            var traits: Set<AVMediaCharacteristic> = [.legible]
            if file.isForced { traits.insert(.containsOnlyForcedSubtitles) }
            return AVMediaSelectionOption(
                mediaType: .subtitle, source: .sidecar(file.url), languageCode: file.languageCode,
                title: nil, codecName: codecName(forSidecar: file.url), isPlayable: true,
                characteristics: traits)
        }
        if !legible.isEmpty {
            let forced = legible.first {
                $0.hasMediaCharacteristic(.containsOnlyForcedSubtitles) && $0.isPlayable
            }
            groups.append(
                AVMediaSelectionGroup(
                    characteristic: .legible, options: legible, defaultOption: forced))
        }
        return groups
    }

    /// What closed captions and SDH subtitles are for: the words spoken, and the music and
    /// sounds described, for people who cannot hear them.
    static let accessibilityTraits: Set<AVMediaCharacteristic> = [
        .transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility,
    ]

    static func codecName(forSidecar url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "srt": return "subrip"
        case "vtt", "webvtt": return "webvtt"
        case "ass", "ssa": return "ass"
        case "sup": return "hdmv_pgs_subtitle"
        default: return url.pathExtension.lowercased()
        }
    }
}
