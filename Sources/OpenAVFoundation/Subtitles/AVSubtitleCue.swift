// Playhead: one subtitle cue as handed to apps: timing, styled text runs, position, pictures.
// Concurrency: Sendable values.
import Foundation

/// One subtitle shown for a stretch of the timeline: styled text (from SubRip, WebVTT,
/// mov_text or ASS/SSA) or pictures (PGS, DVB, DVD), with where to put it.
///
/// Delivered by ``AVPlayerItemLegibleOutput`` to delegates that implement
/// `legibleOutput(_:didOutputCues:forItemTime:)`; the text alone also arrives as attributed
/// strings through Apple's delegate method.
///
/// - Note: A Playhead addition; Apple hands native sample buffers instead.
public struct AVSubtitleCue: Sendable, Equatable {
    /// When the cue shows, on the item timeline.
    public var timeRange: CMTimeRange
    /// The text runs in order; lines are separated by "\n" inside runs. Empty for bitmap cues.
    public var runs: [AVSubtitleTextRun]
    /// Where to anchor the text, as a fraction of the video's width and height (0...1), when
    /// the subtitle says (ASS `\pos`); nil means the usual place given by `alignment`.
    public var position: (x: Double, y: Double)? {
        get { positionX.flatMap { x in positionY.map { (x, $0) } } }
        set {
            positionX = newValue?.x
            positionY = newValue?.y
        }
    }
    /// Where the text sits, as on a numeric keypad: 1–3 bottom (left, centre, right), 4–6
    /// middle, 7–9 top. 2 (bottom centre) unless the subtitle says otherwise.
    public var alignment: Int
    /// Pictures to draw, for bitmap subtitles.
    public var bitmaps: [AVSubtitleBitmap]

    private var positionX: Double?
    private var positionY: Double?

    /// A cue.
    public init(
        timeRange: CMTimeRange, runs: [AVSubtitleTextRun], alignment: Int = 2,
        position: (x: Double, y: Double)? = nil, bitmaps: [AVSubtitleBitmap] = []
    ) {
        self.timeRange = timeRange
        self.runs = runs
        self.alignment = alignment
        self.bitmaps = bitmaps
        self.positionX = position?.x
        self.positionY = position?.y
    }

    /// The text without styling.
    public var text: String { runs.map(\.text).joined() }

    /// The text with its styling as an attributed string, using Core Media's text-markup
    /// attribute names (`kCMTextMarkupAttribute_BoldStyle`, ...) as Apple's legible output does.
    public var attributedString: NSAttributedString {
        let result = NSMutableAttributedString(string: "")
        for run in runs {
            var attributes: [NSAttributedString.Key: Any] = [:]
            if run.isBold {
                attributes[NSAttributedString.Key(kCMTextMarkupAttribute_BoldStyle)] = true
            }
            if run.isItalic {
                attributes[NSAttributedString.Key(kCMTextMarkupAttribute_ItalicStyle)] = true
            }
            if run.isUnderlined {
                attributes[NSAttributedString.Key(kCMTextMarkupAttribute_UnderlineStyle)] = true
            }
            if let colour = run.color {
                attributes[NSAttributedString.Key(kCMTextMarkupAttribute_ForegroundColorARGB)] =
                    [colour.alpha, colour.red, colour.green, colour.blue]
            }
            result.append(NSAttributedString(string: run.text, attributes: attributes))
        }
        return result
    }

    /// Cues are equal when their timing, text, placement and pictures are.
    public static func == (lhs: AVSubtitleCue, rhs: AVSubtitleCue) -> Bool {
        lhs.timeRange == rhs.timeRange && lhs.runs == rhs.runs && lhs.alignment == rhs.alignment
            && lhs.positionX == rhs.positionX && lhs.positionY == rhs.positionY
            && lhs.bitmaps == rhs.bitmaps
    }
}

/// A stretch of subtitle text with one style.
public struct AVSubtitleTextRun: Sendable, Equatable {
    /// The text; "\n" breaks lines.
    public var text: String
    /// Bold (ASS `\b1`, `<b>`).
    public var isBold: Bool
    /// Italic (ASS `\i1`, `<i>`).
    public var isItalic: Bool
    /// Underlined (ASS `\u1`, `<u>`).
    public var isUnderlined: Bool
    /// The text colour, when the subtitle sets one (otherwise the renderer's default white).
    public var color: AVSubtitleColor?

    /// A run.
    public init(
        text: String, isBold: Bool = false, isItalic: Bool = false, isUnderlined: Bool = false,
        color: AVSubtitleColor? = nil
    ) {
        self.text = text
        self.isBold = isBold
        self.isItalic = isItalic
        self.isUnderlined = isUnderlined
        self.color = color
    }
}

/// An RGBA colour with components from 0 to 1.
public struct AVSubtitleColor: Sendable, Equatable {
    /// The red component, 0...1.
    public var red: Double
    /// The green component, 0...1.
    public var green: Double
    /// The blue component, 0...1.
    public var blue: Double
    /// The opacity, 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// A subtitle picture and where it goes on the video.
public struct AVSubtitleBitmap: Sendable, Equatable {
    /// The picture's left edge, as a fraction of the video's width (0...1).
    public var x: Double
    /// The picture's top edge, as a fraction of the video's height (0...1).
    public var y: Double
    /// The picture's width, as a fraction of the video's width.
    public var width: Double
    /// The picture's height, as a fraction of the video's height.
    public var height: Double
    /// The picture's width in pixels.
    public var pixelWidth: Int
    /// The picture's height in pixels.
    public var pixelHeight: Int
    /// `pixelWidth * pixelHeight * 4` bytes of RGBA (straight alpha), row after row.
    public var rgba: [UInt8]

    /// A picture.
    public init(
        x: Double, y: Double, width: Double, height: Double, pixelWidth: Int, pixelHeight: Int,
        rgba: [UInt8]
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.rgba = rgba
    }
}

/// Attribute name for bold text in legible output attributed strings (value: `true`).
public let kCMTextMarkupAttribute_BoldStyle = "BoldStyle"
/// Attribute name for italic text in legible output attributed strings (value: `true`).
public let kCMTextMarkupAttribute_ItalicStyle = "ItalicStyle"
/// Attribute name for underlined text in legible output attributed strings (value: `true`).
public let kCMTextMarkupAttribute_UnderlineStyle = "UnderlineStyle"
/// Attribute name for the text colour: `[alpha, red, green, blue]` as Doubles from 0 to 1.
public let kCMTextMarkupAttribute_ForegroundColorARGB = "ForegroundColorARGB"
