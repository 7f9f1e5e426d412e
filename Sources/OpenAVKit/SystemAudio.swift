// Playhead: choosing the system audio output, and saying plainly when there is none.
import Foundation
import OpenAVFoundation

/// The system's audio output: the sound server (PulseAudio, or PipeWire through
/// pipewire-pulse) through libpulse, SDL for machines with only ALSA, or SDL's driver when
/// `SDL_AUDIODRIVER` names one.
package enum SystemAudio {
    /// An output on the system's audio device.
    ///
    /// `PLAYHEAD_AUDIO=sdl` or `SDL_AUDIODRIVER` choose SDL; `PLAYHEAD_AUDIO=pulse` the sound
    /// server even when no socket is seen. Otherwise the sound server is used when its socket
    /// exists, with SDL as the fallback when a sound card exists too.
    /// - Throws: `AudioOutputError` when the machine shows no sign of a sound server or sound
    ///   card (checked first, so that SDL and ALSA do not print their own noise).
    /// `notice` hears when the sound server goes away and when it is back.
    package static func makeOutput(sinkName: String? = nil, notice: (@Sendable (SoundServerNews) -> Void)? = nil) throws
        -> any AudioOutput
    {
        let environment = ProcessInfo.processInfo.environment
        let choice = environment["PLAYHEAD_AUDIO"]
        if choice == "sdl" || environment["SDL_AUDIODRIVER"] != nil { return SDLAudioOutput() }
        let server = choice == "pulse" || serverMayExist(environment)
        switch (server, soundCardExists) {
        case (true, true):
            return FallbackAudioOutput(PulseAudioOutput(sinkName: sinkName, notice: notice)) { SDLAudioOutput() }
        case (true, false): return PulseAudioOutput(sinkName: sinkName, notice: notice)
        case (false, true): return SDLAudioOutput()
        case (false, false): throw AudioOutputError("no audio device found")
        }
    }

    /// True when a PulseAudio or PipeWire socket, or an ALSA sound card, is present, or when
    /// SDL_AUDIODRIVER names a driver explicitly.
    static var deviceMayExist: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["SDL_AUDIODRIVER"] != nil || serverMayExist(environment) || soundCardExists
    }

    /// True when `PULSE_SERVER` is set or the runtime directory holds a PulseAudio or PipeWire
    /// socket.
    static func serverMayExist(_ environment: [String: String]) -> Bool {
        if environment["PULSE_SERVER"] != nil { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"] else { return false }
        return ["pulse/native", "pipewire-0"].contains { FileManager.default.fileExists(atPath: runtime + "/" + $0) }
    }

    /// True when ALSA lists a PCM device.
    static var soundCardExists: Bool {
        let cards = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
        return cards.contains { $0.hasPrefix("pcm") }
    }
}

/// An output that opens `first`, or the output `then` makes when `first` cannot open; every
/// other call goes to the one that opened.
///
/// Concurrency: `chosen` is set once by `open` under `lock`, and the request handler by its
/// setter under the same lock; the output's own contract holds for the calls forwarded to it.
final class FallbackAudioOutput: AudioOutput, @unchecked Sendable {
    private let first: any AudioOutput
    private let then: @Sendable () -> any AudioOutput
    private let lock = NSLock()
    /// protected by lock
    private var chosen: (any AudioOutput)?
    /// protected by lock: handed to the fallback when it is made
    private var requestHandler: (@Sendable (SoundServerRequest) -> Void)?

    /// Tries `first`, then what `then` makes.
    init(_ first: any AudioOutput, then: @escaping @Sendable () -> any AudioOutput) {
        self.first = first
        self.then = then
    }

    private var current: any AudioOutput { lock.withLock { chosen ?? first } }

    var name: String { current.name }
    var outputLatency: Double { current.outputLatency }

    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        if let chosen = lock.withLock({ chosen }) { return try chosen.open(format: format, source: source) }
        do {
            let opened = try first.open(format: format, source: source)
            lock.withLock { chosen = first }
            return opened
        } catch {
            let fallback = then()
            fallback.setServerRequestHandler(lock.withLock { requestHandler })
            let opened = try fallback.open(format: format, source: source)
            lock.withLock { chosen = fallback }
            return opened
        }
    }

    func start() { current.start() }
    func stop() { current.stop() }
    func close() { current.close() }
    func discardBuffered() { current.discardBuffered() }
    func stopAfterPlayingOut(timeout: Double) { current.stopAfterPlayingOut(timeout: timeout) }
    var isRenderingWhileStopped: Bool { current.isRenderingWhileStopped }
    var playsOutWhenClosed: Bool { current.playsOutWhenClosed }
    func followCurrentItem() { current.followCurrentItem() }
    var rewritesQueuedAudio: Bool { current.rewritesQueuedAudio }
    var deviceUnderruns: Int { current.deviceUnderruns }
    func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?) {
        let output = lock.withLock { () -> any AudioOutput in
            requestHandler = handler
            return chosen ?? first
        }
        output.setServerRequestHandler(handler)
    }
}
