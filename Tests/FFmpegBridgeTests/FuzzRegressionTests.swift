// Playhead: the fuzzer's pass (MediaExercise) run in-process on saved fuzzer findings, damaged
// fixtures and oversized inputs: each must end quickly with a result, never a crash.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct FuzzRegressionTests {
    @Test("saved fuzzer inputs run to completion", arguments: FuzzRegressionInputs.all)
    func savedInputRunsToCompletion(_ input: FuzzRegressionInput) async throws {
        let data = try #require(Data(base64Encoded: input.bytes), "\(input.name): not base64")
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("fuzz-regression-\(UUID().uuidString).\(input.fileExtension)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        _ = MediaExercise.run(try MediaLocation(url: url), timeout: 2, maximumPackets: 600)
        // And from memory, the way the fuzzer itself reads inputs.
        let memory = MemoryInput(bytes: data, name: "input.\(input.fileExtension)")
        _ = MediaExercise.run(MediaLocation(memory: memory), timeout: 2, maximumPackets: 600)
    }

    @Test(
        "reading from memory gives the same pass as reading the file",
        arguments: [Fixture.mp4, .matroska, .mpegTransportStream, .wav, .oggOpus])
    func memoryInputMatchesTheFile(_ fixture: Fixture) async throws {
        let url = try fixture.url()
        let fromFile = MediaExercise.run(try MediaLocation(url: url))
        let memory = MemoryInput(bytes: try Data(contentsOf: url), name: url.lastPathComponent)
        let fromMemory = MediaExercise.run(MediaLocation(memory: memory))
        #expect(fromFile.failure == nil)
        #expect(fromMemory == fromFile)
        #expect(fromMemory.frames > 0)
    }

    @Test(
        "damaged fixtures read from memory run to completion",
        arguments: CorruptedMedia.fastSet.suffix(8))
    func damagedBytesInMemoryRunToCompletion(_ variant: CorruptedMedia) async throws {
        let url = try variant.url()
        let memory = MemoryInput(bytes: try Data(contentsOf: url), name: url.lastPathComponent)
        let start = Date()
        _ = MediaExercise.run(MediaLocation(memory: memory), timeout: 2, maximumPackets: 600)
        #expect(Date().timeIntervalSince(start) < 20, "\(variant)")
    }

    @Test func emptyOrUnrecognisedMemoryIsAClearFailure() async {
        let nothing = MemoryInput(bytes: Data(), name: "a.mp4")
        let empty = MediaExercise.run(MediaLocation(memory: nothing))
        #expect(empty.failure == .emptyFile)
        let text = MemoryInput(bytes: Data(repeating: 0x41, count: 4096), name: "a.bin")
        #expect(MediaExercise.run(MediaLocation(memory: text)).failure == .notMediaFile)
    }

    @Test("the fuzzer's pass handles damaged fixtures", arguments: CorruptedMedia.fastSet.prefix(8))
    func damagedFixturesRunToCompletion(_ variant: CorruptedMedia) async throws {
        let start = Date()
        _ = MediaExercise.run(
            try MediaLocation(url: variant.url()), timeout: 2, maximumPackets: 600)
        #expect(Date().timeIntervalSince(start) < 20, "\(variant)")
    }

    @Test func anUndamagedFixtureDecodesFramesBeforeAndAfterTheSeek() async throws {
        let summary = MediaExercise.run(try MediaLocation(url: Fixture.url(.mp4)))
        #expect(summary.failure == nil)
        #expect(summary.packets > 50)
        #expect(summary.frames > 50)
    }

    @Test("oversized inputs are refused by the demuxer", arguments: OversizedMedia.allCases)
    func oversizedInputsAreRefused(_ input: OversizedMedia) async throws {
        let summary = MediaExercise.run(try MediaLocation(url: input.url()))
        if let reason = input.expectedReason {
            #expect(summary.failure == .limitExceeded(reason))
        } else {
            // The PNG's size is only known by decoding; the pixel cap refuses that decode.
            #expect(summary.frames == 0)
        }
    }

    @Test func limitsNameWhatTheyRefuse() async {
        let limits = MediaLimits.standard
        #expect(
            limits.pictureViolation(width: 40_000, height: 40_000)?.reason
                == "picture too large (40000x40000 exceeds 16384x16384)")
        #expect(limits.pictureViolation(width: 7_680, height: 4_320) == nil)
        #expect(limits.pictureViolation(width: 8_192, height: 8_192) == nil)
        #expect(limits.audioViolation(sampleRate: 384_000, channels: 16) == nil)
        #expect(limits.streamCountViolation(256) == nil)
        #expect(limits.streamCountViolation(257)?.reason == "too many streams (257 exceeds 256)")
    }
}
