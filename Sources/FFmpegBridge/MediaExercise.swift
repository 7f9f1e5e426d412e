// Playhead: one pass over an input through every FFmpeg-facing stage (open, describe, demux,
// decode, seek), the work the fuzzer and its regression tests run on untrusted bytes.
import Foundation
import OpenCoreMedia

// Concurrency: `run` is synchronous and owns everything it creates; call it from any one thread.

/// Drives an input through `MediaInspector`, `Demuxer`, `VideoDecoder` and `AudioDecoder` the
/// way playback would, stopping at bounded work. Media failures are expected and counted, not
/// thrown: the only bad outcome is a crash, a sanitizer report or a hang.
package enum MediaExercise {
    /// What one pass reached.
    package struct Summary: Sendable, Equatable {
        /// The inspector's or demuxer's failure, when opening failed.
        package var failure: MediaFailure?
        /// Packets read before the end, a failure or the packet budget.
        package var packets = 0
        /// Video and audio frames decoded.
        package var frames = 0
        /// Packets or frames the decoders dropped as corrupt.
        package var concealed = 0
    }

    /// Runs one pass over `location`.
    ///
    /// - Parameters:
    ///   - location: the input.
    ///   - timeout: seconds each blocking phase may take.
    ///   - maximumPackets: the packet budget, split between before and after a seek to the
    ///     middle of the input.
    package static func run(
        _ location: MediaLocation, timeout: Double = 5, maximumPackets: Int = 2_000
    ) -> Summary {
        var summary = Summary()
        var limits = MediaInspector.Limits()
        limits.timeout = timeout
        do throws(MediaFailure) {
            _ = try MediaInspector.describe(location, limits: limits)
        } catch {
            summary.failure = error
        }
        let demuxer: Demuxer
        do throws(MediaFailure) {
            demuxer = try Demuxer(location: location, timeout: timeout)
        } catch {
            summary.failure = error
            return summary
        }
        let videoIndex = demuxer.bestStream(of: .video)
        let audioIndex = demuxer.bestStream(of: .audio)
        let video = videoIndex.flatMap { index in
            try? VideoDecoder(demuxer: demuxer, streamIndex: index, threadCount: 1)
        }
        let audio = audioIndex.flatMap { index in
            try? AudioDecoder(demuxer: demuxer, streamIndex: index)
        }
        demuxer.setActiveStreams(Set([video?.streamIndex, audio?.streamIndex].compactMap { $0 }))

        func decode(_ packet: Packet) {
            if packet.streamIndex == video?.streamIndex, let video {
                video.send(packet)
                while video.receiveFrame().frame != nil { summary.frames += 1 }
            } else if packet.streamIndex == audio?.streamIndex, let audio {
                audio.send(packet)
                while audio.receiveFrame().frame != nil { summary.frames += 1 }
            }
        }
        func readPackets(_ budget: Int) {
            for _ in 0..<budget {
                guard case .packet(let packet) = demuxer.readPacket() else { return }
                summary.packets += 1
                decode(packet)
            }
        }

        readPackets(maximumPackets / 2)
        let duration = demuxer.description.duration
        if duration.isNumeric, duration.seconds > 0 {
            let middle = CMTime(seconds: duration.seconds / 2, preferredTimescale: 1_000)
            if demuxer.seek(to: middle, earliest: .negativeInfinity, latest: middle) {
                video?.flush()
                audio?.flush()
            }
        }
        readPackets(maximumPackets / 2)
        video?.sendEndOfStream()
        audio?.sendEndOfStream()
        while video?.receiveFrame().frame != nil { summary.frames += 1 }
        while audio?.receiveFrame().frame != nil { summary.frames += 1 }
        summary.concealed = (video?.concealedErrorCount ?? 0) + (audio?.concealedErrorCount ?? 0)
        return summary
    }
}
