// Playhead: the asset of the built-in demo (`playhead` with no input plays it).
//
// Concurrency: creates a new, thread-safe asset each call.
import FFmpegBridge
import Foundation

extension AVURLAsset {
    /// The URL naming the built-in demo. Its scheme is reserved: an `AVURLAsset(url:)` made
    /// from it fails with "unsupported URL scheme", so only `builtInDemo()` plays the demo.
    package static let builtInDemoURL = URL(string: "playhead-demo:built-in")!

    /// The built-in demo's title ("Playhead demo"), also its metadata title.
    package static var builtInDemoTitle: String { MediaLocation.builtInDemoTitle }

    /// An asset for the built-in demo: a moving test picture with a title and a tone,
    /// synthesised by libavfilter while it plays, 30 seconds long; no file is needed.
    package static func builtInDemo() -> AVURLAsset {
        AVURLAsset(url: builtInDemoURL, location: .builtInDemo)
    }
}
