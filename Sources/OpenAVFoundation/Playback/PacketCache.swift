// Playhead: the packets a network item already read, kept (up to a byte limit) in one run per
// place the demuxer read from, so a seek into what was downloaded replays packets instead of
// asking the network again, and `loadedTimeRanges` can list every run.
//
// Concurrency: a value owned by the demux thread; nothing else touches it. The packets it
// holds are immutable and may also sit in the packet queues.
import FFmpegBridge
import Foundation

/// Runs of packets in read order, one per stretch the demuxer read without seeking.
///
/// Reading appends to the current run. A seek outside every run closes the current one (kept
/// for later seeks) and starts a new one at the demuxer's new position. A seek inside a run
/// starts a replay at the right keyframe; the demux loop takes replayed packets before it
/// reads new ones. Replaying the current run needs nothing more (the demuxer still sits at its
/// end) unless a read was cut short; replaying a closed run, or the current one after a cut
/// read, ends with `.resume`: the demuxer seeks a little before the run's last packets (what a
/// container held back when its input stopped is read again) and the packets the run holds
/// are dropped as they come again, so the run grows on from its end. Past `byteLimit` the
/// oldest closed runs go first, then the front of the current run, a keyframe at a time.
struct PacketCache {
    /// One contiguous stretch of packets.
    struct Run {
        var packets: [Packet] = []
        var bytes = 0
        /// The time range the run covers for `loadedTimeRanges` (start to buffered end).
        var range: CMTimeRange
        /// Where the audio now selected is held from: a track loaded only once selected (an
        /// HLS audio rendition) is missing before it, and a replay landing earlier would play
        /// without it.
        var audioFrom = CMTime.negativeInfinity
    }

    /// The most payload bytes kept over all runs.
    let byteLimit: Int
    /// The video stream whose keyframes decide where a replay may start (nil: audio only,
    /// where every packet is a starting point).
    let videoStream: Int?
    private(set) var closedRuns: [Run] = []
    private var current = Run(range: CMTimeRange(start: .zero, duration: .zero))
    /// False while the current run keeps none of the packets read (see `startRun`).
    private var keepsCurrent = true
    /// A replay of the current run in progress.
    private struct Replay {
        /// The next packet to hand out.
        var cursor: Int
        /// Video packets before this index are skipped (they precede the starting keyframe;
        /// audio from `cursor` on is still needed).
        var videoFrom: Int
        /// What follows the last packet (a reopened run must have the demuxer resume).
        var resume: ReplayStep?
    }
    private var replay: Replay?

    init(byteLimit: Int, videoStream: Int?) {
        self.byteLimit = byteLimit
        self.videoStream = videoStream
    }

    /// True while packets remain to be replayed.
    var isReplaying: Bool { replay != nil }

    /// The demuxer moved to `start` (a seek outside every run): the current run is kept as a
    /// closed one (when it holds anything) and a new run starts there. Without `keeping`, the
    /// new run keeps nothing it reads (a step of backward play, which may read a keyframe
    /// alone: a later seek there must read the media again).
    mutating func startRun(at start: CMTime, closingAt end: CMTime, keeping: Bool = true) {
        if !current.packets.isEmpty {
            current.range = CMTimeRange(start: current.range.start, end: max(end, current.range.start))
            closedRuns.append(current)
        }
        current = Run(range: CMTimeRange(start: start, duration: .zero))
        keepsCurrent = keeping
        replay = nil
        prune()
    }

    /// Adds a packet the demuxer just read to the current run (unless it keeps nothing).
    /// Returns the current run's new earliest time when its oldest packets had to go, nil
    /// otherwise.
    mutating func append(_ packet: Packet) -> CMTime? {
        guard keepsCurrent else { return nil }
        current.packets.append(packet)
        current.bytes += packet.byteCount
        return prune()
    }

    /// A newly selected audio track is read from now on, but the runs hold none of its
    /// packets before: the closed runs and what the current one read so far are no longer
    /// replayed (a seek there goes to the demuxer).
    mutating func lacksNewAudio() {
        for index in closedRuns.indices { closedRuns[index].audioFrom = .positiveInfinity }
        current.audioFrom = current.packets.reduce(current.range.start) { latest, packet in
            let end = StreamSwitchboard.end(of: packet)
            return end.isNumeric ? max(latest, end) : latest
        }
    }

    /// The closed run containing `time`, as an index into `closedRuns`.
    func closedRun(containing time: CMTime) -> Int? {
        closedRuns.lastIndex { $0.range.containsTime(time) || $0.range.end == time }
    }

    /// Starts a replay for a seek to `target`, from the last keyframe at or before `target`
    /// not before `earliest`, else the first one after it up to `latest`. `run` nil replays the
    /// current run; an index reopens that closed run as the current one first (closing the
    /// current run at `currentEnd`), and the replay then ends with `.resume`. With
    /// `resumesReading`, a replay of the current run also ends with `.resume` at `currentEnd`
    /// (the demuxer's position is not to be trusted). Returns false (changing nothing) when
    /// the run has no such keyframe.
    mutating func beginReplay(
        of run: Int?, target: CMTime, earliest: CMTime, latest: CMTime, currentEnd: CMTime,
        resumesReading: Bool = false
    ) -> Bool {
        let packets = run.map { closedRuns[$0].packets } ?? current.packets
        let video = videoStream
        let starts = packets.indices.filter {
            Self.isStartingPoint(packets[$0], video: video) && packets[$0].pts.isNumeric
        }
        let before = starts.last { packets[$0].pts <= target && packets[$0].pts >= earliest }
        let after = starts.first { packets[$0].pts > target && packets[$0].pts <= latest }
        guard let keyframe = before ?? after else { return false }
        let landing = packets[keyframe].pts
        // The audio playing is not held there.
        guard landing >= (run.map { closedRuns[$0].audioFrom } ?? current.audioFrom) else { return false }
        // Audio for the landing may have been read (interleaved) before the keyframe.
        let firstAudio = packets.indices.first { index in
            let packet = packets[index]
            guard packet.streamIndex != video, packet.pts.isNumeric else { return false }
            let end = packet.duration.isNumeric ? packet.pts + packet.duration : packet.pts
            return end > landing
        }
        var resume: ReplayStep?
        if let run {
            resume = reopen(run, closingCurrentAt: currentEnd)
        } else if resumesReading {
            resume = Self.resumption(after: current.packets, end: currentEnd)
        }
        replay = Replay(cursor: min(keyframe, firstAudio ?? keyframe), videoFrom: keyframe, resume: resume)
        return true
    }

    /// What the demux loop does next during a replay.
    enum ReplayStep {
        /// Queue this packet.
        case packet(Packet)
        /// A reopened run was replayed to its end: the demuxer must seek to `at` (at or before
        /// the run's end) and drop what it reads up to `lastDecodeTimes` (per stream), which
        /// the run already holds.
        case resume(at: CMTime, lastDecodeTimes: [Int: CMTime])
    }

    /// The next step of the replay, nil when there is none.
    mutating func nextReplayed() -> ReplayStep? {
        while var state = replay {
            guard state.cursor < current.packets.count else {
                replay = nil
                return state.resume
            }
            let index = state.cursor
            state.cursor += 1
            replay = state
            let packet = current.packets[index]
            if packet.streamIndex == videoStream && index < state.videoFrom { continue }
            return .packet(packet)
        }
        return nil
    }

    /// Makes closed run `index` the current run again, closing the current one at `end`.
    private mutating func reopen(_ index: Int, closingCurrentAt end: CMTime) -> ReplayStep {
        let run = closedRuns.remove(at: index)
        if !current.packets.isEmpty {
            current.range = CMTimeRange(start: current.range.start, end: max(end, current.range.start))
            closedRuns.append(current)
        }
        current = run
        keepsCurrent = true
        return Self.resumption(after: run.packets, end: run.range.end)
    }

    /// How reading goes on after `packets`, a run ending at `end`: the demuxer reopens a little
    /// before the last packet of each stream, not at `end`. A container holds back what it was
    /// assembling when its input stopped (MPEG-TS keeps a PES until the next one starts, and a
    /// read cut short for a seek drops it), so those packets lie after the last kept ones but
    /// can start before `end`, in the segment before it; read again from there, they come
    /// back, and what the run already holds is dropped by decode time.
    /// A sparse stream (subtitles, timed metadata) whose last packet is long past does not
    /// pull the point back: only streams read within `sparseAge` of the latest count.
    private static func resumption(after packets: [Packet], end: CMTime) -> ReplayStep {
        let last = lastDecodeTimes(of: packets)
        guard let latest = last.values.max() else { return .resume(at: end, lastDecodeTimes: last) }
        let earliestLast = last.values.filter { $0 >= latest - sparseAge }.min() ?? latest
        return .resume(at: max(.zero, min(end, earliestLast - resumeMargin)), lastDecodeTimes: last)
    }

    /// How far before the streams' last packets reading resumes (audio packets and segment
    /// boundaries are not aligned to the picture).
    static let resumeMargin = CMTime(value: 1, timescale: 2)
    /// How long before the latest packet a stream's last one may be and still count as
    /// interleaved with it (audio and video are within a second of each other).
    static let sparseAge = CMTime(value: 2, timescale: 1)

    /// The last decode time (else presentation time) of each stream in `packets`.
    private static func lastDecodeTimes(of packets: [Packet]) -> [Int: CMTime] {
        var last: [Int: CMTime] = [:]
        for packet in packets {
            let time = packet.dts.isNumeric ? packet.dts : packet.pts
            if time.isNumeric { last[packet.streamIndex] = time }
        }
        return last
    }

    /// The current run's range as it was when it was last closed (its start is always right).
    var currentRange: CMTimeRange { current.range }

    /// Drops the oldest bytes beyond the limit; returns the current run's new start when its
    /// front had to go.
    @discardableResult
    private mutating func prune() -> CMTime? {
        var total = closedRuns.reduce(current.bytes) { $0 + $1.bytes }
        while total > byteLimit, replay == nil, !closedRuns.isEmpty {
            total -= closedRuns.removeFirst().bytes
        }
        guard total > byteLimit, replay == nil else { return nil }
        // Drop up to the second keyframe so the run still starts at a keyframe.
        let video = videoStream
        guard let first = current.packets.firstIndex(where: { Self.isStartingPoint($0, video: video) }),
            let next = current.packets[(first + 1)...].firstIndex(where: { Self.isStartingPoint($0, video: video) })
        else { return nil }
        current.bytes -= current.packets[..<next].reduce(0) { $0 + $1.byteCount }
        current.packets.removeFirst(next)
        guard let start = current.packets.first?.pts, start.isNumeric else { return nil }
        current.range = CMTimeRange(start: start, duration: .zero)
        return start
    }

    private static func isStartingPoint(_ packet: Packet, video: Int?) -> Bool {
        video == nil ? true : packet.streamIndex == video && packet.isKeyframe
    }
}
