// Playhead: Core Media's text markup names (CMTextMarkup.h) beyond the four the legible output
// sets (AVSubtitleCue.swift): the keys of `AVTextStyleRule` attributes and their named values.
// The strings are the ones Apple's constants hold, so rules saved as property lists on either
// platform read on the other.
// Concurrency: immutable constants.

/// Attribute name for the colour of the box behind the whole subtitle: `[alpha, red, green,
/// blue]`, numbers from 0 to 1.
public let kCMTextMarkupAttribute_BackgroundColorARGB = "BackgroundColorARGB"
/// Attribute name for the colour behind each character: `[alpha, red, green, blue]`, 0 to 1.
public let kCMTextMarkupAttribute_CharacterBackgroundColorARGB = "CharacterBackgroundColorARGB"
/// Attribute name for a font family by name (a string such as "DejaVu Serif").
public let kCMTextMarkupAttribute_FontFamilyName = "FontFamilyName"
/// Attribute name for font family names in order of preference (an array of strings).
public let kCMTextMarkupAttribute_FontFamilyNameList = "FontFamilyNameList"
/// Attribute name for a generic font family: one of the `kCMTextMarkupGenericFontName_…` values.
public let kCMTextMarkupAttribute_GenericFontFamilyName = "GenericFontFamilyName"
/// Attribute name for the base text size as a percentage of the video's height (a number).
public let kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight =
    "BaseFontSizePercentageRelativeToVideoHeight"
/// Attribute name for the text size relative to the base size, in percent (100 leaves it).
public let kCMTextMarkupAttribute_RelativeFontSize = "RelativeFontSize"
/// Attribute name for vertical text: one of the `kCMTextVerticalLayout_…` values.
public let kCMTextMarkupAttribute_VerticalLayout = "VerticalLayout"
/// Attribute name for the alignment along the writing direction: a `kCMTextMarkupAlignmentType_…` value.
public let kCMTextMarkupAttribute_Alignment = "Alignment"
/// Attribute name for where text sits along the writing direction, as a percentage of the video.
public let kCMTextMarkupAttribute_TextPositionPercentageRelativeToWritingDirection =
    "TextPositionPercentageRelativeToWritingDirection"
/// Attribute name for where the line sits across the writing direction (for horizontal text:
/// down from the top), as a percentage of the video.
public let kCMTextMarkupAttribute_OrthogonalLinePositionPercentageRelativeToWritingDirection =
    "OrthogonalLinePositionPercentageRelativeToWritingDirection"
/// Attribute name for the width of the text area along the writing direction, in percent.
public let kCMTextMarkupAttribute_WritingDirectionSizePercentage = "WritingDirectionSizePercentage"
/// Attribute name for how character edges are drawn: a `kCMTextMarkupCharacterEdgeStyle_…` value.
public let kCMTextMarkupAttribute_CharacterEdgeStyle = "CharacterEdgeStyle"

/// Character edges drawn plainly.
public let kCMTextMarkupCharacterEdgeStyle_None = "None"
/// Characters that look raised off the picture.
public let kCMTextMarkupCharacterEdgeStyle_Raised = "Raised"
/// Characters that look pressed into the picture.
public let kCMTextMarkupCharacterEdgeStyle_Depressed = "Depressed"
/// An even outline around each character.
public let kCMTextMarkupCharacterEdgeStyle_Uniform = "Uniform"
/// A shadow below and to the right of each character.
public let kCMTextMarkupCharacterEdgeStyle_DropShadow = "DropShadow"

/// The player's usual font.
public let kCMTextMarkupGenericFontName_Default = "Default"
/// Any serif font.
public let kCMTextMarkupGenericFontName_Serif = "Serif"
/// Any sans-serif font.
public let kCMTextMarkupGenericFontName_SansSerif = "SansSerif"
/// Any fixed-width font.
public let kCMTextMarkupGenericFontName_Monospace = "Monospace"
/// A proportional serif font.
public let kCMTextMarkupGenericFontName_ProportionalSerif = "ProportionalSerif"
/// A proportional sans-serif font.
public let kCMTextMarkupGenericFontName_ProportionalSansSerif = "ProportionalSansSerif"
/// A fixed-width serif font.
public let kCMTextMarkupGenericFontName_MonospaceSerif = "MonospaceSerif"
/// A fixed-width sans-serif font.
public let kCMTextMarkupGenericFontName_MonospaceSansSerif = "MonospaceSansSerif"
/// An informal font.
public let kCMTextMarkupGenericFontName_Casual = "Casual"
/// A handwriting-like font.
public let kCMTextMarkupGenericFontName_Cursive = "Cursive"
/// A decorative font.
public let kCMTextMarkupGenericFontName_Fantasy = "Fantasy"
/// A small-capitals font.
public let kCMTextMarkupGenericFontName_SmallCapital = "SmallCapital"

/// Text aligned at the start of the writing direction.
public let kCMTextMarkupAlignmentType_Start = "Start"
/// Text centred along the writing direction.
public let kCMTextMarkupAlignmentType_Middle = "Middle"
/// Text aligned at the end of the writing direction.
public let kCMTextMarkupAlignmentType_End = "End"
/// Text aligned to the left.
public let kCMTextMarkupAlignmentType_Left = "Left"
/// Text aligned to the right.
public let kCMTextMarkupAlignmentType_Right = "Right"

/// Vertical text whose lines follow each other from left to right.
public let kCMTextVerticalLayout_LeftToRight = "LeftToRight"
/// Vertical text whose lines follow each other from right to left.
public let kCMTextVerticalLayout_RightToLeft = "RightToLeft"
