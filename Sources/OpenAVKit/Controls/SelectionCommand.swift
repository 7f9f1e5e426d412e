// Playhead: the window's keys for chapters, audio language and subtitles, and what they do.
//
// Concurrency: `SelectionControls` is confined to the window's thread (it calls the player's
// thread-safe selection and seek APIs and reads the asset only once the item is ready).
import Foundation
import OpenAVFoundation

/// A media-selection action bound to a key.
enum SelectionCommand: Equatable, Sendable {
    case nextChapter, previousChapter
    case cycleAudio, cycleSubtitles

    /// The command bound to `key`: PageDown / PageUp next and previous chapter, `a` next
    /// audio language, `s` next subtitle track (then off).
    static func bound(to key: PlayerKeyInput) -> SelectionCommand? {
        switch key {
        case .pageDown: return .nextChapter
        case .pageUp: return .previousChapter
        case .letter("a"): return .cycleAudio
        case .letter("s"): return .cycleSubtitles
        default: return nil
        }
    }
}

/// Carries out selection commands on a player and reports the chapter starts for the slider.
final class SelectionControls {
    /// Going back within this many seconds of a chapter's start goes to the chapter before.
    static let previousChapterGrace = 2.0

    let player: AVPlayer
    /// owned by the window's thread: chapter start fractions of the item they were read for
    private var chapterCache: (item: ObjectIdentifier, starts: [Double], duration: Double)?

    init(player: AVPlayer) { self.player = player }

    /// Chapter start times (seconds) of the current item, read once it is ready; empty otherwise.
    var chapterStarts: [Double] { chapters()?.starts ?? [] }

    /// Where chapter ticks go on the seek slider, as fractions of the duration (0 excluded).
    var chapterFractions: [Double] {
        guard let chapters = chapters(), chapters.duration > 0 else { return [] }
        return chapters.starts.filter { $0 > 0 }.map { min(1, $0 / chapters.duration) }
    }

    private func chapters() -> (item: ObjectIdentifier, starts: [Double], duration: Double)? {
        guard let item = player.currentItem, item.status == .readyToPlay else { return nil }
        if let cache = chapterCache, cache.item == ObjectIdentifier(item) { return cache }
        // The asset is loaded once the item is ready, so this does not block.
        let groups = item.asset.chapterMetadataGroups(bestMatchingPreferredLanguages: [])
        let cache = (
            ObjectIdentifier(item), groups.map(\.timeRange.start.seconds), item.duration.seconds
        )
        chapterCache = cache
        return cache
    }

    /// Performs `command`; returns a short message to show (nil when nothing changed).
    @discardableResult
    func perform(_ command: SelectionCommand) -> String? {
        guard let item = player.currentItem, item.status == .readyToPlay else { return nil }
        switch command {
        case .nextChapter, .previousChapter:
            let now = player.currentTime().seconds
            let starts = chapterStarts
            let target: Double?
            if command == .nextChapter {
                target = starts.first { $0 > now + 0.5 }
            } else {
                target = starts.last { $0 < now - Self.previousChapterGrace } ?? starts.first
            }
            guard let target else { return nil }
            player.seek(
                to: CMTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero,
                toleranceAfter: .zero)
            return "Chapter \((starts.firstIndex(of: target) ?? 0) + 1)"
        case .cycleAudio:
            return cycle(item, .audible)
        case .cycleSubtitles:
            return cycle(item, .legible)
        }
    }

    /// Selects the next playable option of the group (for subtitles: after the last, none).
    private func cycle(_ item: AVPlayerItem, _ characteristic: AVMediaCharacteristic) -> String? {
        guard let group = item.asset.mediaSelectionGroup(forMediaCharacteristic: characteristic)
        else { return nil }
        let options = AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options)
        guard !options.isEmpty else { return nil }
        let current = item.currentMediaSelection.selectedMediaOption(in: group)
        let index = current.flatMap { options.firstIndex(of: $0) }
        var next: AVMediaSelectionOption?
        switch index {
        case nil: next = options[0]
        case let position? where position + 1 < options.count: next = options[position + 1]
        default: next = group.allowsEmptySelection ? nil : options[0]
        }
        guard next != current else { return nil }
        item.select(next, in: group)
        let kind = characteristic == .audible ? "Audio" : "Subtitles"
        return "\(kind): \(next?.displayName ?? "off")"
    }
}
