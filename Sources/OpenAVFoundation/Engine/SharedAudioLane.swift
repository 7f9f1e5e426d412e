// Playhead: one item's view of its player's shared audio device: the AudioOutput the item's
// engine opens, starts, stops and closes, while the device plays on from item to item.
//
// Concurrency: driven by one engine through the `AudioOutput` lifecycle (its open thread, then
// its output queue), one call at a time; `ring` and `dedicated` are set in `open` and read
// after it. `outputLatency`, `name` and `isRenderingWhileStopped` may be read from any thread.
import Foundation

/// The audio output an item's engine gets from its player's ``SharedAudioDevice``.
package final class SharedAudioLane: AudioOutput, @unchecked Sendable {
    private let device: SharedAudioDevice
    private let deviceName: String?
    private let lock = NSLock()
    /// protected by lock: the ring attached to the device
    private var ring: AudioRingBuffer?
    /// protected by lock: an output of the lane's own, when the device plays on another device
    private var dedicated: (any AudioOutput)?

    init(device: SharedAudioDevice, deviceName: String?) {
        self.device = device
        self.deviceName = deviceName
    }

    /// The shared output's name (or the lane's own output's).
    package var name: String { ownOutput?.name ?? "shared \(device.outputName)" }

    /// The device's latency.
    package var outputLatency: Double { ownOutput?.outputLatency ?? device.outputLatency }

    /// The device's own underruns (since the shared device opened, over every item it played).
    package var deviceUnderruns: Int { ownOutput?.deviceUnderruns ?? device.deviceUnderruns }

    /// Attaches `source` (the engine's ring) to the device. Returns the device's format; when
    /// it differs from the ring's, nothing is attached and the engine asks again with a ring in
    /// that format.
    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        guard let ring = source as? AudioRingBuffer else {
            throw AudioOutputError("a shared audio device plays engine rings only")
        }
        if let answer = try device.attach(ring, wanted: format, deviceName: deviceName) {
            if answer.attached { withLock { self.ring = ring } }
            return answer.format
        }
        // The device plays on another sink for another item: this item gets its own output.
        let own = try device.makeDedicatedOutput(deviceName)
        let actual = try own.open(format: format, source: source)
        withLock { dedicated = own }
        return actual
    }

    /// Plays the ring: at once, or right after the ended item the device is playing out.
    package func start() {
        if let own = ownOutput { return own.start() }
        if let ring = attachedRing { device.start(ring) }
    }

    /// Pauses: the ring is not rendered once this returns.
    package func stop() {
        if let own = ownOutput { return own.stop() }
        if let ring = attachedRing { device.stop(ring) }
    }

    /// Lets go of the device; an item that played to its end is heard to its last frame first.
    package func close() {
        let (ring, own) = withLock { () -> (AudioRingBuffer?, (any AudioOutput)?) in
            defer { self.ring = nil; dedicated = nil }
            return (self.ring, dedicated)
        }
        if let own { own.close() }
        if let ring { device.detach(ring) }
    }

    /// Drops the device's queued audio when this item is the one playing.
    package func discardBuffered() {
        if let own = ownOutput { return own.discardBuffered() }
        if let ring = attachedRing { device.discardBuffered(of: ring) }
    }

    /// True when the device may render this item's ring although the lane is stopped: a held
    /// item that follows the current one, or one the device already went on to.
    package var isRenderingWhileStopped: Bool {
        guard let ring = attachedRing else { return false }
        return device.isRendering(ring)
    }

    /// An item held as the next of a queue: the device goes on to it as the current item's
    /// last frame plays.
    package func followCurrentItem() {
        if let ring = attachedRing { device.follow(ring) }
    }

    /// Whether the output playing this lane can overwrite the audio it holds.
    package var rewritesQueuedAudio: Bool { ownOutput?.rewritesQueuedAudio ?? device.rewritesQueuedAudio }

    /// An ended item's last audio is played out by the device when the lane closes.
    package var playsOutWhenClosed: Bool { ownOutput == nil }

    private var attachedRing: AudioRingBuffer? { withLock { ring } }
    private var ownOutput: (any AudioOutput)? { withLock { dedicated } }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
