// Playhead: the picture a player layer shows: a decoded video frame, or a test's own pixels.
//
// Concurrency: pictures are immutable and may be read from any thread.
import FFmpegBridge
import OpenCoreMedia

/// A picture a player layer can draw.
protocol DisplayablePicture: AnyObject, Sendable {
    /// Width in pixels (before the sample aspect ratio).
    var width: Int { get }
    /// Height in pixels.
    var height: Int { get }
    /// The pixel aspect ratio, when not square.
    var sampleAspect: SampleAspect? { get }
    /// FFmpeg's pixel format name: "yuv420p" uploads as is, "rgba" too, others get converted.
    var pixelFormatName: String { get }
    /// Lends plane `index`'s bytes, its stride and its row count to `body`.
    func withPlane<R>(
        _ index: Int, _ body: (UnsafeRawBufferPointer, _ bytesPerRow: Int, _ rows: Int) throws -> R
    ) rethrows -> R
    /// The picture converted to RGBA, or nil when that fails.
    func convertedToRGBA(using scaler: Scaler) -> (any DisplayablePicture)?
    /// When the picture shows on the item timeline; nil when it has no time (test pictures).
    var presentationTime: CMTime? { get }
    /// How the picture's YUV samples become colours; nil when it does not say (test pictures).
    var pictureColour: PictureColour? { get }
}

extension DisplayablePicture {
    /// No time.
    var presentationTime: CMTime? { nil }
    /// No colour description.
    var pictureColour: PictureColour? { nil }
}

extension VideoFrame: DisplayablePicture {
    var presentationTime: CMTime? { pts.isNumeric ? pts : nil }
    var pictureColour: PictureColour? { colour }

    func convertedToRGBA(using scaler: Scaler) -> (any DisplayablePicture)? {
        converted(to: .rgba, using: scaler)
    }
}
