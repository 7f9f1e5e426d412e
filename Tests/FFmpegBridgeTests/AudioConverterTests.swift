// Playhead: tests for AudioConverter, its tempo stage and PCMChunk timing.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its converter on the test's own task.

@Suite struct AudioConverterTests {
    /// 3 s of 440 Hz mono AAC at 44.1 kHz.
    static let sineFrames: [AudioFrame] = (try? Decode.allAudioFrames(MediaFixtures.h264MP4)) ?? []

    static func convertAll(tempo: Double, frames: [AudioFrame] = sineFrames) -> [PCMChunk] {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        converter.setTempo(tempo)
        return frames.flatMap(converter.convert) + converter.drain()
    }

    /// Each chunk starts where the previous one's media time ended (within 1 ms).
    static func expectContinuous(
        _ chunks: [PCMChunk], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            let gap = (next.mediaTime - (previous.mediaTime + previous.mediaDuration)).seconds
            #expect(abs(gap) < 0.001, sourceLocation: sourceLocation)
        }
    }

    /// The dominant frequency of channel 0 from zero crossings, skipping the edges.
    static func frequency(_ chunks: [PCMChunk]) -> Double {
        let left = chunks.flatMap { chunk in
            stride(from: 0, to: chunk.samples.count, by: chunk.channels).map { chunk.samples[$0] }
        }
        let body = left.dropFirst(left.count / 10).dropLast(left.count / 10)
        var crossings = 0
        for (a, b) in zip(body, body.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(body.count) / 48_000)
    }

    static func playbackSeconds(_ chunks: [PCMChunk]) -> Double {
        Double(chunks.reduce(0) { $0 + $1.frameCount }) / 48_000
    }

    @Test func atNormalTempoChunksAreContinuousAndCoverTheInput() async throws {
        let chunks = Self.convertAll(tempo: 1)
        #expect(
            chunks.allSatisfy {
                $0.channels == 2 && $0.sampleRate == 48_000 && $0.samples.count == $0.frameCount * 2
            })
        #expect(chunks.first?.mediaTime == .zero)
        Self.expectContinuous(chunks)
        // The AAC stream decodes to slightly more than 3 s (encoder padding).
        let input = Self.sineFrames.reduce(0) { $0 + $1.duration.seconds }
        #expect(abs(Self.playbackSeconds(chunks) - input) < 0.001)
        let last = try #require(chunks.last)
        #expect(abs((last.mediaTime + last.mediaDuration).seconds - input) < 0.001)
        #expect(abs(Self.frequency(chunks) - 440) < 5)
        // Mono is copied to both channels.
        try #require(chunks.count > 10)
        try #require(chunks[10].samples.count > 101)
        #expect(chunks[10].samples[100] == chunks[10].samples[101])
    }

    @Test func atTwiceTheTempoThreeSecondsPlayInOneAndAHalfWithThePitchKept() async throws {
        let chunks = Self.convertAll(tempo: 2)
        Self.expectContinuous(chunks)
        #expect(abs(Self.playbackSeconds(chunks) - 1.5) < 0.05)
        let last = try #require(chunks.last)
        #expect(abs((last.mediaTime + last.mediaDuration).seconds - 3) < 0.05)
        #expect(
            chunks.allSatisfy {
                abs($0.mediaDuration.seconds - $0.playbackDuration.seconds * 2) < 0.0001
            })
        #expect(abs(Self.frequency(chunks) - 440) < 440 * 0.03)
    }

    @Test func atHalfTheTempoThreeSecondsPlayInSixWithThePitchKept() async throws {
        let chunks = Self.convertAll(tempo: 0.5)
        Self.expectContinuous(chunks)
        #expect(abs(Self.playbackSeconds(chunks) - 6) < 0.1)
        let last = try #require(chunks.last)
        #expect(abs((last.mediaTime + last.mediaDuration).seconds - 3) < 0.05)
        #expect(abs(Self.frequency(chunks) - 440) < 440 * 0.03)
    }

    @Test(arguments: [0.25, 4.0, 16.0])
    func extremeTemposChainStagesAndKeepPitch(tempo: Double) async throws {
        let chunks = Self.convertAll(tempo: tempo)
        Self.expectContinuous(chunks)
        #expect(abs(Self.playbackSeconds(chunks) - 3 / tempo) < 0.1)
        #expect(abs(Self.frequency(chunks) - 440) < 440 * 0.05)
    }

    @Test func tempoIsClampedToTheSupportedRange() async {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        converter.setTempo(10)
        #expect(converter.tempo == 10)
        converter.setTempo(64)
        #expect(converter.tempo == 32)
        converter.setTempo(0.01)
        #expect(converter.tempo == 0.25)
        converter.setTempo(1)
        #expect(converter.tempo == 1)
    }

    @Test func changingTempoMidStreamKeepsTheTimelineContinuous() async throws {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        var chunks: [PCMChunk] = []
        let tempos = [1.0, 2.0, 1.5, 0.5, 0.3, 1.0, 3.0]
        for (index, frame) in Self.sineFrames.enumerated() {
            if index % 20 == 0 { converter.setTempo(tempos[(index / 20) % tempos.count]) }
            chunks += converter.convert(frame)
        }
        chunks += converter.drain()
        Self.expectContinuous(chunks)
        let last = try #require(chunks.last)
        #expect(abs((last.mediaTime + last.mediaDuration).seconds - 3) < 0.1)
    }

    @Test func resetDropsBufferedAudioAndReanchorsAtTheNextFrame() async throws {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        converter.setTempo(2)
        try #require(Self.sineFrames.count > 80)
        for frame in Self.sineFrames.prefix(30) { _ = converter.convert(frame) }
        converter.reset()
        let resumeAt = Self.sineFrames[80]
        var chunks: [PCMChunk] = []
        for frame in Self.sineFrames[80...] { chunks += converter.convert(frame) }
        chunks += converter.drain()
        #expect(chunks.first?.mediaTime == resumeAt.pts)
        Self.expectContinuous(chunks)
    }

    @Test func aJumpInInputTimestampsReanchorsTheTimeline() async throws {
        try #require(Self.sineFrames.count > 80)
        let frames = Array(Self.sineFrames.prefix(20)) + Array(Self.sineFrames[70...])
        let chunks = Self.convertAll(tempo: 1, frames: frames)
        let jump = try #require(chunks.firstIndex { $0.mediaTime >= Self.sineFrames[70].pts })
        #expect(chunks[jump].mediaTime == Self.sineFrames[70].pts)
        Self.expectContinuous(Array(chunks[..<jump]))
        Self.expectContinuous(Array(chunks[jump...]))
    }

    @Test func inputFormatChangesMidStreamAreConverted() async throws {
        // 44.1 kHz mono fltp AAC, then 48 kHz stereo Opus, then 44.1 kHz mono s16 FLAC.
        let aac = Array(Self.sineFrames.prefix(40))
        let opus = try Decode.allAudioFrames(MediaFixtures.vp9WebM).prefix(20)
        let flac = try Decode.allAudioFrames(MediaFixtures.h264MKV).prefix(5)
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        var chunks: [PCMChunk] = []
        for frame in aac + opus + flac { chunks += converter.convert(frame) }
        chunks += converter.drain()
        let seconds = Self.playbackSeconds(chunks)
        let expected = (aac + opus + flac).reduce(0) { $0 + $1.duration.seconds }
        #expect(abs(seconds - expected) < 0.01)
        #expect(chunks.allSatisfy { $0.samples.allSatisfy(\.isFinite) })
    }

    @Test func downmixingToMonoAndResamplingWork() async throws {
        let opus = try Decode.allAudioFrames(MediaFixtures.vp9WebM)
        let converter = AudioConverter(sampleRate: 22_050, channels: 1)
        let chunks = opus.flatMap(converter.convert) + converter.drain()
        let total = chunks.reduce(0) { $0 + $1.frameCount }
        #expect(chunks.allSatisfy { $0.channels == 1 && $0.samples.count == $0.frameCount })
        #expect(abs(Double(total) / 22_050 - opus.reduce(0) { $0 + $1.duration.seconds }) < 0.01)
    }
}
