// Playhead: an output that hands an app the item's video frames as pixel buffers, for apps
// that draw frames themselves (a game engine texture, a custom renderer).
import FFmpegBridge
import Foundation
import Synchronization

// Concurrency: frames arrive on the engine's presentation thread (`present`) and are kept in
// `store` (a lock). Apps call `hasNewPixelBuffer`/`copyPixelBuffer` from any thread (usually
// their render thread); conversion to the requested format runs on that thread with the
// output's scaler, which `scaler` (a lock) serializes.

/// Gives an app the item's video frames on request, in the pixel format it asks for.
///
/// ```swift
/// let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
///     kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
/// item.add(output)
/// // on each display refresh:
/// let time = output.itemTime(forHostTime: CACurrentMediaTime())
/// if output.hasNewPixelBuffer(forItemTime: time),
///    let buffer = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil) { draw(buffer) }
/// ```
///
/// Supported formats: `kCVPixelFormatType_32BGRA`, `kCVPixelFormatType_32RGBA`,
/// `kCVPixelFormatType_420YpCbCr8Planar` and `…PlanarFullRange`, and the bi-planar
/// `…BiPlanarVideoRange` and `…BiPlanarFullRange`. Without a format the buffers are planar 4:2:0
/// in the decoder's own range (no conversion for 8-bit 4:2:0 video). RGB is made with the
/// stream's own matrix and range; each buffer carries the colour attachments Core Video's do
/// (`kCVImageBufferYCbCrMatrixKey`, primaries and transfer function when the stream states
/// them). `kCVPixelBufferWidthKey`/`kCVPixelBufferHeightKey` scale the pictures.
open class AVPlayerItemVideoOutput: AVPlayerItemOutput, @unchecked Sendable {
    /// A presented frame and its item time.
    private struct Entry {
        let frame: VideoFrame
        let itemTime: CMTime
    }

    /// Frames recently presented and the time of the last one copied.
    private struct Store {
        var entries: [Entry] = []
        var lastCopied: CMTime?
    }

    /// Receives frames from the player (a separate object so the output is not a VideoSink
    /// in its public interface).
    private final class Receiver: VideoSink, @unchecked Sendable {
        weak var output: AVPlayerItemVideoOutput?
        func present(_ frame: VideoFrame, itemTime: CMTime) { output?.receive(frame, itemTime) }
        func clear() { output?.dropFrames() }
    }

    /// How many recent frames are kept for requests slightly in the past.
    static let keptFrames = 4

    /// The format asked for; nil: planar 4:2:0 in each picture's own range.
    private let pixelFormat: (type: OSType, format: VideoPixelFormat)?
    private let requestedWidth: Int?
    private let requestedHeight: Int?
    private let store = Locked(Store())
    /// The pull delegate, its queue and whether a change notification was requested.
    let pull = Locked(PullDelegation())
    private let scaler = Locked(Scaler())
    private let receiver = Receiver()

    /// An output producing buffers with `pixelBufferAttributes` (`kCVPixelBufferPixelFormatTypeKey`,
    /// `kCVPixelBufferWidthKey`, `kCVPixelBufferHeightKey`); nil gives planar 4:2:0 YUV at
    /// the video's size. An unsupported format falls back to that default.
    public init(pixelBufferAttributes: [String: any Sendable]? = nil) {
        let wanted = Self.formatTypes(pixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey])
        pixelFormat = wanted.lazy.compactMap { type in Self.pixelFormat(for: type).map { (type, $0) } }.first
        requestedWidth = Self.positiveInt(pixelBufferAttributes?[kCVPixelBufferWidthKey])
        requestedHeight = Self.positiveInt(pixelBufferAttributes?[kCVPixelBufferHeightKey])
        super.init()
        receiver.output = self
    }

    /// An output with video output settings; Playhead reads the same keys as
    /// `init(pixelBufferAttributes:)`.
    public convenience init(outputSettings: [String: any Sendable]?) {
        self.init(pixelBufferAttributes: outputSettings)
    }

    override var videoSink: (any VideoSink)? { receiver }

    // MARK: - Requests (any thread)

    /// True when a frame for `itemTime` is available that was not copied yet.
    open func hasNewPixelBuffer(forItemTime itemTime: CMTime) -> Bool {
        store.withLock { store in
            guard let entry = Self.entry(for: itemTime, in: store.entries) else { return false }
            return store.lastCopied.map { $0 != entry.itemTime } ?? true
        }
    }

    /// The frame to show at `itemTime` (the last one presented at or before it) as a new pixel
    /// buffer; nil when no frame is available. `outItemTimeForDisplay` receives the frame's
    /// item time.
    open func copyPixelBuffer(
        forItemTime itemTime: CMTime, itemTimeForDisplay outItemTimeForDisplay: UnsafeMutablePointer<CMTime>?
    ) -> CVPixelBuffer? {
        let result = pixelBufferAndDisplayTime(forItemTime: itemTime)
        outItemTimeForDisplay?.pointee = result.itemTimeForDisplay
        return result.pixelBuffer
    }

    /// The frame to show at `itemTime` as a pixel buffer, with its item time (`.invalid`
    /// without a frame).
    open func pixelBufferAndDisplayTime(forItemTime itemTime: CMTime) -> (pixelBuffer: CVPixelBuffer?, itemTimeForDisplay: CMTime) {
        let entry = store.withLock { store -> Entry? in
            guard let entry = Self.entry(for: itemTime, in: store.entries) else { return nil }
            store.lastCopied = entry.itemTime
            return entry
        }
        guard let entry else { return (nil, .invalid) }
        let (type, format) = pixelFormat ?? Self.nativeFormat(of: entry.frame)
        let converted = scaler.withLock { scaler in
            entry.frame.converted(
                to: format, width: requestedWidth ?? entry.frame.width,
                height: requestedHeight ?? entry.frame.height, using: scaler)
        }
        guard let converted else { return (nil, .invalid) }
        let buffer = CVPixelBuffer(copying: converted, pixelFormatType: type)
        buffer.attachColour(of: converted, isYCbCr: format.isYCbCr)
        return (buffer, entry.itemTime)
    }

    // MARK: - Frames (presentation thread)

    private func receive(_ frame: VideoFrame, _ itemTime: CMTime) {
        let flushed = store.withLock { store -> Bool in
            // Time went back (a seek or a new item): older frames belong to another timeline.
            var flushed = false
            if let last = store.entries.last, itemTime < last.itemTime {
                store.entries.removeAll()
                store.lastCopied = nil
                flushed = true
            }
            store.entries.append(Entry(frame: frame, itemTime: itemTime))
            if store.entries.count > Self.keptFrames { store.entries.removeFirst() }
            return flushed
        }
        notifyDelegate(mediaArrived: true, flushed: flushed)
    }

    private func dropFrames() {
        store.withLock { $0 = Store() }
    }

    /// The latest entry at or before `time`; with an invalid time, the latest entry.
    private static func entry(for time: CMTime, in entries: [Entry]) -> Entry? {
        guard time.isValid else { return entries.last }
        return entries.last { $0.itemTime <= time }
    }

    // MARK: - Attributes

    private static func formatTypes(_ value: (any Sendable)?) -> [OSType] {
        switch value {
        case let type as OSType: return [type]
        case let type as Int: return [OSType(truncatingIfNeeded: type)]
        case let number as NSNumber: return [number.uint32Value]
        case let list as [OSType]: return list
        case let list as [Int]: return list.map { OSType(truncatingIfNeeded: $0) }
        case let list as [NSNumber]: return list.map(\.uint32Value)
        default: return []
        }
    }

    /// Planar 4:2:0 in the range of `frame`.
    private static func nativeFormat(of frame: VideoFrame) -> (OSType, VideoPixelFormat) {
        frame.colour.isFullRange
            ? (kCVPixelFormatType_420YpCbCr8PlanarFullRange, .yuv420pFullRange)
            : (kCVPixelFormatType_420YpCbCr8Planar, .yuv420p)
    }

    private static func pixelFormat(for type: OSType) -> VideoPixelFormat? {
        switch type {
        case kCVPixelFormatType_420YpCbCr8PlanarFullRange: return .yuv420pFullRange
        case kCVPixelFormatType_32BGRA: return .bgra
        case kCVPixelFormatType_32RGBA: return .rgba
        case kCVPixelFormatType_420YpCbCr8Planar: return .yuv420p
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: return .nv12
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: return .nv12FullRange
        default: return nil
        }
    }

    private static func positiveInt(_ value: (any Sendable)?) -> Int? {
        let number: Int?
        switch value {
        case let int as Int: number = int
        case let double as Double: number = Int(double)
        case let ns as NSNumber: number = ns.intValue
        default: number = nil
        }
        return number.flatMap { $0 > 0 && $0 <= 16384 ? $0 : nil }
    }
}
