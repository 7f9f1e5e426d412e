// Playhead: `playhead` with no input: the built-in demo, played like any input.
//
// Concurrency: plain values; `PlaySession` creates the demo's item on the main actor.
import OpenAVFoundation

extension PlayCommand {
    /// True when `word` spells one of `play`'s options (`--frames`, `--fullscreen`, …), so a
    /// command line starting with it is a `play` command line.
    static func isPlayOption(_ word: String) -> Bool {
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        return PlayOptions.all.contains { $0.longSpelling == name }
    }
}

/// One thing `playhead play` plays: an input from the command line, or the built-in demo.
enum PlayInput: Sendable, Equatable {
    case given(String)
    case builtInDemo

    /// What reports and error lines call it.
    var name: String {
        switch self {
        case .given(let input): return input
        case .builtInDemo: return AVURLAsset.builtInDemoTitle
        }
    }

    /// The inputs of `options`, or the demo alone when there are none.
    static func list(_ options: PlayOptions) -> [PlayInput] {
        options.inputs.isEmpty ? [.builtInDemo] : options.inputs.map(PlayInput.given)
    }

    /// A new player item for this input.
    @MainActor func makeItem() -> AVPlayerItem {
        switch self {
        case .given(let input): return AVPlayerItem(url: InputURL.from(input))
        case .builtInDemo: return AVPlayerItem(asset: AVURLAsset.builtInDemo())
        }
    }
}
