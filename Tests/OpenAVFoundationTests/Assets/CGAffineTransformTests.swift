// Playhead: the Core Graphics–style affine transform tracks use for orientation.
import Foundation
import OpenAVFoundation
import Testing

@Suite("CGAffineTransform")
struct CGAffineTransformTests {
    private func isClose(_ lhs: CGAffineTransform, _ rhs: CGAffineTransform) -> Bool {
        let pairs = [
            (lhs.a, rhs.a), (lhs.b, rhs.b), (lhs.c, rhs.c), (lhs.d, rhs.d), (lhs.tx, rhs.tx), (lhs.ty, rhs.ty),
        ]
        return pairs.allSatisfy { abs(Double($0 - $1)) < 1e-9 }
    }

    @Test func identityLeavesPointsAlone() async {
        let identity = CGAffineTransform()
        #expect(identity == .identity && identity.isIdentity)
        #expect(CGPoint(x: 3, y: -4).applying(identity) == CGPoint(x: 3, y: -4))
        #expect(!CGAffineTransform(translationX: 1, y: 0).isIdentity)
    }

    @Test func aQuarterTurnIsClockwiseOnAYDownScreen() async {
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(isClose(turn, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)))
        // The x axis (3 o'clock) goes to +y (6 o'clock when y points down).
        let moved = CGPoint(x: 1, y: 0).applying(turn)
        #expect(abs(moved.x) < 1e-9 && abs(moved.y - 1) < 1e-9)
    }

    @Test func pointsMapAsCoreGraphicsDefines() async {
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // x' = a·x + c·y + tx, y' = b·x + d·y + ty
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 9, y: 12))
        #expect(CGSize(width: 1, height: 1).applying(t) == CGSize(width: 4, height: 6))
        #expect(t.description == "CGAffineTransform(a: 1.0, b: 2.0, c: 3.0, d: 4.0, tx: 5.0, ty: 6.0)")
    }

    @Test func concatenatingAppliesTheLeftTransformFirst() async {
        let scale = CGAffineTransform(scaleX: 2, y: 3)
        let move = CGAffineTransform(translationX: 10, y: 20)
        let point = CGPoint(x: 1, y: 1)
        #expect(point.applying(scale.concatenating(move)) == CGPoint(x: 12, y: 23))
        #expect(point.applying(move.concatenating(scale)) == CGPoint(x: 22, y: 63))
        #expect(move.scaledBy(x: 2, y: 3) == scale.concatenating(move))
        #expect(scale.translatedBy(x: 10, y: 20) == move.concatenating(scale))
        #expect(isClose(CGAffineTransform.identity.rotated(by: .pi), CGAffineTransform(rotationAngle: .pi)))
    }

    @Test func invertingUndoesATransform() async {
        let t = CGAffineTransform(rotationAngle: 0.3).concatenating(CGAffineTransform(translationX: 7, y: -2))
            .scaledBy(x: 2, y: 0.5)
        #expect(isClose(t.concatenating(t.inverted()), .identity))
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)
        #expect(singular.inverted() == singular, "a singular transform is returned unchanged")
    }

    @Test func aRectMapsToTheBoundsOfItsCorners() async {
        let portrait = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 1080, ty: 0)
        let frame = CGRect(x: 0, y: 0, width: 1920, height: 1080).applying(portrait)
        #expect(frame == CGRect(x: 0, y: 0, width: 1080, height: 1920))
        let sized = CGSize(width: 1920, height: 1080).applying(portrait)
        #expect(sized == CGSize(width: -1080, height: 1920), "sizes keep the sign; callers take abs")
    }
}
