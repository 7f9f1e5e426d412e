// Playhead: turns demux progress into the item's buffer flags and loaded ranges.
//
// Concurrency: a value inside `EngineState`, changed only by the item's coordinator.
import FFmpegBridge
import Foundation

/// Follows how far ahead of the playhead the demuxer has read.
struct BufferTracker: Sendable {
    /// Seconds buffered ahead that make playback likely to keep up at start.
    static let startThreshold = 1.0
    /// Seconds needed after a stall.
    static let rebufferThreshold = 2.0

    let pipeline: Pipeline
    /// Where the current contiguous buffered range starts.
    private var rangeStart: CMTime = .zero
    /// The furthest end time read, per stream routed to a queue (by stream index).
    private var readUpTo: [Int: CMTime] = [:]
    /// The audio track the audio thread plays (its buffer is the audio's): the pipeline's
    /// until a switch to another language (`switchAudio`).
    private var audioStream: Int?
    private var endOfStream = false
    /// Reading stopped on an error: nothing more will arrive, but the rest of the item is not
    /// buffered either.
    private var readFailed = false
    private var last: BufferReport?
    private var lastReportHost = -Double.infinity
    private var stalled = false
    /// True from the open or a seek until the buffer first held enough to play: a buffer
    /// that is empty then is filling, not stalled, so the start threshold applies (a live
    /// stream's item time starts later than zero, where the range starts before its first
    /// packet).
    private var starting = true
    /// Ranges buffered elsewhere (runs kept from before earlier seeks), reported with the
    /// current one.
    private var otherRanges: [CMTimeRange] = []

    init(pipeline: Pipeline) {
        self.pipeline = pipeline
        audioStream = pipeline.audioStream
    }

    /// The audio thread now plays track `stream`, with audio up to `bufferedThrough` (the
    /// ring's and the track's packets read before the switch, which were not noted): the old
    /// track's reading, which may have gone seconds further, no longer counts.
    mutating func switchAudio(to stream: Int, bufferedThrough end: CMTime) {
        guard pipeline.audioStream != nil, stream != audioStream else { return }
        if let old = audioStream { readUpTo[old] = nil }
        audioStream = stream
        if end.isNumeric { readUpTo[stream] = max(readUpTo[stream] ?? end, end) }
    }

    /// The streams whose reading the buffer waits for.
    private var activeStreams: [Int] { [pipeline.videoStream, audioStream].compactMap { $0 } }

    /// The end was taken back (reading goes on for a newly selected audio track): what is
    /// buffered is what was read again, until the demuxer reaches the end once more.
    mutating func reopenEnd() { endOfStream = false }

    /// A seek restarts the buffered range at `target`.
    mutating func restart(at target: CMTime) {
        rangeStart = target.isNumeric ? max(target, .zero) : .zero
        readUpTo = [:]
        endOfStream = false
        readFailed = false
        starting = true
        stalled = false
    }

    /// Reading stopped on an error: the flags treat it as the end, the ranges do not.
    mutating func markReadFailed() { readFailed = true }

    /// Where the current buffered range ends.
    var currentEnd: CMTime { bufferedEnd }

    /// Sets the ranges buffered apart from the current one.
    mutating func setOtherRanges(_ ranges: [CMTimeRange]) { otherRanges = ranges }

    /// Reading goes on from the end of `range`, which is buffered already (a kept run was
    /// reopened): it becomes the current range.
    mutating func resume(_ range: CMTimeRange) {
        rangeStart = range.start
        readUpTo = [:]
        for key in activeStreams { readUpTo[key] = range.end }
        endOfStream = false
        readFailed = false
    }

    /// `ranges` sorted by start, with overlapping or touching ranges joined.
    static func merged(_ ranges: [CMTimeRange]) -> [CMTimeRange] {
        var result: [CMTimeRange] = []
        for range in ranges.filter({ $0.duration > .zero }).sorted(by: { $0.start < $1.start }) {
            if let last = result.last, range.start <= last.end {
                result[result.count - 1] = CMTimeRange(start: last.start, end: max(last.end, range.end))
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// True when `time` lies in the current range or one kept from before.
    func covers(_ time: CMTime) -> Bool {
        contains(time) || otherRanges.contains { $0.containsTime(time) || $0.end == time }
    }

    /// True when `time` lies in the buffered range (its start up to the buffered end).
    func contains(_ time: CMTime) -> Bool {
        time.isNumeric && time >= rangeStart && time <= bufferedEnd
    }

    /// The oldest buffered media was let go: the range now starts at `time`.
    mutating func dropBefore(_ time: CMTime) {
        if time.isNumeric && time > rangeStart { rangeStart = time }
    }

    /// Records a packet read from the container.
    mutating func note(_ packet: Packet) {
        guard packet.pts.isNumeric else { return }
        let end = packet.duration.isNumeric ? packet.pts + packet.duration : packet.pts
        let key = packet.streamIndex
        if let known = readUpTo[key], known >= end { return }
        readUpTo[key] = end
    }

    /// The buffered end: the least advanced active stream decides.
    private var bufferedEnd: CMTime {
        let active = activeStreams
        let ends = active.compactMap { readUpTo[$0] }
        guard ends.count == active.count, let end = ends.min() else { return rangeStart }
        return end
    }

    /// A report when something changed or a quarter second passed since the last one (`now`
    /// is host time); nil otherwise.
    mutating func update(position: CMTime, endOfStream eos: Bool, force: Bool, now: Double) -> BufferReport? {
        if eos { endOfStream = true }
        let duration = pipeline.description.duration
        var end = endOfStream && !readFailed && duration.isNumeric ? max(bufferedEnd, duration) : bufferedEnd
        if duration.isNumeric { end = min(end, duration) }
        let ahead = position.isNumeric ? (end - position).seconds : 0
        let threshold = stalled ? Self.rebufferThreshold : Self.startThreshold
        let full = endOfStream || pipeline.videoPackets.statistics.isFull || pipeline.audioPackets.statistics.isFull
        let flags = PlaybackStateMachine.Buffer(
            isEmpty: !endOfStream && ahead <= 0,
            isLikelyToKeepUp: endOfStream || ahead >= threshold || full,
            isFull: full)
        if flags.isEmpty && !starting {
            stalled = true
        } else if flags.isLikelyToKeepUp {
            stalled = false
            starting = false
        }
        let current = end > rangeStart ? [CMTimeRange(start: rangeStart, end: end)] : []
        let report = BufferReport(flags: flags, loadedRanges: Self.merged(otherRanges + current))
        let changedFlags = last?.flags != flags
        guard force || changedFlags || (report != last && now - lastReportHost >= 0.25) else { return nil }
        last = report
        lastReportHost = now
        return report
    }
}
