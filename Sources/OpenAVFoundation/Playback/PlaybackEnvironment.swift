// Playhead: the outputs and clock a player plays through.
//
// Concurrency: `PlaybackEnvironment` is an immutable value; `VideoSinks` is thread-safe (its
// list and the frame shown now are behind a lock; sinks are called on the presentation
// thread, except that a sink being added gets the shown frame on the adding thread).
import FFmpegBridge
import Foundation
import Synchronization

/// Receives decoded video frames at their presentation time.
package protocol VideoSink: AnyObject, Sendable {
    /// Shows `frame`, whose item time is `itemTime`. Called on the presentation thread; must not
    /// block for long.
    func present(_ frame: VideoFrame, itemTime: CMTime)
    /// Drops whatever frame is shown (the item changed).
    func clear()
    /// Seconds from `present` until the picture is on screen (a window's wake-up, drawing and
    /// swap), as the sink measures it; the engine hands frames over that much early, so they
    /// appear at their time. Any thread.
    var displayDelay: Double { get }
}

extension VideoSink {
    /// Shown at once (counters, recorders, outputs an app pulls from).
    package var displayDelay: Double { 0 }
}

/// The video sinks attached to a player (player layers, video outputs, the CLI's counter).
package final class VideoSinks: Sendable {
    private struct State {
        var sinks: [any VideoSink] = []
        /// The frame shown now (nil after a clear), replayed to sinks added later.
        var shown: (frame: VideoFrame, itemTime: CMTime)?
    }

    /// protected by its mutex
    private let state = Locked(State())

    /// An empty set.
    package init() {}

    /// Adds `sink`. It gets the frame shown now at once (so a layer attached to a paused
    /// player shows the current picture), then every frame presented from then on.
    package func add(_ sink: any VideoSink) {
        let shown = state.withLock { state in
            state.sinks.append(sink)
            return state.shown
        }
        if let shown { sink.present(shown.frame, itemTime: shown.itemTime) }
    }

    /// Removes `sink`.
    package func remove(_ sink: any VideoSink) { state.withLock { $0.sinks.removeAll { $0 === sink } } }

    /// The sinks now attached.
    package var all: [any VideoSink] { state.withLock { $0.sinks } }

    /// The longest display delay of the sinks attached: how early frames are handed over.
    package var displayDelay: Double { all.reduce(0) { max($0, $1.displayDelay) } }

    /// Shows `frame` on every sink and remembers it for sinks added later (presentation thread).
    package func present(_ frame: VideoFrame, itemTime: CMTime) {
        let sinks = state.withLock { state in
            state.shown = (frame, itemTime)
            return state.sinks
        }
        for sink in sinks { sink.present(frame, itemTime: itemTime) }
    }

    /// Clears every sink and forgets the shown frame (the item stopped).
    package func clearAll() {
        let sinks = state.withLock { state in
            state.shown = nil
            return state.sinks
        }
        for sink in sinks { sink.clear() }
    }
}

/// Where a player's audio and video go, and the clock its timing follows.
package struct PlaybackEnvironment: Sendable {
    /// The host time source (the system clock, or a manual clock in tests).
    package var hostClock: any HostClock
    /// Makes the audio output for an item; nil plays no audio. A factory that throws falls
    /// back to a silent clock-driven output.
    package var makeAudioOutput: (@Sendable () throws -> any AudioOutput)?
    /// Makes the audio output on a named device (`AVPlayer.audioOutputDeviceUniqueID`); nil:
    /// devices cannot be chosen, and `makeAudioOutput` is used.
    package var makeAudioOutputOnDevice: (@Sendable (String) throws -> any AudioOutput)?
    /// Video frames go to these sinks.
    package var videoSinks: VideoSinks
    /// Present frames as fast as they decode instead of on the clock (benchmarks, checks).
    package var untimed: Bool
    /// Decode video (false for audio-only work).
    package var decodesVideo: Bool
    /// Called once when audio falls back to the silent output, with the reason.
    package var onAudioFallback: (@Sendable (String) -> Void)?
    /// The one device a player's items share (see ``withSharedAudioDevice()``); nil: each
    /// item opens an output of its own.
    package var sharedAudio: SharedAudioDevice?

    /// An environment with the given parts.
    package init(
        hostClock: any HostClock = SystemHostClock.shared,
        makeAudioOutput: (@Sendable () throws -> any AudioOutput)? = nil,
        videoSinks: VideoSinks = VideoSinks(), untimed: Bool = false, decodesVideo: Bool = true,
        onAudioFallback: (@Sendable (String) -> Void)? = nil
    ) {
        self.hostClock = hostClock
        self.makeAudioOutput = makeAudioOutput
        self.videoSinks = videoSinks
        self.untimed = untimed
        self.decodesVideo = decodesVideo
        self.onAudioFallback = onAudioFallback
    }

    /// This environment with one audio device for all the items played in it, made from its
    /// output factories: what each player does, so a queue's items join without a gap. Without
    /// an output factory (no audio) it is returned as is.
    package func withSharedAudioDevice() -> PlaybackEnvironment {
        guard sharedAudio == nil, let makeDefault = makeAudioOutput else { return self }
        let makeOnDevice = makeAudioOutputOnDevice
        var environment = self
        environment.sharedAudio = SharedAudioDevice(clock: hostClock) { name in
            if let name, let makeOnDevice { return try makeOnDevice(name) }
            return try makeDefault()
        }
        return environment
    }

    /// The environment new players get: the registered default audio output (a device, once a
    /// front end such as OpenAVKit registers one), else the silent clock-driven output.
    package static func makeDefault() -> PlaybackEnvironment {
        var environment = PlaybackEnvironment(makeAudioOutput: DefaultAudioOutput.factory)
        environment.makeAudioOutputOnDevice = DefaultAudioOutput.deviceFactory
        return environment
    }
}

/// The process-wide default audio output, which front ends replace with a real device.
package enum DefaultAudioOutput {
    private static let registered = Locked<(@Sendable () throws -> any AudioOutput)?>(nil)
    private static let registeredForDevice = Locked<(@Sendable (String) throws -> any AudioOutput)?>(nil)

    /// Registers how players make audio outputs by default, and on a named device.
    package static func register(
        _ factory: @escaping @Sendable () throws -> any AudioOutput,
        onDevice deviceFactory: (@Sendable (String) throws -> any AudioOutput)? = nil
    ) {
        registered.withLock { $0 = factory }
        registeredForDevice.withLock { $0 = deviceFactory }
    }

    /// The registered factory for named devices, if any.
    package static var deviceFactory: (@Sendable (String) throws -> any AudioOutput)? {
        registeredForDevice.withLock { $0 }
    }

    /// The registered factory, or one that makes a silent clock-driven output.
    package static var factory: @Sendable () throws -> any AudioOutput {
        if let factory = registered.withLock({ $0 }) { return factory }
        return { @Sendable in ClockDrivenAudioOutput(clock: SystemHostClock.shared) }
    }
}
