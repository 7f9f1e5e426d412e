// Playhead: starting an item's workers from opened parts: the audio output and ring, the
// pipeline, the coordinator's `.opened`, then the threads. The media open (ItemPlayback+Open)
// and scripted tests (fake packet source and decoders) both start here.
//
// Concurrency: runs once, on the open work's thread (or a test's), before any worker exists;
// it hands each part to the thread that will own it and touches none of them afterwards.
import FFmpegBridge
import Foundation

/// The parts an item's workers run with.
package struct WorkerParts: @unchecked Sendable {
    /// What the media holds (streams, duration).
    let description: MediaDescription
    /// Where packets come from.
    let source: any PacketSource
    /// The video stream played and its decoder (nil: no video).
    let video: (stream: Int, decoder: any VideoDecoding)?
    /// The decoder of the audio stream played (nil: no audio).
    let audio: (any AudioDecoding)?
    /// Decoders of the other audio tracks that may be selected later.
    let otherAudio: [Int: any AudioDecoding]

    /// Parts for `description` read from `source`, decoded by `video` and `audio`.
    package init(
        description: MediaDescription, source: any PacketSource, video: (stream: Int, decoder: any VideoDecoding)?,
        audio: (any AudioDecoding)?, otherAudio: [Int: any AudioDecoding] = [:]
    ) {
        self.description = description
        self.source = source
        self.video = video
        self.audio = audio
        self.otherAudio = otherAudio
    }
}

extension ItemPlayback {
    /// The rate above which fast forward steps through the item's keyframes: a stream's
    /// loader that fetches them alone, or a local file's index (a remote file's would make a
    /// request a step, each reading on as far as the queues hold); nil for other items, and
    /// when frames are shown as fast as they decode (untimed: every frame, no clock to step on).
    static func forwardStepsAbove(_ parts: WorkerParts, isNetwork: Bool, untimed: Bool) -> Double? {
        guard let video = parts.video?.stream, !untimed else { return nil }
        if parts.source.servesKeyframesAlone { return EngineState.keyframeFastForwardRate }
        if !isNetwork, parts.source.seeksIndexedKeyframes(of: video) { return EngineState.indexedFastForwardRate }
        return nil
    }

    /// Opens the audio output, builds the pipeline, tells the coordinator and starts the
    /// threads. Nil when playback was stopped meanwhile (the coordinator then released what
    /// was made). `silentAudio`: play the audio on a silent clock-driven output.
    func launch(_ parts: WorkerParts, silentAudio: Bool, isNetwork: Bool) -> Pipeline? {
        var audio = parts.audio
        let (ring, output) = audio.map { openAudioOutput(parts.description, $0.streamIndex, silent: silentAudio) } ?? (nil, nil)
        if ring == nil { audio = nil }
        let audioStream = audio?.streamIndex
        let pipeline = Pipeline(
            description: parts.description, videoStream: parts.video?.stream, audioStream: audioStream, ring: ring,
            audioOutput: output,
            forwardBuffer: settings.preferredForwardBuffer > 0
                ? settings.preferredForwardBuffer : Self.automaticForwardBuffer(isNetwork: isNetwork))
        pipeline.switchboard.installAudio(
            playing: audioStream, others: audioStream == nil ? [:] : parts.otherAudio,
            onDemand: parts.source.companionInputs)
        // Stopped meanwhile, the coordinator releases the pipeline at once.
        post(.opened(
            OpenedParts(
                pipeline: pipeline, duration: parts.description.duration, forwardEndTime: settings.forwardEndTime,
                reverseEndTime: settings.reverseEndTime,
                audioStream: audioStream, forwardStepsAbove: Self.forwardStepsAbove(parts, isNetwork: isNetwork, untimed: environment.untimed)),
            host: environment.hostClock.now))
        guard !isStopped else { return nil }
        startThreads(demuxer: parts.source, video: parts.video?.decoder, audio: audio, pipeline: pipeline)
        // The next item of a queue: its sound follows the current item's on the shared device
        // (not when that item has none: the ring still playing is an item's before it).
        if coordinator.read({ $0.isHeld }), followsPredecessorsSound, let output {
            output.followCurrentItem()
            audioWake.wake()
        }
        return pipeline
    }

    /// Starts playback from scripted parts instead of opening the asset (tests drive the
    /// engine with stand-ins for the demuxer and decoders): reports `.opened` at once.
    func start(scripted parts: WorkerParts) {
        guard
            let pipeline = launch(
                parts, silentAudio: environment.makeAudioOutput == nil, isNetwork: parts.source.isNetwork)
        else { return }
        let duration = parts.description.duration
        reportOpened(
            OpenedMedia(
                duration: duration, presentationSize: .zero, tracks: [],
                seekableRanges: duration.isNumeric ? [CMTimeRange(start: .zero, duration: duration)] : []),
            pipeline: pipeline)
        updateAudioOutput()
    }

    func openAudioOutput(_ description: MediaDescription, _ index: Int, silent: Bool)
        -> (AudioRingBuffer?, (any AudioOutput)?)
    {
        let untimed = environment.untimed, clock = environment.hostClock
        let silentOutput: @Sendable () throws -> any AudioOutput = {
            untimed ? UntimedAudioOutput() : ClockDrivenAudioOutput(clock: clock)
        }
        let onDevice = settings.audioDevice.flatMap { device in
            environment.makeAudioOutputOnDevice.map { make in { @Sendable in try make(device) } }
        }
        let deviceName = settings.audioDevice
        let shared = environment.sharedAudio.map { device in
            { @Sendable in device.makeLane(device: deviceName) as any AudioOutput }
        }
        let make = silent ? silentOutput : shared ?? onDevice ?? environment.makeAudioOutput ?? silentOutput
        let stream = description.streams[index]
        let wanted = AudioOutputFormat(
            sampleRate: stream.sampleRate > 0 ? stream.sampleRate : 48_000,
            // Up to 7.1 as the source has it; an output with fewer channels answers with its
            // own count and the resampler mixes down.
            channelCount: min(max(stream.channels, 1), 8))
        // Five seconds of room: the audio thread fills a quarter second beyond the output's
        // largest request (`AudioRingBuffer.fillTarget`: about 0.45 s on a sound server with a
        // 450 ms queue, more while a start waits) and keeps the rest for audio re-made after a
        // rate change (ItemPlayback+TempoSplice.swift), which takes longer to play than what
        // it replaces when the rate goes down, while the old audio stays until the new is all
        // in: from 2x to 0.5x, the 0.45 s in the ring and a sound server's 450 ms, re-made,
        // and the old 0.45 s make about 4.1 s. A start or seek plays once 50 ms and the
        // device's whole request are waiting, and on a sound server going back over the
        // silence it queued meanwhile, that much more and an eighth of a second
        // (AudioRingBuffer.primeFrames).
        func makeRing(_ format: AudioOutputFormat) -> AudioRingBuffer {
            let ring = AudioRingBuffer(format: format, capacityFrames: format.sampleRate * 5, markerCapacity: 2048)
            ring.primeFrames = format.sampleRate / 20
            ring.fillAheadFrames = Int(Double(format.sampleRate) * Self.ringFillSeconds)
            return ring
        }
        func attempt(_ output: any AudioOutput) throws -> (AudioRingBuffer, any AudioOutput) {
            let ring = makeRing(wanted)
            let actual = try output.open(format: wanted, source: ring)
            if actual == wanted { return (ring, output) }
            output.close()
            let adapted = makeRing(actual)
            _ = try output.open(format: actual, source: adapted)
            return (adapted, output)
        }
        do {
            let (ring, output) = try attempt(try make())
            return (ring, output)
        } catch {
            environment.onAudioFallback?("\(error); playing with a silent clock")
            let silent = ClockDrivenAudioOutput(clock: environment.hostClock)
            if let result = try? attempt(silent) { return result }
            return (nil, nil)
        }
    }

}
