// Playhead: what the video decoder has taken since its last flush, so an exact seek forward
// inside the stretch it is decoding goes on from there instead of starting again at the
// keyframe.
//
// Concurrency: a value owned by the video decode thread; nothing else reads or writes it.
import FFmpegBridge

/// The video decoder's run since its last flush: the keyframe it started from, the last
/// packet it took, the latest picture it let out and how far non-reference pictures were
/// skipped.
///
/// An exact seek to a later time in the same group of pictures needs the same keyframe and
/// the same packets up to where the decoder stands, decoded the same way. So the decoder can
/// go on: the packets it already took are dropped when the demuxer reads them again, and the
/// pictures it lets out from there are judged against the new target. Always starting again
/// at the keyframe (as mpv and ffmpeg do) makes scrubbing forward through a long group of
/// pictures cost the whole group at every step.
///
/// The run only goes on when nothing can differ from a fresh decode: the seek reads the same
/// keyframe again (same decode time and size), every picture let out so far lies before the
/// new target, the new target is no earlier than any target pictures were skipped for, and
/// every packet taken had a decode time later than the one before it.
struct DecoderRun {
    /// The keyframe the run started at: its decode time and size.
    private var start: (dts: CMTime, byteCount: Int)?
    /// The decode time of the last packet the decoder took.
    private(set) var lastTaken: CMTime?
    /// The latest picture the decoder let out (pictures come out in presentation order).
    private(set) var latestPicture: VideoFrame?
    /// The latest exact target for which non-reference pictures before it were not decoded.
    private var skippedBefore: CMTime?
    /// Set when the run took or let out something that makes going on unsafe.
    private var broken = false

    /// Forgets everything: the decoder was flushed.
    mutating func flushed() { self = DecoderRun() }

    /// Notes that the decoder took `packet`; `skippedBefore` is the exact target the packet
    /// was judged against when the decoder was told to skip non-reference pictures (nil when
    /// it decoded everything).
    mutating func took(_ packet: Packet, skippingBefore target: CMTime?) {
        guard !broken else { return }
        guard packet.dts.isNumeric, lastTaken.map({ packet.dts > $0 }) ?? true else {
            broken = true
            return
        }
        if start == nil {
            guard packet.isKeyframe else {
                broken = true
                return
            }
            start = (packet.dts, packet.byteCount)
        }
        lastTaken = packet.dts
        if let target { skippedBefore = max(skippedBefore ?? target, target) }
    }

    /// Notes that the decoder could not take a packet for good (it must be flushed).
    mutating func failed() { broken = true }

    /// Notes a picture the decoder let out.
    mutating func letOut(_ picture: VideoFrame) {
        guard !broken else { return }
        if let latest = latestPicture, !(picture.pts.isNumeric && latest.pts.isNumeric && picture.pts > latest.pts) {
            broken = true
            return
        }
        latestPicture = picture
    }

    /// True when a new generation whose first packet is `first`, seeking exactly to
    /// `target`, can go on decoding from where the run stands.
    func canGoOn(from first: Packet, toExactTarget target: CMTime) -> Bool {
        guard !broken, let start, lastTaken != nil, target.isNumeric, first.isKeyframe,
            first.dts == start.dts, first.byteCount == start.byteCount
        else { return false }
        if let skippedBefore, target < skippedBefore { return false }
        if let latest = latestPicture {
            // A picture already let out is gone: it must be one the new seek would not show.
            return ExactSeekFilter.verdict(pts: latest.pts, duration: latest.duration, target: target) == .discard
        }
        return true
    }
}
