// Playhead: a stand-in player for the controls: records every action it is asked for.
import OpenAVKit

/// Records `PlaybackControlActions` calls in order.
final class FakePlayer: PlaybackControlActions {
    enum Call: Equatable {
        case play, pause, close
        case seek(Double, exact: Bool)
        case volume(Float), muted(Bool), speed(Float), fullscreen(Bool), audioDelay(Double)
    }

    private(set) var calls: [Call] = []

    func play() { calls.append(.play) }
    func pause() { calls.append(.pause) }
    func seek(to seconds: Double, exact: Bool) { calls.append(.seek(seconds, exact: exact)) }
    func setVolume(_ volume: Float) { calls.append(.volume(volume)) }
    func setMuted(_ muted: Bool) { calls.append(.muted(muted)) }
    func setSpeed(_ speed: Float) { calls.append(.speed(speed)) }
    func setFullscreen(_ fullscreen: Bool) { calls.append(.fullscreen(fullscreen)) }
    func setAudioDelay(_ seconds: Double) { calls.append(.audioDelay(seconds)) }
    func close() { calls.append(.close) }

    /// Forgets the calls so far.
    func reset() { calls = [] }
}
