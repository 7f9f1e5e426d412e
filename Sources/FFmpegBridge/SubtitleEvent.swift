// Playhead: what a subtitle decoder produced, as plain Sendable values.
// Concurrency: immutable Sendable values.
import OpenCoreMedia

/// One decoded subtitle: a time range and either text (as ASS event lines, the form FFmpeg
/// gives every text codec: SubRip, WebVTT, mov_text, ASS/SSA) or bitmaps (PGS, DVB, DVD).
/// An event with neither clears the screen at `start` (bitmap codecs end cues that way).
package struct SubtitleEvent: Sendable, Equatable {
    /// When the subtitle appears, on the item timeline.
    package var start: CMTime
    /// When it disappears; nil when the stream does not say (the next event ends it).
    package var end: CMTime?
    /// ASS "Dialogue" payloads: `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`.
    package var assLines: [String]
    /// Pictures to draw, in canvas pixels.
    package var bitmaps: [SubtitleBitmap]
    /// The size of the picture `bitmaps` are placed on (the video's coded size for DVD and
    /// DVB, the presentation size for PGS); 0 when unknown.
    package var canvasWidth: Int
    package var canvasHeight: Int

    package init(
        start: CMTime, end: CMTime?, assLines: [String] = [], bitmaps: [SubtitleBitmap] = [],
        canvasWidth: Int = 0, canvasHeight: Int = 0
    ) {
        self.start = start
        self.end = end
        self.assLines = assLines
        self.bitmaps = bitmaps
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    /// True when the event shows nothing (a "clear screen" event).
    package var isClear: Bool { assLines.isEmpty && bitmaps.isEmpty }
}

/// A subtitle picture converted to RGBA (8 bits per channel, straight alpha, rows packed).
package struct SubtitleBitmap: Sendable, Equatable {
    /// Left edge on the canvas, in pixels.
    package var x: Int
    /// Top edge on the canvas, in pixels.
    package var y: Int
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width * height * 4` bytes, row after row.
    package var rgba: [UInt8]

    package init(x: Int, y: Int, width: Int, height: Int, rgba: [UInt8]) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
