// Playhead: tests for selection during playback: subtitle cue timing on a manual clock and
// switching the audio language mid-play.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records what a legible output delivers.
final class LegibleRecorder: AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
    struct Entry: Sendable {
        let time: Double
        let strings: [String]
        let cues: [AVSubtitleCue]
        let onMainThread: Bool
    }
    private let entries = Locked<[Entry]>([])
    private let pendingStrings = Locked<[String]>([])

    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput,
        didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime
    ) {
        pendingStrings.withLock { $0 = strings.map(\.string) }
    }

    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputCues cues: [AVSubtitleCue],
        forItemTime itemTime: CMTime
    ) {
        let strings = pendingStrings.withLock { $0 }
        let entry = Entry(
            time: itemTime.seconds, strings: strings, cues: cues, onMainThread: MainQueue.isCurrent)
        entries.withLock { $0.append(entry) }
    }

    var all: [Entry] { entries.withLock { $0 } }
    var last: Entry? { entries.withLock { $0.last } }
}

@MainActor
@Suite struct MediaSelectionPlaybackTests {
    /// Plays `url` on `clock` with the legible option `pick` selected, recording deliveries.
    static func playWithSubtitles(
        _ url: URL, clock: any HostClock, pick: (AVMediaSelectionGroup) -> AVMediaSelectionOption?
    ) async throws -> (AVPlayer, LegibleRecorder) {
        let asset = AVURLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let item = AVPlayerItem(asset: asset)
        item.select(pick(group), in: group)
        let output = AVPlayerItemLegibleOutput()
        let recorder = LegibleRecorder()
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        let player = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        return (player, recorder)
    }

    /// Checks the SubRip-timed cues (1–2 s "Hello world", 3–4 s "Second line").
    func expectSubRipTiming(
        _ player: AVPlayer, _ recorder: LegibleRecorder, clock: ManualClock
    ) async {
        /// Moves the clock in 10 ms steps until the item time reaches `seconds`: on a loaded
        /// machine the player may wait for data a moment, and its time stops meanwhile.
        func reach(_ seconds: Double) async {
            for _ in 0..<2_000 where player.currentTime().seconds < seconds {
                await advance(clock, by: 0.01)
            }
        }
        await reach(0.9)
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
        await reach(1.1)
        await waitUntil("first cue") { recorder.last?.strings == ["Hello world"] }
        if let shown = recorder.last { #expect(shown.time >= 1.0 && shown.time <= 1.03) }
        await reach(1.9)
        #expect(recorder.last?.strings == ["Hello world"])
        await reach(2.1)
        await waitUntil("first cue ends") { recorder.last?.strings == [] }
        if let cleared = recorder.last { #expect(cleared.time >= 2.0 && cleared.time <= 2.03) }
        await reach(3.2)
        await waitUntil("second cue") { recorder.last?.strings == ["Second line"] }
        if let shown = recorder.last { #expect(shown.time >= 3.0 && shown.time <= 3.03) }
        #expect(
            recorder.all.allSatisfy { $0.onMainThread }, "delegates are called on the main queue")
    }

    /// SubRip embedded in Matroska, mov_text in MP4, and a SubRip file beside the media: the
    /// same cues at the same times.
    @Test(arguments: [SelectionMedia.film, .movText, .sidecarClip])
    func subRipTimedCuesShowDuringTheirTimeRangeOnly(_ media: SelectionMedia) async throws {
        let clock = ManualClock()
        let (player, recorder) = try await Self.playWithSubtitles(try media.url(), clock: clock) { group in
            group.options.first { $0.codecName == "subrip" } ?? group.options.first
        }
        await expectSubRipTiming(player, recorder, clock: clock)
        player.replaceCurrentItem(with: nil)
    }

    @Test func hlsSubtitleRenditionCuesShowOnTime() async throws {
        let clock = ManualClock()
        let url = try SelectionMedia.hlsWithSubtitles.url()
        let group = try #require(
            try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.count == 1)
        #expect(group.options.first?.extendedLanguageTag == "en")
        #expect(group.options.first?.codecName == "webvtt")
        #expect(group.options.first?.fileURL?.lastPathComponent == "out_0_vtt.m3u8")
        let (player, recorder) = try await Self.playWithSubtitles(url, clock: clock) { $0.options.first }
        await expectSubRipTiming(player, recorder, clock: clock)
        player.replaceCurrentItem(with: nil)
    }

    @Test func embeddedASSCuesCarryStyling() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await Self.playWithSubtitles(
            try SelectionMedia.film.url(), clock: clock
        ) {
            $0.options.first { $0.codecName == "ass" }
        }
        await advance(clock, by: 3.1)
        await waitUntil("styled cue") { recorder.last?.strings == ["Au milieu"] }
        let cue = try #require(recorder.last?.cues.first)
        #expect(cue.alignment == 8 && cue.runs.first?.isBold == true)
        #expect(recorder.all.contains { $0.strings == ["Bonjour rouge"] })
        player.replaceCurrentItem(with: nil)
    }

    @Test(arguments: [SelectionMedia.dvdSubtitles, .dvbSubtitles])
    func bitmapCuesArriveAsPicturesOnTime(_ media: SelectionMedia) async throws {
        let clock = ManualClock()
        let (player, recorder) = try await Self.playWithSubtitles(try media.url(), clock: clock) {
            $0.options.first
        }
        let group = try #require(
            player.currentItem?.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(group.options.first?.isBitmapSubtitle == true)
        await advance(clock, by: 0.9)
        #expect(recorder.all.allSatisfy { $0.cues.isEmpty })
        await advance(clock, by: 0.2)
        await waitUntil("picture") { recorder.last?.cues.first?.bitmaps.count == 1 }
        #expect(recorder.last?.strings == [])
        if let shown = recorder.last { #expect(shown.time >= 0.99 && shown.time <= 1.1) }
        await advance(clock, by: 2.2)
        await waitUntil("second picture") {
            recorder.last?.cues.first?.bitmaps.first.map { $0.y < 0.5 } == true
        }
        #expect(recorder.last?.cues.count == 1, "the first picture was replaced")
        player.replaceCurrentItem(with: nil)
    }

    @Test func turningSubtitlesOffClearsThem() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await Self.playWithSubtitles(
            try SelectionMedia.film.url(), clock: clock
        ) {
            $0.options.first
        }
        await advance(clock, by: 1.2)
        await waitUntil("cue") { recorder.last?.strings == ["Hello world"] }
        let item = try #require(player.currentItem)
        let group = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        item.select(nil, in: group)
        await waitUntil("cleared") { recorder.last?.strings == [] }
        await advance(clock, by: 2.0)
        #expect(recorder.last?.strings == [])
        player.replaceCurrentItem(with: nil)
    }

    @Test func switchingRightAfterASeekPlaysTheNewTrackWithoutSilence() async throws {
        let clock = ManualClock()
        let output = RecordingAudioOutput(clock: clock)
        let asset = AVURLAsset(url: try SelectionMedia.twoLanguagesAudio.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        try #require(group.options.count >= 2)
        let item = AVPlayerItem(asset: asset)
        let environment = PlaybackEnvironment(
            hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.5)
        let seeked = Locked(false)
        player.seek(
            to: CMTime(value: 5, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero
        ) { finished in
            seeked.withLock { $0 = finished }
        }
        item.select(group.options[1], in: group)
        await waitUntil("seek finished") { seeked.withLock { $0 } }
        // Playing resumes once enough is buffered at the new position: waited for patiently,
        // while the clock moves at most 500 steps of 1 ms (however long the wait takes).
        var steps = 0
        var resuming = PatientDeadline(seconds: 20)
        while player.timeControlStatus != .playing, !resuming.hasPassed() {
            if steps < 500 {
                clock.advance(by: 0.001)
                steps += 1
            }
            await mainQueueSleep(nanoseconds: 2_000_000)
        }
        #expect(player.timeControlStatus == .playing)
        // The engine starts its output on its own queue a moment after it reports playing;
        // clock time before that start is never rendered (and time stands until audio is
        // heard), so the clock waits for it. (Emptying the queue first: the stop queued when
        // the seek began has run, so a running output is the resumed one.)
        let playback = try #require(engine(of: player))
        await waitUntil("the output runs") {
            playback.outputQueue.sync {}
            return output.isRunning
        }
        let resumed = player.currentTime().seconds
        let ring = try #require(playback.pipeline?.ring)
        await waitUntil("audio after the seek") { ring.bufferedDuration.seconds >= 0.1 }
        await output.caughtUp()
        output.clearRecording()
        for _ in 0..<100 {
            // Let the real-time audio thread refill before time moves on (a hang guard only).
            var refill = PatientDeadline(seconds: 10)
            while ring.bufferedDuration.seconds < 0.05, !ring.isAtEnd, !refill.hasPassed() {
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            clock.advance(by: 0.01)
            await output.caughtUp()
        }
        #expect(abs(player.currentTime().seconds - resumed - 1) < 0.03)
        #expect(resumed >= 5 && resumed < 5.6)
        let samples = output.samples
        #expect(samples.count >= 47_000)
        // What was already decoded for the old track when the switch came (at most the ring's
        // 0.25 s) may play first; then only the new track.
        #expect(
            abs(frequency(samples, 24_000..<min(samples.count, 48_000)) - 880) < 15,
            "the new track plays")
        #expect(output.silentRanges(minimumFrames: 4_800).isEmpty)
        player.replaceCurrentItem(with: nil)
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

    /// The HLS stream is played from files (libavformat's reader) and over HTTP (Playhead's
    /// loader, a loader per rendition); over HTTP also from a variant whose own sound is the
    /// default rendition to a rendition playlist.
    @Test(arguments: [
        (SelectionMedia.twoLanguagesAudio, false), (.film, false), (.hlsAudioRenditions, false),
        (.hlsAudioRenditions, true), (.hlsMuxedAudioRendition, true), (.hlsTwoCarriedAudioRenditions, true),
    ])
    func switchingAudioLanguageChangesTheToneWithoutAGap(_ media: SelectionMedia, overHTTP: Bool) async throws {
        let clock = ManualClock()
        let output = RecordingAudioOutput(clock: clock)
        let file = try media.url()
        let server = overHTTP ? try LoopbackHTTPServer(root: file.deletingLastPathComponent()) : nil
        defer { server?.stop() }
        let asset = AVURLAsset(url: server?.url(for: file.lastPathComponent) ?? file)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        try #require(group.options.count >= 2)
        let item = AVPlayerItem(asset: asset)
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let environment = PlaybackEnvironment(
            hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // The engine starts the output a moment later: the clock waits for it (time runs from
        // the first audio heard).
        await waitUntil("the output runs") { output.isRunning }
        let ring = try #require(engine(of: player)?.pipeline?.ring)

        let stuck = Locked(false)
        /// Where playback stands, for a failure's message.
        func state() -> String {
            let audio = engine(of: player)?.pipeline?.audioPackets.statistics
            return "item \(player.currentTime().seconds) s at clock \(clock.now), rate \(player.rate), ring "
                + "\(ring.bufferedDuration.seconds) s, audio queue \(audio?.count ?? -1) ended "
                + "\(audio?.endOfStreamMarked ?? false), routed "
                + "\(String(describing: engine(of: player)?.pipeline?.switchboard.routedAudio))"
        }
        /// Advances in 10 ms steps, letting the real-time audio thread refill the ring first (a
        /// hang guard counting only the time this test got to look; were the engine really
        /// starved, the recording would hold the silence the checks below look for). A ring
        /// that is never refilled fails the test and ends the stepping.
        func play(for seconds: Double) async {
            for _ in 0..<Int((seconds / 0.01).rounded()) where !stuck.withLock({ $0 }) {
                var refill = PatientDeadline(seconds: 20)
                while ring.bufferedDuration.seconds < 0.1,
                    engine(of: player)?.pipeline?.audioPackets.statistics.endOfStreamReached != true
                {
                    if refill.hasPassed() {
                        Issue.record("the ring was not refilled: \(state())")
                        stuck.withLock { $0 = true }
                        return
                    }
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                // And the video decoder keep up, so a loaded machine drops no frame as late.
                for _ in 0..<400
                where media == .film && (sink.last?.pts.seconds ?? 0) < player.currentTime().seconds - 0.1 {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                clock.advance(by: 0.01)
                guard await output.caughtUp() else {
                    Issue.record("the output did not catch up: \(state())")
                    stuck.withLock { $0 = true }
                    return
                }
            }
        }
        await play(for: 1.5)
        // Time ran with the clock from the start: a rendition's first audio frame, stamped one
        // AAC frame before the video that sets zero, is not played before the start (it held
        // time 21 ms behind).
        #expect(abs(player.currentTime().seconds - 1.5) < 0.02, "\(player.currentTime().seconds)")
        // Let the demux thread read ahead until its queues are full (it then blocks on the
        // video queue until the clock moves): the switch must not depend on it.
        await mainQueueSleep(nanoseconds: 300_000_000)
        let routed = engine(of: player)?.pipeline?.switchboard.routedAudio
        item.select(group.options[1], in: group)
        if overHTTP {
            // A rendition read on demand is fetched first: the clock stands until it takes over
            // (else where the change is heard would depend on how fast the fetch is against
            // the steps).
            await waitUntil("the switch") { engine(of: player)?.pipeline?.switchboard.routedAudio != routed }
        }
        await play(for: 3.0)
        // Well past the read-ahead at the switch: buffering follows the new track, no stall.
        #expect(abs(player.currentTime().seconds - 4.5) < 0.03)
        #expect(player.timeControlStatus == .playing)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == group.options[1])

        let samples = output.samples
        #expect(samples.count >= 48_000 * 44 / 10)
        #expect(output.silentRanges(minimumFrames: 4_800).isEmpty)
        let before = frequency(samples, 24_000..<67_200)  // 0.5–1.4 s
        let after = frequency(samples, 100_800..<139_200)  // 2.1–2.9 s
        #expect(abs(before - 440) < 15)
        #expect(abs(after - 880) < 15)
        // The change happens within the ring's length of the switch (0.25 s), and the sound
        // is continuous there: no run of silence longer than a few samples.
        let switchWindow = 67_200..<100_800
        #expect(output.silentRanges(minimumFrames: 48).allSatisfy { !switchWindow.overlaps($0) })
        if media == .film {
            // The video went on in step: frames up to the clock were shown through the switch.
            await waitUntil("frames up to 4.5 s") { (sink.last?.pts.seconds ?? 0) >= 4.35 }
            let times = sink.frames.map(\.pts.seconds)
            #expect(
                zip(times, times.dropFirst()).allSatisfy { $1 - $0 < 0.25 }, "no hole in the video")
        }
        // Over HTTP, Playhead's loader streamed the variant and both renditions.
        #expect((item.accessLog() != nil) == overHTTP)
        player.replaceCurrentItem(with: nil)
    }
}

/// The audio switch on the real clock and the real-time audio thread.
@MainActor
@Suite struct MediaSelectionRealTimeTests {
    @Test(.enabled(if: realTimeTestsEnabled), arguments: [SelectionMedia.twoLanguagesAudio, .film])
    func switchingAudioLanguageInRealTimeLeavesNoGap(_ media: SelectionMedia) async throws {
        let clock = SystemHostClock.shared
        let output = RecordingAudioOutput(clock: clock)
        let asset = AVURLAsset(url: try media.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        try #require(group.options.count >= 2)
        let item = AVPlayerItem(asset: asset)
        let environment = PlaybackEnvironment(
            hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await mainQueueSleep(nanoseconds: 1_200_000_000)
        let before = player.currentTime().seconds
        item.select(group.options[1], in: group)
        await mainQueueSleep(nanoseconds: 1_200_000_000)
        let after = player.currentTime().seconds
        output.stop()
        #expect(after - before > 1.0, "the clock keeps advancing through the switch")
        let samples = output.samples
        let firstSound = (samples.firstIndex { $0 != 0 }) ?? 0
        let heard = Array(samples[firstSound...])
        try #require(heard.count > 48_000 * 2)
        // No silent run over 100 ms once sound started (the recording ends when it stops).
        var run = 0
        var longest = 0
        for sample in heard.dropLast(4_800) {
            run = sample == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest < 4_800, "longest silence \(longest) frames")
        let tail = heard.count - 24_000
        var crossings = 0
        for index in (tail + 1)..<heard.count where heard[index - 1] < 0 && heard[index] >= 0 {
            crossings += 1
        }
        #expect(abs(Double(crossings) * 2 - 880) < 30, "the French track's 880 Hz plays at the end")
        player.replaceCurrentItem(with: nil)
    }
}
