// Playhead: subtitle events moved along the timeline (a segment's or document's times placed
// on the item's).
// Concurrency: pure functions over values.
import FFmpegBridge
import OpenCoreMedia

extension Array where Element == SubtitleEvent {
    /// The events with their start and end moved by `seconds` (on 90 kHz ticks).
    func moved(by seconds: Double) -> [SubtitleEvent] {
        guard seconds != 0 else { return self }
        let delta = CMTime(seconds: seconds, preferredTimescale: 90_000)
        return map { event in
            var moved = event
            moved.start = event.start + delta
            moved.end = event.end.map { $0 + delta }
            return moved
        }
    }
}
