// Playhead: switching the audio thread to another audio track mid-play.
//
// Concurrency: everything here runs on the audio thread, which owns the decoders it holds
// and the splice state. The other tracks' decoders (made at open) and their recent packets
// (kept by the demux thread) wait in the pipeline's switchboard, behind its lock. A track read
// on demand (an HLS audio rendition) is switched to only once its packets reach the audio
// written; the switch parks the input of the track left (a call that never blocks).
import FFmpegBridge
import Foundation

/// Where the next audio may start in the ring: after a track switch, audio of the new track
/// is cut so it begins exactly where the old track's audio already in the ring ends.
///
/// Concurrency: a value owned by the audio thread.
struct AudioSplice {
    /// The audio stream being written.
    private(set) var stream: Int
    /// The media time where the last audio written ends.
    private(set) var writtenEnd: CMTime = .invalid
    /// Frames written since this splice began (a new generation begins a new splice).
    private(set) var framesWritten = 0
    /// Set after a switch: audio before it is already in the ring (from the old track).
    private(set) var cut: CMTime?
    /// Decoded frames of `stream` not yet played, oldest first: what a tempo splice re-makes.
    private(set) var recent: [AudioFrame] = []
    /// True while re-made audio is written (it may use the ring's spare room).
    private(set) var isRemaking = false
    /// A rate change was seen while writing: the rest of the batch waits for the re-make.
    var tempoChanged = false
    /// The media time (seconds) where the last tempo splice took over.
    var lastTempoSplice: Double?

    init(stream: Int) { self.stream = stream }

    /// Starts writing `stream`, spliced in at the end of what was written.
    mutating func begin(stream: Int) {
        self.stream = stream
        cut = writtenEnd.isNumeric ? writtenEnd : nil
        recent = []
    }

    /// Keeps `frame` for a re-make, dropping frames that played out before `played` (seconds).
    mutating func keep(_ frame: AudioFrame, played: Double?) {
        recent.append(frame)
        // Kept from well behind what the output took: a sound server still holds up to half a
        // second of audio (on a machine that stalls), up to two seconds of media at a fast
        // rate, that a rate change re-makes.
        let horizon = (played ?? -.infinity) - 2.0
        let stale = recent.prefix { $0.pts.isNumeric && ($0.pts + $0.duration).seconds < horizon }.count
        // Never more than a few seconds' worth, whatever the output does.
        let excess = max(0, recent.count - 400)
        if max(stale, excess) > 0 { recent.removeFirst(max(stale, excess)) }
    }

    /// Re-made audio follows: what lies before `cut` is trimmed, and it may use spare room.
    mutating func beginRemake(at cut: CMTime) {
        self.cut = cut
        isRemaking = true
    }

    /// The re-made audio is written.
    mutating func endRemake() { isRemaking = false }

    /// `chunk` without what lies before the splice point; nil when all of it does.
    func trim(_ chunk: PCMChunk) -> PCMChunk? {
        guard let cut else { return chunk }
        let end = chunk.mediaTime + chunk.mediaDuration
        if end <= cut { return nil }
        guard chunk.mediaTime < cut else { return chunk }
        let tempo = chunk.mediaDuration.seconds / max(chunk.playbackDuration.seconds, 1e-9)
        let skip = Int(
            ((cut - chunk.mediaTime).seconds / tempo * Double(chunk.sampleRate)).rounded())
        return chunk.slice(
            from: min(skip, chunk.frameCount), count: max(0, chunk.frameCount - skip))
    }

    /// The longest hole in the audio's timestamps played as silence, seconds; a longer jump is
    /// taken for a broken timestamp, and the audio after it follows at once.
    static let longestHole = 30.0

    /// Silence for the hole between the audio written and `chunk`, when the chunk starts more
    /// than `AudioConverter.discontinuityThreshold` (and at most `longestHole`) later: media
    /// missing there (an HLS gap, a segment skipped, a damaged recording) then plays as
    /// silence, and time runs through it at the rate of play, as on Apple's players, instead
    /// of jumping to the audio after it. Made at the chunk's tempo. Nil otherwise, and while
    /// re-made audio is written.
    func silence(before chunk: PCMChunk) -> PCMChunk? {
        guard !isRemaking, writtenEnd.isNumeric else { return nil }
        let hole = (chunk.mediaTime - writtenEnd).seconds
        guard hole > AudioConverter.discontinuityThreshold, hole <= Self.longestHole else { return nil }
        let tempo = chunk.mediaDuration.seconds / max(chunk.playbackDuration.seconds, 1e-9)
        let frames = Int((hole / tempo * Double(chunk.sampleRate)).rounded())
        guard frames > 0 else { return nil }
        return PCMChunk(
            samples: [Float](repeating: 0, count: frames * chunk.channels), frameCount: frames,
            channels: chunk.channels, sampleRate: chunk.sampleRate, mediaTime: writtenEnd,
            mediaDuration: chunk.mediaTime - writtenEnd)
    }

    /// Notes that `chunk` went into the ring.
    mutating func wrote(_ chunk: PCMChunk) {
        writtenEnd = chunk.mediaTime + chunk.mediaDuration
        framesWritten += chunk.frameCount
        cut = nil
    }
}

extension ItemPlayback {
    /// How far before the playhead the new track's packets start after a switch.
    static let switchLeadIn = 0.5

    /// When another audio track is selected and its packets reach the audio written so far
    /// (`splice`): its decoder and its packets from just before the playhead on (the current
    /// decoder goes back to the switchboard). Nil otherwise: the current track plays on.
    func switchedDecoder(
        from decoder: any AudioDecoding, _ pipeline: Pipeline, generation: Int, splice: AudioSplice
    ) -> (decoder: any AudioDecoding, backlog: [Packet])? {
        guard let wanted = coordinator.read({ $0.selection.audioStream }),
            wanted != decoder.streamIndex,
            pipeline.switchboard.canSwitchAudio(to: wanted, through: splice.writtenEnd)
        else {
            return nil
        }
        let earliest = currentTime() - CMTime(seconds: Self.switchLeadIn, preferredTimescale: 1000)
        decoder.flush()
        return pipeline.switchboard.switchAudio(
            to: wanted, from: decoder, earliest: earliest, generation: generation)
    }
}
