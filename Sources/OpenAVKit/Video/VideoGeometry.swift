// Playhead: sizing a picture for display: pixel aspect, rotation and video gravity.
//
// Concurrency: pure functions.
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// The arithmetic of fitting a picture into a rectangle.
enum VideoGeometry {
    /// The picture's display size: `width` stretched by the sample aspect ratio, then turned
    /// by `rotationDegrees` (90 and 270 swap width and height).
    static func displaySize(
        width: Int, height: Int, sampleAspect: SampleAspect?, rotationDegrees: Int
    ) -> CGSize {
        var displayWidth = CGFloat(width)
        if let aspect = sampleAspect, aspect.numerator > 0, aspect.denominator > 0 {
            displayWidth = displayWidth * CGFloat(aspect.numerator) / CGFloat(aspect.denominator)
        }
        let quarterTurns = ((rotationDegrees % 360) + 360) % 360 / 90
        return quarterTurns % 2 == 1
            ? CGSize(width: CGFloat(height), height: displayWidth)
            : CGSize(width: displayWidth, height: CGFloat(height))
    }

    /// Where a picture of display size `content` lands in `bounds` under `gravity`. With
    /// `.resizeAspectFill` the result may extend past `bounds` (the overflow is cropped).
    static func videoRect(
        content: CGSize, in bounds: CGRect, gravity: AVLayerVideoGravity
    ) -> CGRect {
        guard content.width > 0, content.height > 0, bounds.width > 0, bounds.height > 0 else {
            return .zero
        }
        if gravity == .resize { return bounds }
        let scaleX = bounds.width / content.width, scaleY = bounds.height / content.height
        let scale = gravity == .resizeAspectFill ? max(scaleX, scaleY) : min(scaleX, scaleY)
        let width = content.width * scale, height = content.height * scale
        return CGRect(
            x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
    }
}
