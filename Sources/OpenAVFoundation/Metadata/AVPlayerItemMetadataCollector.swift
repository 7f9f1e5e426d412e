// Playhead: AVPlayerItemMetadataCollector, which hands an HLS item's date ranges
// (`EXT-X-DATERANGE`: ad breaks, programmes, SCTE-35 signals) to the app as its playlists are
// loaded, each as an `AVDateRangeMetadataGroup`, with which groups are new and which changed.
//
// Concurrency: collectors are added to an item from any thread (the item's lock). Playhead's
// HLS loader reports the ranges of each playlist it loads; the player hops them to the main
// queue, where the item keeps them and each collector works out what is new (its `delivered`
// table is the main queue's) and calls its delegate on its delegate queue (the main queue
// when none was given).
import Foundation

/// The base of the objects an item hands media data to as it loads (not as it plays):
/// `AVPlayerItemMetadataCollector`.
open class AVPlayerItemMediaDataCollector: NSObject, @unchecked Sendable {}

/// Receives the date range groups a collector gathered.
public protocol AVPlayerItemMetadataCollectorPushDelegate: NSObjectProtocol {
    /// `metadataGroups` is every group collected so far, in the order the playlist first
    /// listed them; `indexesOfNewGroups` and `indexesOfModifiedGroups` index the ones that are
    /// new since the last call and the ones a later tag with the same `ID` changed.
    func metadataCollector(
        _ metadataCollector: AVPlayerItemMetadataCollector, didCollect metadataGroups: [AVDateRangeMetadataGroup],
        indexesOfNewGroups: IndexSet, indexesOfModifiedGroups: IndexSet)
}

/// Metadata items that apply to a stretch of wall-clock time: one `EXT-X-DATERANGE`.
///
/// Its items are the tag's attributes but the dates (key space `.hlsDateRange`, the
/// attribute's name as key, identifiers such as "lsdr/X-COM-EXAMPLE-AD-ID"): quoted strings as
/// `NSString`, numbers as `NSNumber`, hexadecimal sequences (SCTE-35 commands) as `NSData`.
///
/// - Important: Immutable; thread-safe.
open class AVDateRangeMetadataGroup: AVMetadataGroup, @unchecked Sendable {
    /// `START-DATE`.
    public let startDate: Date
    /// `END-DATE` (or `START-DATE` plus `DURATION`); nil while the range is open-ended.
    public let endDate: Date?

    /// A group of `items` from `startDate` to `endDate`.
    public init(items: [AVMetadataItem], start startDate: Date, end endDate: Date?) {
        self.startDate = startDate
        self.endDate = endDate
        super.init(items: items)
    }

    /// A group of `items` from `startDate` to `endDate`, of the date range `uniqueID` whose
    /// `CLASS` is `classifyingLabel`.
    init(items: [AVMetadataItem], start startDate: Date, end endDate: Date?, classifyingLabel: String?, uniqueID: String?) {
        self.startDate = startDate
        self.endDate = endDate
        super.init(items: items, classifyingLabel: classifyingLabel, uniqueID: uniqueID)
    }
}

extension AVMetadataKeySpace {
    /// The attributes of HLS `EXT-X-DATERANGE` tags ("lsdr").
    public static let hlsDateRange = AVMetadataKeySpace("lsdr")
}

/// Collects an HLS item's date ranges (`EXT-X-DATERANGE`) and hands them to a delegate.
///
/// ```swift
/// let collector = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: ["com.example.ad"])
/// collector.setDelegate(self, queue: .main)
/// item.add(collector)
/// ```
///
/// - Note: Date ranges come from playlists Playhead's own HLS loader reads (VOD once, live at
///   every reload); a stream libavformat reads has none.
open class AVPlayerItemMetadataCollector: AVPlayerItemMediaDataCollector, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVPlayerItemMetadataCollectorPushDelegate)?
        var queue: DispatchQueue?
    }
    private let delegation = Locked(Delegation())
    /// The identifiers delivered (nil: every item) and the `CLASS`es delivered (nil: every range).
    private let identifiers: Set<String>?
    private let classifyingLabels: Set<String>?
    /// The ranges handed to the delegate so far, by ID (main queue).
    private let delivered = Locked<[String: HLSDateRange]>([:])

    /// A collector of every item of every date range (as both lists nil).
    public convenience override init() {
        self.init(identifiers: nil, classifyingLabels: nil)
    }

    /// A collector of the items whose identifier is in `identifiers` (every item when nil) of
    /// the ranges whose `CLASS` is in `classifyingLabels` (every range when nil).
    public init(identifiers: [String]?, classifyingLabels: [String]?) {
        self.identifiers = identifiers.map(Set.init)
        self.classifyingLabels = classifyingLabels.map(Set.init)
        super.init()
    }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(
        _ delegate: (any AVPlayerItemMetadataCollectorPushDelegate)?, queue delegateQueue: DispatchQueue?
    ) {
        delegation.withLock { $0 = Delegation(delegate: delegate, queue: delegateQueue) }
    }

    /// The delegate (held weakly).
    open var delegate: (any AVPlayerItemMetadataCollectorPushDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Calls the delegate with every group of `ranges` it wants, when one is new or changed
    /// since the last call (main queue).
    func collect(_ ranges: [HLSDateRange]) {
        let wanted = HLSDateRange.closingEndOnNext(ranges).filter { range in
            classifyingLabels.map { range.classLabel.map($0.contains) ?? false } ?? true
        }
        var groups: [AVDateRangeMetadataGroup] = []
        var new = IndexSet()
        var modified = IndexSet()
        let before = delivered.withLock { $0 }
        for range in wanted {
            guard let group = group(of: range) else { continue }
            if let old = before[range.id] {
                if old != range { modified.insert(groups.count) }
            } else {
                new.insert(groups.count)
            }
            groups.append(group)
        }
        delivered.withLock { table in for range in wanted { table[range.id] = range } }
        guard !new.isEmpty || !modified.isEmpty else { return }
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        let payload = UncheckedBox((delegate, self, groups, new, modified))
        let call = { @Sendable in
            let (delegate, collector, groups, new, modified) = payload.value
            delegate.metadataCollector(
                collector, didCollect: groups, indexesOfNewGroups: new, indexesOfModifiedGroups: modified)
        }
        if let queue, queue !== DispatchQueue.main { queue.async(execute: call) } else { call() }
    }

    /// `range` as a group of the items the collector delivers; nil when none is left.
    private func group(of range: HLSDateRange) -> AVDateRangeMetadataGroup? {
        let items = range.attributes.compactMap { attribute -> AVMetadataItem? in
            let identifier = AVMetadataIdentifier("\(AVMetadataKeySpace.hlsDateRange.rawValue)/\(attribute.name)")
            if let identifiers, !identifiers.contains(identifier.rawValue) { return nil }
            let value: any NSCopying & NSObjectProtocol
            switch attribute.value {
            case .string(let text): value = NSString(string: text)
            case .number(let number): value = NSNumber(value: number)
            case .data(let bytes): value = NSData(data: bytes)
            }
            var fields = MetadataFields()
            fields.identifier = identifier
            fields.key = NSString(string: attribute.name)
            fields.keySpace = .hlsDateRange
            fields.value = value
            fields.startDate = range.startDate
            return AVMetadataItem(fields: fields)
        }
        return items.isEmpty
            ? nil
            : AVDateRangeMetadataGroup(
                items: items, start: range.startDate, end: range.endDate, classifyingLabel: range.classLabel, uniqueID: range.id)
    }
}

extension AVPlayerItem {
    /// The most date ranges an item keeps (a long live stream's oldest are forgotten).
    static let mostDateRanges = 1_000

    /// Attaches `collector`: it receives the item's date ranges as its playlists are loaded
    /// (those already loaded at once). Adding one twice does nothing.
    nonisolated public func add(_ collector: AVPlayerItemMediaDataCollector) {
        let ranges = state.withLock { state -> [HLSDateRange]? in
            guard !state.mediaDataCollectors.contains(where: { $0 === collector }) else { return nil }
            state.mediaDataCollectors.append(collector)
            return state.dateRanges
        }
        guard let ranges, !ranges.isEmpty, let metadata = collector as? AVPlayerItemMetadataCollector else { return }
        let box = UncheckedBox(metadata)
        DispatchQueue.main.async { box.value.collect(ranges) }
    }

    /// Detaches `collector`; it receives nothing more.
    nonisolated public func remove(_ collector: AVPlayerItemMediaDataCollector) {
        state.withLock { $0.mediaDataCollectors.removeAll { $0 === collector } }
    }

    /// The collectors attached to the item.
    nonisolated public var mediaDataCollectors: [AVPlayerItemMediaDataCollector] {
        state.withLock { $0.mediaDataCollectors }
    }

    /// Takes in the date ranges of a playlist just loaded (a later tag with a known ID
    /// replaces it) and hands them to the collectors (main queue).
    nonisolated func collectDateRanges(_ loaded: [HLSDateRange]) {
        let (ranges, collectors) = state.withLock { state -> ([HLSDateRange], [AVPlayerItemMediaDataCollector]) in
            for range in loaded {
                if let index = state.dateRanges.firstIndex(where: { $0.id == range.id }) {
                    state.dateRanges[index] = range
                } else {
                    state.dateRanges.append(range)
                }
            }
            if state.dateRanges.count > Self.mostDateRanges {
                state.dateRanges.removeFirst(state.dateRanges.count - Self.mostDateRanges)
            }
            return (state.dateRanges, state.mediaDataCollectors)
        }
        for case let collector as AVPlayerItemMetadataCollector in collectors { collector.collect(ranges) }
    }
}
