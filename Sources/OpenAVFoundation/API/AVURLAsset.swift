// Playhead: an asset read from a URL (a local file, or HTTP in a later release).
import FFmpegBridge
import Foundation

/// Options key: when true, the asset should report exact duration and timing even if that
/// costs time. Accepted for compatibility; Playhead always reports what the container states.
public let AVURLAssetPreferPreciseDurationAndTimingKey: String =
    "AVURLAssetPreferPreciseDurationAndTimingKey"

/// Options key: seconds (a `Double` or `Int`) that opening, inspecting or reading the media may
/// block on I/O (a network connection that sends nothing, say) before it fails with a
/// time-out. Default 15.
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadTimeoutKey: String = "PlayheadTimeout"

/// An asset whose media lives at a URL.
///
/// ```swift
/// let asset = AVURLAsset(url: URL(fileURLWithPath: "/media/clip.mp4"))
/// let (duration, tracks) = try await asset.load(.duration, .tracks)
/// ```
///
/// - Important: Thread-safe.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The URL the asset reads.
    public let url: URL

    /// An asset for `URL` with optional settings (see the `AVURLAsset…Key` constants).
    /// Creating an asset does no I/O; loading starts when a property is requested.
    public init(url URL: URL, options: [String: Any]? = nil) {
        var limits = MediaInspector.Limits()
        if let timeout = (options?[AVURLAssetPlayheadTimeoutKey] as? Double)
            ?? (options?[AVURLAssetPlayheadTimeoutKey] as? Int).map(Double.init), timeout > 0
        {
            limits.timeout = timeout
        }
        url = URL
        super.init(
            url: URL, limits: limits, network: AVURLAsset.networkOptions(from: options),
            sidecars: SidecarSubtitleSettings(options: options))
    }

    /// An asset named `URL` that plays `location`, a Playhead-made input such as the built-in
    /// demo (`AVURLAsset.builtInDemo()`); user URLs never get here.
    override init(url URL: URL, location: MediaLocation) {
        url = URL
        super.init(url: URL, location: location)
    }

    /// An asset for `URL` with default settings.
    public convenience init(url URL: URL) {
        self.init(url: URL, options: nil)
    }
}
