// Playhead: a media-time clock anchored to host time, with rate, pause and generation.

// Concurrency: `MediaClock` is a plain value with no shared state. Whoever stores one owns its
// thread rule (typically a field of the engine actor, or inside a lock when a presentation
// thread reads it).

/// Maps host time to media time the way ffplay's `Clock` does: an anchor pair (media, host), a
/// rate, a paused flag and a generation.
///
/// Between updates the clock runs on from its anchor at the effective rate, which is ``rate`` or
/// zero while ``isPaused``. Every change of rate or pause first re-anchors at the given host time,
/// so the reading never jumps. After a flush (``invalidate(generation:)``) the clock reads
/// `.invalid` until it is set again with data of the new generation.
package struct MediaClock: Sendable {
    /// Media time at ``anchorHost``; `.invalid` until the clock is first set.
    package private(set) var anchorMedia: CMTime = .invalid
    /// Host seconds at which the clock read ``anchorMedia``.
    package private(set) var anchorHost: Double = 0
    /// Requested playback rate; keeps its value while paused. `0` also stops the clock.
    package private(set) var rate: Double
    /// Whether the clock is paused (it then reads a constant time).
    package private(set) var isPaused = false
    /// Generation of the data that last set the anchor.
    package private(set) var generation: Int
    /// The generation the engine currently plays; the clock is stale when it differs.
    package private(set) var currentGeneration: Int

    /// Creates an unset clock.
    /// - Parameters:
    ///   - rate: the initial playback rate.
    ///   - generation: the engine's current generation.
    package init(rate: Double = 1, generation: Int = 0) {
        self.rate = rate
        self.generation = generation
        self.currentGeneration = generation
    }

    /// The rate the clock actually advances at: zero while paused.
    package var effectiveRate: Double { isPaused ? 0 : rate }

    /// Whether the clock has an anchor from the current generation.
    package var isValid: Bool { anchorMedia.isNumeric && generation == currentGeneration }

    /// Media time at host time `host`, or `.invalid` when unset or stale.
    package func time(atHost host: Double) -> CMTime {
        guard isValid else { return .invalid }
        return extrapolate(to: host)
    }

    /// Anchors the clock: at `host` the media time is `media`.
    ///
    /// A `generation` older than ``currentGeneration`` (data from before a seek) leaves the clock
    /// stale; a newer one advances ``currentGeneration``.
    package mutating func set(media: CMTime, host: Double, generation: Int) {
        anchorMedia = media
        anchorHost = host
        self.generation = generation
        currentGeneration = max(currentGeneration, generation)
    }

    /// Marks everything before `generation` stale; the clock reads `.invalid` until the next
    /// ``set(media:host:generation:)`` with that generation.
    package mutating func invalidate(generation: Int) {
        currentGeneration = max(currentGeneration, generation)
    }

    /// Changes the rate at `host` without a jump in the reading.
    package mutating func setRate(_ newRate: Double, host: Double) {
        reanchor(at: host)
        rate = newRate
    }

    /// Freezes the clock at its reading for `host`.
    package mutating func pause(host: Double) {
        guard !isPaused else { return }
        reanchor(at: host)
        isPaused = true
    }

    /// Restarts the clock from the reading it was frozen at, as of `host`.
    package mutating func resume(host: Double) {
        guard isPaused else { return }
        anchorHost = host
        isPaused = false
    }

    private mutating func reanchor(at host: Double) {
        if anchorMedia.isNumeric { anchorMedia = extrapolate(to: host) }
        anchorHost = host
    }

    private func extrapolate(to host: Double) -> CMTime {
        let speed = effectiveRate
        guard speed != 0, host != anchorHost else { return anchorMedia }
        return anchorMedia + MediaClock.mediaOffset(hostSeconds: host - anchorHost, rate: speed)
    }

    /// Media time covered by `hostSeconds` of host time at `rate`, at nanosecond resolution.
    package static func mediaOffset(hostSeconds: Double, rate: Double) -> CMTime {
        CMTime(seconds: hostSeconds * rate, preferredTimescale: 1_000_000_000)
    }
}
