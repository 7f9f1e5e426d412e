// Playhead: synthetic pictures (YUV 4:2:0 or RGBA) built pixel by pixel for rendering tests.
import FFmpegBridge

@testable import OpenAVKit

/// A picture whose planes a test fills.
final class TestPicture: DisplayablePicture, @unchecked Sendable {
    let width: Int
    let height: Int
    let sampleAspect: SampleAspect?
    let pixelFormatName: String
    /// Plane bytes, strides and row counts; never mutated after init.
    private let planes: [[UInt8]]
    private let strides: [Int]
    private let rows: [Int]

    private init(
        width: Int, height: Int, sampleAspect: SampleAspect?, format: String, planes: [[UInt8]],
        strides: [Int], rows: [Int]
    ) {
        self.width = width
        self.height = height
        self.sampleAspect = sampleAspect
        pixelFormatName = format
        self.planes = planes
        self.strides = strides
        self.rows = rows
    }

    /// A yuv420p picture of one colour (BT.601 limited range: 235/128/128 is white).
    static func yuv(
        width: Int, height: Int, y: UInt8, u: UInt8 = 128, v: UInt8 = 128,
        sampleAspect: SampleAspect? = nil
    ) -> TestPicture {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        return TestPicture(
            width: width, height: height, sampleAspect: sampleAspect, format: "yuv420p",
            planes: [
                [UInt8](repeating: y, count: width * height),
                [UInt8](repeating: u, count: chromaWidth * chromaHeight),
                [UInt8](repeating: v, count: chromaWidth * chromaHeight),
            ], strides: [width, chromaWidth, chromaWidth], rows: [height, chromaHeight, chromaHeight])
    }

    /// An RGBA picture whose pixel at (x, y) is `color(x, y)`.
    static func rgba(
        width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)
    ) -> TestPicture {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                let (red, green, blue) = color(column, row)
                bytes += [red, green, blue, 255]
            }
        }
        return TestPicture(
            width: width, height: height, sampleAspect: nil, format: "rgba", planes: [bytes],
            strides: [width * 4], rows: [height])
    }

    func withPlane<R>(
        _ index: Int, _ body: (UnsafeRawBufferPointer, _ bytesPerRow: Int, _ rows: Int) throws -> R
    ) rethrows -> R {
        try planes[index].withUnsafeBytes { try body($0, strides[index], rows[index]) }
    }

    func convertedToRGBA(using scaler: Scaler) -> (any DisplayablePicture)? {
        pixelFormatName == "rgba" ? self : nil
    }
}
