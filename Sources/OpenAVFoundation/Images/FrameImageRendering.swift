// Playhead: turns a decoded video frame into a CGImage: display aspect, size limit, rotation.
import FFmpegBridge
import Foundation

// Concurrency: `FrameImageRendering` is a value of settings; `render` runs on the caller's
// thread (the image generator's work queue) with a scaler that thread owns.

/// How an image generator shapes frames into images.
struct FrameImageRendering: Sendable, Equatable {
    /// The largest image wanted; a zero width or height leaves that side unconstrained.
    var maximumSize: CGSize = .zero
    /// Clockwise quarter turns to apply (the track's rotation), 0 when not applied.
    var rotationDegrees = 0

    /// The size of `frame` on screen: its width stretched by the pixel aspect ratio.
    static func displaySize(width: Int, height: Int, aspect: SampleAspect?) -> (Int, Int) {
        guard let aspect, aspect.numerator > 0, aspect.denominator > 0,
            aspect.numerator != aspect.denominator
        else { return (width, height) }
        let stretched = (Double(width) * Double(aspect.numerator) / Double(aspect.denominator)).rounded()
        return (max(1, Int(stretched)), height)
    }

    /// `size` shrunk (never enlarged), keeping its aspect ratio, to fit `limit`.
    static func fit(_ size: (Int, Int), into limit: CGSize) -> (Int, Int) {
        let (width, height) = size
        var scale = 1.0
        if limit.width > 0 { scale = min(scale, Double(limit.width) / Double(width)) }
        if limit.height > 0 { scale = min(scale, Double(limit.height) / Double(height)) }
        guard scale < 1 else { return size }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The image for `frame`, or nil when the pixel conversion fails.
    func render(_ frame: VideoFrame, using scaler: Scaler) -> CGImage? {
        let quarterTurns = ((rotationDegrees % 360) + 360) % 360 / 90
        let display = Self.displaySize(width: frame.width, height: frame.height, aspect: frame.sampleAspect)
        // The limit applies to the final (turned) image.
        let limit = quarterTurns % 2 == 1
            ? CGSize(width: maximumSize.height, height: maximumSize.width) : maximumSize
        let (width, height) = Self.fit(display, into: limit)
        guard let rgba = frame.converted(to: .rgba, width: width, height: height, using: scaler) else {
            return nil
        }
        let bytes = rgba.packedBytes()
        guard bytes.count == width * height * 4 else { return nil }
        guard quarterTurns != 0 else { return CGImage(width: width, height: height, rgbaBytes: bytes, isOpaque: true) }
        return Self.turn(bytes, width: width, height: height, quarterTurns: quarterTurns)
    }

    /// Rotates packed RGBA pixels clockwise by `quarterTurns` × 90°.
    static func turn(_ bytes: [UInt8], width: Int, height: Int, quarterTurns: Int) -> CGImage? {
        let swaps = quarterTurns % 2 == 1
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var output = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { source in
            let pixels = source.bindMemory(to: UInt32.self)
            output.withUnsafeMutableBytes { target in
                let out = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width {
                        let (nx, ny): (Int, Int)
                        switch quarterTurns {
                        case 1: (nx, ny) = (height - 1 - y, x)
                        case 2: (nx, ny) = (width - 1 - x, height - 1 - y)
                        default: (nx, ny) = (y, width - 1 - x)
                        }
                        out[ny * outWidth + nx] = pixels[y * width + x]
                    }
                }
            }
        }
        return CGImage(width: outWidth, height: outHeight, rgbaBytes: output, isOpaque: true)
    }
}
