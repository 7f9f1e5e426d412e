// Playhead: damaged input must be concealed or fail cleanly; owners must free what they own.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer, decoder and files on the test's own task.

@Suite struct RobustnessTests {
    /// Decodes every video packet of `url`, returning the frames and the decoder's concealed count.
    static func decodeEverything(_ url: URL) throws -> (frames: Int, concealed: Int) {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let video = try #require(demuxer.bestStream(of: .video))
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: video)
        demuxer.setActiveStreams([video])
        var frames = 0
        reading: while true {
            switch demuxer.readPacket() {
            case .packet(let packet):
                while decoder.send(packet) == .outputFull {
                    if decoder.receiveFrame().frame != nil { frames += 1 } else { break }
                }
                while decoder.receiveFrame().frame != nil { frames += 1 }
            case .endOfFile, .failure:
                break reading
            }
        }
        decoder.sendEndOfStream()
        while decoder.receiveFrame().frame != nil { frames += 1 }
        return (frames, decoder.concealedErrorCount)
    }

    @Test func garbagePacketsAreDroppedAndTheDecoderKeepsGoing() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let video = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([video])
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: video)
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 7, 100, 4096, 65_536] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let packet = try #require(
                Packet(bytes: bytes, streamIndex: video, pts: 0, timeBase: (1, 30)))
            let status = decoder.send(packet)
            switch status {
            case .accepted, .dropped, .outputFull: break
            case .failure(let error): Issue.record("garbage was fatal: \(error)")
            }
            while decoder.receiveFrame().frame != nil {}
        }
        // Real data decodes afterwards.
        decoder.flush()
        var decoded = 0
        while decoded == 0, case .packet(let packet) = demuxer.readPacket() {
            decoder.send(packet)
            while decoder.receiveFrame().frame != nil { decoded += 1 }
        }
        decoder.sendEndOfStream()
        while decoder.receiveFrame().frame != nil { decoded += 1 }
        #expect(decoded > 0)
    }

    @Test func corruptedBytesInTheMiddleOfAFileAreConcealed() async throws {
        for source in [MediaFixtures.h264MKV, MediaFixtures.vp9WebM] {
            var data = try Data(contentsOf: source)
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<200 {
                let index = Int.random(
                    in: (data.count / 3)..<(data.count * 2 / 3), using: &generator)
                data[index] = UInt8.random(in: 0...255, using: &generator)
            }
            let url = MediaFixtures.directory.appendingPathComponent(
                "corrupt-\(source.lastPathComponent)")
            try data.write(to: url)
            let result = try Self.decodeEverything(url)
            #expect(result.frames > 10, "\(source.lastPathComponent)")
        }
    }

    @Test func truncatedFilesDecodeWhatIsThereOrFailCleanly() async throws {
        for source in [MediaFixtures.h264MKV, MediaFixtures.h264MP4, MediaFixtures.vp9WebM] {
            let data = try Data(contentsOf: source)
            for fraction in [0.1, 0.5, 0.9] {
                let url = MediaFixtures.directory.appendingPathComponent(
                    "cut-\(fraction)-\(source.lastPathComponent)")
                try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
                do {
                    _ = try Self.decodeEverything(url)
                } catch let failure as MediaFailure {
                    // MP4 keeps its index at the end: a cut file cannot be opened.
                    #expect(failure != .fileNotFound, "\(url.lastPathComponent): \(failure)")
                }
            }
        }
    }

    @Test func packetsAndFramesFreeWhatTheyOwn() async throws {
        let frame = try #require(try Decode.allVideoFrames(MediaFixtures.h264MKV).first)
        let audio = try #require(AudioConverterTests.sineFrames.first)
        let before = Self.residentBytes()
        let scaler = Scaler()
        for index in 0..<40_000 {
            let packet = Packet(
                bytes: [UInt8](repeating: UInt8(index & 0xFF), count: 65_536), streamIndex: 0)
            #expect(packet?.byteCount == 65_536)
            guard index < 10_000 else { continue }
            let small = scaler.convert(
                frame, to: index.isMultiple(of: 2) ? .rgba : .yuv420p, width: 64, height: 36)
            #expect(small?.width == 64)
        }
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        for _ in 0..<2_000 {
            _ = converter.convert(audio)
            converter.reset()
        }
        let growth = Self.residentBytes() - before
        // 40k leaked 64 KiB packets alone would be 2.6 GB; the other tests running in parallel
        // in this process (network packet caches, 4K decodes) account for hundreds of MB,
        // hence the generous bound.
        #expect(growth < 1_200_000_000, "RSS grew by \(growth) bytes")
    }

    /// Resident set size from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            return 0
        }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
