// Playhead: how far the demux thread reads past an exact seek's target (or a fast forward
// step's) before the seek lands.
//
// Concurrency: a value owned by the demux thread; nothing else touches it.
import FFmpegBridge

/// Keeps the demux thread close to an exact seek's target until the seek lands.
///
/// After an exact seek the decoder needs the packets from the keyframe to a little past the
/// target (for reordered pictures and the frame threads' pipeline). Reading the usual seconds
/// ahead meanwhile only takes a core from the decoder: on two cores, holding the read-ahead
/// back landed 720p VP9 seeks about 6 % sooner (27.3 against 29.0 ms, Benchmarks/notes.md).
/// Reading goes on as usual once the seek lands, and in any case after `longestHold`. A step of
/// fast forward is held the same way: it shows one keyframe's picture, then the next step
/// flushes whatever was read past it.
struct LandingReadAhead {
    /// Video read ahead of the target before holding, in media time...
    static let margin = CMTime(value: 1, timescale: 2)
    /// ...and at least this many video packets past the target, whatever the frame rate.
    static let minimumPackets = 24
    /// Host seconds the read-ahead is held at most, should the seek never land.
    static let longestHold = 1.0

    private var target: CMTime?
    private var packetsPastTarget = 0
    private var lastVideoTime: CMTime?
    private var holdingSince: Double?

    /// Starts watching a seek: `exactTarget` is its target when it is exact (or a fast forward
    /// step), else nil (other seeks, and opening, read ahead as usual).
    mutating func start(exactTarget: CMTime?) {
        self = LandingReadAhead()
        target = exactTarget
    }

    /// Notes a packet just read; only the video stream's packets count.
    mutating func note(_ packet: Packet, videoStream: Int?) {
        guard let target, packet.streamIndex == videoStream, packet.pts.isNumeric else { return }
        lastVideoTime = packet.pts
        if packet.pts > target { packetsPastTarget += 1 }
    }

    /// True while reading on would only run ahead of what the unlanded seek needs. `landed`
    /// says whether the seek has landed; `now` is host time (the engine's clock).
    mutating func holds(landed: Bool, now: Double) -> Bool {
        guard let target else { return false }
        if landed {
            self.target = nil
            return false
        }
        guard let lastVideoTime, lastVideoTime > target + Self.margin,
            packetsPastTarget >= Self.minimumPackets
        else { return false }
        let since = holdingSince ?? now
        holdingSince = since
        if now - since >= Self.longestHold {
            self.target = nil
            return false
        }
        return true
    }

    /// True while a seek is being watched.
    var isWatching: Bool { target != nil }
}
