// An HLS stream's audio renditions load only while they play: the one not selected fetches
// nothing past what opening it read, and a switch starts the new rendition at the playhead,
// parks the old one and is heard without a gap. Played over a loopback server on a manual
// clock, the server's request log telling which segments were fetched. The serial pass of
// `make test` only (`PLAYHEAD_REALTIME_TESTS`, `OverLoopback`): beside the whole parallel pass
// the loader's requests and the engine's threads were starved long enough for these to fail.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct HLSAudioRenditionOnDemandOverLoopbackTests {
    /// The segment URIs of the media playlist `name` in `folder`, in order.
    private func segments(_ folder: URL, _ name: String) throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// Positive-going zero crossings per second in `frames` of mono samples (0 when the
    /// samples do not reach that far).
    private func frequency(_ samples: [Float], _ frames: Range<Int>) -> Double {
        guard frames.lowerBound >= 0, frames.upperBound <= samples.count, frames.count > 1 else { return 0 }
        var crossings = 0
        for index in frames.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 {
            crossings += 1
        }
        return Double(crossings) * 48_000 / Double(frames.count)
    }

    /// The stream played from `server` on a manual clock, English playing, 4 s forward buffer.
    /// The item opens the stream itself (an asset inspected first would make requests of its
    /// own, which the item's access log does not count).
    @MainActor
    private struct Rig {
        let base: LoopbackPlaybackRig
        let english: Int
        let group: AVMediaSelectionGroup
        var clock: ManualClock { base.clock }
        var output: RecordingAudioOutput { base.output }
        var item: AVPlayerItem { base.item }
        var player: AVPlayer { base.player }
        var pipeline: Pipeline { base.pipeline }
        var ring: AudioRingBuffer { base.ring }

        init(_ server: LoopbackHTTPServer, playlist: String) async throws {
            base = try await LoopbackPlaybackRig(server, path: playlist)
            english = try #require(base.pipeline.switchboard.routedAudio)
            group = try #require(try await base.item.asset.loadMediaSelectionGroup(for: .audible))
        }

        /// Where playback stands, for a failure's message.
        func state(_ server: LoopbackHTTPServer) -> String { base.state() }

        /// Advances in 10 ms steps, letting the real-time threads refill the ring first (the
        /// clock never outruns the loopback fetches, however slow the machine).
        func play(for seconds: Double) async { await base.play(for: seconds) }

        /// Plays on in 10 ms steps until the last packet went into the audio queue and the
        /// queue was marked ended (the demux thread puts the last packets in as the queues
        /// drain); true once it was.
        func playUntilEverythingIsRead() async -> Bool {
            var steps = 0
            while !pipeline.audioPackets.statistics.endOfStreamMarked, steps < 100 {
                for _ in 0..<40 where !pipeline.audioPackets.statistics.endOfStreamMarked {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                await play(for: 0.01)
                steps += 1
            }
            return pipeline.audioPackets.statistics.endOfStreamMarked
        }

        /// Selects `option` and plays on in 10 ms steps until the audio thread plays it (each
        /// step waits up to 2 s of real time for the switch: a busy machine must not let the
        /// clock run far first); true once it does.
        func switchAudio(to option: AVMediaSelectionOption) async -> Bool {
            item.select(option, in: group)
            var steps = 0
            while pipeline.switchboard.routedAudio == english, steps < 300, player.timeControlStatus == .playing {
                for _ in 0..<400 where pipeline.switchboard.routedAudio == english {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                await play(for: 0.01)
                steps += 1
            }
            return pipeline.switchboard.routedAudio != english
        }

        /// Steps the clock whether or not the sound keeps up (time waits for it) while the
        /// player says `.playing` (`untilPlaying`: until it does).
        func stepClock(untilPlaying: Bool = false) async {
            var patience = PatientDeadline(seconds: 20)
            while (player.timeControlStatus == .playing) != untilPlaying, !patience.hasPassed() {
                clock.advance(by: 0.01)
                await mainQueueSleep(nanoseconds: untilPlaying ? 10_000_000 : 5_000_000)
            }
        }
    }

    @Test func onlyTheSelectedRenditionLoadsAndASwitchStartsTheOtherAtThePlayhead() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let folder = playlist.deletingLastPathComponent()
        let english = try segments(folder, "out_1.m3u8")
        let french = try segments(folder, "out_2.m3u8")
        try #require(english.count >= 10 && french.count >= 10)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        /// Which of `uris` the server was asked for (from its `from`th request on), by index,
        /// in the order first asked.
        func requested(_ uris: [String], from: Int = 0) -> [Int] {
            var seen: [Int] = []
            for request in server.requests.dropFirst(from) {
                guard let index = uris.firstIndex(where: { request.path == "/" + $0 }), !seen.contains(index) else {
                    continue
                }
                seen.append(index)
            }
            return seen
        }

        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (output, item, player, pipeline, group) = (rig.output, rig.item, rig.player, rig.pipeline, rig.group)
        let englishStream = rig.english
        let frenchOption = try #require(group.options.first { $0.extendedLanguageTag == "fr" })
        func play(for seconds: Double) async { await rig.play(for: seconds) }
        await play(for: 5)
        // Before the switch: French is what opening it read to learn its format, its first
        // segment, nothing read ahead.
        let frenchAtSwitch = requested(french)
        #expect(frenchAtSwitch == [0], "\(frenchAtSwitch)")

        item.select(frenchOption, in: group)
        // The switch waits for French's packets (the old sound plays on meanwhile); the clock
        // moves only a step at a time while they load, so the change lands soon after 5 s
        // however long the requests take. The demux thread, which starts French, may first be
        // waiting at the read frontier for English's next segment (up to a segment, 2 s) or
        // for its queues to drain by their refill gap (half a second of media).
        /// Steps the clock 10 ms at a time (waiting up to 0.2 s of real time before each) until
        /// `stream` plays; the media seconds it took.
        func waitForSwitch(to playing: (Int?) -> Bool) async -> Double {
            var steps = 0
            while !playing(pipeline.switchboard.routedAudio), steps < 400, player.timeControlStatus != .paused {
                for _ in 0..<40 where !playing(pipeline.switchboard.routedAudio) {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                await play(for: 0.01)
                steps += 1
            }
            return Double(steps) * 0.01
        }
        let switchedAt = 5 + (await waitForSwitch { $0 != englishStream })
        let state = rig.state(server)
        // (Stopped here otherwise: what follows would wait on a player that no longer plays.)
        try #require(pipeline.switchboard.routedAudio != englishStream, "the switch happened: \(state)")
        #expect(switchedAt < 8, "within a segment and the refill gap: \(switchedAt)")
        await play(for: 4)
        let clockAfter = "clock \(rig.clock.now), heard \(Double(output.samples.count) / 48_000) s"
        #expect(abs(player.currentTime().seconds - switchedAt - 4) < 0.03, "\(player.currentTime().seconds) s, \(clockAfter)")
        #expect(player.timeControlStatus == .playing)

        // French started at the segment holding the playhead when it was asked for (from 4.5 s:
        // the third segment or a later one, never the start) and went on.
        let frenchNow = requested(french)
        let firstNew = frenchNow.first { !frenchAtSwitch.contains($0) } ?? -1
        #expect(firstNew >= 2 && Double(firstNew) * 2 <= switchedAt, "\(frenchNow)")
        #expect(frenchNow.contains(Int((switchedAt + 3) / 2)), "French follows the playhead: \(frenchNow)")
        // English stopped: nothing past what its 4 s ahead had reached at the switch, and the
        // one segment more the selection has the loaders fetch at once (the demux thread may
        // be waiting at the read frontier for it).
        let englishNow = requested(english)
        #expect(Double(englishNow.max() ?? 0) * 2 <= switchedAt + 4 + 2, "\(englishNow)")

        // Heard: 440 Hz before, 880 Hz after.
        let samples = output.samples
        let before = frequency(samples, 48_000..<216_000)  // 1–4.5 s
        #expect(abs(before - 440) < 15, "\(before)")
        let afterStart = Int((switchedAt + 0.5) * 48_000)
        let after = frequency(samples, afterStart..<(afterStart + 144_000))
        #expect(abs(after - 880) < 15, "\(after)")

        // And back: English, parked since the switch, starts again at the playhead (not from
        // where it stopped), French stops.
        let mark = server.requests.count
        let englishOption = try #require(group.options.first { $0.extendedLanguageTag == "en" })
        let askedBack = player.currentTime().seconds
        item.select(englishOption, in: group)
        _ = await waitForSwitch { $0 == englishStream }
        #expect(pipeline.switchboard.routedAudio == englishStream, "switched back")
        let frenchAtReturn = Set(requested(french))
        await play(for: 2)
        let englishResumed = requested(english, from: mark)
        // (English packets read before it was parked may still cover the playhead: the switch
        // back can use them before English loads again.)
        if let resumedFirst = englishResumed.first {
            #expect(Double(resumedFirst) * 2 + 2 > askedBack - 0.5, "\(englishResumed)")
        }
        #expect(Set(requested(french)).subtracting(frenchAtReturn).isEmpty, "French stopped")
        let end = output.samples.count
        let back = frequency(output.samples, (end - 48_000)..<end)
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

    /// A language switch does not wait for playback to move on: with the clock stopped and
    /// every loader idle (its forward buffer full, the demux thread perhaps waiting at the read
    /// frontier for the next segment), selecting French starts it and the audio changes over.
    @Test func aSwitchLandsWhilePlaybackStandsStill() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (output, item, player, pipeline, group, english) = (rig.output, rig.item, rig.player, rig.pipeline, rig.group, rig.english)
        let french = try #require(group.options.first { $0.extendedLanguageTag == "fr" })
        await rig.play(for: 3)
        // Still: wait until the server has heard nothing new for half a second.
        var heard = -1
        var quiet = PatientDeadline(seconds: 20)
        while server.requests.count != heard, !quiet.hasPassed() {
            heard = server.requests.count
            await mainQueueSleep(nanoseconds: 500_000_000)
        }
        let time = player.currentTime().seconds
        item.select(french, in: group)
        await waitUntil(timeout: 20, "the switch with the clock stopped") { pipeline.switchboard.routedAudio != english }
        #expect(pipeline.switchboard.routedAudio != english, "\(rig.state(server))")
        #expect(player.currentTime().seconds == time, "the clock did not move")
        // French from segment 1 (2–4 s, holding the playhead less the lead-in) on.
        let french0 = server.requests.dropFirst(heard).map(\.path).filter { $0.hasPrefix("/out_2") }
        #expect(french0.first == "/out_21.ts", "\(french0) asked at \(time) s, all: \(server.requests.map(\.path))")
        // The clock moves again: French is heard, with no silence at the change.
        await rig.play(for: 1)
        #expect(abs(player.currentTime().seconds - time - 1) < 0.03)
        let samples = output.samples
        let tail = frequency(samples, (samples.count - 24_000)..<samples.count)
        #expect(abs(tail - 880) < 15, "French is heard: \(tail)")
        #expect(output.silentRanges(minimumFrames: 48).isEmpty)
        player.replaceCurrentItem(with: nil)
    }

    /// A switch asked for in the last seconds of a VOD stream, once everything was read (the
    /// audio packet queue has ended), still lands: French is heard up to the end, which is
    /// reached as usual, even when its next segment comes late (the audio thread used up
    /// French's first segment meanwhile, which once ended the sound for good: the queue still
    /// carried English's end).
    @Test func aSwitchAfterEverythingWasReadStillLands() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        server.setRule(.hold(atByte: 0, times: 1), for: "/out_29.ts")
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (output, item, player, pipeline, group, english) = (rig.output, rig.item, rig.player, rig.pipeline, rig.group, rig.english)
        let french = try #require(group.options.first { $0.extendedLanguageTag == "fr" })
        await rig.play(for: 16.8)
        // Played on until everything was read (the forward buffer is 4 s).
        let readAll = await rig.playUntilEverythingIsRead()
        try #require(readAll, "everything read by 17.8 s: \(rig.state(server))")
        let heard = server.requests.count
        let asked = player.currentTime().seconds
        item.select(french, in: group)
        await waitUntil(timeout: 20, "the switch") { pipeline.switchboard.routedAudio != english }
        #expect(pipeline.switchboard.routedAudio != english, "switched at \(asked) s: \(rig.state(server))")
        // French from the segment holding the playhead (less the lead-in) on: 16–18 s.
        let fetched = server.requests.dropFirst(heard).map(\.path).filter { $0.hasPrefix("/out_2") }
        #expect(fetched.first == "/out_28.ts", "\(fetched)")
        let left = 20 - asked
        // French's last segment comes once its first one was used up (the ring runs low, the
        // queue is empty): the clock waits for it.
        let ring = rig.ring
        Thread.detachNewThread {
            let giveUp = Date() + 30
            while Date() < giveUp,
                ring.bufferedDuration.seconds >= 0.1 || pipeline.audioPackets.statistics.count > 0
            {
                usleep(2_000)
            }
            usleep(300_000)
            server.releaseHolds()
        }
        await rig.play(for: (left - 0.5) / 2)
        #expect(abs(player.currentTime().seconds - asked - (left - 0.5) / 2) < 0.05, "\(player.currentTime().seconds)")
        let samples = output.samples
        let tail = frequency(samples, (samples.count - 12_000)..<samples.count)
        #expect(abs(tail - 880) < 20, "French is heard: \(tail)")
        // And the end comes as usual.
        await rig.play(for: left / 2 + 0.5)
        await waitUntil(timeout: 20, "the end") { player.timeControlStatus == .paused }
        #expect(abs(player.currentTime().seconds - 20) < 0.1, "\(player.currentTime().seconds)")
        player.replaceCurrentItem(with: nil)
    }

    /// The same once everything was read: a switch in the last seconds takes the end back,
    /// so French's late last segment is a reported stall where its first one runs out, not a
    /// silence while the player says playing (the end, once reached, counted as buffered).
    @Test func aLateSegmentAfterASwitchAtTheEndIsAReportedStall() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        server.setRule(.hold(atByte: 0, times: 1), for: "/out_29.ts")
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (output, item, player) = (rig.output, rig.item, rig.player)
        let french = try #require(rig.group.options.first { $0.extendedLanguageTag == "fr" })
        let stalls = NotificationLog([AVPlayerItem.playbackStalledNotification], object: item)
        await rig.play(for: 16.5)
        let readAll = await rig.playUntilEverythingIsRead()
        try #require(readAll, "everything read: \(rig.state(server))")
        let switched = await rig.switchAudio(to: french)
        try #require(switched, "the switch happened: \(rig.state(server))")
        try #require(player.currentTime().seconds < 17.9, "switched before the held segment was due: \(rig.state(server))")
        await rig.stepClock()
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate, "a stall: \(rig.state(server))")
        #expect(item.isPlaybackBufferEmpty)
        #expect(stalls.count(AVPlayerItem.playbackStalledNotification) == 1)
        #expect(abs(player.currentTime().seconds - 18) < 0.1, "where French's sound ran out: \(rig.state(server))")
        // The segment comes: French plays on to the end, which comes as usual.
        server.releaseHolds()
        await rig.stepClock(untilPlaying: true)
        #expect(player.timeControlStatus == .playing, "\(rig.state(server))")
        await rig.play(for: 0.5)
        let samples = output.samples
        let tail = frequency(samples, (samples.count - 12_000)..<samples.count)
        #expect(abs(tail - 880) < 20, "French is heard: \(tail)")
        await rig.play(for: 2)
        await waitUntil(timeout: 20, "the end") { player.timeControlStatus == .paused }
        #expect(abs(player.currentTime().seconds - 20) < 0.1, "\(player.currentTime().seconds)")
        player.replaceCurrentItem(with: nil)
    }

    /// A language switch does not wait for the old rendition's stalled server: English's
    /// third segment is held (its server sends nothing, the demux thread's read of English
    /// waits); French, selected then, loads at once and takes over, while English's request
    /// still hangs. (Before, the switch waited until English's request gave up.)
    @Test func aSwitchAwayFromAStalledRenditionDoesNotWaitForIt() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        server.setRule(.hold(atByte: 0, times: 1), for: "/out_12.ts")
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (player, pipeline, english) = (rig.player, rig.pipeline, rig.english)
        let french = try #require(rig.group.options.first { $0.extendedLanguageTag == "fr" })
        await rig.play(for: 2)
        await waitUntil(timeout: 20, "English's held segment asked for") {
            server.requests.contains { $0.path == "/out_12.ts" }
        }
        rig.item.select(french, in: rig.group)
        // The clock steps whether or not the sound keeps up; a few seconds of real time at most.
        var patience = PatientDeadline(seconds: 8)
        while pipeline.switchboard.routedAudio == english, !patience.hasPassed() {
            rig.clock.advance(by: 0.01)
            await mainQueueSleep(nanoseconds: 10_000_000)
        }
        #expect(pipeline.switchboard.routedAudio != english, "switched with English held: \(rig.state(server))")
        #expect(server.requests.contains { $0.path.hasPrefix("/out_2") && $0.path.hasSuffix(".ts") }, "French loaded")
        #expect(!server.requests.contains { $0.path == "/out_13.ts" }, "English is not read on")
        // French plays on.
        await rig.stepClock(untilPlaying: true)
        await rig.play(for: 1)
        let samples = rig.output.samples
        let tail = frequency(samples, (samples.count - 24_000)..<samples.count)
        #expect(abs(tail - 880) < 15, "French is heard: \(tail)")
        server.releaseHolds()
        player.replaceCurrentItem(with: nil)
    }

    /// Changing one's mind: English stalls, French is selected (English is left once its
    /// request has hung a second), then English again before French took over: every source
    /// starts again where time stands (an exact seek of the engine's own, heard by nobody),
    /// and English plays on with time running with it. (Restarted alone, English played while
    /// the item's time stood still.)
    @Test func selectingTheStalledRenditionAgainStartsItOverWhereTimeStands() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        server.setRule(.hold(atByte: 0, times: 1), for: "/out_12.ts")
        // French is slow to come, so English is chosen again before it takes over.
        server.setRule(.slowStart(seconds: 3), for: "/out_21.ts")
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (player, pipeline, english) = (rig.player, rig.pipeline, rig.english)
        let french = try #require(rig.group.options.first { $0.extendedLanguageTag == "fr" })
        let englishOption = try #require(rig.group.options.first { $0.extendedLanguageTag == "en" })
        let jumps = NotificationLog([AVPlayerItem.timeJumpedNotification], object: rig.item)
        await rig.play(for: 2)
        await waitUntil(timeout: 20, "English's held segment asked for") {
            server.requests.contains { $0.path == "/out_12.ts" }
        }
        rig.item.select(french, in: rig.group)
        await waitUntil(timeout: 20, "French asked for") { server.requests.contains { $0.path == "/out_21.ts" } }
        // English's request has hung for more than a second: it was left.
        await mainQueueSleep(nanoseconds: 1_500_000_000)
        rig.item.select(englishOption, in: rig.group)
        await rig.stepClock()
        await rig.stepClock(untilPlaying: true)
        #expect(player.timeControlStatus == .playing, "\(rig.state(server))")
        // The status says playing a moment before the restarted sound is heard (a known gap):
        // time runs from its first frame on. (Read at once, a CI run found 80 ms of the clock
        // gone before it.)
        let standing = player.currentTime().seconds
        var started = PatientDeadline(seconds: 20)
        while player.currentTime().seconds == standing, !started.hasPassed() { await rig.play(for: 0.01) }
        let resumed = player.currentTime().seconds
        await rig.play(for: 2)
        #expect(abs(player.currentTime().seconds - resumed - 2) < 0.05, "time runs: \(rig.state(server))")
        #expect(pipeline.switchboard.routedAudio == english)
        let samples = rig.output.samples
        let tail = frequency(samples, (samples.count - 24_000)..<samples.count)
        #expect(abs(tail - 440) < 15, "English is heard: \(tail)")
        #expect(jumps.count(AVPlayerItem.timeJumpedNotification) == 0, "the engine's own seek is not the player's")
        server.releaseHolds()
        player.replaceCurrentItem(with: nil)
    }

    /// After a switch the buffer is the new rendition's: when its next segment is late, the
    /// sound running out is a stall the player reports (the buffer empty, waiting, the stall
    /// notification), not a silence while it says playing. (The old rendition's reading, 4 s
    /// ahead when it was left, once counted as buffered until the new one passed it.)
    @Test func aLateSegmentAfterASwitchIsAReportedStall() async throws {
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        // French's third segment (4–6 s) is held until the test lets it go.
        server.setRule(.hold(atByte: 0, times: 1), for: "/out_22.ts")
        let rig = try await Rig(server, playlist: playlist.lastPathComponent)
        let (output, item, player) = (rig.output, rig.item, rig.player)
        let french = try #require(rig.group.options.first { $0.extendedLanguageTag == "fr" })
        let stalls = NotificationLog([AVPlayerItem.playbackStalledNotification], object: item)
        await rig.play(for: 3)
        let switched = await rig.switchAudio(to: french)
        try #require(switched, "the switch happened: \(rig.state(server))")
        try #require(player.currentTime().seconds < 3.9, "switched before French's held segment was due: \(rig.state(server))")
        // On until French's first segment runs out at 4 s.
        await rig.stepClock()
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate, "a stall: \(rig.state(server))")
        #expect(player.reasonForWaitingToPlay == .toMinimizeStalls)
        #expect(item.isPlaybackBufferEmpty)
        #expect(stalls.count(AVPlayerItem.playbackStalledNotification) == 1)
        #expect(abs(player.currentTime().seconds - 4) < 0.1, "where French's sound ran out: \(rig.state(server))")
        // The segment comes: playback goes on in French.
        server.releaseHolds()
        await rig.stepClock(untilPlaying: true)
        #expect(player.timeControlStatus == .playing, "\(rig.state(server))")
        await rig.play(for: 1)
        let samples = output.samples
        let tail = frequency(samples, (samples.count - 24_000)..<samples.count)
        #expect(abs(tail - 880) < 15, "French is heard: \(tail)")
        player.replaceCurrentItem(with: nil)
    }
}
