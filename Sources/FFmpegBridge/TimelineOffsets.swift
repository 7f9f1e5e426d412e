// Playhead: where each timeline (HLS discontinuity sequence) of a streamed input sits on the
// item timeline, as the demuxer anchored it, for readers beside the demuxer (the WebVTT
// rendition reader) that place their own timestamps on the same item timeline.
//
// Concurrency: the demux thread records; any thread reads. A lock guards the table.
import Foundation

/// Per timeline of a streamed input, the container time at item time zero (seconds): what
/// the demuxer subtracts from that timeline's timestamps. A timeline appears once the demuxer
/// has opened its first section.
package final class TimelineOffsets: @unchecked Sendable {
    private let lock = NSLock()
    /// protected by `lock`: offsets in AV_TIME_BASE units (microseconds)
    private var offsets: [Int: Int64] = [:]

    /// An empty table.
    package init() {}

    /// The container time, in seconds, at item time zero on `timeline`; nil until the demuxer
    /// anchored it.
    package func origin(of timeline: Int) -> Double? {
        lock.withLock { offsets[timeline] }.map { Double($0) / 1_000_000 }
    }

    /// The offset of `timeline` in AV_TIME_BASE units, as recorded; nil until anchored. A
    /// companion's demuxer (an HLS audio rendition) takes it over, so its packets and the main
    /// container's share one mapping and stay in sync.
    func offset(of timeline: Int) -> Int64? {
        lock.withLock { offsets[timeline] }
    }

    /// Records the demuxer's offsets (microseconds); it never moves a timeline it anchored.
    package func record(_ table: [Int: Int64]) {
        lock.withLock { offsets.merge(table) { _, new in new } }
    }
}
