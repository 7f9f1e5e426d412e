// Playhead: how video is meant to be viewed: which eyes its pictures carry and the surface
// they are projected on, as Core Media names them (stereo and 360°/180° video).
// Concurrency: value types; safe from any thread.

/// The views a stereo picture carries: none (a flat, monoscopic picture), or a picture for
/// each eye.
public struct CMStereoViewComponents: OptionSet, Hashable, Sendable {
    /// The bits, as Core Media's `kCMStereoView_…` constants give them.
    public let rawValue: UInt64

    /// Components from their bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The picture for the left eye.
    public static let leftEye = CMStereoViewComponents(rawValue: 1 << 0)
    /// The picture for the right eye.
    public static let rightEye = CMStereoViewComponents(rawValue: 1 << 1)
}

/// The surface a video is projected on, by the four-character code Core Media gives it.
public enum CMProjectionType: FourCharCode, Hashable, Sendable {
    /// A flat rectangle: ordinary video ('rect').
    case rectangular = 0x7265_6374
    /// A full 360° sphere mapped by longitude and latitude ('equi').
    case equirectangular = 0x6571_7569
    /// The front 180° half of such a sphere ('hequ').
    case halfEquirectangular = 0x6865_7175
    /// A fisheye lens's picture ('fish').
    case fisheye = 0x6669_7368
    /// A projection described by lens parameters carried with the video ('prim').
    case parametricImmersive = 0x7072_696D
}
