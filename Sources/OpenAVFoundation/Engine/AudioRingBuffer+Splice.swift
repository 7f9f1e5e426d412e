// Playhead: re-making queued audio in place: the producer writes new audio for the media from
// a point just ahead of what plays (a new tempo after a rate change), and the consumer goes
// from the old audio to the new at exactly that media time, with no gap and no repeat.
//
// Concurrency: `beginSplice` and `spliceFits` are producer side (the audio thread);
// `completeSplice` too; `renderedEndSeconds` is published by the consumer and read by the producer. The consumer's
// half is in AudioRingBuffer+Render.swift: it plays chunks of an older epoch only up to the
// splice point, then skips them and plays the newer epoch's.

extension AudioRingBuffer {
    /// The media time (seconds) just after the last frame rendered; nil before any.
    package var renderedEndSeconds: Double? {
        let value = Double(bitPattern: renderedEndBits.load(ordering: .acquiring))
        return value.isNaN ? nil : value
    }

    /// ``renderedEndSeconds`` when that frame was of `generation` (nil otherwise: after a
    /// seek, what played last says nothing about the new position).
    package func renderedEndSeconds(ofGeneration generation: Int) -> Double? {
        guard renderedEndGeneration.load(ordering: .acquiring) == generation else { return nil }
        return renderedEndSeconds
    }

    /// Starts a splice at media time `seconds`: audio written from now on (the new epoch)
    /// takes over from the audio already queued at that time. The producer then writes the
    /// new audio from `seconds` on, before the consumer gets there. Producer side.
    package func beginSplice(atSeconds seconds: Double) {
        spliceBits.store(seconds.bitPattern, ordering: .relaxed)
        epochFrames.store(0, ordering: .relaxed)
        currentEpoch.add(1, ordering: .releasing)
    }

    /// The re-made audio of the splice begun last is all written: the consumer goes over to it
    /// (until then the old audio plays on, which an output that rewrites goes back over).
    /// Producer side, after the re-made audio's last write.
    package func completeSplice() {
        completedEpoch.store(currentEpoch.load(ordering: .relaxed), ordering: .releasing)
    }

    /// Frames written since the last splice began (all of them before any): how much of the
    /// re-made audio is in. Any thread.
    package var framesWrittenSinceSplice: Int { epochFrames.load(ordering: .relaxed) }

    /// Frames of `marker` whose media time is before `splice` (seconds).
    func framesBefore(_ splice: Double, in marker: ChunkMarker) -> Int {
        let start = marker.media.seconds, duration = marker.mediaDuration.seconds
        guard splice.isFinite, duration > 0 else { return marker.frameCount }
        let fraction = (splice - start) / duration
        return min(marker.frameCount, max(0, Int((fraction * Double(marker.frameCount)).rounded())))
    }
}
