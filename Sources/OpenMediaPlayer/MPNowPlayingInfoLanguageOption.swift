// Playhead: the audio and subtitle languages an item offers, as now-playing info and as the
// language option commands (Apple's MediaPlayer names). MPRIS has no languages: the keys are
// accepted and not shown, and the commands are never sent on Linux.
//
// Concurrency: options and groups are immutable once made.
import Foundation
import OpenAVFoundation

// The characteristics of a language option are the values of `AVMediaCharacteristic`.

/// The program itself, not extra material.
public let MPLanguageOptionCharacteristicIsMainProgramContent = AVMediaCharacteristic
    .isMainProgramContent.rawValue
/// Extra material beside the program.
public let MPLanguageOptionCharacteristicIsAuxiliaryContent = AVMediaCharacteristic
    .isAuxiliaryContent.rawValue
/// Subtitles that hold only forced lines.
public let MPLanguageOptionCharacteristicContainsOnlyForcedSubtitles =
    AVMediaCharacteristic.containsOnlyForcedSubtitles.rawValue
/// Text that transcribes the dialogue for accessibility.
public let MPLanguageOptionCharacteristicTranscribesSpokenDialog =
    AVMediaCharacteristic.transcribesSpokenDialogForAccessibility.rawValue
/// Text that describes music and sound for accessibility.
public let MPLanguageOptionCharacteristicDescribesMusicAndSound =
    AVMediaCharacteristic.describesMusicAndSoundForAccessibility.rawValue
/// Text written to be easy to read.
public let MPLanguageOptionCharacteristicEasyToRead = AVMediaCharacteristic.easyToRead.rawValue
/// Sound that describes the picture.
public let MPLanguageOptionCharacteristicDescribesVideo = AVMediaCharacteristic
    .describesVideoForAccessibility.rawValue
/// A translation of the original language.
public let MPLanguageOptionCharacteristicLanguageTranslation = AVMediaCharacteristic
    .languageTranslation.rawValue
/// A translation spoken in place of the original dialogue.
public let MPLanguageOptionCharacteristicDubbedTranslation = AVMediaCharacteristic.dubbedTranslation
    .rawValue
/// A translation spoken over the original dialogue.
public let MPLanguageOptionCharacteristicVoiceOverTranslation = AVMediaCharacteristic
    .voiceOverTranslation.rawValue

/// The language tag of the option that stands for "the best language for the user's settings".
public let MPLangaugeOptionAutoLangaugeTag = "Auto"

/// The language option groups the item offers (`[MPNowPlayingInfoLanguageOptionGroup]`;
/// accepted, not shown: MPRIS has no languages).
public let MPNowPlayingInfoPropertyAvailableLanguageOptions =
    "MPNowPlayingInfoPropertyAvailableLanguageOptions"
/// The language options playing now (`[MPNowPlayingInfoLanguageOption]`; accepted, not shown).
public let MPNowPlayingInfoPropertyCurrentLanguageOptions =
    "MPNowPlayingInfoPropertyCurrentLanguageOptions"

/// Whether a language option is heard (audio) or read (subtitles, captions).
public enum MPNowPlayingInfoLanguageOptionType: UInt, Sendable {
    /// A language of the sound.
    case audible = 0
    /// A language of the subtitles or captions.
    case legible = 1
}

/// One language the item can play in: a sound track's or a subtitle track's.
open class MPNowPlayingInfoLanguageOption: NSObject, @unchecked Sendable {
    /// Heard or read.
    public let languageOptionType: MPNowPlayingInfoLanguageOptionType
    /// The BCP 47 language tag; nil turns this kind of option off; ``MPLangaugeOptionAutoLangaugeTag``
    /// picks the best for the user's settings.
    public let languageTag: String?
    /// What the option is (``MPLanguageOptionCharacteristicIsMainProgramContent`` and the rest).
    public let languageOptionCharacteristics: [String]?
    /// The name to show.
    public let displayName: String?
    /// The app's identifier for the option.
    public let identifier: String?

    /// An option of `type` in `languageTag`, with its characteristics, name and identifier.
    public init(
        type languageOptionType: MPNowPlayingInfoLanguageOptionType, languageTag: String,
        characteristics: [String]?,
        displayName: String, identifier: String
    ) {
        self.languageOptionType = languageOptionType
        self.languageTag = languageTag
        languageOptionCharacteristics = characteristics
        self.displayName = displayName
        self.identifier = identifier
        super.init()
    }

    /// True for the subtitle option that means "the best for the user's settings".
    open func isAutomaticLegibleLanguageOption() -> Bool {
        languageOptionType == .legible && languageTag == MPLangaugeOptionAutoLangaugeTag
    }

    /// True for the sound option that means "the best for the user's settings".
    open func isAutomaticAudibleLanguageOption() -> Bool {
        languageOptionType == .audible && languageTag == MPLangaugeOptionAutoLangaugeTag
    }
}

/// Language options of which one at most plays at a time (the sound tracks, or the subtitles).
open class MPNowPlayingInfoLanguageOptionGroup: NSObject, @unchecked Sendable {
    /// The options, in order.
    public let languageOptions: [MPNowPlayingInfoLanguageOption]
    /// The option chosen when the user has not chosen one.
    public let defaultLanguageOption: MPNowPlayingInfoLanguageOption?
    /// Whether none of the options may be chosen (subtitles off).
    public let allowEmptySelection: Bool

    /// A group of `languageOptions`.
    public init(
        languageOptions: [MPNowPlayingInfoLanguageOption],
        defaultLanguageOption: MPNowPlayingInfoLanguageOption?,
        allowEmptySelection: Bool
    ) {
        self.languageOptions = languageOptions
        self.defaultLanguageOption = defaultLanguageOption
        self.allowEmptySelection = allowEmptySelection
        super.init()
    }
}

/// How long a language chosen from a remote control holds.
public enum MPChangeLanguageOptionSetting: Int, Sendable {
    /// Not said.
    case none = 0
    /// For the item playing only.
    case nowPlayingItemOnly = 1
    /// From now on.
    case permanent = 2
}

/// An event asking playback to turn a language option on or off.
open class MPChangeLanguageOptionCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The option to turn on or off.
    public let languageOption: MPNowPlayingInfoLanguageOption
    /// How long the choice holds.
    public let setting: MPChangeLanguageOptionSetting

    init(
        command: MPRemoteCommand, languageOption: MPNowPlayingInfoLanguageOption,
        setting: MPChangeLanguageOptionSetting
    ) {
        self.languageOption = languageOption
        self.setting = setting
        super.init(command: command)
    }
}

extension AVMediaSelectionOption {
    /// This option as a now-playing language option: audible for sound, legible for
    /// subtitles and captions, with its language, name and characteristics.
    public func makeNowPlayingInfoLanguageOption() -> MPNowPlayingInfoLanguageOption {
        let known: [AVMediaCharacteristic] = [
            .isMainProgramContent, .isAuxiliaryContent, .containsOnlyForcedSubtitles,
            .transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility,
            .easyToRead,
            .describesVideoForAccessibility, .languageTranslation, .dubbedTranslation,
            .voiceOverTranslation,
        ]
        return MPNowPlayingInfoLanguageOption(
            type: mediaType == .audio ? .audible : .legible,
            languageTag: extendedLanguageTag ?? "und",
            characteristics: known.filter(hasMediaCharacteristic).map(\.rawValue),
            displayName: displayName,
            identifier: "\(propertyList())")
    }
}

extension AVMediaSelectionGroup {
    /// This group as a now-playing language option group: its options, its default and
    /// whether it may have none chosen.
    public func makeNowPlayingInfoLanguageOptionGroup() -> MPNowPlayingInfoLanguageOptionGroup {
        let made = options.map { $0.makeNowPlayingInfoLanguageOption() }
        let defaultIndex = defaultOption.flatMap { chosen in options.firstIndex { $0 == chosen } }
        return MPNowPlayingInfoLanguageOptionGroup(
            languageOptions: made, defaultLanguageOption: defaultIndex.map { made[$0] },
            allowEmptySelection: allowsEmptySelection)
    }
}
