// Playhead: how a player layer fits the video into its bounds.

/// How a video picture is fitted into the rectangle that shows it.
///
/// Values compare by their raw strings, which match AVFoundation's.
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    /// The raw name, e.g. "AVLayerVideoGravityResizeAspect".
    public let rawValue: String

    /// A gravity with the given raw name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A gravity with the given raw name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Stretches the picture to fill the bounds exactly, ignoring its aspect ratio.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
    /// Keeps the aspect ratio and fits the whole picture inside the bounds (letterboxing or
    /// pillarboxing what is left). The default.
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// Keeps the aspect ratio and fills the bounds, cropping what sticks out.
    public static let resizeAspectFill = AVLayerVideoGravity(
        rawValue: "AVLayerVideoGravityResizeAspectFill")
}
