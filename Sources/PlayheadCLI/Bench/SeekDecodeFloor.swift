// Playhead: the decode-only time of the benchmark's exact seeks: the same keyframe-to-target
// decoding with no player around it, as a floor for `playhead bench seek`.
//
// Concurrency: `measure` blocks its calling thread (run it off the main queue); it owns the
// demuxer and decoder it creates for the whole run.
import FFmpegBridge
import Foundation
import OpenCoreMedia

/// Times exact frame lookups with `FrameSeeker` (demuxer seek to the keyframe, decoder flush,
/// decode to the target, non-reference frames skipped) on a decoder with the engine's
/// threading. A seek that starts again at the keyframe (mpv's always do) decodes at least
/// these frames, so the timings show how much of a seek is decoding and how much is
/// everything else. The player goes on from where its decoder stands when a seek moves
/// forward inside the group of pictures it is decoding (`DecoderRun`), so it can beat them.
enum SeekDecodeFloor {
    /// Milliseconds for each of `targets` (seconds), after one untimed lookup at zero.
    ///
    /// - Throws: `MediaFailure` when the input cannot be opened or has no video;
    ///   `BenchFailure` when a lookup finds no frame.
    static func measure(url: URL, targets: [Double]) throws -> [Double] {
        let demuxer = try Demuxer(location: try MediaLocation(url: url), timeout: 15)
        guard let index = demuxer.bestStream(of: .video) else { throw MediaFailure.noAudioOrVideo }
        let seeker = FrameSeeker(
            demuxer: demuxer, decoder: try VideoDecoder(demuxer: demuxer, streamIndex: index))
        _ = seeker.frame(at: .zero)
        return try targets.map { seconds in
            let start = BenchClock.now()
            guard seeker.frame(at: CMTime(seconds: seconds, preferredTimescale: 1_000_000)) != nil else {
                throw BenchFailure(reason: "found no frame at \(seconds) s")
            }
            return BenchClock.milliseconds(from: start, to: BenchClock.now())
        }
    }
}
