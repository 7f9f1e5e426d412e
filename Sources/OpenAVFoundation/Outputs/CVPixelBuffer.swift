// Playhead: a picture in memory with Core Video's names, for apps that draw frames themselves.
import FFmpegBridge
import Foundation
import Synchronization

// Concurrency: the pixels are written once in init and never again; any thread may read them.
// The lock count is behind a lock. Locking is bookkeeping only (the memory never moves), as
// with Core Video buffers that live in plain memory.

/// A four-character code naming a pixel format (`'BGRA'`), as Core Video uses.
public typealias OSType = UInt32

/// Core Video's status codes; 0 is success.
public typealias CVReturn = Int32

/// The success status.
public let kCVReturnSuccess: CVReturn = 0
/// The status for a bad argument (unlocking a buffer that is not locked).
public let kCVReturnInvalidArgument: CVReturn = -6661

/// Packed 8-bit blue, green, red, alpha ('BGRA').
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// Packed 8-bit red, green, blue, alpha ('RGBA').
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// Planar 8-bit Y, Cb, Cr with 2×2 chroma subsampling, three planes, video range (Y 16-235)
/// ('y420').
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// As `kCVPixelFormatType_420YpCbCr8Planar`, full range (Y 0-255) ('f420').
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// 8-bit Y plane and an interleaved Cb/Cr plane with 2×2 chroma subsampling, video range
/// (Y 16-235) ('420v'): what renderers written for Metal usually ask for.
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// As `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`, full range (Y 0-255) ('420f').
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066

/// Pixel buffer attribute: the pixel format wanted (an `OSType`, or an array of them of which
/// the first supported one is used).
public let kCVPixelBufferPixelFormatTypeKey: String = "PixelFormatType"
/// Pixel buffer attribute: the width wanted, in pixels (an `Int`); scales the picture.
public let kCVPixelBufferWidthKey: String = "Width"
/// Pixel buffer attribute: the height wanted, in pixels (an `Int`); scales the picture.
public let kCVPixelBufferHeightKey: String = "Height"
/// Pixel buffer attribute: IOSurface backing (accepted and ignored: buffers are plain memory).
public let kCVPixelBufferIOSurfacePropertiesKey: String = "IOSurfaceProperties"
/// Pixel buffer attribute: Metal compatibility (accepted and ignored: buffers are plain memory).
public let kCVPixelBufferMetalCompatibilityKey: String = "MetalCompatibility"
/// Pixel buffer attribute: OpenGL compatibility (accepted and ignored).
public let kCVPixelBufferOpenGLCompatibilityKey: String = "OpenGLCompatibility"

/// Options of `CVPixelBufferLockBaseAddress`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: UInt64
    /// Creates flags from raw bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The caller only reads the pixels.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// A picture's pixels in memory: one plane for packed formats (BGRA, RGBA), three for planar
/// YUV, two for bi-planar YUV (Y, then Cb/Cr pairs), with their sizes and row strides.
///
/// Read it through Core Video's functions (`CVPixelBufferGetWidth`,
/// `CVPixelBufferGetBaseAddressOfPlane`, ...), bracketed by `CVPixelBufferLockBaseAddress`
/// and `CVPixelBufferUnlockBaseAddress`, exactly as on Apple platforms.
///
/// - Note: Differs from AVFoundation: Core Video is not on Linux, so OpenAVFoundation supplies
///   this class and the functions that read it. Buffers are plain memory (no IOSurface) and
///   are never reused from a pool.
public final class CVPixelBuffer: @unchecked Sendable {
    /// One plane: its memory and geometry.
    struct Plane {
        let base: UnsafeMutableRawPointer
        let width: Int
        let height: Int
        let bytesPerRow: Int
    }

    /// Width of the picture in pixels.
    public let width: Int
    /// Height of the picture in pixels.
    public let height: Int
    /// The pixel format's four-character code.
    public let pixelFormatType: OSType
    /// The planes (one for packed formats).
    let planes: [Plane]
    /// how many locks are outstanding; behind its mutex
    private let locks = Locked(0)
    /// Attachments by key, with whether each propagates; behind its mutex (any thread).
    let attachments = Locked([String: (value: AnyObject, mode: CVAttachmentMode)]())

    /// Copies `frame` (already in the format `pixelFormatType` names) into new memory.
    init(copying frame: VideoFrame, pixelFormatType: OSType) {
        width = frame.width
        height = frame.height
        self.pixelFormatType = pixelFormatType
        planes = (0..<frame.planeCount).map { index in
            frame.withPlane(index) { bytes, stride, rows in
                // Packed RGB: 4 bytes a pixel; planar 4:2:0: a byte a sample, chroma planes
                // half as wide; bi-planar: the chroma plane's samples are Cb/Cr pairs.
                let chroma = index > 0
                let planeWidth = chroma ? (frame.width + 1) / 2 : frame.width
                let bytesPerPixel = frame.planeCount == 1 ? 4 : (chroma && frame.planeCount == 2 ? 2 : 1)
                let rowBytes = planeWidth * bytesPerPixel
                // Rows padded to 64 bytes, as Core Video aligns them.
                let bytesPerRow = (rowBytes + 63) / 64 * 64
                let base = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytesPerRow * rows), alignment: 64)
                base.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, bytesPerRow * rows))
                if let source = bytes.baseAddress {
                    for row in 0..<rows {
                        (base + row * bytesPerRow).copyMemory(from: source + row * stride, byteCount: min(rowBytes, stride))
                    }
                }
                return Plane(base: base, width: planeWidth, height: rows, bytesPerRow: bytesPerRow)
            }
        }
    }

    deinit {
        for plane in planes { plane.base.deallocate() }
    }

    /// True for formats with more than one plane.
    var isPlanar: Bool { planes.count > 1 }

    /// Records a lock.
    func lock() -> CVReturn {
        locks.withLock { $0 += 1 }
        return kCVReturnSuccess
    }

    /// Releases a lock; fails when none is held.
    func unlock() -> CVReturn {
        locks.withLock { count in
            guard count > 0 else { return kCVReturnInvalidArgument }
            count -= 1
            return kCVReturnSuccess
        }
    }

    /// The plane at `index`, if it exists.
    func plane(_ index: Int) -> Plane? { planes.indices.contains(index) ? planes[index] : nil }
}
