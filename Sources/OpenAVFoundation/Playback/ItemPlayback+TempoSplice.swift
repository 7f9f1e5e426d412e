// Playhead: a rate change heard at once. Audio already converted at the old tempo waits in the
// ring (a quarter second beyond the output's largest request) and, on a sound server, in the server's own buffer; the audio
// thread re-makes it from the decoded frames it kept, at the new tempo, from a point 50 ms ahead
// of what plays, and the ring goes from the old audio to the new at that media time
// (AudioRingBuffer+Splice.swift): no gap, no repeat. An output that can overwrite what it holds
// (a sound server's stream) gets the new audio from 50 ms ahead of what is heard, written back
// over its queued audio (the ring's rewind); others from 50 ms past what they took already.
// A volume change on such an output is made the same way, at the same tempo: the ring applies
// the gain as it renders, so the audio rendered again over the server's queue has the new one.
//
// Concurrency: the audio thread only; it owns the converter, the kept frames (in its
// AudioSplice) and the ring's producer side.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// How far ahead of the audio rendered last a tempo splice takes over (host seconds): the
    /// re-made audio is written well before the output reaches it.
    static let tempoSpliceLead = 0.05

    /// Re-makes the queued audio past a point just ahead of what plays, at `tempo`. False when
    /// nothing is worth re-making (little queued, nothing played yet, frames not kept): the
    /// caller then just sets the tempo for what comes next.
    func respliceAtTempo(
        _ tempo: Double, _ converter: AudioConverter, _ ring: AudioRingBuffer, generation: Int,
        _ splice: inout AudioSplice, _ pipeline: Pipeline
    ) -> Bool {
        guard splice.writtenEnd.isNumeric, let first = splice.recent.first, first.pts.isNumeric else { return false }
        var cut: Double
        let rewrites = outputRewritesQueuedAudio(pipeline)
        // An output that can replace what it holds and has not started playing it (a sound
        // server's stream before its sink runs) has let nothing be heard.
        let nothingHeard = rewrites && !ring.isOutputPlaying
        if let rendered = ring.renderedEndSeconds(ofGeneration: generation), !nothingHeard {
            // What the listener hears now, when the output can replace what it holds.
            let heard = rewrites ? ring.audioClock(atHost: environment.hostClock.now).map { $0.seconds } : nil
            let played = min(heard ?? rendered, rendered)
            cut = played + Self.tempoSpliceLead * converter.tempo
            // The last splice's point is not reached yet: re-make from there again, so its old
            // audio and its re-made audio never both play.
            if let last = splice.lastTempoSplice, played < last { cut = last }
        } else {
            // Nothing of this generation played yet (a rate set just as play starts), or
            // nothing heard of what the output took: all of it is re-made, so not even its
            // first moments play at the old speed.
            cut = first.pts.seconds
        }
        guard cut < splice.writtenEnd.seconds - 0.005, first.pts.seconds <= cut else { return false }
        // A little before the cut primes the tempo stage; what it makes before the cut is
        // trimmed away.
        let frames = splice.recent.filter { ($0.pts + $0.duration).seconds > cut - 0.1 }
        converter.reset()
        converter.setTempo(tempo)
        ring.beginSplice(atSeconds: cut)
        splice.lastTempoSplice = cut
        splice.beginRemake(at: CMTime(seconds: cut, preferredTimescale: 1_000_000))
        for frame in frames {
            for chunk in converter.convert(frame) { write(chunk, to: ring, generation: generation, &splice) }
        }
        ring.completeSplice()
        splice.endRemake()
        return true
    }

    /// True when the item's audio output can overwrite the audio it holds (a sound server's
    /// stream); asked once per rate or volume change.
    func outputRewritesQueuedAudio(_ pipeline: Pipeline) -> Bool {
        pipeline.audioOutput?.rewritesQueuedAudio ?? false
    }
}
