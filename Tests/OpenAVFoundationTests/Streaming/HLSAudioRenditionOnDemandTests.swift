// An HLS stream's audio renditions load only while they play: the one not selected fetches
// nothing past what opening it read, and a switch starts the new rendition at the playhead,
// parks the old one and is heard without a gap. Played over a loopback server on a manual
// clock, the server's request log telling which segments were fetched.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSAudioRenditionOnDemandTests {
    /// The segment URIs of the media playlist `name` in `folder`, in order.
    private func segments(_ folder: URL, _ name: String) throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// Positive-going zero crossings per second in `frames` of mono samples.
    private func frequency(_ samples: [Float], _ frames: Range<Int>) -> Double {
        var crossings = 0
        for index in frames.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 {
            crossings += 1
        }
        return Double(crossings) * 48_000 / Double(frames.count)
    }

    @Test func onlyTheSelectedRenditionLoadsAndASwitchStartsTheOtherAtThePlayhead() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let folder = playlist.deletingLastPathComponent()
        let english = try segments(folder, "out_1.m3u8")
        let french = try segments(folder, "out_2.m3u8")
        try #require(english.count >= 10 && french.count >= 10)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        /// Which of `uris` the server was asked for, by index, in the order first asked.
        func requested(_ uris: [String]) -> [Int] {
            var seen: [Int] = []
            for request in server.requests {
                guard let index = uris.firstIndex(where: { request.path == "/" + $0 }), !seen.contains(index) else {
                    continue
                }
                seen.append(index)
            }
            return seen
        }

        let clock = ManualClock()
        let output = RecordingAudioOutput(clock: clock)
        // The item opens the stream itself (an asset inspected first would make requests of
        // its own, which the item's access log does not count).
        let item = AVPlayerItem(url: server.url(for: playlist.lastPathComponent))
        item.preferredForwardBufferDuration = 4
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let pipeline = try #require(engine(of: player)?.pipeline)
        let ring = try #require(pipeline.ring)
        let englishStream = try #require(pipeline.switchboard.routedAudio)
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        let frenchOption = try #require(group.options.first { $0.extendedLanguageTag == "fr" })

        /// Advances in 10 ms steps, letting the real-time threads refill the ring first.
        func play(for seconds: Double) async {
            for _ in 0..<Int((seconds / 0.01).rounded()) {
                for _ in 0..<400 where ring.bufferedDuration.seconds < 0.1 {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                clock.advance(by: 0.01)
                await output.caughtUp()
            }
        }
        await play(for: 5)
        // Before the switch: French is what opening its playlist read (its first segment, and
        // perhaps the next one read ahead then), English the buffer ahead of the playhead.
        let frenchAtSwitch = requested(french)
        #expect(frenchAtSwitch.allSatisfy { $0 <= 1 }, "\(frenchAtSwitch)")
        #expect(requested(english).contains(3))

        item.select(frenchOption, in: group)
        // The switch waits for French's packets (the old sound plays on meanwhile); the clock
        // moves only a step at a time while they load, so the change lands just after 5 s
        // however long the requests take. The demux thread, which starts French, may first
        // wait for its queues to drain by their refill gap (half a second of media).
        var steps = 0
        while pipeline.switchboard.routedAudio == englishStream, steps < 100 {
            for _ in 0..<40 where pipeline.switchboard.routedAudio == englishStream {
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            await play(for: 0.01)
            steps += 1
        }
        #expect(pipeline.switchboard.routedAudio != englishStream, "the switch happened")
        #expect(steps < 80, "within 0.8 s of media: \(steps) steps")
        await play(for: 6)
        #expect(abs(player.currentTime().seconds - 11 - Double(steps) * 0.01) < 0.03)
        #expect(player.timeControlStatus == .playing)

        // French started at the segment holding the playhead (4.5 s: the third) and went on.
        let frenchNow = requested(french)
        #expect(frenchNow.filter { !frenchAtSwitch.contains($0) }.first == 2, "\(frenchNow)")
        #expect(frenchNow.contains(6), "French follows the playhead: \(frenchNow)")
        // English stopped: nothing past what its 4 s ahead of 5 s had reached.
        let englishNow = requested(english)
        #expect((englishNow.max() ?? 0) <= 5, "\(englishNow)")

        // Heard: 440 Hz before, 880 Hz after.
        let samples = output.samples
        #expect(frequency(samples, 48_000..<216_000) > 425 && frequency(samples, 48_000..<216_000) < 455)
        let after = frequency(samples, 312_000..<480_000)  // 6.5–10 s
        #expect(abs(after - 880) < 15, "\(after)")

        // And back: English, parked since the switch, starts again at the playhead (the
        // segment holding 10.5 s and more), French stops.
        let englishBefore = Set(englishNow)
        let englishOption = try #require(group.options.first { $0.extendedLanguageTag == "en" })
        item.select(englishOption, in: group)
        steps = 0
        while pipeline.switchboard.routedAudio != englishStream, steps < 100 {
            for _ in 0..<40 where pipeline.switchboard.routedAudio != englishStream {
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            await play(for: 0.01)
            steps += 1
        }
        #expect(pipeline.switchboard.routedAudio == englishStream, "switched back")
        let frenchAtReturn = Set(requested(french))
        await play(for: 3)
        let englishResumed = requested(english).filter { !englishBefore.contains($0) }
        #expect(englishResumed.first == 5, "\(englishResumed)")
        #expect(Set(requested(french)).subtracting(frenchAtReturn).isEmpty, "French stopped")
        let end = output.samples.count
        let back = frequency(output.samples, (end - 96_000)..<end)
        #expect(abs(back - 440) < 15, "\(back)")
        // Sound all through both changes.
        #expect(output.silentRanges(minimumFrames: 48).isEmpty)

        // The access log counts the requests the server saw, those given up at the switches
        // included, but for at most one still under way per loader (the variants', English).
        let events = try #require(item.accessLog()?.events)
        let logged = events.reduce(0) { $0 + $1.numberOfMediaRequests }
        let served = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect((0...2).contains(served.count - logged), "\(logged) logged, \(served.count) served")
        player.replaceCurrentItem(with: nil)
    }
}
