// Playhead: metadata items that apply to one stretch of the timeline (a chapter, a timed tag).
// Concurrency: immutable objects, shared freely.
import Foundation

/// A collection of metadata items: the base of `AVTimedMetadataGroup`.
///
/// - Important: Immutable; thread-safe.
open class AVMetadataGroup: NSObject, @unchecked Sendable {
    /// The group's items.
    public let items: [AVMetadataItem]

    init(items: [AVMetadataItem]) {
        self.items = items
        super.init()
    }
}

/// Metadata items that apply to `timeRange` of an asset, such as one chapter's title.
///
/// - Important: Immutable; thread-safe.
open class AVTimedMetadataGroup: AVMetadataGroup, @unchecked Sendable {
    /// The stretch of the item timeline the items apply to.
    public let timeRange: CMTimeRange

    /// A group of `items` applying to `timeRange`.
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        self.timeRange = timeRange
        super.init(items: items)
    }

    open override var description: String {
        let title = items.first { $0.commonKey == .commonKeyTitle }?.stringValue ?? "?"
        return
            "AVTimedMetadataGroup(\(title) @ \(timeRange.start.seconds)+\(timeRange.duration.seconds))"
    }
}
