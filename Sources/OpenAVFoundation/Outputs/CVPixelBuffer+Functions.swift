// Playhead: Core Video's functions for reading a pixel buffer, with Apple's names.
import Foundation

// Concurrency: every function only reads immutable buffer fields (or the buffer's own locked
// counter), so any thread may call them.

/// Marks the buffer's memory as in use by the caller; pair with
/// `CVPixelBufferUnlockBaseAddress`. Always succeeds (the memory never moves).
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lock()
}

/// Ends a `CVPixelBufferLockBaseAddress`; `kCVReturnInvalidArgument` when not locked.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlock()
}

/// The picture width in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }

/// The picture height in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }

/// The pixel format's four-character code (`kCVPixelFormatType_32BGRA`, ...).
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType {
    pixelBuffer.pixelFormatType
}

/// True when the buffer has several planes (planar YUV).
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { pixelBuffer.isPlanar }

/// The number of planes: 0 for packed formats (as Core Video reports), 3 for planar YUV.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.isPlanar ? pixelBuffer.planes.count : 0
}

/// The first byte of a packed buffer (of plane 0 for a planar one).
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.plane(0)?.base
}

/// The bytes from one row to the next of a packed buffer (of plane 0 for a planar one).
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.plane(0)?.bytesPerRow ?? 0
}

/// The first byte of plane `planeIndex`; nil when there is no such plane.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    pixelBuffer.plane(planeIndex)?.base
}

/// The bytes from one row to the next of plane `planeIndex` (0 when there is no such plane).
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.plane(planeIndex)?.bytesPerRow ?? 0
}

/// The width in samples of plane `planeIndex` (half the picture's for chroma planes).
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.plane(planeIndex)?.width ?? 0
}

/// The height in rows of plane `planeIndex` (half the picture's for chroma planes).
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.plane(planeIndex)?.height ?? 0
}

/// The number of bytes of pixel data (all planes, with row padding).
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
}

/// The current host time in seconds: the clock `AVPlayerItemOutput.itemTime(forHostTime:)`
/// understands (CLOCK_MONOTONIC, like Core Animation's on Apple platforms).
public func CACurrentMediaTime() -> CFTimeInterval { SystemHostClock.shared.now }
