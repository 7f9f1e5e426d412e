// Playhead: the compositor that flattens libass's masks only where they cover, checked pixel for
// pixel against flattening the masks' whole bounding box at once (the earlier algorithm, kept
// here as the reference), on random overlapping, touching, clipped and transparent masks.
import Testing

@testable import OpenAVKit

@Suite struct SubtitleBitmapCompositorTests {
    /// A small deterministic generator (the tests must not depend on the run).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// The frame as RGBA rows from the compositor's pieces (transparent elsewhere).
    static func frame(of picture: SubtitlePicture, width: Int, height: Int) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: width * height * 4)
        for piece in picture.pieces {
            for row in 0..<piece.height {
                for byte in 0..<(piece.width * 4) {
                    frame[((piece.y + row) * width + piece.x) * 4 + byte] =
                        picture.rgba[piece.offset + row * piece.width * 4 + byte]
                }
            }
        }
        return frame
    }

    /// The earlier algorithm: every mask blended over the bounding box of all of them.
    static func reference(_ masks: [SubtitleMask], width frameWidth: Int, height frameHeight: Int) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: frameWidth * frameHeight * 4)
        var left = Int.max, top = Int.max, right = Int.min, bottom = Int.min
        for mask in masks where mask.width > 0 && mask.height > 0 && (mask.color & 0xFF) != 0xFF {
            left = min(left, max(0, mask.x))
            top = min(top, max(0, mask.y))
            right = max(right, min(frameWidth, mask.x + mask.width))
            bottom = max(bottom, min(frameHeight, mask.y + mask.height))
        }
        guard left < right, top < bottom else { return frame }
        for mask in masks {
            let opacity = 255 - Int(mask.color & 0xFF)
            guard opacity > 0 else { continue }
            let colour = [Int(mask.color >> 24), Int((mask.color >> 16) & 0xFF), Int((mask.color >> 8) & 0xFF), 255]
            for row in max(mask.y, top)..<max(max(mask.y, top), min(mask.y + mask.height, bottom)) {
                for column in max(mask.x, left)..<max(max(mask.x, left), min(mask.x + mask.width, right)) {
                    let coverage = Int(mask.bitmap[(row - mask.y) * mask.stride + column - mask.x])
                    guard coverage != 0 else { continue }
                    let k = (coverage * opacity + 127) / 255
                    let offset = (row * frameWidth + column) * 4
                    for channel in 0..<4 {
                        frame[offset + channel] = UInt8(
                            (colour[channel] * k + Int(frame[offset + channel]) * (255 - k) + 127) / 255)
                    }
                }
            }
        }
        for offset in stride(from: 0, to: frame.count, by: 4) {
            let alpha = Int(frame[offset + 3])
            guard alpha != 0 && alpha != 255 else { continue }
            for channel in 0..<3 {
                frame[offset + channel] = UInt8(min(255, (Int(frame[offset + channel]) * 255 + alpha / 2) / alpha))
            }
        }
        return frame
    }

    @Test(arguments: 0..<40) func piecesMatchFlatteningTheWholeBoundingBox(seed: Int) {
        var random = Generator(state: UInt64(seed) &+ 18)
        let width = 160
        let height = 90
        let count = Int.random(in: 0...24, using: &random)
        var storage: [[UInt8]] = []
        var shapes: [(x: Int, y: Int, width: Int, height: Int, stride: Int, color: UInt32)] = []
        for _ in 0..<count {
            let w = Int.random(in: 0...50, using: &random)
            let h = Int.random(in: 0...30, using: &random)
            let stride = w + Int.random(in: 0...8, using: &random)
            // Some clipped by the frame's edges, some touching each other, some off the frame.
            let x = Int.random(in: -30...(width + 10), using: &random)
            let y = Int.random(in: -20...(height + 5), using: &random)
            let alpha = [0, 0, 0x40, 0x80, 0xFF][Int.random(in: 0..<5, using: &random)]
            let color = UInt32.random(in: 0...UInt32.max, using: &random) & 0xFFFF_FF00 | UInt32(alpha)
            storage.append((0..<max(1, stride * h)).map { _ in
                [0, 0, 255, UInt8.random(in: 0...255, using: &random)][Int.random(in: 0..<4, using: &random)]
            })
            shapes.append((x, y, w, h, stride, color))
        }
        var picture = SubtitlePicture.empty
        let buffers = storage.map { bytes -> UnsafeMutablePointer<UInt8> in
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
        defer { buffers.forEach { $0.deallocate() } }
        let masks = shapes.indices.map { index in
            let shape = shapes[index]
            return SubtitleMask(
                x: shape.x, y: shape.y, width: shape.width, height: shape.height, stride: shape.stride,
                bitmap: UnsafePointer(buffers[index]), color: shape.color)
        }
        // Twice into the same picture: the reused buffer must not leak the first frame.
        SubtitleBitmapCompositor.flatten(Array(masks.reversed()), frameWidth: width, frameHeight: height, into: &picture)
        SubtitleBitmapCompositor.flatten(masks, frameWidth: width, frameHeight: height, into: &picture)
        for (index, piece) in picture.pieces.enumerated() {
            for other in picture.pieces[(index + 1)...] {
                let apart =
                    piece.x + piece.width <= other.x || other.x + other.width <= piece.x
                    || piece.y + piece.height <= other.y || other.y + other.height <= piece.y
                #expect(apart, "pieces \(piece) and \(other) overlap")
            }
        }
        #expect(Self.frame(of: picture, width: width, height: height) == Self.reference(masks, width: width, height: height))
    }
}
