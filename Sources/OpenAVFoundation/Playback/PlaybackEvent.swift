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
}

/// What the engine learned when it opened an item.
struct OpenedMedia: @unchecked Sendable {
    let duration: CMTime
    let presentationSize: CGSize
    let tracks: [AVPlayerItemTrack]
    let seekableRanges: [CMTimeRange]
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
    /// Creates zeroed counters.
    package init() {}
}
