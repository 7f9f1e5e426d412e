// Playhead: `playhead bench sync`: real-time headless playback through the real audio path,
// measuring how far each presented frame is from the audio heard as it is shown.
//
// Concurrency: main actor. The engine records the errors on its presentation thread (see
// `PlaybackStatistics.syncErrors`); the end arrives as a notification on the main queue.
import Foundation
import OpenAVFoundation
import OpenAVKit

/// Runs the A/V sync benchmark.
@MainActor
enum SyncBenchmark {
    /// Seconds the playback may run past the item's duration before the run fails.
    nonisolated static let slack = 30.0

    /// Plays `url` once from the start at rate 1 on the system audio device (or, without one,
    /// the engine's silent clock-driven output) and collects the sync errors.
    ///
    /// - Throws: the item's error when it cannot be played, `BenchFailure` when it has no audio
    ///   or no video, has no known duration, or does not reach its end in time.
    static func run(url: URL) async throws -> SyncReport {
        let fallback = SharedValue<String?>(nil)
        let player = AVPlayer(
            environment: PlaybackEnvironment(
                makeAudioOutput: { try SystemAudio.makeOutput() },
                onAudioFallback: { fallback.value = $0 }))
        defer { player.replaceCurrentItem(with: nil) }
        let item = AVPlayerItem(url: url)
        let ended = SharedValue(false)
        let token = NotificationCenter.default.addObserver(
            forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main
        ) { _ in ended.value = true }
        defer { NotificationCenter.default.removeObserver(token) }
        player.replaceCurrentItem(with: item)
        try await BenchWait.untilReady(item)
        let kinds = Set(item.tracks.compactMap { $0.assetTrack?.mediaType })
        guard kinds.contains(.video), kinds.contains(.audio) else {
            throw BenchFailure(reason: "needs both audio and video to measure A/V sync")
        }
        guard item.duration.isNumeric, item.duration.seconds > 0 else {
            throw BenchFailure(reason: "has no known duration to play through")
        }
        player.play()
        let deadline = BenchClock.now() + .seconds(item.duration.seconds + slack)
        while !ended.value {
            if item.status == .failed { throw item.error ?? BenchFailure(reason: "failed") }
            guard BenchClock.now() < deadline else {
                throw BenchFailure(reason: "did not play to its end in time")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let statistics = player.playbackStatistics
        return SyncReport(
            errors: statistics.syncErrors, framesPresented: statistics.videoFramesPresented,
            silentAudio: fallback.value)
    }
}

/// The sync errors of one run.
struct SyncReport: Equatable {
    /// |presentation time − audio clock| per frame, in seconds.
    var errors: SyncErrorHistogram
    /// Every frame shown, including those shown before the audio clock was trusted.
    var framesPresented: Int
    /// Why audio fell back to the silent clock-driven output; nil on the system device.
    var silentAudio: String?

    /// Milliseconds at the nearest-rank percentile `fraction`.
    func milliseconds(_ fraction: Double) -> Double { errors.percentile(fraction) * 1_000 }

    /// `{"frames","p50Ms","p99Ms","maxMs"}`.
    var json: JSONValue {
        [
            "frames": .integer(errors.count),
            "p50Ms": .number(BenchClock.rounded(milliseconds(0.5))),
            "p99Ms": .number(BenchClock.rounded(milliseconds(0.99))),
            "maxMs": .number(BenchClock.rounded(errors.maximum * 1_000)),
        ]
    }

    /// The readable summary.
    var text: String {
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
        let audio = silentAudio.map { "silent clock-driven audio (\($0))" } ?? "system audio device"
        return """
            A/V sync over \(errors.count) of \(framesPresented) frames, \(audio)
            p50 \(ms(milliseconds(0.5))), p99 \(ms(milliseconds(0.99))), \
            max \(ms(errors.maximum * 1_000))
            """
    }
}

/// A value written on one thread and read on another. Thread-safe.
final class SharedValue<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    /// Holds `value`.
    init(_ value: Value) { storage = Locked(value) }

    /// The value now held.
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
