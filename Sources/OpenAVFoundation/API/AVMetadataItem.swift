// Playhead: one piece of metadata (a title, an artist, cover art) read from an asset.
import Foundation

/// An immutable metadata entry: a key in a key space and its value.
///
/// Assets hand these out through `commonMetadata` (entries with a common key) and
/// `metadata` (every tag). Cover art is an item with the common key `artwork` whose
/// `dataValue` holds the image bytes; it is never presented as a video track.
open class AVMetadataItem: NSObject, AVAsynchronousKeyValueLoading, NSCopying, NSMutableCopying,
    @unchecked Sendable
{
    /// The item's fields. Immutable items never write them; `AVMutableMetadataItem` does, under
    /// the lock.
    let fields: Locked<MetadataFields>

    /// "keySpace/key", e.g. "common/title".
    open var identifier: AVMetadataIdentifier? { fields.withLock { $0.identifier } }
    /// The key within `keySpace`: the container tag name as a `String`.
    open var key: (any NSCopying & NSObjectProtocol)? { fields.withLock { $0.key } }
    /// The key in the common key space, when the tag maps onto one.
    open var commonKey: AVMetadataKey? { fields.withLock { $0.commonKey } }
    /// Where `key` comes from.
    open var keySpace: AVMetadataKeySpace? { fields.withLock { $0.keySpace } }
    /// The value: an `NSString` for text, `NSData` for images.
    open var value: (any NSCopying & NSObjectProtocol)? { fields.withLock { $0.value } }
    /// The value's language as a BCP 47 tag, when the container says.
    open var extendedLanguageTag: String? { fields.withLock { $0.extendedLanguageTag } }
    /// Where in the timeline the item applies; `.invalid` for items about the whole asset.
    open var time: CMTime { fields.withLock { $0.time } }
    /// How long the item applies; `.invalid` for items about the whole asset.
    open var duration: CMTime { fields.withLock { $0.duration } }
    /// The value's type, e.g. "com.apple.metadata.datatype.UTF-8" or a MIME type for images.
    open var dataType: String? { fields.withLock { $0.dataType } }
    /// The wall-clock date the item applies from, when known (timed metadata of live streams).
    open var startDate: Date? { fields.withLock { $0.startDate } }
    /// Attributes beside the value: `.info` holds an ID3 user text frame's (`TXXX`)
    /// description. Nil when the item has none.
    open var extraAttributes: [AVMetadataExtraAttributeKey: Any]? { fields.withLock { $0.extraAttributes } }

    package init(
        key: String, keySpace: AVMetadataKeySpace, commonKey: AVMetadataKey?,
        value: (any NSCopying & NSObjectProtocol)?, dataType: String?,
        extendedLanguageTag: String? = nil, time: CMTime = .invalid, duration: CMTime = .invalid
    ) {
        var fields = MetadataFields()
        fields.key = NSString(string: key)
        fields.keySpace = keySpace
        fields.commonKey = commonKey
        fields.identifier = commonKey.map {
            AVMetadataIdentifier.identifier(forKey: $0.rawValue, keySpace: .common)
        } ?? AVMetadataIdentifier.identifier(forKey: key, keySpace: keySpace)
        fields.value = value
        fields.dataType = dataType
        fields.extendedLanguageTag = extendedLanguageTag
        fields.time = time
        fields.duration = duration
        self.fields = Locked(fields)
    }

    /// An item holding a copy of `fields`.
    init(fields: MetadataFields) {
        self.fields = Locked(fields)
    }

    /// An immutable item is its own copy; a mutable one copies into an immutable item.
    open func copy(with zone: NSZone? = nil) -> Any {
        type(of: self) == AVMetadataItem.self ? self : AVMetadataItem(fields: fields.withLock { $0 })
    }

    /// A mutable copy with the same fields.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        AVMutableMetadataItem(fields: fields.withLock { $0 })
    }

    /// The value as a string: text as is, numbers in decimal; nil for data.
    public var stringValue: String? {
        switch value {
        case let string as NSString: return string as String
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    /// The value as a number when it is one or is text that reads as one.
    public var numberValue: NSNumber? {
        if let number = value as? NSNumber { return number }
        guard let text = stringValue, let number = Double(text) else { return nil }
        return NSNumber(value: number)
    }

    /// The value as a date when it is text in ISO 8601 or "YYYY-MM-DD" or "YYYY" form.
    public var dateValue: Date? {
        guard let text = stringValue?.trimmingCharacters(in: .whitespaces) else { return nil }
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let short = DateFormatter()
        short.locale = Locale(identifier: "en_US_POSIX")
        short.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd", "yyyy"] {
            short.dateFormat = format
            if let date = short.date(from: text) { return date }
        }
        return nil
    }

    /// The value as bytes when it is data (cover art).
    public var dataValue: Data? {
        (value as? NSData).map { Data(referencing: $0) }
    }

    /// The locale of `extendedLanguageTag`, when there is one.
    open var locale: Locale? { extendedLanguageTag.map(Locale.init(identifier:)) }

    // MARK: - AVAsynchronousKeyValueLoading

    /// Metadata items arrive loaded: every key is `.loaded`.
    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        .loaded
    }

    /// Calls `handler` on a background queue; nothing needs loading.
    open func loadValuesAsynchronously(
        forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil
    ) {
        if let handler { DispatchQueue.global(qos: .userInitiated).async(execute: handler) }
    }

    // MARK: - Filtering

    /// The items of `metadataItems` whose identifier is `identifier`. The cover art of a file
    /// or stream answers to `.iTunesMetadataCoverArt` and `.id3MetadataAttachedPicture` as well
    /// as to `.commonIdentifierArtwork` (Playhead gives it the common identifier).
    open class func metadataItems(
        from metadataItems: [AVMetadataItem], filteredByIdentifier identifier: AVMetadataIdentifier
    ) -> [AVMetadataItem] {
        let artwork = AVMetadataIdentifier.artworkAliases.contains(identifier)
        return metadataItems.filter { $0.identifier == identifier || (artwork && $0.commonKey == .commonKeyArtwork) }
    }

    /// The items of `metadataItems` with `key` (a String or AVMetadataKey) in `keySpace`
    /// (any key space when nil).
    open class func metadataItems(
        from metadataItems: [AVMetadataItem], withKey key: Any?, keySpace: AVMetadataKeySpace?
    ) -> [AVMetadataItem] {
        let wanted: String? =
            (key as? AVMetadataKey)?.rawValue ?? (key as? String) ?? (key as? NSString).map { $0 as String }
        return metadataItems.filter { item in
            let keyMatches: Bool
            if let wanted {
                let itemKey = (item.key as? NSString).map { $0 as String }
                keyMatches = (keySpace == .common ? item.commonKey?.rawValue : itemKey) == wanted
                    || (keySpace == nil && item.commonKey?.rawValue == wanted)
            } else {
                keyMatches = true
            }
            let spaceMatches = keySpace == nil || keySpace == item.keySpace
                || (keySpace == .common && item.commonKey != nil)
            return keyMatches && spaceMatches
        }
    }

    /// The identifier for `key` in `keySpace`.
    open class func identifier(forKey key: Any, keySpace: AVMetadataKeySpace) -> AVMetadataIdentifier? {
        let text = (key as? AVMetadataKey)?.rawValue ?? (key as? String)
        return text.map { AVMetadataIdentifier.identifier(forKey: $0, keySpace: keySpace) }
    }

    open override var description: String {
        let shown = stringValue ?? dataValue.map { "<\($0.count) bytes>" } ?? "nil"
        return "AVMetadataItem(\(identifier?.rawValue ?? "?"): \(shown))"
    }
}
