// Playhead: what a playback engine calls on Playhead's HLS loader when it takes the stream:
// the audio renditions' loaders read beside it, and activation (the buffer ahead, the caps,
// the playhead and rate readers).
//
// Concurrency: every method takes the loader's `condition` around what it changes (see
// HLSStreamLoader.swift); none touches the network.
import FFmpegBridge
import Foundation

extension HLSStreamLoader {
    /// The audio renditions' loaders, read beside this one's bytes.
    var companions: [any StreamingInput] {
        condition.lock()
        defer { condition.unlock() }
        return renditionLoaders
    }

    /// Adds the loaders of the audio renditions (before the stream is opened). Activating or
    /// closing this loader does the same to them.
    func addRenditionLoaders(_ loaders: [HLSStreamLoader]) {
        condition.lock()
        renditionLoaders += loaders
        condition.unlock()
    }

    /// "host:port" of `url`, the key of the throughput remembered for a server.
    static func serverKey(_ url: URL) -> String { "\(url.host ?? ""):\(url.port ?? 0)" }

    /// A playback engine took the stream: from now on the loader fetches up to `bufferAhead`
    /// seconds (`bufferAhead` by default) past `playhead` (the item time playing, read from the
    /// loader thread) under `caps`, choosing variants for the rate `playbackRate` reads (1 when
    /// not given; also read from the loader thread).
    func activate(
        caps: VariantAdaptation.Caps, bufferAhead: Double? = nil, playhead: @escaping @Sendable () -> Double?,
        playbackRate: (@Sendable () -> Double)? = nil
    ) {
        condition.lock()
        state.caps = caps
        state.activated = true
        state.bufferAhead = bufferAhead ?? Self.bufferAhead
        self.playhead = playhead
        self.playbackRate = playbackRate
        let renditions = renditionLoaders
        let steering = steering
        condition.broadcast()
        condition.unlock()
        steering?.start()
        // A rendition's bytes are read with the variants': the same buffer ahead, no caps.
        for loader in renditions {
            loader.activate(caps: .init(), bufferAhead: bufferAhead, playhead: playhead, playbackRate: playbackRate)
        }
    }
}
