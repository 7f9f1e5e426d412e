// Playhead: Core Video's buffer attachments (the colour a pixel buffer's samples are in, and
// whatever an app attaches), read and written through Core Video's functions.
import FFmpegBridge
import Foundation

// Concurrency: a buffer's attachments sit behind its own lock (`CVPixelBuffer.attachments`);
// every function here may be called from any thread.

/// Core Foundation's "any object" type; attachment values are objects (strings are `NSString`,
/// which `as? String` reads).
///
/// - Note: Differs from AVFoundation: Core Foundation is not on Linux, so OpenAVFoundation names
///   the type for Core Video's functions.
public typealias CFTypeRef = AnyObject

/// Core Video's general buffer type: on Linux every buffer is a ``CVPixelBuffer``.
public typealias CVBuffer = CVPixelBuffer
/// Core Video's image buffer type: on Linux every image buffer is a ``CVPixelBuffer``.
public typealias CVImageBuffer = CVPixelBuffer

/// Whether an attachment is copied along when a buffer's attachments propagate to another.
public enum CVAttachmentMode: UInt32, Sendable {
    /// Kept on this buffer only.
    case shouldNotPropagate = 0
    /// Copied by `CVBufferPropagateAttachments`.
    case shouldPropagate = 1
}

/// Attachment key: the YCbCr matrix of the buffer's samples (a `kCVImageBufferYCbCrMatrix_…`).
public let kCVImageBufferYCbCrMatrixKey = "CVImageBufferYCbCrMatrix"
/// The BT.709 matrix.
public let kCVImageBufferYCbCrMatrix_ITU_R_709_2 = "ITU_R_709_2"
/// The BT.601 matrix.
public let kCVImageBufferYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"
/// The SMPTE 240M matrix.
public let kCVImageBufferYCbCrMatrix_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The BT.2020 (non-constant luminance) matrix.
public let kCVImageBufferYCbCrMatrix_ITU_R_2020 = "ITU_R_2020"

/// Attachment key: the colour primaries (a `kCVImageBufferColorPrimaries_…`).
public let kCVImageBufferColorPrimariesKey = "CVImageBufferColorPrimaries"
/// BT.709 primaries.
public let kCVImageBufferColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
/// EBU Tech. 3213 primaries (625-line BT.601).
public let kCVImageBufferColorPrimaries_EBU_3213 = "EBU_3213"
/// SMPTE C primaries (525-line BT.601).
public let kCVImageBufferColorPrimaries_SMPTE_C = "SMPTE_C"
/// BT.2020 primaries.
public let kCVImageBufferColorPrimaries_ITU_R_2020 = "ITU_R_2020"
/// Display P3 primaries.
public let kCVImageBufferColorPrimaries_P3_D65 = "P3_D65"
/// DCI-P3 primaries.
public let kCVImageBufferColorPrimaries_DCI_P3 = "DCI_P3"

/// Attachment key: the transfer function (a `kCVImageBufferTransferFunction_…`).
public let kCVImageBufferTransferFunctionKey = "CVImageBufferTransferFunction"
/// BT.709's transfer function.
public let kCVImageBufferTransferFunction_ITU_R_709_2 = "ITU_R_709_2"
/// SMPTE 240M's transfer function.
public let kCVImageBufferTransferFunction_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The perceptual quantiser of HDR10 (SMPTE ST 2084).
public let kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ = "SMPTE_ST_2084_PQ"
/// Hybrid log-gamma (BT.2100).
public let kCVImageBufferTransferFunction_ITU_R_2100_HLG = "ITU_R_2100_HLG"
/// BT.2020's transfer function (BT.709's curve).
public let kCVImageBufferTransferFunction_ITU_R_2020 = "ITU_R_2020"
/// The sRGB curve.
public let kCVImageBufferTransferFunction_sRGB = "IEC_sRGB"
/// Linear light.
public let kCVImageBufferTransferFunction_Linear = "Linear"

/// Attaches `value` to `buffer` under `key`, replacing what was there.
public func CVBufferSetAttachment(
    _ buffer: CVBuffer, _ key: String, _ value: Any, _ attachmentMode: CVAttachmentMode
) {
    let object = value as AnyObject
    buffer.attachments.withLock { $0[key] = (object, attachmentMode) }
}

/// The value attached to `buffer` under `key`, or nil; `attachmentMode` receives its mode.
public func CVBufferCopyAttachment(
    _ buffer: CVBuffer, _ key: String, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> CFTypeRef? {
    guard let attachment = buffer.attachments.withLock({ $0[key] }) else { return nil }
    attachmentMode?.pointee = attachment.mode
    return attachment.value
}

/// The value attached to `buffer` under `key`, unretained (it lives while the buffer keeps it),
/// or nil. The older form of ``CVBufferCopyAttachment(_:_:_:)``.
public func CVBufferGetAttachment(
    _ buffer: CVBuffer, _ key: String, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> Unmanaged<CFTypeRef>? {
    CVBufferCopyAttachment(buffer, key, attachmentMode).map { Unmanaged.passUnretained($0) }
}

/// The attachments of `buffer` with `attachmentMode`, by key; nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode)
    -> NSDictionary?
{
    let chosen = buffer.attachments.withLock { attachments in
        attachments.filter { $0.value.mode == attachmentMode }.mapValues(\.value)
    }
    return chosen.isEmpty ? nil : NSDictionary(dictionary: chosen)
}

/// Whether `buffer` has an attachment under `key`.
public func CVBufferHasAttachment(_ buffer: CVBuffer, _ key: String) -> Bool {
    buffer.attachments.withLock { $0[key] != nil }
}

/// Attaches every value of `theAttachments` (string keys) to `buffer` with `attachmentMode`.
public func CVBufferSetAttachments(
    _ buffer: CVBuffer, _ theAttachments: NSDictionary, _ attachmentMode: CVAttachmentMode
) {
    for case (let key as String, let value) in theAttachments {
        CVBufferSetAttachment(buffer, key, value, attachmentMode)
    }
}

/// Removes the attachment of `buffer` under `key`, if any.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: String) {
    buffer.attachments.withLock { _ = $0.removeValue(forKey: key) }
}

/// Removes every attachment of `buffer`.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.attachments.withLock { $0.removeAll() }
}

/// Copies the propagating attachments of `sourceBuffer` to `destinationBuffer`.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    let propagating = sourceBuffer.attachments.withLock {
        $0.filter { $0.value.mode == .shouldPropagate }
    }
    destinationBuffer.attachments.withLock { $0.merge(propagating) { _, new in new } }
}

/// The width and height of the buffer's pictures.
public func CVImageBufferGetEncodedSize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CGSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// Whether the buffer's rows run bottom to top: never.
public func CVImageBufferIsFlipped(_ imageBuffer: CVImageBuffer) -> Bool { false }

extension CVPixelBuffer {
    /// Attaches the colour of `frame` as Core Video does: the matrix for YCbCr buffers (the
    /// stream's, or the size-based guess an untagged picture is shown with), and the primaries
    /// and transfer function the stream states. All propagate.
    func attachColour(of frame: VideoFrame, isYCbCr: Bool) {
        let values = CoreVideoColourNames.values(of: frame.colour, isYCbCr: isYCbCr)
        attachments.withLock { attachments in
            for (key, value) in values {
                attachments[key] = (NSString(string: value), .shouldPropagate)
            }
        }
    }
}
