// Playhead: lock-free publication of the audio clock from the render callback (a seqlock).
import Synchronization

// Concurrency: exactly one writer at a time (the real-time render callback, or `reset` while
// the callback is stopped) and any number of readers on any thread. Every field is an `Atomic`,
// so readers never race in the language sense; the even/odd `sequence` tells a reader whether it
// saw a consistent set. The writer never waits; a reader retries while a write is in flight.

/// One published reading of the audio clock: at host time ``host`` the listener hears media time
/// ``media``, and hears it advance at ``rate`` for at most ``span`` host seconds.
package struct AudioClockSnapshot: Sendable, Equatable {
    /// Media time of the first frame of the render call that published this snapshot.
    package var media: CMTime
    /// Host time at which that frame is heard (callback time plus output latency).
    package var host: Double
    /// Media seconds per host second in the region being played (the playback rate).
    package var rate: Double
    /// Host seconds of audio that call delivered; past it the clock stops (underrun or pause).
    package var span: Double
    /// The clock never reads earlier than this (start of the current run of continuous audio).
    package var floor: CMTime
    /// Generation of the audio that was rendered.
    package var generation: Int

    /// Creates a snapshot.
    package init(
        media: CMTime, host: Double, rate: Double, span: Double, floor: CMTime, generation: Int
    ) {
        self.media = media
        self.host = host
        self.rate = rate
        self.span = span
        self.floor = floor
        self.generation = generation
    }

    /// The media time heard at host time `hostTime`, extrapolated from this snapshot.
    package func time(atHost hostTime: Double) -> CMTime {
        let elapsed = min(hostTime - host, span)
        let time = media + MediaClock.mediaOffset(hostSeconds: elapsed, rate: rate)
        return floor.isNumeric && time < floor ? floor : time
    }
}

/// A seqlock holding the latest ``AudioClockSnapshot``.
///
/// Times are stored as value and timescale (epoch 0); only numeric times are published.
package final class AudioClockPublisher: Sendable {
    private let sequence = Atomic<Int>(0)
    private let mediaValue = Atomic<Int64>(0)
    private let mediaScale = Atomic<Int32>(0)
    private let floorValue = Atomic<Int64>(0)
    private let floorScale = Atomic<Int32>(0)
    private let hostBits = Atomic<UInt64>(0)
    private let rateBits = Atomic<UInt64>(0)
    private let spanBits = Atomic<UInt64>(0)
    private let generation = Atomic<Int>(0)
    private let hasValue = Atomic<Bool>(false)

    /// Creates an empty publisher.
    package init() {}

    /// Publishes `snapshot`, or clears the clock when `nil`. Wait-free.
    /// - Important: Single writer: the render callback, or a thread that stopped it.
    package func publish(_ snapshot: AudioClockSnapshot?) {
        let start = sequence.load(ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        if let snapshot {
            let floor = snapshot.floor.isNumeric ? snapshot.floor : snapshot.media
            mediaValue.store(snapshot.media.value, ordering: .relaxed)
            mediaScale.store(snapshot.media.timescale, ordering: .relaxed)
            floorValue.store(floor.value, ordering: .relaxed)
            floorScale.store(floor.timescale, ordering: .relaxed)
            hostBits.store(snapshot.host.bitPattern, ordering: .relaxed)
            rateBits.store(snapshot.rate.bitPattern, ordering: .relaxed)
            spanBits.store(snapshot.span.bitPattern, ordering: .relaxed)
            generation.store(snapshot.generation, ordering: .relaxed)
        }
        hasValue.store(snapshot != nil, ordering: .relaxed)
        sequence.store(start &+ 2, ordering: .releasing)
    }

    /// The latest snapshot, or `nil` if none was published since the last clear. Lock-free.
    package func read() -> AudioClockSnapshot? {
        while true {
            let before = sequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let present = hasValue.load(ordering: .relaxed)
            let snapshot = AudioClockSnapshot(
                media: CMTime(
                    value: mediaValue.load(ordering: .relaxed),
                    timescale: mediaScale.load(ordering: .relaxed)),
                host: Double(bitPattern: hostBits.load(ordering: .relaxed)),
                rate: Double(bitPattern: rateBits.load(ordering: .relaxed)),
                span: Double(bitPattern: spanBits.load(ordering: .relaxed)),
                floor: CMTime(
                    value: floorValue.load(ordering: .relaxed),
                    timescale: floorScale.load(ordering: .relaxed)),
                generation: generation.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == before {
                return present ? snapshot : nil
            }
        }
    }
}
