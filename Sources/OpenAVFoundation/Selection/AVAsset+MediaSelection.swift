// Playhead: an asset's media selection groups (audio languages, subtitle tracks and files,
// closed captions).
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
        legible += captionsInVideo(description)
        // HLS subtitle renditions: WebVTT media playlists (and DASH text files), read like subtitle files.
        legible += description.subtitleRenditions.compactMap { rendition in
            guard let url = URL(string: rendition.url) else { return nil }
            var traits: Set<AVMediaCharacteristic> = [.legible]
            if rendition.isForced { traits.insert(.containsOnlyForcedSubtitles) }
            return AVMediaSelectionOption(
                mediaType: .subtitle, source: .sidecar(url), languageCode: rendition.language,
                title: rendition.name, codecName: rendition.codecName, isPlayable: true,
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

    /// The caption channels Playhead decodes from the pictures: FFmpeg's caption decoder
    /// gives the first channel of the first field.
    static let decodableInstreamIDs: Set<String> = ["CC1"]

    /// Captions inside the pictures of a video track (H.264/HEVC SEI, MPEG-2 user data).
    ///
    /// An HLS master playlist's word wins: `CLOSED-CAPTIONS=NONE` offers none, and its caption
    /// renditions are offered with their NAME, LANGUAGE and CHARACTERISTICS whether or not the
    /// first pictures showed caption data yet (in the first captioned video stream, else the
    /// first video stream). DEFAULT=YES does not flag them: captions come on when someone asks
    /// for them, as on Apple's players. Renditions of channels Playhead cannot decode (CC2–CC4,
    /// CEA-708 services) are left out; when none is left, the pictures decide, as without a
    /// playlist: one unnamed "CC1" per video stream whose first pictures carry caption data.
    static func captionsInVideo(_ description: MediaDescription) -> [AVMediaSelectionOption] {
        let videos = description.tracks.filter { $0.kind == .video }
        let traits = accessibilityTraits.union([.legible])
        var declared: [CaptionRendition] = []
        switch description.hlsCaptions {
        case .noCaptions?: return []
        case .renditions(let renditions)?:
            declared = renditions.filter { decodableInstreamIDs.contains($0.instreamID) }
        case nil: break
        }
        guard !declared.isEmpty,
            let video = videos.first(where: \.hasClosedCaptions) ?? videos.first
        else {
            return videos.filter(\.hasClosedCaptions).map {
                AVMediaSelectionOption(
                    mediaType: .closedCaption, source: .closedCaptions(videoStream: $0.index),
                    languageCode: nil, title: nil, codecName: "eia_608",
                    isPlayable: $0.decoderAvailable, characteristics: traits)
            }
        }
        // One option per video stream (the channel is CC1): the first decodable rendition.
        let rendition = declared[0]
        return [
            AVMediaSelectionOption(
                mediaType: .closedCaption, source: .closedCaptions(videoStream: video.index),
                languageCode: rendition.language, title: rendition.name, codecName: "eia_608",
                isPlayable: video.decoderAvailable,
                characteristics: traits.union(
                    rendition.characteristics.map(AVMediaCharacteristic.init(rawValue:))),
                sourceName: rendition.name)
        ]
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
        case "ttml", "dfxp", "xml": return "ttml"
        default: return url.pathExtension.lowercased()
        }
    }
}
