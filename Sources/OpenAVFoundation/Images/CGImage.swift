// Playhead: an immutable RGBA bitmap, the Linux stand-in for Core Graphics' CGImage.
import FFmpegBridge
import Foundation

// Concurrency: a `CGImage` never changes after init, so it is shared freely across threads.

/// A decoded still picture: 8-bit red, green, blue, alpha per pixel, rows top to bottom
/// with no padding.
///
/// `AVAssetImageGenerator` returns these. Read the pixels with `rgbaBytes` or
/// `pixel(x:y:)`, or save the picture with `pngData()` / `jpegData(compressionQuality:)`.
///
/// - Note: Differs from AVFoundation: Core Graphics is not on Linux, so OpenAVFoundation
///   supplies this type with Core Graphics' name and its size members (`width`, `height`,
///   `bitsPerComponent`, `bitsPerPixel`, `bytesPerRow`), so code that stores or measures
///   generated images ports unchanged. Drawing (`CGContext`) is not provided; the PNG and
///   JPEG encoders and pixel access are Playhead additions.
public final class CGImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels: `height` rows of `width` RGBA quadruplets. A Playhead addition.
    public let rgbaBytes: [UInt8]

    /// Bits per colour component: always 8.
    public var bitsPerComponent: Int { 8 }
    /// Bits per pixel: always 32 (RGBA).
    public var bitsPerPixel: Int { 32 }
    /// Bytes from one row to the next: `width * 4` (rows are packed).
    public var bytesPerRow: Int { width * 4 }

    /// True when every pixel's alpha is 255 (known for decoded video frames).
    let isOpaque: Bool

    /// A picture of `width`×`height` from packed RGBA bytes; nil when the sizes disagree.
    ///
    /// - Note: A Playhead addition (Core Graphics builds images from data providers).
    public convenience init?(width: Int, height: Int, rgbaBytes: [UInt8]) {
        self.init(width: width, height: height, rgbaBytes: rgbaBytes, isOpaque: false)
    }

    /// A picture whose opacity the caller knows (video frames are opaque).
    init?(width: Int, height: Int, rgbaBytes: [UInt8], isOpaque: Bool) {
        guard width > 0, height > 0, rgbaBytes.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.rgbaBytes = rgbaBytes
        self.isOpaque = isOpaque
    }

    /// The red, green, blue and alpha values at column `x`, row `y` (row 0 at the top).
    ///
    /// - Note: A Playhead addition.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let offset = (y * width + x) * 4
        return (rgbaBytes[offset], rgbaBytes[offset + 1], rgbaBytes[offset + 2], rgbaBytes[offset + 3])
    }

    /// The picture encoded as a PNG file (lossless, with alpha), by libavcodec.
    ///
    /// - Note: A Playhead addition (on Apple platforms use ImageIO).
    /// - Throws: an `NSError` when encoding fails.
    public func pngData() throws -> Data {
        try encoded(as: .png)
    }

    /// The picture encoded as a JPEG file, by libavcodec.
    ///
    /// - Parameter compressionQuality: 0 (smallest file) to 1 (best picture).
    /// - Note: A Playhead addition (on Apple platforms use ImageIO).
    /// - Throws: an `NSError` when encoding fails.
    public func jpegData(compressionQuality: Double = 0.9) throws -> Data {
        try encoded(as: .jpeg(quality: compressionQuality))
    }

    /// Writes the picture to `url` as PNG or JPEG, chosen by the extension (.png, .jpg,
    /// .jpeg).
    ///
    /// - Note: A Playhead addition.
    /// - Throws: an `NSError` for an unknown extension, an encoding failure or a write failure.
    public func write(to url: URL) throws {
        guard let format = ImageFileFormat(pathExtension: url.pathExtension) else {
            throw AVError(
                .operationNotSupportedForAsset,
                description: "unknown image type '.\(url.pathExtension)' (use .png, .jpg or .jpeg)"
            ).nsError
        }
        try encoded(as: format).write(to: url)
    }

    private func encoded(as format: ImageFileFormat) throws -> Data {
        do throws(MediaFailure) {
            return Data(try ImageEncoder.encode(
                rgba: rgbaBytes, width: width, height: height, as: format, isOpaque: isOpaque))
        } catch {
            throw error.nsError(input: "image")
        }
    }
}
