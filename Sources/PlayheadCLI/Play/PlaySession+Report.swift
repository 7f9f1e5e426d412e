// Playhead: the report `playhead play` gives for each item it played (PlayReport.swift), read
// from the item and the run's counters as the item ends.
//
// Concurrency: main actor, as the session.
import Foundation
import OpenAVFoundation

extension PlaySession {
    /// The report of `watch`'s item as it ends with `status` (and `error`, which is printed
    /// when it failed); pauses the player when the item playing ends other than by completing.
    func report(for watch: ItemWatch, status: PlayReport.Status, error: String?) -> PlayReport {
        let item = watch.item
        if item === player.currentItem {
            if watch.framesPresented == nil { watch.framesPresented = sink.count }
            // A completed item hands over to the next one by itself, without a gap.
            if status != .completed || options.frameLimit != nil { player.pause() }
        }
        let statistics = item.playbackStatistics
        let duration = item.duration
        let frames = watch.framesPresented ?? sink.count
        var report = PlayReport(
            input: watch.input, status: status, error: error,
            duration: duration.isNumeric ? duration.seconds : nil,
            position: max(0, item.currentTime().seconds),
            videoFramesPresented: options.frameLimit.map { min($0, frames) } ?? frames,
            videoFramesDropped: statistics.videoFramesDropped,
            audioSeconds: statistics.audioSeconds, stalls: watch.stalls)
        rememberPosition(
            watch, status: status, position: report.position, duration: report.duration)
        report.audioUnderruns = statistics.audioUnderruns
        report.audioDeviceUnderruns = statistics.audioDeviceUnderruns
        report.stallSeconds = item.stallSeconds
        report.variant = item.streamingSummary.map {
            PlayReport.VariantFigures(
                bandwidth: $0.bandwidth, switches: $0.switches, observedBitrate: $0.observedBitrate)
        }
        // Losses of the sound server since the previous item's report.
        let losses = serverLosses.withLock { $0 }
        report.audioServerLosses = losses - reportedServerLosses
        reportedServerLosses = losses
        if status == .failed, let error {
            if showsStatus { console.writeOutput("\n") }
            console.printError("playhead: \(watch.input): \(error)")
        }
        return report
    }
}
