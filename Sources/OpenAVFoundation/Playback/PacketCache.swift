// Playhead: the packets read since the last demuxer seek, kept (up to a byte limit) so a seek
// inside what was already downloaded replays them instead of asking the network again.
//
// Concurrency: a value owned by the demux thread; nothing else touches it. The packets it
// holds are immutable and may also sit in the packet queues.
import FFmpegBridge
import Foundation

/// The contiguous run of packets the demuxer read since it last moved, in read order.
///
/// Reading appends; a seek whose target lies inside the run starts a replay at the right
/// keyframe, and the demux loop takes replayed packets before it reads new ones (the demuxer
/// still sits at the end of the run, so reading simply continues afterwards). When the run
/// grows past `byteLimit`, the oldest packets go first, a keyframe at a time.
struct PacketCache {
    /// The most payload bytes kept.
    let byteLimit: Int
    /// The video stream whose keyframes decide where a replay may start (nil: audio only,
    /// where every packet is a starting point).
    let videoStream: Int?
    private var packets: [Packet] = []
    private var bytes = 0
    /// The next packet to replay (nil: not replaying).
    private var cursor: Int?
    /// Video packets before this index are skipped during a replay (they precede the keyframe
    /// the replay starts from; audio from there on is still needed).
    private var videoFrom = 0

    init(byteLimit: Int, videoStream: Int?) {
        self.byteLimit = byteLimit
        self.videoStream = videoStream
    }

    /// True while packets remain to be replayed.
    var isReplaying: Bool { cursor != nil }

    /// Forgets everything (the demuxer moved elsewhere).
    mutating func reset() {
        packets.removeAll(keepingCapacity: true)
        bytes = 0
        cursor = nil
        videoFrom = 0
    }

    /// Adds a packet the demuxer just read. Returns the new earliest time the run can serve
    /// when old packets had to go, nil otherwise.
    mutating func append(_ packet: Packet) -> CMTime? {
        packets.append(packet)
        bytes += packet.byteCount
        guard bytes > byteLimit, cursor == nil else { return nil }
        // Drop up to the second keyframe so the run still starts at a keyframe.
        let video = videoStream
        guard let first = packets.firstIndex(where: { Self.isStartingPoint($0, video: video) }),
            let next = packets[(first + 1)...].firstIndex(where: { Self.isStartingPoint($0, video: video) })
        else { return nil }
        bytes -= packets[..<next].reduce(0) { $0 + $1.byteCount }
        packets.removeFirst(next)
        return packets.first?.pts
    }

    /// Starts a replay for a seek to `target` when the run holds a starting point for it: the
    /// last keyframe at or before `target` that is not before `earliest`, else the first one
    /// after `target` up to `latest`. Returns false when the run cannot serve the seek.
    mutating func beginReplay(target: CMTime, earliest: CMTime, latest: CMTime) -> Bool {
        let starts = packets.indices.filter {
            Self.isStartingPoint(packets[$0], video: videoStream) && packets[$0].pts.isNumeric
        }
        let before = starts.last { packets[$0].pts <= target && packets[$0].pts >= earliest }
        let after = starts.first { packets[$0].pts > target && packets[$0].pts <= latest }
        guard let keyframe = before ?? after else { return false }
        let landing = packets[keyframe].pts
        // Audio for the landing may have been read (interleaved) before the keyframe.
        let firstAudio = packets.indices.first { index in
            let packet = packets[index]
            guard packet.streamIndex != videoStream, packet.pts.isNumeric else { return false }
            let end = packet.duration.isNumeric ? packet.pts + packet.duration : packet.pts
            return end > landing
        }
        cursor = min(keyframe, firstAudio ?? keyframe)
        videoFrom = keyframe
        return true
    }

    /// The next packet of the replay, nil once the replay is over.
    mutating func nextReplayed() -> Packet? {
        while let index = cursor {
            guard index < packets.count else {
                cursor = nil
                return nil
            }
            cursor = index + 1
            let packet = packets[index]
            if packet.streamIndex == videoStream && index < videoFrom { continue }
            return packet
        }
        return nil
    }

    private static func isStartingPoint(_ packet: Packet, video: Int?) -> Bool {
        video == nil ? true : packet.streamIndex == video && packet.isKeyframe
    }
}
