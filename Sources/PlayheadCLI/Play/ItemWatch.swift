// Playhead: follows one queued item of `playhead play` until it completes, fails or is stopped.
//
// Concurrency: main actor only; the observers it registers deliver on the main queue.
import Foundation
import OpenAVFoundation

/// Watches one item of the play queue from before it becomes current (so an item that ends or
/// fails early is never missed) and produces its report once.
@MainActor
final class ItemWatch {
    /// The input as the user typed it.
    let input: String
    /// The item playing it.
    let item: AVPlayerItem
    /// What the item plays (for resume positions).
    var playInput: PlayInput?
    /// Stall notifications seen for the item.
    private(set) var stalls = 0
    /// Frames the sink counted while the item was current, once it stopped being current.
    var framesPresented: Int?
    private var tokens: [any NSObjectProtocol] = []
    private var observation: NSKeyValueObservation?
    private var report: PlayReport?
    private var waiter: CheckedContinuation<PlayReport, Never>?
    /// Builds the report when the item finishes.
    private let makeReport: (ItemWatch, PlayReport.Status, String?) -> PlayReport
    /// Error-log events already turned into warnings.
    private var warnedEvents = 0
    /// Prints one warning line.
    private let warn: (String) -> Void

    /// Starts watching `item` (not yet current, or current).
    init(
        input: String, item: AVPlayerItem, warn: @escaping (String) -> Void = { _ in },
        makeReport: @escaping (ItemWatch, PlayReport.Status, String?) -> PlayReport
    ) {
        self.input = input
        self.item = item
        self.makeReport = makeReport
        self.warn = warn
        observation = item.observe(\.status) { [weak self] item, _ in
            MainActor.assumeIsolated {
                guard item.status == .failed else { return }
                let reason = (item.error as NSError?)?.localizedDescription ?? "cannot be played"
                self?.finish(.failed, reason)
            }
        }
        let center = NotificationCenter.default
        tokens.append(center.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.finish(.completed, nil) }
        })
        tokens.append(center.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: .main) { [weak self] note in
            let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? NSError
            let reason = error?.localizedDescription ?? "playback failed"
            MainActor.assumeIsolated { self?.finish(.failed, reason) }
        })
        tokens.append(center.addObserver(forName: AVPlayerItem.playbackStalledNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.stalls += 1 }
        })
        // A request the stream's loader refused or lost (a segment skipped): one line each.
        tokens.append(center.addObserver(forName: AVPlayerItem.newErrorLogEntryNotification, object: item, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.warnAboutNewErrorLogEvents() }
        })
    }

    /// True once the item completed, failed or was stopped.
    var isFinished: Bool { report != nil }

    /// One warning line per error-log event not warned about yet.
    private func warnAboutNewErrorLogEvents() {
        guard let events = item.errorLog()?.events, events.count > warnedEvents else { return }
        for event in events[warnedEvents...] {
            warn("warning: \(event.errorComment ?? "request failed") (\(event.uri ?? "?"))")
        }
        warnedEvents = events.count
    }

    /// Ends the watch with `status` (the first call wins) and hands the report to the waiter.
    func finish(_ status: PlayReport.Status, _ error: String?) {
        guard report == nil else { return }
        // Events whose notification is still on its way are warned about now.
        warnAboutNewErrorLogEvents()
        stopObserving()
        let made = makeReport(self, status, error)
        report = made
        waiter?.resume(returning: made)
        waiter = nil
    }

    /// The report, once the item finished.
    func result() async -> PlayReport {
        if let report { return report }
        return await withCheckedContinuation { waiter = $0 }
    }

    /// Stops observing without a report (the item was queued but never played).
    func stopObserving() {
        observation?.invalidate()
        observation = nil
        tokens.forEach { NotificationCenter.default.removeObserver($0) }
        tokens = []
    }
}
