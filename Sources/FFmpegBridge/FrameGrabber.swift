// Playhead: grabs still frames at chosen times from one open file, reusing its demuxer and
// decoder from one request to the next.
import OpenCoreMedia

// Concurrency: a `FrameGrabber` owns its demuxer, decoder and scaler and belongs to one
// thread or serial queue (the image generator's work queue); every method must be called
// there. `interrupt.abort()` may be called from any thread to stop blocking I/O. The frames it
// returns are immutable and may go to any thread.

/// Finds the frame on screen at a time, like `FrameSeeker`, but keeps the decoder's position
/// between requests: a target ahead of the last frame in the same GOP is reached by decoding
/// forward instead of seeking back to the keyframe. Callers with many times should ask in
/// increasing order.
///
/// With a tolerance window (`toleranceBefore`/`toleranceAfter` not zero) a keyframe inside
/// the window is used as is, which needs a single decoded frame.
package final class FrameGrabber {
    /// owned by the grabbing thread
    private let demuxer: Demuxer
    /// owned by the grabbing thread
    private let decoder: VideoDecoder
    /// A packet the decoder refused (output full) while a frame was being returned.
    private var pendingPacket: Packet?
    /// The last frame the decoder produced, while the decoder can continue after it.
    private var lastFrame: VideoFrame?
    /// True when the decoder is positioned after `lastFrame` and may continue forward.
    private var canContinue = false
    /// How many times a request sought (for tests of reuse).
    package private(set) var seekCount = 0
    /// How many frames were decoded in total (for tests of reuse).
    package private(set) var decodedFrameCount = 0
    /// Why the last read that failed did (`.protectedContent` for encrypted samples).
    package private(set) var lastReadFailure: MediaFailure?

    /// The video stream's description (size, aspect, rotation).
    package let stream: StreamDescription

    /// Opens `location` and a single-threaded decoder for its best video stream.
    ///
    /// - Throws: the `Demuxer` failures, and `.noAudioOrVideo` when there is no video track.
    package init(location: MediaLocation, timeout: Double = 15, threadCount: Int? = 1) throws(MediaFailure) {
        demuxer = try Demuxer(location: location, timeout: timeout)
        guard let index = demuxer.bestStream(of: .video) else { throw .noAudioOrVideo }
        decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index, threadCount: threadCount)
        stream = demuxer.description.streams[index]
        demuxer.setActiveStreams([index])
    }

    /// The switch that makes blocking reads give up; `abort()` it from any thread.
    package var interrupt: InterruptDeadline { demuxer.interrupt }

    /// The media's duration, as the container states it.
    package var duration: CMTime { demuxer.description.duration }

    /// The frame to show for `target`.
    ///
    /// - Parameters:
    ///   - target: the requested time on the item timeline.
    ///   - toleranceBefore: how much earlier the frame may be (zero: exact).
    ///   - toleranceAfter: how much later the frame may be (zero: exact).
    ///   - startingAtOrAfter: with zero tolerances, the first frame starting at or after the
    ///     target (what `ffmpeg -ss` outputs) instead of the frame on screen at it.
    /// - Returns: the frame on screen at `target` (or the last frame for a target past the
    ///   end), or with a tolerance a keyframe within it; nil when reading or decoding fails.
    package func frame(
        at target: CMTime, toleranceBefore: CMTime = .zero, toleranceAfter: CMTime = .zero,
        startingAtOrAfter: Bool = false
    ) -> VideoFrame? {
        let target = target.isNumeric ? max(target, .zero) : .zero
        if startingAtOrAfter {
            // ffmpeg's `-ss` choice: the first frame that starts at or after the target. When
            // the target falls inside a frame, that is the next one, reached by decoding on.
            guard let onScreen = frame(at: target), onScreen.pts.isNumeric, onScreen.duration.isNumeric,
                onScreen.duration > .zero, (onScreen.pts < target)
            else { return frame(at: target) }
            return frame(at: onScreen.pts + onScreen.duration)
        }
        if let lastFrame, covers(lastFrame, target) { return lastFrame }
        let earliest = toleranceBefore.isNumeric || toleranceBefore.isPositiveInfinity
            ? target - toleranceBefore : target
        let latest = toleranceAfter.isNumeric || toleranceAfter.isPositiveInfinity
            ? target + toleranceAfter : target
        if earliest < target || latest > target,
            let frame = keyframe(within: earliest, latest, around: target)
        {
            return frame
        }
        return exactFrame(at: target)
    }

    // MARK: - Tolerant requests

    /// A keyframe within `earliest...latest`: the one at or before `target` when allowed, else
    /// the first one after it. Nil when the seeks land outside the window.
    private func keyframe(within earliest: CMTime, _ latest: CMTime, around target: CMTime) -> VideoFrame? {
        if earliest < target,
            let frame = firstFrame(seekingTo: target, earliest: earliest, latest: target),
            isInside(frame, earliest, latest)
        {
            return frame
        }
        if latest > target,
            let frame = firstFrame(seekingTo: target, earliest: target, latest: latest),
            isInside(frame, earliest, latest)
        {
            return frame
        }
        return nil
    }

    /// The first frame after seeking to the keyframe the window allows: the keyframe itself.
    private func firstFrame(seekingTo target: CMTime, earliest: CMTime, latest: CMTime) -> VideoFrame? {
        guard seek(to: target, earliest: earliest, latest: latest) else { return nil }
        var filter = ExactSeekFilter(target: .negativeInfinity)
        return decode(until: &filter)
    }

    private func isInside(_ frame: VideoFrame, _ earliest: CMTime, _ latest: CMTime) -> Bool {
        !frame.pts.isNumeric || (frame.pts >= earliest && frame.pts <= latest)
    }

    // MARK: - Exact requests

    private func exactFrame(at target: CMTime) -> VideoFrame? {
        if !continuesForward(to: target) {
            guard seek(to: target) else { return nil }
        }
        var filter = ExactSeekFilter(target: target)
        return decode(until: &filter)
    }

    /// True when decoding on from the current position reaches `target` sooner than a seek:
    /// the target is ahead and no keyframe lies between the position and the target. (MP4
    /// indexes decode times, which come before presentation times: then a keyframe just
    /// before the target may still be decoded through, which is correct, only slower.)
    private func continuesForward(to target: CMTime) -> Bool {
        guard canContinue, let lastFrame, lastFrame.pts.isNumeric, target > lastFrame.pts else {
            return false
        }
        let index = decoder.streamIndex
        if demuxer.hasKeyframeIndex(stream: index) {
            guard let keyframe = demuxer.indexedKeyframe(atOrBefore: target, stream: index) else {
                return true
            }
            return keyframe <= lastFrame.pts
        }
        // Without an index, decoding up to a second forward is cheaper than a seek.
        return target - lastFrame.pts <= CMTime(value: 1, timescale: 1)
    }

    private func covers(_ frame: VideoFrame, _ time: CMTime) -> Bool {
        guard frame.pts.isNumeric, frame.duration.isNumeric else { return false }
        return frame.pts <= time && time < frame.pts + frame.duration
    }

    private func seek(to target: CMTime, earliest: CMTime = .negativeInfinity, latest: CMTime? = nil) -> Bool {
        seekCount += 1
        canContinue = false
        lastFrame = nil
        pendingPacket = nil
        guard demuxer.seek(to: target, earliest: earliest, latest: latest ?? target) else {
            return false
        }
        decoder.flush()
        return true
    }

    // MARK: - Decoding

    /// Decodes until `filter` admits a frame, keeping the decoder ready to continue after it.
    private func decode(until filter: inout ExactSeekFilter) -> VideoFrame? {
        defer { decoder.skipsNonReferenceFrames = false }
        while true {
            switch decoder.receiveFrame() {
            case .frame(let frame):
                if let shown = admit(frame, &filter) { return shown }
                continue
            case .endOfStream:
                return finishAtEnd(filter)
            case .failure:
                canContinue = false
                return nil
            case .needsInput:
                break
            }
            let packet: Packet
            if let pending = pendingPacket {
                packet = pending
                pendingPacket = nil
            } else {
                switch demuxer.readPacket() {
                case .packet(let next): packet = next
                case .endOfFile:
                    decoder.skipsNonReferenceFrames = false
                    decoder.sendEndOfStream()
                    while case .frame(let frame) = decoder.receiveFrame() {
                        if let shown = admit(frame, &filter) {
                            canContinue = false
                            return shown
                        }
                    }
                    return finishAtEnd(filter)
                case .failure(let failure):
                    lastReadFailure = failure
                    canContinue = false
                    return nil
                }
            }
            decoder.skipsNonReferenceFrames = filter.maySkipDecoding(of: packet)
            while decoder.send(packet) == .outputFull {
                guard let frame = decoder.receiveFrame().frame else { break }
                if let shown = admit(frame, &filter) {
                    pendingPacket = packet
                    return shown
                }
            }
        }
    }

    private func admit(_ frame: VideoFrame, _ filter: inout ExactSeekFilter) -> VideoFrame? {
        decodedFrameCount += 1
        guard filter.admit(frame) == .show else { return nil }
        lastFrame = frame
        canContinue = true
        return frame
    }

    /// At the end of the stream: the last frame decoded (a target past the end shows it).
    private func finishAtEnd(_ filter: ExactSeekFilter) -> VideoFrame? {
        canContinue = false
        if let fallback = filter.fallback {
            lastFrame = fallback
            return fallback
        }
        return lastFrame
    }
}
