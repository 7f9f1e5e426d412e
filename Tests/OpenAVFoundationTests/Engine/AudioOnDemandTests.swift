// Audio tracks read on demand (HLS audio renditions, loaded only while they play): the
// switchboard lets a switch to one happen only once its packets reach the audio already
// written, parks the input of the one left at the switch, and the packet cache stops
// replaying what it read before the new track was loaded.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct AudioOnDemandTests {
    private static let video = 0, english = 1, french = 2

    /// A packet of `stream` at `seconds`, lasting `length`.
    private func packet(_ stream: Int, _ seconds: Double, key: Bool = true, length: Double = 0.04) -> Packet {
        Packet(
            bytes: [0, 1, 2, 3], streamIndex: stream, pts: Int64((seconds * 90_000).rounded()), isKeyframe: key,
            duration: Int64((length * 90_000).rounded()))!
    }

    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    /// An input that only records whether it was parked.
    final class ParkedInput: StreamingInput, @unchecked Sendable {
        private let lock = NSLock()
        private var parks = 0
        var probeName: String { "stream.ts" }
        var duration: Double? { 10 }
        var openingSection: StreamingSection { StreamingSection(timeline: 0, start: 0) }
        func read(into buffer: UnsafeMutableRawBufferPointer, waiting wait: Double) -> StreamingRead { .end }
        func nextSection() -> StreamingSection? { nil }
        func restart(at seconds: Double) -> StreamingSection? {
            lock.withLock { parks = 0 }
            return StreamingSection(timeline: 0, start: 0)
        }
        func park() { lock.withLock { parks += 1 } }
        var isParked: Bool { lock.withLock { parks > 0 } }
        var parkCount: Int { lock.withLock { parks } }
        func close() {}
    }

    @Test func aSwitchToATrackReadOnDemandWaitsForItsPacketsAndParksTheTrackLeft() throws {
        let board = StreamSwitchboard()
        let englishInput = ParkedInput(), frenchInput = ParkedInput()
        board.installAudio(
            playing: Self.english, others: [Self.french: ScriptedAudioDecoder(streamIndex: Self.french)],
            onDemand: [Self.english: englishInput, Self.french: frenchInput])
        let written = seconds(5.25)
        // Nothing of French yet: no switch, whatever is asked.
        #expect(!board.canSwitchAudio(to: Self.french, through: written))
        // French from 4.5 s (the playhead less the lead-in) up to 5.2 s: not yet past what
        // was written.
        for step in 0..<18 {
            #expect(!board.routeAudio(packet(Self.french, 4.5 + Double(step) * 0.04), now: seconds(5), generation: 0))
        }
        #expect(!board.canSwitchAudio(to: Self.french, through: written))
        #expect(!board.routeAudio(packet(Self.french, 5.22), now: seconds(5), generation: 0))
        #expect(board.canSwitchAudio(to: Self.french, through: written))
        // A track read all along may always be switched to.
        #expect(board.canSwitchAudio(to: 7, through: written))

        let switched = try #require(
            board.switchAudio(
                to: Self.french, from: ScriptedAudioDecoder(streamIndex: Self.english), earliest: seconds(4.5),
                generation: 0))
        #expect(switched.decoder.streamIndex == Self.french)
        #expect(switched.backlog.count == 19 && switched.backlog.first?.pts == seconds(4.5))
        #expect(board.routedAudio == Self.french)
        #expect(englishInput.parkCount == 1 && frenchInput.parkCount == 0, "English stopped loading at the switch")
        // French now goes to the audio queue; English is kept for a switch back.
        #expect(board.routeAudio(packet(Self.french, 5.26), now: seconds(5), generation: 0))
        #expect(!board.routeAudio(packet(Self.english, 5.26), now: seconds(5), generation: 0))
    }

    /// A cache of 0–4 s of video (a keyframe a second) and English audio, then French audio
    /// read from 1.5 s once selected at 2 s while reading had reached 4 s.
    private func cacheAfterASwitch() -> PacketCache {
        var cache = PacketCache(byteLimit: 1 << 20, videoStream: Self.video)
        cache.startRun(at: .zero, closingAt: .zero)
        for frame in 0..<100 {
            let time = Double(frame) * 0.04
            _ = cache.append(packet(Self.video, time, key: frame % 25 == 0))
            _ = cache.append(packet(Self.english, time))
        }
        cache.lacksNewAudio()
        for frame in 0..<63 { _ = cache.append(packet(Self.french, 1.5 + Double(frame) * 0.04)) }
        return cache
    }

    @Test func theCacheReplaysNothingReadBeforeANewTrackWasLoaded() {
        var cache = cacheAfterASwitch()
        // A seek to 1 s lands on the keyframe at 1 s, before the new track's packets: the
        // demuxer must read it again.
        let early = cache.beginReplay(
            of: nil, target: seconds(1), earliest: .negativeInfinity, latest: seconds(1), currentEnd: seconds(4))
        #expect(!early)
        // Read on past the switch, a seek there is served from memory.
        for frame in 100..<150 {
            let time = Double(frame) * 0.04
            _ = cache.append(packet(Self.video, time, key: frame % 25 == 0))
            _ = cache.append(packet(Self.french, time))
        }
        let late = cache.beginReplay(
            of: nil, target: seconds(5.1), earliest: .negativeInfinity, latest: seconds(5.1), currentEnd: seconds(6))
        #expect(late)
    }

    @Test func runsClosedBeforeANewTrackWasLoadedAreNotReplayed() {
        var cache = PacketCache(byteLimit: 1 << 20, videoStream: Self.video)
        cache.startRun(at: .zero, closingAt: .zero)
        for frame in 0..<50 { _ = cache.append(packet(Self.video, Double(frame) * 0.04, key: frame % 25 == 0)) }
        // A seek away to 10 s closes the 0–2 s run; then French is selected.
        cache.startRun(at: seconds(10), closingAt: seconds(2))
        for frame in 0..<50 { _ = cache.append(packet(Self.video, 10 + Double(frame) * 0.04, key: frame % 25 == 0)) }
        let run = cache.closedRun(containing: seconds(1))
        #expect(run == 0)
        cache.lacksNewAudio()
        let replayed = cache.beginReplay(
            of: run, target: seconds(1), earliest: .negativeInfinity, latest: seconds(1), currentEnd: seconds(12))
        #expect(!replayed)
    }
}
