// Playhead: metadata items that apply to one stretch of the timeline (a chapter, a timed tag).
// Concurrency: immutable objects, shared freely.
import Foundation

/// A collection of metadata items: the base of `AVTimedMetadataGroup`.
///
/// - Important: Immutable; thread-safe.
open class AVMetadataGroup: NSObject, @unchecked Sendable {
    /// The group's items.
    public let items: [AVMetadataItem]
    private let label: String?
    private let identity: String?
    /// What kind of group it is (an HLS date range's `CLASS`); nil when not said.
    open var classifyingLabel: String? { label }
    /// The group's own identifier (an HLS date range's `ID`); nil when it has none.
    open var uniqueID: String? { identity }

    init(items: [AVMetadataItem], classifyingLabel: String? = nil, uniqueID: String? = nil) {
        self.items = items
        label = classifyingLabel
        identity = uniqueID
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
