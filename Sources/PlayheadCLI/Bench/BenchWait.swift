// Playhead: waiting for a player item to become ready or show its first frame, for benchmarks.
//
// Concurrency: main actor; polls every millisecond. Timings come from stamps taken where the
// event happens (the sink), so the polling interval does not bias them.
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// Polling waits used by the benchmarks.
@MainActor
enum BenchWait {
    /// Waits until `item` is ready to play.
    ///
    /// - Throws: the item's error when it fails, `BenchFailure` after `timeout` seconds.
    static func untilReady(_ item: AVPlayerItem, timeout: Double = 30) async throws {
        let deadline = BenchClock.now() + .seconds(timeout)
        while item.status != .readyToPlay {
            try check(item)
            guard BenchClock.now() < deadline else {
                throw BenchFailure(reason: "did not become ready within \(Int(timeout)) s")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Waits until `sink` has been shown a frame and returns when that happened, or nil when
    /// the item turned out to have no video.
    ///
    /// - Throws: the item's error when it fails, `BenchFailure` after `timeout` seconds.
    static func untilFirstFrame(
        _ sink: BenchVideoSink, item: AVPlayerItem, timeout: Double
    ) async throws -> ContinuousClock.Instant? {
        let deadline = BenchClock.now() + .seconds(timeout)
        while true {
            if let shown = sink.firstFrameInstant { return shown }
            try check(item)
            if item.status == .readyToPlay, !item.tracks.isEmpty,
                !item.tracks.contains(where: { $0.assetTrack?.mediaType == .video })
            {
                return nil
            }
            guard BenchClock.now() < deadline else {
                throw BenchFailure(reason: "showed no frame within \(Int(timeout)) s")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    private static func check(_ item: AVPlayerItem) throws {
        if item.status == .failed {
            throw item.error ?? BenchFailure(reason: "cannot be played")
        }
    }
}

/// A video sink that remembers when it was first shown a frame. Thread-safe.
final class BenchVideoSink: VideoSink {
    private let first = Locked<ContinuousClock.Instant?>(nil)

    /// When the first frame arrived, or nil before that.
    var firstFrameInstant: ContinuousClock.Instant? { first.withLock { $0 } }

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let now = BenchClock.now()
        first.withLock { stamp in
            if stamp == nil { stamp = now }
        }
    }

    func clear() {}
}
