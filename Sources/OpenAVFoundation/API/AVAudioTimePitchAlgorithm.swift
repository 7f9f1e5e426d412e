// Playhead: how audio is processed when playing faster or slower than normal.

/// The method used to play audio at rates other than 1.
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    /// The algorithm's name.
    public let rawValue: String
    /// The algorithm with this name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The algorithm with this name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Pitch stays the same at any rate (time-domain stretching). The default.
    public static let timeDomain = AVAudioTimePitchAlgorithm("TimeDomain")
    /// Pitch stays the same at any rate (Playhead uses the same stretcher as `.timeDomain`).
    public static let spectral = AVAudioTimePitchAlgorithm("Spectral")
    /// Pitch follows the rate, as when a tape runs faster.
    public static let varispeed = AVAudioTimePitchAlgorithm("Varispeed")
}
