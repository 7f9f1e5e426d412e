// Playhead: still images (thumbnails) from an asset's video track at chosen times.
import FFmpegBridge
import Foundation
import Synchronization

// Concurrency: the settings live in a lock (any thread reads or writes them; each request
// takes a snapshot when it is made). Decoding happens on the generator's private serial queue
// (`ImageGenerationQueue`), never on the caller's thread except in the deprecated synchronous
// `copyCGImage(at:actualTime:)`. Completion handlers run on the main queue.

/// The callback of `generateCGImagesAsynchronously(forTimes:completionHandler:)`: the
/// requested time, the image (nil unless succeeded), the time of the frame it shows, the
/// outcome, and the error when it failed or was cancelled.
public typealias AVAssetImageGeneratorCompletionHandler =
    @Sendable (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, (any Error)?) -> Void

/// Makes `CGImage`s of an asset's video at chosen times.
///
/// ```swift
/// let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
/// generator.maximumSize = CGSize(width: 320, height: 0)
/// generator.requestedTimeToleranceBefore = .zero
/// generator.requestedTimeToleranceAfter = .zero
/// let (image, actualTime) = try await generator.image(at: CMTime(seconds: 2.5, preferredTimescale: 600))
/// ```
///
/// One generator keeps one demuxer and decoder open and reuses them for every request, so
/// asking one generator for many times is much cheaper than one generator per time. Times of
/// a batch are decoded in increasing order; a time ahead in the same GOP is reached by
/// decoding forward, without a seek.
///
/// - Important: Thread-safe. Completion handlers are called on the main queue (Apple calls
///   them on an arbitrary thread; code that hops to the main queue works unchanged).
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// A part of the picture an image may show (`apertureMode`).
    public struct ApertureMode: RawRepresentable, Hashable, Sendable {
        /// The mode's name.
        public let rawValue: String
        /// The mode with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The picture without the edges an encoder may leave unclean, at display aspect.
        public static let cleanAperture = ApertureMode(rawValue: "CleanAperture")
        /// The whole picture at display aspect.
        public static let productionAperture = ApertureMode(rawValue: "ProductionAperture")
        /// Every encoded pixel, as stored.
        public static let encodedPixels = ApertureMode(rawValue: "EncodedPixels")
    }

    /// How a request ended.
    public enum Result: Int, Sendable {
        /// The image was generated.
        case succeeded = 0
        /// Generation failed; the error says why.
        case failed = 1
        /// `cancelAllCGImageGeneration()` cancelled the request.
        case cancelled = 2
    }

    /// The asset the images come from.
    public let asset: AVAsset
    /// any thread
    private let settings = Locked(ImageGenerationSettings())
    let work: ImageGenerationQueue

    /// A generator for `asset`'s best video track. Opening the media waits for the first
    /// request.
    public init(asset: AVAsset) {
        self.asset = asset
        work = ImageGenerationQueue(asset: asset)
        super.init()
    }

    /// When true, images are turned upright as the track's `preferredTransform` says (phone
    /// videos recorded in portrait). Default false, as on Apple platforms.
    open var appliesPreferredTrackTransform: Bool {
        get { settings.withLock { $0.appliesPreferredTrackTransform } }
        set { settings.withLock { $0.appliesPreferredTrackTransform = newValue } }
    }

    /// Which part of the picture an image shows (Apple's clean or production aperture, or the
    /// encoded pixels). Nil by default. Accepted for ported code; Playhead's images are always
    /// the encoded pixels at their display aspect (containers' clean aperture boxes are not
    /// read).
    open var apertureMode: ApertureMode? {
        get { settings.withLock { $0.apertureMode } }
        set { settings.withLock { $0.apertureMode = newValue } }
    }

    /// The largest image wanted; images are shrunk (keeping their aspect ratio) to fit.
    /// `.zero` (the default), or zero in one dimension, leaves the size unconstrained.
    open var maximumSize: CGSize {
        get { settings.withLock { $0.rendering.maximumSize } }
        set { settings.withLock { $0.rendering.maximumSize = newValue } }
    }

    /// How much earlier than the requested time the image's frame may be. The default,
    /// `.positiveInfinity`, allows the nearest keyframe (fast); `.zero` with a zero
    /// `requestedTimeToleranceAfter` asks for the exact frame on screen at the time.
    open var requestedTimeToleranceBefore: CMTime {
        get { settings.withLock { $0.toleranceBefore } }
        set { settings.withLock { $0.toleranceBefore = Self.validTolerance(newValue) } }
    }

    /// How much later than the requested time the image's frame may be (default
    /// `.positiveInfinity`; see `requestedTimeToleranceBefore`).
    open var requestedTimeToleranceAfter: CMTime {
        get { settings.withLock { $0.toleranceAfter } }
        set { settings.withLock { $0.toleranceAfter = Self.validTolerance(newValue) } }
    }

    /// When true, exact requests (zero tolerances) give the first frame that starts at or after
    /// the requested time, as `ffmpeg -ss` does, instead of the frame on screen at that time
    /// (Apple's choice, the default). They differ when the time falls inside a frame.
    /// Playhead's CLI uses it so `playhead thumbnail` matches ffmpeg.
    package var framesStartingAtOrAfterTime: Bool {
        get { settings.withLock { $0.framesStartingAtOrAfter } }
        set { settings.withLock { $0.framesStartingAtOrAfter = newValue } }
    }

    /// The settings a request made now uses.
    func settingsSnapshot() -> ImageGenerationSettings { settings.withLock { $0 } }

    private static func validTolerance(_ tolerance: CMTime) -> CMTime {
        guard tolerance.isValid, !tolerance.isIndefinite, tolerance >= .zero else { return .zero }
        return tolerance
    }

    // MARK: - Generating

    /// The image for `time` and the time of the frame it shows.
    ///
    /// - Throws: an `NSError` when the asset cannot be opened, has no video, or the frame
    ///   cannot be decoded; a cancellation error after `cancelAllCGImageGeneration()`.
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        let snapshot = settings.withLock { $0 }
        let result: ImageGenerationResult = await withCheckedContinuation { continuation in
            work.generate([time], settings: snapshot) { continuation.resume(returning: $0) }
        }
        guard let image = result.image else {
            throw result.error ?? AVError(.unknown, description: "no image").nsError
        }
        return (image, result.actualTime)
    }

    /// Generates an image for each of `requestedTimes` (`NSValue(time:)`s), calling
    /// `handler` once per time, on the main queue, in increasing time order.
    open func generateCGImagesAsynchronously(
        forTimes requestedTimes: [NSValue],
        completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler
    ) {
        let snapshot = settings.withLock { $0 }
        work.generate(requestedTimes.map(\.timeValue), settings: snapshot) { result in
            MainQueue.async {
                handler(
                    result.requestedTime, result.image, result.actualTime, result.outcome,
                    result.error)
            }
        }
    }

    /// Generates one image for `requestedTime` and calls `handler` on the main queue with the
    /// image, the time of its frame and any error.
    open func generateCGImageAsynchronously(
        for requestedTime: CMTime,
        completionHandler handler: @escaping @Sendable (CGImage?, CMTime, (any Error)?) -> Void
    ) {
        let snapshot = settings.withLock { $0 }
        work.generate([requestedTime], settings: snapshot) { result in
            MainQueue.async { handler(result.image, result.actualTime, result.error) }
        }
    }

    /// The image for `requestedTime`, generated on the calling thread's behalf (it blocks).
    ///
    /// - Parameters:
    ///   - requestedTime: the time wanted.
    ///   - actualTime: receives the time of the frame the image shows.
    /// - Note: Deprecated on Apple platforms in favour of `image(at:)`; never call it on the
    ///   main queue.
    open func copyCGImage(
        at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?
    ) throws -> CGImage {
        let snapshot = settings.withLock { $0 }
        let result = work.generateNow(requestedTime, settings: snapshot)
        actualTime?.pointee = result.actualTime
        guard let image = result.image else {
            throw result.error ?? AVError(.unknown, description: "no image").nsError
        }
        return image
    }

    /// Cancels every request not yet generated; their handlers report `.cancelled`.
    open func cancelAllCGImageGeneration() { work.cancelAll() }
}
