// Playhead: what changes hands when the selected audio or subtitle track changes mid-play.
//
// Concurrency: shared by an item's threads through its Pipeline. `pendingAudio` (a Mutex) is
// filled by the demux thread (which owns the Demuxer decoders are made from) and emptied by
// the audio thread, which then owns the decoder. The cue store locks internally.
import FFmpegBridge
import Foundation
import Synchronization

/// What the engine plays out of the asset's selection groups.
struct EngineSelection: Sendable {
    /// The selected audio stream; nil before opening decides (then the best stream).
    var audioStream: Int?
    /// The selected legible source; nil means subtitles off.
    var legible: MediaOptionSource?
    /// Bumped on every legible change, so stale cue writes are recognised.
    var legibleVersion = 0
}

/// Hand-over points between the demux thread and the audio and subtitle consumers.
final class StreamSwitchboard: Sendable {
    /// A decoder for a newly selected audio stream, made by the demux thread.
    private let pendingAudio = Mutex<AudioDecoder?>(nil)
    /// The cues of the selected legible option.
    let cues = SubtitleCueStore()

    /// Offers `decoder` to the audio thread (replacing an offer it did not take yet).
    func offerAudioDecoder(_ decoder: AudioDecoder) {
        pendingAudio.withLock { $0 = decoder }
    }

    /// Takes the offered decoder when it decodes `streamIndex`.
    func takeAudioDecoder(for streamIndex: Int) -> AudioDecoder? {
        pendingAudio.withLock { pending in
            guard let decoder = pending, decoder.streamIndex == streamIndex else { return nil }
            pending = nil
            return decoder
        }
    }
}
