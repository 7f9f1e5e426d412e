// Playhead: a kick (the engine cutting a stalled read short to serve a seek) that stops a read
// of a streamed input (Playhead's HLS loader) is reported as a cut read, and the read returns
// no packet: MPEG-TS hands out the part of a PES it held when its input fails, and the engine
// must neither keep that truncated packet nor trust the demuxer's position after it (it reopens
// the bytes where its run ends). Before, the streamed read gave up without noting the cut, the
// engine took the truncated packet and then the container's end: playback stopped at the
// packets it had cached (the EXT-X-START stall of closing note 36).
import Foundation
import Testing

@testable import FFmpegBridge

@Suite struct StreamedReadKickTests {
    /// 4 s of 160×120 H.264 at 25 fps (a keyframe a second) with AAC, in MPEG-TS.
    static let transportStream: URL = MediaFixtures.make(
        "kick.ts",
        [
            "-f", "lavfi", "-i", "testsrc2=d=4:s=160x120:r=25", "-f", "lavfi", "-i", "sine=f=440:d=4",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-f", "mpegts",
        ])

    /// Serves `bytes` up to `stallAt`, then waits forever (a connection that stopped sending),
    /// calling `onStall` the first time a read finds nothing more.
    final class StallingInput: StreamingInput, @unchecked Sendable {
        private let lock = NSLock()
        private let bytes: Data
        private let stallAt: Int
        private var offset = 0
        private var stalled = false
        let onStall: @Sendable () -> Void

        init(bytes: Data, stallAt: Int, onStall: @escaping @Sendable () -> Void) {
            self.bytes = bytes
            self.stallAt = stallAt
            self.onStall = onStall
        }

        var probeName: String { "stream.ts" }
        var duration: Double? { 4 }
        var openingSection: StreamingSection { StreamingSection(timeline: 0, start: 0) }

        func read(into buffer: UnsafeMutableRawBufferPointer, waiting wait: Double) -> StreamingRead {
            lock.lock()
            let count = min(buffer.count, stallAt - offset)
            guard count > 0 else {
                let first = !stalled
                stalled = true
                lock.unlock()
                if first { onStall() }
                Thread.sleep(forTimeInterval: min(wait, 0.01))
                return .waiting
            }
            bytes.withUnsafeBytes { raw in
                buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: count)
            }
            offset += count
            lock.unlock()
            return .bytes(count)
        }

        func nextSection() -> StreamingSection? { nil }
        func restart(at seconds: Double) -> StreamingSection? { nil }
        func close() {}
    }

    @Test func aKickThatStopsAStreamedReadIsACutReadAndGivesNoPacket() throws {
        let bytes = try Data(contentsOf: Self.transportStream)
        // Mid-file, on a transport packet's boundary: inside some PES the demuxer is assembling.
        let stallAt = bytes.count / 2 / 188 * 188
        let interrupt = InterruptDeadline()
        let input = StallingInput(bytes: bytes, stallAt: stallAt) { interrupt.kick() }
        let network = try MediaLocation(url: URL(string: "https://media.example/stream.ts")!)
        let demuxer = try Demuxer(location: network.streamed(through: input), timeout: 30, interrupt: interrupt)
        var packets = 0
        var outcome: DemuxResult?
        while outcome == nil {
            let result = demuxer.readPacket()
            // Packets read before the kick are the input's whole ones.
            if case .packet = result, !interrupt.hasFired {
                packets += 1
                continue
            }
            outcome = result
        }
        #expect(packets > 20, "the first half was read normally")
        guard case .failure(.timedOut) = outcome else {
            Issue.record("the read cut short gave \(String(describing: outcome)), not a failure")
            return
        }
        #expect(interrupt.consumeKick() == .cutRead)
    }
}
