// Playhead: the flattening of libass-style coverage masks into one RGBA picture: bounds,
// clipping, "over" blending in order and straight alpha out.
import Testing

@testable import OpenAVKit

@Suite struct SubtitleBitmapCompositorTests {
    /// Flattens masks made of constant coverage.
    func flatten(
        _ masks: [(x: Int, y: Int, width: Int, height: Int, coverage: UInt8, color: UInt32)],
        frame: (Int, Int) = (100, 100)
    ) -> SubtitlePicture {
        let buffers = masks.map { [UInt8](repeating: $0.coverage, count: $0.width * $0.height) }
        var storage: [UInt8] = []
        return withExtendedLifetime(buffers) {
            let made = zip(masks, buffers).map { mask, buffer in
                SubtitleMask(
                    x: mask.x, y: mask.y, width: mask.width, height: mask.height, stride: mask.width,
                    bitmap: buffer.withUnsafeBufferPointer { $0.baseAddress! }, color: mask.color)
            }
            return SubtitleBitmapCompositor.flatten(made, frameWidth: frame.0, frameHeight: frame.1, reusing: &storage)
        }
    }

    func pixel(_ picture: SubtitlePicture, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = ((y - picture.y) * picture.width + (x - picture.x)) * 4
        return Array(picture.rgba[offset..<offset + 4])
    }

    @Test func theBoxCoversEveryVisibleMaskAndIsClippedToTheFrame() {
        let picture = flatten([
            (x: 10, y: 20, width: 5, height: 5, coverage: 255, color: 0xFF00_0000),
            (x: 95, y: 90, width: 20, height: 20, coverage: 255, color: 0x00FF_0000),
            // Fully transparent colour: ignored.
            (x: 0, y: 0, width: 5, height: 5, coverage: 255, color: 0xFFFF_FFFF),
        ])
        #expect((picture.x, picture.y, picture.width, picture.height) == (10, 20, 90, 80))
        #expect(pixel(picture, 10, 20) == [255, 0, 0, 255])
        #expect(pixel(picture, 99, 99) == [0, 255, 0, 255])
        #expect(pixel(picture, 50, 50) == [0, 0, 0, 0])
    }

    @Test func laterMasksBlendOverEarlierOnesWithStraightAlphaOut() {
        // A half-transparent black shadow, then a white glyph at half coverage over part of it.
        let picture = flatten([
            (x: 0, y: 0, width: 4, height: 1, coverage: 255, color: 0x0000_0080),
            (x: 2, y: 0, width: 2, height: 1, coverage: 128, color: 0xFFFF_FF00),
        ])
        // Shadow alone: black at alpha 127.
        #expect(pixel(picture, 0, 0) == [0, 0, 0, 127])
        // White (k = 128) over it: alpha 128 + 127 * 127 / 255 ≈ 191; colour 128 * 255 / 191 ≈ 171.
        let mixed = pixel(picture, 3, 0)
        #expect(abs(Int(mixed[3]) - 191) <= 1)
        #expect(mixed[0] == mixed[1] && mixed[1] == mixed[2])
        #expect(abs(Int(mixed[0]) - 171) <= 2)
    }

    @Test func nothingVisibleIsAnEmptyPicture() {
        #expect(flatten([]).isEmpty)
        #expect(flatten([(x: 200, y: 200, width: 5, height: 5, coverage: 255, color: 0xFF00_0000)]).isEmpty)
    }
}
