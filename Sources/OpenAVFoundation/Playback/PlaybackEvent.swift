// Playhead: the news an item's playback engine sends up to its player.
//
// Concurrency: plain values, created on engine threads and delivered on the main queue.
import FFmpegBridge
import Foundation

/// Something the engine reports about an item.
enum PlaybackEvent: Sendable {
    /// The media opened and the item's keys loaded: it can become ready to play.
    case opened(OpenedMedia)
    /// Opening or playing failed.
    case failed(MediaFailure, duringPlayback: Bool)
    /// Buffer flags or loaded ranges changed.
    case buffer(BufferReport)
    /// The seek `id` finished; the first frame at `time` is ready.
    case seekFinished(id: Int, time: CMTime)
    /// Item time advanced during normal playback of `generation` (after its seek landed).
    case timeAdvanced(CMTime, generation: Int)
    /// Playback reached the end of the item (or its forward end time).
    case reachedEnd
    /// Playing backward reached the item's start (or its reverse end time).
    case reachedReverseEnd
    /// The subtitle cues showing changed (empty: none shows now).
    case legible([AVSubtitleCue], time: CMTime)
    /// Timed metadata groups became current (after a flush when `flushed`: a seek or the start).
    case timedMetadata([AVTimedMetadataGroup], flushed: Bool)
    /// The HLS loader's access or error log gained an event.
    case streamingLogEntry(StreamingLog.Entry)
    /// A live HLS playlist was reloaded: its window on the item timeline, how far behind the
    /// window's end Playhead recommends playing (three target durations), and the window's
    /// dates when the reload brought dated segments (nil: the dates known stand).
    case liveWindow(CMTimeRange, recommendedOffset: CMTime, dates: ProgramDateMap?)
    /// The date ranges (`EXT-X-DATERANGE`) of an HLS playlist Playhead's loader just loaded.
    case dateRanges([HLSDateRange])
}

/// What the engine learned when it opened an item.
struct OpenedMedia: @unchecked Sendable {
    let duration: CMTime
    let presentationSize: CGSize
    let tracks: [AVPlayerItemTrack]
    let seekableRanges: [CMTimeRange]
    /// The access and error logs of Playhead's HLS loader when it streams the item.
    var streamingLog: StreamingLog? = nil
    /// The wall-clock dates of an HLS timeline (`EXT-X-PROGRAM-DATE-TIME`).
    var programDates: ProgramDateMap? = nil
    /// For a live HLS stream of Playhead's loader, the recommended offset from the live edge.
    var recommendedLiveOffset: CMTime? = nil
    /// Where an HLS stream of Playhead's loader asks playback to start (`EXT-X-START`), on the
    /// item timeline: the point itself (`precise`), or the start of the segment holding it.
    var playlistStart: (seconds: Double, precise: Bool)? = nil
}

/// A snapshot of buffering for the item's public flags.
struct BufferReport: Sendable, Equatable {
    var flags: PlaybackStateMachine.Buffer
    /// Sorted, merged ranges of media that can play without waiting.
    var loadedRanges: [CMTimeRange]
}

/// Counters of what playback did, for reports and benchmarks.
package struct PlaybackStatistics: Sendable, Equatable {
    /// Video frames handed to the video outputs.
    package var videoFramesPresented = 0
    /// Video frames decoded but skipped because they were late.
    package var videoFramesDropped = 0
    /// Seconds of item time of audio delivered to the audio output.
    package var audioSeconds = 0.0
    /// Times playback ran out of data while playing.
    package var stalls = 0
    /// Render calls of the audio output that found too little audio in the ring once sound
    /// had started (dropouts heard).
    package var audioUnderruns = 0
    /// Times the audio device itself ran dry while playing (a sound server's buffer for the
    /// stream), whether or not the ring had audio.
    package var audioDeviceUnderruns = 0
    /// Times the engine sent the playing time up to the player for its time observers.
    package var timeReports = 0
    /// |presentation time − audio clock| of each frame shown on the clock while the audio clock
    /// was trusted (timed playback of items with audio only).
    package var syncErrors = SyncErrorHistogram()
    /// Creates zeroed counters.
    package init() {}
}

/// A fixed histogram of A/V sync errors in seconds: 0.1 ms bins up to 1 s (larger errors share
/// the last bin) plus the exact maximum. The bins are allocated once, on the first sample.
package struct SyncErrorHistogram: Sendable, Equatable {
    /// The width of one bin, in seconds.
    package static let binWidth = 0.000_1
    /// How many bins; together they span 1 s.
    package static let binCount = 10_000
    private var bins: [UInt32] = []
    /// How many errors were recorded.
    package private(set) var count = 0
    /// The largest error recorded, in seconds (0 when empty).
    package private(set) var maximum = 0.0

    /// An empty histogram.
    package init() {}

    /// Counts the error `seconds` (its magnitude); non-finite values are ignored.
    package mutating func record(_ seconds: Double) {
        guard seconds.isFinite else { return }
        let error = abs(seconds)
        if bins.isEmpty { bins = Array(repeating: 0, count: Self.binCount) }
        bins[min(Int(error / Self.binWidth), Self.binCount - 1)] += 1
        count += 1
        maximum = max(maximum, error)
    }

    /// The nearest-rank percentile for `fraction` (0...1) in seconds: the upper edge of the bin
    /// holding that rank, never more than the maximum (the maximum itself for the last bin);
    /// 0 when empty.
    package func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        // The epsilon keeps binary rounding (0.99 × 100 = 99.000…01) from skipping a rank.
        let exactRank = min(max(fraction, 0), 1) * Double(count)
        let rank = max(1, Int((exactRank - 1e-9).rounded(.up)))
        var seen = 0
        for (index, binned) in bins.enumerated() {
            seen += Int(binned)
            if seen >= rank {
                return index == Self.binCount - 1
                    ? maximum : min(Double(index + 1) * Self.binWidth, maximum)
            }
        }
        return maximum
    }
}
