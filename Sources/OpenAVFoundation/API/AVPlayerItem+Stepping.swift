// Playhead: stepping an item frame by frame.
import Foundation

extension AVPlayerItem {
    /// Moves the current time `stepCount` video frames forward (positive) or backward
    /// (negative), landing exactly on that frame; the player pauses first, as frame stepping
    /// is done while paused. Steps stop at the first and the last frame. Steps made in quick
    /// succession add up (each counts from where the previous one lands).
    ///
    /// - Note: Differs from AVFoundation: a step is an exact seek to the frame's start, so the
    ///   frame grid is the video track's frame duration (`minFrameDuration`) from zero; media
    ///   with a variable frame rate steps by that duration, not frame by frame. Items without
    ///   video do not step.
    nonisolated public func step(byCount stepCount: Int) {
        let item = self
        MainQueue.perform {
            guard stepCount != 0, item.status == .readyToPlay,
                let frame = item.stepFrameDuration, frame > .zero
            else { return }
            item.state.withLock { $0.player }?.pause()
            let target = AVPlayerItem.frameStart(
                from: item.currentTime(), steps: stepCount, frameDuration: frame, duration: item.duration)
            item.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
        }
    }

    /// The duration of one video frame of the item's video track, nil without video.
    nonisolated var stepFrameDuration: CMTime? {
        guard let contents = try? asset.loadedContents(),
            let video = contents.tracks.first(where: { $0.mediaType == .video }),
            video.minFrameDuration.isNumeric, video.minFrameDuration > .zero
        else { return nil }
        return video.minFrameDuration
    }

    /// The start of the frame `steps` frames from the one showing at `time`, on a grid of
    /// `frameDuration` from zero, kept between the first frame and the last one before
    /// `duration` (when known). Exact rational arithmetic.
    nonisolated static func frameStart(
        from time: CMTime, steps: Int, frameDuration: CMTime, duration: CMTime
    ) -> CMTime {
        func index(of time: CMTime, roundingUp: Bool) -> Int128 {
            let numerator = Int128(time.value) * Int128(frameDuration.timescale)
            let denominator = Int128(time.timescale) * Int128(frameDuration.value)
            var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
            if remainder != 0 {
                if !roundingUp && numerator < 0 { quotient -= 1 }
                if roundingUp && numerator > 0 { quotient += 1 }
            }
            return quotient
        }
        let current = time.isNumeric ? index(of: time, roundingUp: false) : 0
        var target = max(current + Int128(steps), 0)
        if duration.isNumeric, duration > .zero {
            // The last frame starts before the end: the last index whose start is < duration.
            target = min(target, max(index(of: duration, roundingUp: true) - 1, 0))
        }
        return CMTime(value: Int64(clamping: target) * frameDuration.value, timescale: frameDuration.timescale)
    }
}
