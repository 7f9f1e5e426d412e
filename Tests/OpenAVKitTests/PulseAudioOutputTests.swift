// Playhead: the native sound-server output against a real PulseAudio server the test starts:
// the sound arrives, and each frame handed to the video sink meets its sound at the sink
// within 10 ms (the clock follows the latency the server measures), also after a pause long
// enough for the sink to suspend; time waits for a sink slow to wake and never goes back; the
// server going away neither stops time nor silences the next connection.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

/// Notes the host time each frame was handed over, by presentation time.
private final class HandOverSink: VideoSink, @unchecked Sendable {
    private let handed = Locked<[(pts: CMTime, host: Double, white: Bool)]>([])

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let host = SystemHostClock.shared.now
        let luma = frame.packedBytes().prefix(frame.width * frame.height)
        let white = luma.reduce(0) { $0 + Int($1) } / max(1, luma.count) > 128
        handed.withLock { $0.append((frame.pts, host, white)) }
    }

    func clear() {}

    /// The presentation times handed over, in order.
    var presented: [Double] { handed.withLock { $0.map(\.pts.seconds) } }

    /// Host times at which white frames were handed over after `after` seconds of media.
    func flashes(after: Double) -> [Double] {
        handed.withLock { $0.filter { $0.white && $0.pts.seconds > after }.map(\.host) }
    }
}

private let realTimeTestsEnabled = ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil

@MainActor
@Suite struct PulseAudioOutputTests {
    /// A player of `seconds` of the flash-and-beep clip on `server`'s default sink, not yet
    /// playing, and the sink its frames are handed to.
    private func flashesAndBeeps(seconds: Int, on server: PulseAudioServer) throws
        -> (AVPlayer, AVPlayerItem, HandOverSink)
    {
        let sink = HandOverSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer)
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: sinks)
        let item = AVPlayerItem(url: try LipSyncMedia.flashAndBeep(seconds: seconds))
        return (AVPlayer(environment: environment, playerItem: item), item, sink)
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func eachFrameMeetsItsSoundAtTheSinkWithinTenMillisecondsOnASoundServer() async throws {
        let clip = try LipSyncMedia.flashAndBeep(seconds: 4)
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server) }
        let sink = HandOverSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer)
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: sinks)
        let item = AVPlayerItem(url: clip)
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntilInRealTime(seconds: 10) { item.currentTime().seconds >= 3.5 }
        // The latency the clock used is the server's measure (the buffer asked for, about
        // 100 ms, less what already played), not a guess.
        let latency = output.outputLatency
        #expect(latency > 0.02 && latency < 0.2, "the server's own latency: \(latency)")
        player.pause()
        try await Task.sleep(nanoseconds: 300_000_000)
        let heard = recording.stop()
        player.replaceCurrentItem(with: nil)
        let beeps = LipSyncMedia.beepOnsets(in: heard.samples, sampleRate: recording.sampleRate)
            .map { heard.startHost + Double($0) / Double(recording.sampleRate) }
        let flashes = sink.flashes(after: 0.5)
        #expect(flashes.count == 3, "flashes at 1, 2 and 3 s: \(flashes.count)")
        var offsets: [Double] = []
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }) else { continue }
            offsets.append(beep - flash)
        }
        #expect(offsets.count == flashes.count, "a beep heard for every flash")
        let mean = offsets.map(abs).reduce(0, +) / Double(max(1, offsets.count))
        // Positive: the sound comes after the frame was handed over.
        #expect(mean <= 0.010, "sound minus frame, ms: \(offsets.map { ($0 * 1000).rounded() })")
        #expect(offsets.allSatisfy { abs($0) <= 0.020 }, "\(offsets.map { ($0 * 1000).rounded() })")
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func aPlayerPlaysOnTheDeviceItNamesOnASoundServer() async throws {
        let clip = try LipSyncMedia.flashAndBeep(seconds: 2)
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        try await offPool { try server.addSink("other") }
        let onOther = try await offPool { try MonitorRecording(server: server, sink: "other") }
        let onProbe = try await offPool { try MonitorRecording(server: server) }
        let address = server.address
        var environment = PlaybackEnvironment(makeAudioOutput: { PulseAudioOutput(server: address, buffer: PulseAudioOutput.desktopBuffer) }, videoSinks: VideoSinks())
        environment.makeAudioOutputOnDevice = { PulseAudioOutput(server: address, sinkName: $0, buffer: PulseAudioOutput.desktopBuffer) }
        let player = AVPlayer(environment: environment)
        #expect(player.audioOutputDeviceUniqueID == nil)
        player.audioOutputDeviceUniqueID = "other"
        let item = AVPlayerItem(url: clip)
        player.replaceCurrentItem(with: item)
        player.play()
        await waitUntilInRealTime(seconds: 10) { item.currentTime().seconds >= 1.5 }
        player.replaceCurrentItem(with: nil)
        let other = onOther.stop(), probe = onProbe.stop()
        #expect(LipSyncMedia.beepOnsets(in: other.samples, sampleRate: onOther.sampleRate).count >= 2, "heard on the named sink")
        #expect(!probe.samples.contains { abs($0) > 0.05 }, "nothing on the default sink")
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func timeWaitsForASinkSlowToWakeAndNeverGoesBackOnASoundServer() async throws {
        // A freshly started server in this rig, its sink idle, asks for no audio for about
        // 1.9 s (as a suspended sink or a Bluetooth headset may): time used to run on the
        // system clock after 0.5 s and step back when the sound began.
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let (player, item, sink) = try flashesAndBeeps(seconds: 4, on: server)
        await waitUntilInRealTime(seconds: 10) { item.status == .readyToPlay }
        player.play()
        let started = SystemHostClock.shared.now
        var readings: [(host: Double, time: Double)] = []
        while SystemHostClock.shared.now - started < 4 {
            readings.append((SystemHostClock.shared.now, item.currentTime().seconds))
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        player.replaceCurrentItem(with: nil)
        let moved = try #require(readings.first { $0.time > 0.05 }, "time ran")
        // The sink of a freshly started server in this rig wakes after about 1.9 s.
        #expect(moved.host - started > 0.5, "time stood until the sound was heard: moved after \(moved.host - started) s")
        let back = zip(readings, readings.dropFirst()).filter { $1.time < $0.time - 0.001 }
        #expect(back.isEmpty, "time went back: \(back.map { ($0.0.time, $0.1.time) })")
        let shown = sink.presented
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $1 > $0 }, "each picture once")
        #expect(readings.last!.time > 1.5, "played on: \(readings.last!.time) s at 4 s")
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func afterAPauseLongEnoughForTheSinkToSuspendEachFrameStillMeetsItsSoundOnASoundServer() async throws {
        // A desktop's server suspends a sink left idle (`module-suspend-on-idle`): playing
        // again after a long pause wakes it, and the picture must wait for the sound.
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let (player, item, sink) = try flashesAndBeeps(seconds: 8, on: server)
        player.play()
        await waitUntilInRealTime(seconds: 10) { item.currentTime().seconds >= 1.2 }
        player.pause()
        try await offPool { try server.suspendIdleSinks(after: 1) }
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let recording = try await offPool { try MonitorRecording(server: server) }
        let paused = item.currentTime().seconds
        player.play()
        let started = SystemHostClock.shared.now
        var readings: [(host: Double, time: Double)] = []
        while SystemHostClock.shared.now - started < 3 {
            readings.append((SystemHostClock.shared.now, item.currentTime().seconds))
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        player.pause()
        try await Task.sleep(nanoseconds: 300_000_000)
        let heard = recording.stop()
        player.replaceCurrentItem(with: nil)
        #expect(readings.contains { $0.time > paused + 1 }, "time ran on: \(readings.last?.time ?? 0)")
        let back = zip(readings, readings.dropFirst()).filter { $1.time < $0.time - 0.001 }
        #expect(back.isEmpty, "time went back: \(back.map { ($0.0.time, $0.1.time) })")
        let beeps = LipSyncMedia.beepOnsets(in: heard.samples, sampleRate: recording.sampleRate)
            .map { heard.startHost + Double($0) / Double(recording.sampleRate) }
        let flashes = sink.flashes(after: paused + 0.1)
        var offsets: [Double] = []
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }) else { continue }
            offsets.append(beep - flash)
        }
        #expect(flashes.count >= 2, "flashes at each whole second after the resume: \(flashes.count)")
        #expect(offsets.count == flashes.count, "a beep heard for every flash")
        #expect(offsets.allSatisfy { abs($0) <= 0.020 }, "sound minus frame, ms: \(offsets.map { ($0 * 1000).rounded() })")
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func theServerGoingAwayNeitherStopsTimeNorSilencesTheNextConnectionOnASoundServer() async throws {
        let clip = try GeneratedMedia.url(
            named: "tone-12s", fileExtension: "mkv",
            ffmpeg: [
                "-f", "lavfi", "-i", "color=c=black:s=64x64:r=25:d=12", "-f", "lavfi", "-i",
                "sine=f=440:d=12:sample_rate=48000", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le",
            ])
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let notices = Locked<[String]>([])
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer) { news in notices.withLock { $0.append("\(news)") } }
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks())
        let item = AVPlayerItem(url: clip)
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        // Sound first: a freshly started server in this rig asks for no audio for about 1.9 s
        // (time waits for it: see the test above). By 3 s of item time the server plays.
        await waitUntilInRealTime(seconds: 15) { item.currentTime().seconds >= 3 }
        var readings: [(host: Double, time: Double)] = []
        func read() { readings.append((SystemHostClock.shared.now, item.currentTime().seconds)) }
        read()
        try await offPool { server.kill() }
        for _ in 0..<50 {
            try await Task.sleep(nanoseconds: 20_000_000)
            read()
        }
        #expect(output.isPlayingSilently, "a silent stand-in plays while the server is away")
        #expect(output.serverLosses == 1)
        // The server comes back while time is read on.
        let restarting = Locked<Double?>(nil)
        async let recorded = offPool {
            try server.start()
            restarting.withLock { $0 = SystemHostClock.shared.now }
            return try MonitorRecording(server: server)
        }
        for _ in 0..<150 {
            try await Task.sleep(nanoseconds: 20_000_000)
            read()
        }
        let recording = try await recorded
        let restarted = try #require(restarting.withLock { $0 })
        let heard = recording.stop()
        #expect(!output.isPlayingSilently, "reconnected")
        #expect(player.timeControlStatus == .playing)
        player.replaceCurrentItem(with: nil)
        let firstLoud = heard.samples.firstIndex { abs($0) > 0.05 }
            .map { heard.startHost + Double($0) / Double(recording.sampleRate) }
        let back = try #require(firstLoud, "sound came back")
        // A freshly started server in this rig plays nothing for about 1.9 s (streams that
        // connect meanwhile are asked for no audio); the output adds at most its reconnect
        // interval and one buffer on top.
        #expect(back - restarted <= 2.2, "sound back \(back - restarted) s after the restart")
        // Time ran on at the pace of the clock through the loss and the reconnection: no
        // stop, no jump back, nothing skipped beyond the audio the server had queued.
        // (A stream whose server ran dry before the loss had grown its queue.)
        let queued = output.deviceUnderruns > 0 ? PulseAudioOutput.stallProneBuffer : PulseAudioOutput.desktopBuffer
        for (earlier, later) in zip(readings, readings.dropFirst()) {
            let drift = (later.time - earlier.time) - (later.host - earlier.host)
            #expect(drift > -0.05 && drift < queued, "time moved \(later.time - earlier.time) s in \(later.host - earlier.host) s")
        }
        #expect(notices.withLock { $0.count } == 2, "\(notices.withLock { $0 })")
    }
}

/// Waits (real time, the main queue free) until `condition` holds or `seconds` pass.
@MainActor
private func waitUntilInRealTime(seconds: Double, _ condition: @MainActor () -> Bool) async {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline {
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
}
