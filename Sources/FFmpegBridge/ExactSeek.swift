// Playhead: the decisions behind an exact (zero-tolerance) seek, and a one-thread driver.
import OpenCoreMedia

// Concurrency: `ExactSeekFilter` is a value owned by whichever thread decodes (the video
// decode thread in the engine). `FrameSeeker` drives a demuxer and a decoder on the calling
// thread, so it must only be used where both belong to that thread (thumbnails, scrubbing
// workers, tests), never with the engine's threaded demuxer and decoder.

/// Decides, frame by frame, what an exact seek to `target` keeps.
///
/// The recipe (engine-techniques.md §3.4):
/// 1. `demuxer.seek(to: target, earliest: .negativeInfinity, latest: target)` lands on the
///    keyframe at or before the target; then `decoder.flush()` and `filter = ExactSeekFilter(target:)`.
/// 2. For every packet of the stream, set `decoder.skipsNonReferenceFrames =
///    filter.maySkipDecoding(of: packet)` before sending it.
/// 3. For every decoded frame, `filter.admit(frame)`: `.discard` frames end at or before the
///    target; the first `.show` frame is the one on screen at `target`.
/// 4. At end of stream with nothing shown, show `filter.fallback` (the last frame decoded):
///    a target past the last frame shows the last frame.
package struct ExactSeekFilter: Sendable {
    /// What to do with a decoded frame.
    package enum Verdict: Sendable, Equatable {
        /// The frame ends at or before the target: drop it.
        case discard
        /// The frame covers the target or comes after it: show it (and everything after).
        case show
    }

    /// Packets ending this close to the target are always fully decoded (5 ms, as mpv).
    package static let decodeMargin = CMTime(value: 5, timescale: 1000)

    /// Without a packet duration, packets starting this far before the target may be skipped.
    package static let unknownDurationMargin = CMTime(value: 100, timescale: 1000)
    /// Targets this close to the end (or past it) decode every frame: the stream may end
    /// before any frame covers the target, and then the last frame decoded is shown.
    package static let endMargin = CMTime(value: 1, timescale: 1)

    /// The time the seek must land on.
    package let target: CMTime
    /// The end of the media, or `.invalid` when unknown (live streams).
    package let end: CMTime
    /// The last frame discarded, shown if the stream ends before any frame covers the target.
    package private(set) var fallback: VideoFrame?
    /// True once a frame was admitted for showing; later frames all show.
    package private(set) var hasShownFrame = false
    /// How many decoded frames were discarded.
    package private(set) var discardedCount = 0

    /// Starts filtering for a seek to `target` in media that ends at `end` (both on the
    /// frames' `pts` timeline).
    package init(target: CMTime, end: CMTime = .invalid) {
        self.target = target
        self.end = end
    }

    /// True when `packet` ends more than `decodeMargin` before the target (starts more than
    /// `unknownDurationMargin` before it when its duration is unknown), so its frame can never
    /// be shown and the decoder may skip it if nothing references it. Always false within
    /// `endMargin` of the end, where the last frame decoded may stand in for the target.
    package func maySkipDecoding(of packet: Packet) -> Bool {
        guard !hasShownFrame, packet.pts.isNumeric, target.isNumeric else { return false }
        if end.isNumeric && target + ExactSeekFilter.endMargin >= end { return false }
        guard packet.duration.isNumeric else {
            return packet.pts + ExactSeekFilter.unknownDurationMargin < target
        }
        return packet.pts + packet.duration + ExactSeekFilter.decodeMargin <= target
    }

    /// The verdict for the times of a frame, without keeping it.
    package func verdict(pts: CMTime, duration: CMTime) -> Verdict {
        hasShownFrame ? .show : Self.verdict(pts: pts, duration: duration, target: target)
    }

    /// The exact-seek rule, the one place it lives (the playback engine and `FrameSeeker`
    /// both ask it): a frame that ends at or before `target` is not shown; a frame of unknown
    /// (or zero) duration is shown when it starts at or after `target`.
    package static func verdict(pts: CMTime, duration: CMTime, target: CMTime) -> Verdict {
        guard pts.isNumeric, target.isNumeric else { return .show }
        if duration.isNumeric && duration > .zero { return pts + duration <= target ? .discard : .show }
        return pts < target ? .discard : .show
    }

    /// Decides `frame`'s fate, remembering discarded frames as the end-of-stream fallback.
    package mutating func admit(_ frame: VideoFrame) -> Verdict {
        let verdict = verdict(pts: frame.pts, duration: frame.duration)
        switch verdict {
        case .discard:
            fallback = frame
            discardedCount += 1
        case .show:
            hasShownFrame = true
            fallback = nil
        }
        return verdict
    }
}

/// Finds the exact frame shown at a time by seeking and decoding on the calling thread.
///
/// Uses `ExactSeekFilter`'s recipe. Good for thumbnails, scrubbing and tests; the playback
/// engine runs the same steps split across its demux and decode threads.
package final class FrameSeeker {
    private let demuxer: Demuxer
    private let decoder: VideoDecoder
    /// How many frames the last seek discarded before the target.
    package private(set) var lastDiscardedCount = 0

    /// Drives `demuxer` and `decoder` (which must decode a stream of that demuxer).
    /// Makes only the decoder's stream active.
    package init(demuxer: Demuxer, decoder: VideoDecoder) {
        self.demuxer = demuxer
        self.decoder = decoder
        demuxer.setActiveStreams([decoder.streamIndex])
    }

    /// The frame on screen at `target`: the first frame whose `pts + duration` is after the
    /// target, or the last frame when the target is past the end. Nil when seeking or
    /// decoding fails.
    package func frame(at target: CMTime) -> VideoFrame? {
        guard demuxer.seek(to: target, earliest: .negativeInfinity, latest: target) else {
            return nil
        }
        decoder.flush()
        defer { decoder.skipsNonReferenceFrames = false }
        var filter = ExactSeekFilter(target: target, end: demuxer.description.duration)
        while true {
            switch decoder.receiveFrame() {
            case .frame(let frame):
                if filter.admit(frame) == .show { return finish(frame, filter) }
                continue
            case .endOfStream:
                return finish(filter.fallback, filter)
            case .failure:
                return nil
            case .needsInput:
                break
            }
            switch demuxer.readPacket() {
            case .packet(let packet):
                decoder.skipsNonReferenceFrames = filter.maySkipDecoding(of: packet)
                while decoder.send(packet) == .outputFull {
                    guard let frame = decoder.receiveFrame().frame else { break }
                    if filter.admit(frame) == .show { return finish(frame, filter) }
                }
            case .endOfFile:
                decoder.skipsNonReferenceFrames = false
                decoder.sendEndOfStream()
                return drainAfterEndOfStream(&filter)
            case .failure:
                return nil
            }
        }
    }

    private func finish(_ frame: VideoFrame?, _ filter: ExactSeekFilter) -> VideoFrame? {
        lastDiscardedCount = filter.discardedCount
        return frame
    }

    private func drainAfterEndOfStream(_ filter: inout ExactSeekFilter) -> VideoFrame? {
        while case .frame(let frame) = decoder.receiveFrame() {
            if filter.admit(frame) == .show { return finish(frame, filter) }
        }
        return finish(filter.fallback, filter)
    }
}
