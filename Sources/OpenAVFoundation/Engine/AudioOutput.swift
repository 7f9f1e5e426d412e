// Playhead: the audio device abstraction: output format, render source and output protocols.

import Foundation

// Concurrency: an `AudioOutput` is driven by one controlling context (the engine) through
// open/start/stop/close, which are not reentrant. The output calls its `AudioRenderSource` from
// exactly one thread at a time (the device's real-time callback thread); that call must not
// lock, allocate, await or decode. `outputLatency` and `name` may be read from any thread.

/// The PCM layout exchanged with an audio output: interleaved 32-bit float samples.
package struct AudioOutputFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    package var sampleRate: Int
    /// Samples per frame (interleaved).
    package var channelCount: Int

    /// Creates a format.
    /// - Precondition: both values are positive.
    package init(sampleRate: Int, channelCount: Int) {
        precondition(sampleRate > 0 && channelCount > 0, "invalid audio format")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// A readable summary such as `48000 Hz, 2 ch, f32`.
    package var description: String { "\(sampleRate) Hz, \(channelCount) ch, f32" }
}

/// Something an audio output pulls PCM from, typically an ``AudioRingBuffer``.
package protocol AudioRenderSource: AnyObject, Sendable {
    /// Fills `buffer` (interleaved Float32 in the opened format) completely, with silence where
    /// no data is available.
    /// - Parameters:
    ///   - buffer: whole frames to fill.
    ///   - hostTime: the ``HostClock`` time of this callback; the first frame is heard at
    ///     `hostTime` plus the output latency.
    /// - Important: Called on the output's real-time thread. Must not lock, allocate, await,
    ///   decode or block.
    func render(into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double)

    /// Tells the source how long after a callback's `hostTime` its first frame is heard. Outputs
    /// call this before starting and whenever their estimate changes. Callable from any thread.
    func setOutputLatency(_ seconds: Double)

    /// Tells the source whether the device plays what it renders: false while the device has
    /// taken audio but not started playing it (a sound server waking a suspended sink), when
    /// nobody knows yet when that audio will be heard. Audio rendered meanwhile publishes no
    /// clock, so time does not run on a guess; the first call made once it plays does.
    /// Outputs that always know need not call it. Callable from any thread.
    func setOutputPlaying(_ playing: Bool)

    /// Frames the audio of the last ``render(into:hostTime:)`` call goes back over: it replaces
    /// that much of what earlier calls rendered (re-made audio after a rate change starts
    /// behind what was rendered, where the output has not played yet). Reading it clears it.
    /// Outputs that can overwrite their queued audio (``AudioOutput/rewritesQueuedAudio``) write
    /// the call's audio that far back. Real-time thread, right after the render call.
    func takeRewindFrames() -> Int

    /// Tells the source how many of the frames the output holds and has not played it could
    /// overwrite with the next call (0: none). A start's or a seek's first audio goes back
    /// over the silence rendered while it was awaited, that far at most (reported through
    /// ``takeRewindFrames()``). Outputs that cannot overwrite what they hold need not call it.
    /// Real-time thread, before the render call.
    func setRewritableFrames(_ frames: Int)

    /// Tells the source how many frames are left of the output's present request, the next
    /// call's included, when it renders a request over several calls (a sound server's write
    /// callback is handed its buffer in blocks of at most 64 KiB): the source keeps that much
    /// more ahead. Outputs that render each request in one call need not call it. Real-time
    /// thread, before each call of the request.
    func setRequestFrames(_ frames: Int)
}

extension AudioRenderSource {
    /// Sources that never re-make rendered audio go back over nothing.
    package func takeRewindFrames() -> Int { 0 }

    /// Sources that publish no clock need not know whether the device plays.
    package func setOutputPlaying(_ playing: Bool) {}

    /// Sources that never go back over rendered audio need not know how far they could.
    package func setRewritableFrames(_ frames: Int) {}

    /// Sources that keep no more ahead for large requests need not know them.
    package func setRequestFrames(_ frames: Int) {}
}

/// An audio device (or a stand-in) that pulls frames from a render source.
///
/// Lifecycle: `open` → (`start` ⇄ `stop`)* → `close`. The engine builds its ring buffer in the
/// format `open` returns, resampling upstream if that differs from what it asked for.
///
/// Implementations: ``ClockDrivenAudioOutput`` here, the SDL device in OpenAVKit, and
/// recording doubles in PlayheadTestSupport.
package protocol AudioOutput: AnyObject, Sendable {
    /// A short human-readable name for logs and diagnostics.
    var name: String { get }

    /// Seconds between a render callback and the moment its first frame is heard. Thread-safe.
    var outputLatency: Double { get }

    /// Prepares the output to pull from `source`.
    /// - Parameters:
    ///   - format: the format the engine would like.
    ///   - source: where frames come from once started.
    /// - Returns: the format actually used (same sample encoding; rate and channels may differ).
    /// - Throws: ``AudioOutputError`` when no usable device is available.
    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws
        -> AudioOutputFormat

    /// Begins calling the source. Calling it while started does nothing.
    func start()

    /// Stops calling the source. After it returns, no render call is running or will start
    /// until the next `start()`.
    func stop()

    /// Stops if needed and releases the device and the source.
    func close()

    /// Stops after the audio the output already took from the source has been heard (the
    /// source played to its end), waiting at most `timeout` seconds: a sound server that runs
    /// late on a busy machine still plays the last frames. Blocks the caller; never the main
    /// queue.
    func stopAfterPlayingOut(timeout: Double)

    /// Drops audio the output already took from the source but has not played yet (a seek
    /// made it stale). Outputs without a buffer of their own do nothing.
    func discardBuffered()

    /// True when the output may call the source although it is stopped: a shared device
    /// that plays a held next item's ring, or went on to it, before its engine started it.
    /// The engine then leaves the ring's consumer side to the callback.
    var isRenderingWhileStopped: Bool { get }

    /// True when `close()` after the item played to its end lets the last audio be heard (a
    /// shared device plays it out); otherwise the engine lets the output linger itself.
    var playsOutWhenClosed: Bool { get }

    /// The engine is held as the next item of a queue with its audio ready: a shared device
    /// goes on to its source the moment the current item's audio ends.
    func followCurrentItem()

    /// True when the output can overwrite audio it holds but has not played (a sound server's
    /// stream): a rate change then re-makes the audio from just ahead of what is heard, not
    /// from the end of what the output holds. Any thread.
    var rewritesQueuedAudio: Bool { get }

    /// Times the device itself ran out of audio while playing since `open` (a sound server
    /// whose own buffer for the stream ran dry: heard as a gap even when the ring never did).
    /// Any thread.
    var deviceUnderruns: Int { get }

    /// Sets who hears the sound server's own requests to pause and resume the stream (a
    /// desktop policy such as PulseAudio's `module-role-cork` while a call plays); called on a
    /// background queue. Outputs without a sound server never call it.
    func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?)
}

/// What a sound server asks of a playing stream on its own initiative.
package enum SoundServerRequest: Sendable, Equatable {
    /// Pause: something more important plays (a call); the server has muted the stream.
    case pause
    /// Play again: what asked for the pause has ended.
    case resume
}

extension AudioOutput {
    /// Nothing is buffered outside the source.
    package func discardBuffered() {}
    /// An output that cannot tell when its audio was heard stops at once (its caller waited
    /// for the latency it reports).
    package func stopAfterPlayingOut(timeout: Double) { stop() }
    /// A stopped output renders nothing.
    package var isRenderingWhileStopped: Bool { false }
    /// Closing drops what the device holds.
    package var playsOutWhenClosed: Bool { false }
    /// One output per item: nothing to follow.
    package func followCurrentItem() {}
    /// What an output took from its source is played as it is.
    package var rewritesQueuedAudio: Bool { false }
    /// An output that cannot tell counts none.
    package var deviceUnderruns: Int { 0 }
    /// No sound server, no requests.
    package func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?) {}
}

/// Why an audio output could not be used.
package struct AudioOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A description of the failure.
    package var message: String

    /// Creates an error with a description.
    package init(_ message: String) { self.message = message }

    /// The description.
    package var description: String { message }
}

extension AudioOutputError: LocalizedError {
    /// The description, as error messages show it.
    package var errorDescription: String? { message }
}
