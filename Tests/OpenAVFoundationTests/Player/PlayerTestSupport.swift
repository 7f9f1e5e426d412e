// Playhead: helpers for player tests: a recording video sink, waiting on the main queue.
import FFmpegBridge
import Foundation
import Synchronization
import Testing

@testable import OpenAVFoundation

/// Records every frame presented (item time and checksum on demand).
final class RecordingVideoSink: VideoSink {
    struct Entry: Sendable {
        let itemTime: CMTime
        let pts: CMTime
        let frame: VideoFrame
    }

    private let entries = Mutex<[Entry]>([])
    private let clears = Mutex(0)

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        entries.withLock { $0.append(Entry(itemTime: itemTime, pts: frame.pts, frame: frame)) }
    }

    func clear() { clears.withLock { $0 += 1 } }

    var frames: [Entry] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var last: Entry? { entries.withLock { $0.last } }
}

/// Waits on the main actor (letting the main queue run) until `condition` holds.
@MainActor
func waitUntil(
    timeout: Double = 20, _ what: String = "condition", sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
}

/// Collects notifications posted for one object.
@MainActor
final class NotificationLog {
    private final class Received: Sendable { let names = Mutex<[NSNotification.Name]>([]) }
    private let received = Received()
    nonisolated(unsafe) private var tokens: [any NSObjectProtocol] = []

    init(_ names: [NSNotification.Name], object: AnyObject?) {
        for name in names {
            let received = self.received
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) {
                    note in received.names.withLock { $0.append(note.name) }
                })
        }
    }

    var names: [NSNotification.Name] { received.names.withLock { $0 } }

    func count(_ name: NSNotification.Name) -> Int { names.filter { $0 == name }.count }

    isolated deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}

/// An environment for untimed, silent playback into `sink`.
func untimedEnvironment(_ sink: RecordingVideoSink, audio: Bool = false) -> PlaybackEnvironment {
    let sinks = VideoSinks()
    sinks.add(sink)
    return PlaybackEnvironment(
        makeAudioOutput: audio ? { @Sendable in ClockDrivenAudioOutput(clock: SystemHostClock.shared) } : nil,
        videoSinks: sinks, untimed: true)
}
