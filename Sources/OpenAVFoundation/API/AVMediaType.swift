// Playhead: the kinds of media a track can carry.

/// The type of media in a track, identified by Apple's four-character strings.
public struct AVMediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character identifier, e.g. "vide".
    public let rawValue: String

    /// The media type with this identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The media type with this identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Video ("vide").
    public static let video = AVMediaType("vide")
    /// Audio ("soun").
    public static let audio = AVMediaType("soun")
    /// Timed text ("text").
    public static let text = AVMediaType("text")
    /// Closed captions ("clcp").
    public static let closedCaption = AVMediaType("clcp")
    /// Subtitles ("sbtl").
    public static let subtitle = AVMediaType("sbtl")
    /// Timecode ("tmcd").
    public static let timecode = AVMediaType("tmcd")
    /// Timed metadata and other data ("meta").
    public static let metadata = AVMediaType("meta")
    /// Muxed audio and video ("muxx").
    public static let muxed = AVMediaType("muxx")

    public var description: String { rawValue }
}
