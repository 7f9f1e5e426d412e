// Playhead: turns what a user typed (a path or a URL) into a URL.
import Foundation
import OpenAVFoundation

/// Interprets command-line inputs.
enum InputURL {
    /// A URL for `input`: strings with a scheme ("https://...", "file:///...") are URLs,
    /// anything else is a file path relative to the current directory.
    static func from(_ input: String) -> URL {
        if LocalMediaList.hasScheme(input), let url = URL(string: input) { return url }
        return URL(fileURLWithPath: input)
    }
}
