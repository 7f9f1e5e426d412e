// Playhead: thumbnails for hovering the seek slider: decoded in the background at low
// resolution by an AVAssetImageGenerator per item, cached by time bucket.
//
// Concurrency: thread-safe. The window thread asks for images (`image(forFraction:...)`),
// generation runs on the generator's own queue, and results arrive on the main queue; all
// shared state is behind one lock. `onImageReady` is called on the main queue.
import Foundation
import OpenAVFoundation
import Synchronization

/// Low-resolution previews of one item at evenly spaced times (buckets), made on demand.
final class SeekPreviewCache: @unchecked Sendable {
    /// How many buckets span the item (finer buckets for longer items give no better previews).
    static let bucketCount = 100
    /// The largest preview.
    static let maximumSize = CGSize(width: 160, height: 90)
    /// Cached previews kept at most (the least recently used go first).
    static let capacity = 120

    private struct State {
        var item: ObjectIdentifier?
        var generator: AVAssetImageGenerator?
        var images: [Int: CGImage] = [:]
        var recency: [Int] = []
        var requested: Set<Int> = []
    }

    private let state = Locked(State())
    /// Called (on the main queue) when a requested preview is ready.
    let onImageReady: @Sendable () -> Void

    /// A cache that calls `onImageReady` whenever a new preview arrives.
    init(onImageReady: @escaping @Sendable () -> Void) {
        self.onImageReady = onImageReady
    }

    /// The bucket for `fraction` (0 to 1) of the item.
    static func bucket(forFraction fraction: Double) -> Int {
        Int((min(1, max(0, fraction)) * Double(bucketCount - 1)).rounded())
    }

    /// The time in seconds a bucket stands for.
    static func seconds(ofBucket bucket: Int, duration: Double) -> Double {
        duration * Double(bucket) / Double(bucketCount - 1)
    }

    /// The preview for `fraction` of `item` (of `duration` seconds) when it is cached; else
    /// nil, and its generation starts in the background (once per bucket).
    func image(forFraction fraction: Double, of item: AVPlayerItem, duration: Double) -> CGImage? {
        guard duration.isFinite, duration > 0 else { return nil }
        let bucket = Self.bucket(forFraction: fraction)
        let (cached, generator) = state.withLock { state -> (CGImage?, AVAssetImageGenerator?) in
            if state.item != ObjectIdentifier(item) {
                state.generator?.cancelAllCGImageGeneration()
                state = State(item: ObjectIdentifier(item))
                let generator = AVAssetImageGenerator(asset: item.asset)
                generator.maximumSize = Self.maximumSize
                generator.appliesPreferredTrackTransform = true
                state.generator = generator
            }
            if let image = state.images[bucket] {
                state.recency.removeAll { $0 == bucket }
                state.recency.append(bucket)
                return (image, nil)
            }
            guard !state.requested.contains(bucket) else { return (nil, nil) }
            state.requested.insert(bucket)
            return (nil, state.generator)
        }
        if let cached { return cached }
        if let generator {
            let time = CMTime(seconds: Self.seconds(ofBucket: bucket, duration: duration), preferredTimescale: 600)
            let key = ObjectIdentifier(item)
            generator.generateCGImagesAsynchronously(forTimes: [NSValue(time: time)]) { [weak self] _, image, _, _, _ in
                self?.store(image, bucket: bucket, item: key)
            }
        }
        return nil
    }

    /// How many previews are cached (tests).
    var count: Int { state.withLock { $0.images.count } }

    private func store(_ image: CGImage?, bucket: Int, item: ObjectIdentifier) {
        let stored = state.withLock { state -> Bool in
            guard state.item == item else { return false }
            state.requested.remove(bucket)
            guard let image else { return false }
            state.images[bucket] = image
            state.recency.append(bucket)
            while state.recency.count > Self.capacity {
                state.images[state.recency.removeFirst()] = nil
            }
            return true
        }
        if stored { onImageReady() }
    }
}
