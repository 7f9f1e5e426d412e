// Playhead: a video sink for long playback tests that keeps each frame's time and checksum,
// not the frame (so the decoder's picture buffers are released as playback goes on).
import FFmpegBridge
import Foundation

@testable import OpenAVFoundation

/// Records the pts and checksum of every frame presented, and how often it was cleared.
final class ChecksumVideoSink: VideoSink {
    struct Entry: Sendable {
        let pts: CMTime
        let checksum: UInt64
    }

    private let entries = Locked<[Entry]>([])
    private let clears = Locked(0)

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let entry = Entry(pts: frame.pts, checksum: frame.checksum())
        entries.withLock { $0.append(entry) }
    }

    func clear() { clears.withLock { $0 += 1 } }

    var frames: [Entry] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var last: Entry? { entries.withLock { $0.last } }
    var clearCount: Int { clears.withLock { $0 } }
}

/// An untimed, silent environment presenting into `sink`.
func untimedEnvironment(_ sink: ChecksumVideoSink) -> PlaybackEnvironment {
    let sinks = VideoSinks()
    sinks.add(sink)
    return PlaybackEnvironment(makeAudioOutput: nil, videoSinks: sinks, untimed: true)
}

/// A timed, silent environment on `clock` presenting into `sink`.
func timedEnvironment(_ sink: ChecksumVideoSink, clock: any HostClock) -> PlaybackEnvironment {
    let sinks = VideoSinks()
    sinks.add(sink)
    return PlaybackEnvironment(hostClock: clock, makeAudioOutput: nil, videoSinks: sinks)
}
