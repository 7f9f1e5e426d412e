// Playhead: an audio output on an SDL2 audio device (PulseAudio, PipeWire or ALSA).
//
// Concurrency: `open`, `start`, `stop` and `close` may be called from any thread; `lock`
// serialises them. SDL calls the render callback on its own real-time thread; the callback only
// reads the render source (a lock-free ring buffer) and never locks or allocates.
internal import CSDL2
import Foundation
import OpenAVFoundation
import Synchronization

/// Plays the engine's audio through the default SDL audio device.
package final class SDLAudioOutput: AudioOutput, @unchecked Sendable {
    /// Samples per device callback; two periods of this are the latency estimate.
    static let periodFrames: UInt16 = 1024

    package let name: String
    private let lock = NSLock()
    /// protected by lock
    private var device: SDL_AudioDeviceID = 0
    /// protected by lock
    private var source: Unmanaged<CallbackContext>?
    /// protected by lock
    private var running = false
    private let latencyBits = Atomic<UInt64>(0)

    /// An output for the default device; nothing opens until `open`.
    package init() {
        name = "sdl"
    }

    package var outputLatency: Double { Double(bitPattern: latencyBits.load(ordering: .relaxed)) }

    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws
        -> AudioOutputFormat
    {
        try SDLSubsystem.startAudio()
        lock.lock()
        defer { lock.unlock() }
        precondition(device == 0, "SDLAudioOutput opened twice")
        let context = Unmanaged.passRetained(CallbackContext(source: source))
        var desired = SDL_AudioSpec()
        desired.freq = Int32(format.sampleRate)
        desired.format = SDL_AudioFormat(AUDIO_F32SYS)
        desired.channels = UInt8(format.channelCount)
        desired.samples = Self.periodFrames
        desired.callback = { userdata, stream, length in
            guard let userdata, let stream else { return }
            let context = Unmanaged<CallbackContext>.fromOpaque(userdata).takeUnretainedValue()
            let count = Int(length) / MemoryLayout<Float>.size
            let buffer = UnsafeMutableRawPointer(stream).bindMemory(to: Float.self, capacity: count)
            context.source.render(
                into: UnsafeMutableBufferPointer(start: buffer, count: count),
                hostTime: SystemHostClock.shared.now)
        }
        desired.userdata = context.toOpaque()
        var obtained = SDL_AudioSpec()
        let allowed = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let id = SDL_OpenAudioDevice(nil, 0, &desired, &obtained, allowed)
        guard id != 0 else {
            context.release()
            throw AudioOutputError("cannot open an audio device: \(SDLSubsystem.lastError)")
        }
        guard obtained.format == SDL_AudioFormat(AUDIO_F32SYS) else {
            SDL_CloseAudioDevice(id)
            context.release()
            throw AudioOutputError("the audio device does not accept 32-bit float samples")
        }
        device = id
        self.source = context
        let latency = 2 * Double(obtained.samples) / Double(max(obtained.freq, 1))
        latencyBits.store(latency.bitPattern, ordering: .relaxed)
        source.setOutputLatency(latency)
        return AudioOutputFormat(sampleRate: Int(obtained.freq), channelCount: Int(obtained.channels))
    }

    package func start() {
        lock.lock()
        defer { lock.unlock() }
        guard device != 0, !running else { return }
        running = true
        SDL_PauseAudioDevice(device, 0)
    }

    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard device != 0, running else { return }
        running = false
        // Pausing under the device lock guarantees no callback is running when we return.
        SDL_LockAudioDevice(device)
        SDL_PauseAudioDevice(device, 1)
        SDL_UnlockAudioDevice(device)
    }

    package func close() {
        lock.lock()
        defer { lock.unlock() }
        guard device != 0 else { return }
        SDL_CloseAudioDevice(device)
        device = 0
        running = false
        source?.release()
        source = nil
    }

    deinit { close() }

    /// What the C callback needs, kept alive while the device is open.
    private final class CallbackContext {
        let source: any AudioRenderSource
        init(source: any AudioRenderSource) { self.source = source }
    }
}
