// Playhead: properties a track or media option can have (audible, legible, visual, ...).

/// A characteristic of media, such as being audible or legible.
public struct AVMediaCharacteristic: RawRepresentable, Hashable, Sendable {
    /// The characteristic's identifier.
    public let rawValue: String
    /// The characteristic with this identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The characteristic with this identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Media that can be heard.
    public static let audible = AVMediaCharacteristic("public.audible")
    /// Media that can be read: subtitles and captions.
    public static let legible = AVMediaCharacteristic("public.legible")
    /// Media that can be seen.
    public static let visual = AVMediaCharacteristic("public.visual")
    /// Subtitles that contain only forced subtitles.
    public static let containsOnlyForcedSubtitles = AVMediaCharacteristic(
        "public.subtitles.forced-only")
    /// Text that transcribes spoken dialogue for accessibility.
    public static let transcribesSpokenDialogForAccessibility = AVMediaCharacteristic(
        "public.accessibility.transcribes-spoken-dialog")
    /// Text that describes music and sound for accessibility.
    public static let describesMusicAndSoundForAccessibility = AVMediaCharacteristic(
        "public.accessibility.describes-music-and-sound")
    /// Sound that describes the picture for accessibility (audio description).
    public static let describesVideoForAccessibility = AVMediaCharacteristic("public.accessibility.describes-video")
    /// The program itself, not extra material.
    public static let isMainProgramContent = AVMediaCharacteristic("public.main-program-content")
    /// Extra material beside the program (a commentary).
    public static let isAuxiliaryContent = AVMediaCharacteristic("public.auxiliary-content")
    /// The program's original language version.
    public static let isOriginalContent = AVMediaCharacteristic("public.original-content")
    /// Text written to be easy to read.
    public static let easyToRead = AVMediaCharacteristic("public.easy-to-read")
    /// A translation of the original language.
    public static let languageTranslation = AVMediaCharacteristic("public.translation")
    /// A translation spoken in place of the original dialogue.
    public static let dubbedTranslation = AVMediaCharacteristic("public.translation.dubbed")
    /// A translation spoken over the original dialogue.
    public static let voiceOverTranslation = AVMediaCharacteristic("public.translation.voice-over")
    /// Video with a high dynamic range transfer function (PQ or HLG).
    public static let containsHDRVideo = AVMediaCharacteristic("public.contains-hdr-video")
}
