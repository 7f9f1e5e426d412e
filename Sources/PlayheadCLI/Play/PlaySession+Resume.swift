// Playhead: `playhead play --resume`: an input starts where it was left (one line on standard
// error and a note in the window say so), and where each input stops is remembered in the
// `ResumeStore` when the run ends. Runs with a window remember positions even without
// --resume, so a later `--resume` works; headless runs (scripts, checks) only with --resume.
// An explicit --start wins over a remembered position.
//
// Concurrency: main actor, with the session.
import Foundation
import OpenAVFoundation

/// The session's resume positions: the store, read on first use and written at the end.
@MainActor
final class ResumeKeeper {
    private var store: ResumeStore
    private var loaded = false
    private let console: Console

    init(file: URL = ResumeStore.defaultFile(), console: Console) {
        store = ResumeStore(file: file)
        self.console = console
    }

    /// The key of `input` (nil for the built-in demo, which is not resumed).
    nonisolated static func key(for input: PlayInput) -> String? {
        guard case .given(let text) = input else { return nil }
        return ResumeStore.key(for: InputURL.from(text))
    }

    /// The remembered position of `input`.
    func position(for input: PlayInput) -> Double? {
        guard let key = Self.key(for: input) else { return nil }
        loadOnce()
        return store.position(for: key)
    }

    /// Notes where `input` stopped (kept in memory until `save`).
    func record(_ input: PlayInput, position: Double, duration: Double?) {
        guard let key = Self.key(for: input) else { return }
        loadOnce()
        store.record(key, position: position, duration: duration)
    }

    /// Writes the file when something changed; a failure is one warning line.
    func save() {
        guard store.isDirty, let warning = store.save() else { return }
        console.printError(warning)
    }

    private func loadOnce() {
        guard !loaded else { return }
        loaded = true
        if let warning = store.load() { console.printError(warning) }
    }

    /// "mm:ss", or "h:mm:ss" from an hour on.
    nonisolated static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest)
            : String(format: "%02d:%02d", minutes, rest)
    }
}

extension PlaySession {
    /// Seeks a new item of `input` to its remembered position (with --resume and no --start).
    func applyResumePosition(_ input: PlayInput, to item: AVPlayerItem) {
        guard options.resume, options.start == nil, let position = resume.position(for: input)
        else { return }
        item.seek(
            to: CMTime(seconds: position, preferredTimescale: 1_000_000), toleranceBefore: .zero,
            toleranceAfter: .zero)
        resumedItems[ObjectIdentifier(item)] = (input.name, position)
    }

    /// A resumed item comes on: say where it starts.
    func announceResume(of item: AVPlayerItem) {
        guard let (name, position) = resumedItems.removeValue(forKey: ObjectIdentifier(item)) else {
            return
        }
        let clock = ResumeKeeper.clock(position)
        console.printError("playhead: \(name): resuming at \(clock)")
        window?.showMessage("Resuming at \(clock)")
    }

    /// Remembers where an item stopped or ended (a failed one is left as it was).
    func rememberPosition(
        _ watch: ItemWatch, status: PlayReport.Status, position: Double, duration: Double?
    ) {
        guard recordsPositions, status != .failed, let input = watch.playInput else { return }
        resume.record(input, position: position, duration: duration)
    }

    /// Positions are recorded with --resume, and in every run with a window.
    var recordsPositions: Bool { options.resume || window != nil }
}
