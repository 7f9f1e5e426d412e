// Playhead: the serial worker behind AVAssetImageGenerator: one demuxer and decoder (a
// FrameGrabber) reused for every request of a generator; for an HLS stream with an I-frame
// playlist, requests that allow a keyframe take it from there (HLSIFramePictures.swift).
import FFmpegBridge
import Foundation
import Synchronization

// Concurrency: `grabber`, `iFrames` and `scaler` are owned by `queue` (a private serial queue); only
// blocks running on it touch them. `generation` is behind a lock: any thread bumps it to
// cancel the requests queued before. Results leave through the caller's closures, called on
// `queue`.

/// One request's outcome, before it is handed to the public callback.
struct ImageGenerationResult: @unchecked Sendable {
    /// The time asked for.
    let requestedTime: CMTime
    /// The image, when generation succeeded.
    let image: CGImage?
    /// The time of the frame the image shows (`.invalid` when none).
    let actualTime: CMTime
    /// Succeeded, failed or cancelled.
    let outcome: AVAssetImageGenerator.Result
    /// Why it failed or was cancelled.
    let error: (any Error)?
}

/// What a batch of requests is generated with (a snapshot of the generator's properties).
struct ImageGenerationSettings: Sendable {
    var rendering = FrameImageRendering()
    var appliesPreferredTrackTransform = false
    var toleranceBefore = CMTime.positiveInfinity
    var toleranceAfter = CMTime.positiveInfinity
    /// Exact requests take the first frame starting at or after the time (as `ffmpeg -ss`).
    var framesStartingAtOrAfter = false
    /// Accepted, not applied (`AVAssetImageGenerator.apertureMode`).
    var apertureMode: AVAssetImageGenerator.ApertureMode?
}

/// Runs image requests one at a time in time order on a private queue.
final class ImageGenerationQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "playhead.image-generator")
    private let url: URL
    private let timeout: Double
    private let inputDescription: String
    /// owned by `queue`
    private var grabber: FrameGrabber?
    /// owned by `queue`: the I-frame pictures opened for a size limit (nil inside: the input
    /// has none to use)
    private var iFrames: (limit: CGSize, pictures: HLSIFramePictures?)?
    /// owned by `queue`
    private let scaler = Scaler()
    /// any thread: bumped by `cancelAll()`; requests from an older generation are cancelled
    private let generation = Locked(0)

    init(asset: AVAsset) {
        url = asset.sourceURL
        timeout = asset.inspection.limits.timeout
        inputDescription = asset.inputDescription
    }

    /// Cancels every request queued so far; the ones not started finish `.cancelled`.
    func cancelAll() { generation.withLock { $0 += 1 } }

    /// Generates images for `times`, decoding them in increasing time order, and reports each
    /// result to `deliver` (on the work queue) in that order.
    func generate(
        _ times: [CMTime], settings: ImageGenerationSettings,
        deliver: @escaping @Sendable (ImageGenerationResult) -> Void
    ) {
        let batch = generation.withLock { $0 }
        queue.async { [self] in
            let ordered = times.enumerated().sorted { lhs, rhs in
                lhs.element == rhs.element ? lhs.offset < rhs.offset : lhs.element < rhs.element
            }
            for (_, time) in ordered {
                deliver(generateOne(time, settings: settings, batch: batch))
            }
        }
    }

    /// Generates one image synchronously on the work queue (never call from it).
    func generateNow(_ time: CMTime, settings: ImageGenerationSettings) -> ImageGenerationResult {
        let batch = generation.withLock { $0 }
        return queue.sync { generateOne(time, settings: settings, batch: batch) }
    }

    /// Runs on `queue`.
    private func generateOne(
        _ time: CMTime, settings: ImageGenerationSettings, batch: Int
    ) -> ImageGenerationResult {
        guard generation.withLock({ $0 }) == batch else {
            return failure(time, .cancelled, AVError(.unknown, description: "image generation cancelled").nsError)
        }
        guard time.isValid, !time.isIndefinite else {
            return failure(time, .failed, AVError(.unknown, description: "invalid requested time").nsError)
        }
        if let keyframe = iFramePicture(time, settings: settings) { return keyframe }
        let grabber: FrameGrabber
        do throws(MediaFailure) {
            grabber = try openGrabber()
        } catch .noAudioOrVideo {
            // Opened, but nothing to make pictures from (an audio file).
            return failure(
                time, .failed,
                AVError(.operationNotSupportedForAsset, description: "no video track").nsError)
        } catch {
            return failure(time, .failed, error.nsError(input: inputDescription))
        }
        let target = time.isPositiveInfinity ? grabber.duration : time
        guard
            let frame = grabber.frame(
                at: target, toleranceBefore: settings.toleranceBefore,
                toleranceAfter: settings.toleranceAfter,
                startingAtOrAfter: settings.framesStartingAtOrAfter && settings.toleranceBefore == .zero
                    && settings.toleranceAfter == .zero)
        else {
            self.grabber = nil  // reopen next time: the demuxer may be in a bad state
            if let reason = grabber.lastReadFailure, reason == .protectedContent {
                return failure(time, .failed, reason.nsError(input: inputDescription))
            }
            return failure(
                time, .failed,
                AVError(.decodeFailed, description: "cannot decode a frame at \(time.seconds) s").nsError)
        }
        var rendering = settings.rendering
        rendering.rotationDegrees =
            settings.appliesPreferredTrackTransform ? grabber.stream.rotationDegrees : 0
        guard let image = rendering.render(frame, using: scaler) else {
            return failure(
                time, .failed, AVError(.decodeFailed, description: "cannot convert the frame").nsError)
        }
        let actual = frame.pts.isNumeric ? frame.pts : time
        return ImageGenerationResult(
            requestedTime: time, image: image, actualTime: actual, outcome: .succeeded, error: nil)
    }

    /// The request's picture from the stream's I-frame playlist, when it allows a keyframe and
    /// one is there to take; nil leaves it to the grabber. Runs on `queue`.
    private func iFramePicture(_ time: CMTime, settings: ImageGenerationSettings) -> ImageGenerationResult? {
        guard time.isNumeric, settings.toleranceBefore != .zero || settings.toleranceAfter != .zero else { return nil }
        let limit = settings.rendering.maximumSize
        if iFrames?.limit != limit {
            let location = try? MediaLocation(url: url)
            let maximum = (Int(limit.width.rounded()), Int(limit.height.rounded()))
            iFrames = (limit, location.flatMap { HLSIFramePictures(location: $0, maximum: maximum, timeout: timeout) })
        }
        guard let pictures = iFrames?.pictures,
            case .picture(let frame, let at) = pictures.picture(
                at: time, toleranceBefore: settings.toleranceBefore, toleranceAfter: settings.toleranceAfter),
            let image = settings.rendering.render(frame, using: scaler)
        else { return nil }
        return ImageGenerationResult(requestedTime: time, image: image, actualTime: at, outcome: .succeeded, error: nil)
    }

    private func openGrabber() throws(MediaFailure) -> FrameGrabber {
        if let grabber { return grabber }
        let location = try MediaLocation(url: url)
        try location.checkLocalFile()
        let opened = try FrameGrabber(location: location, timeout: timeout, threadCount: nil)
        grabber = opened
        return opened
    }

    private func failure(
        _ time: CMTime, _ outcome: AVAssetImageGenerator.Result, _ error: NSError
    ) -> ImageGenerationResult {
        ImageGenerationResult(
            requestedTime: time, image: nil, actualTime: .invalid, outcome: outcome, error: error)
    }
}
