// Playhead: switching the audio thread to another audio track mid-play.
//
// Concurrency: everything here runs on the audio thread, which owns the decoders and the
// splice state; the new decoder comes from the demux thread through the switchboard.
import FFmpegBridge
import Foundation

/// Where the next audio may start in the ring: after a track switch, audio of the new track
/// is cut so it begins exactly where the old track's audio already in the ring ends.
///
/// Concurrency: a value owned by the audio thread.
struct AudioSplice {
    /// The media time where the last chunk written ends.
    private(set) var writtenEnd: CMTime = .invalid
    /// Set after a switch: audio before it is already in the ring (from the old track).
    private(set) var cut: CMTime?

    /// Starts a splice at the end of what was written (nothing to cut when nothing was).
    mutating func begin() { cut = writtenEnd.isNumeric ? writtenEnd : nil }

    /// `chunk` without what lies before the splice point; nil when all of it does.
    func trim(_ chunk: PCMChunk) -> PCMChunk? {
        guard let cut else { return chunk }
        let end = chunk.mediaTime + chunk.mediaDuration
        if end <= cut { return nil }
        guard chunk.mediaTime < cut else { return chunk }
        let tempo = chunk.mediaDuration.seconds / max(chunk.playbackDuration.seconds, 1e-9)
        let skip = Int(((cut - chunk.mediaTime).seconds / tempo * Double(chunk.sampleRate)).rounded())
        return chunk.slice(from: min(skip, chunk.frameCount), count: max(0, chunk.frameCount - skip))
    }

    /// Notes that `chunk` went into the ring.
    mutating func wrote(_ chunk: PCMChunk) {
        writtenEnd = chunk.mediaTime + chunk.mediaDuration
        cut = nil
    }
}

extension ItemPlayback {
    /// The decoder for `packet`: the current one, the selected track's new decoder (starting a
    /// splice), or nil when the packet belongs to a track that is no longer selected.
    func switchIfSelected(
        _ packet: Packet, _ decoder: AudioDecoder, _ pipeline: Pipeline, _ splice: inout AudioSplice
    ) -> AudioDecoder? {
        let wanted = control.withLock { $0.selection.audioStream } ?? decoder.streamIndex
        if packet.streamIndex == decoder.streamIndex {
            // Leftovers of the previous track after a switch are dropped.
            return packet.streamIndex == wanted ? decoder : nil
        }
        guard packet.streamIndex == wanted,
            let next = pipeline.switchboard.takeAudioDecoder(for: wanted)
        else { return nil }
        splice.begin()
        return next
    }
}
