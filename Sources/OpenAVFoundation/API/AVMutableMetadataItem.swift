// Playhead: a metadata item an app builds or edits itself (titles for its own queue, say).
// Concurrency: every field sits behind the item's lock; any thread may read or write.
import Foundation

/// The fields of a metadata item.
struct MetadataFields: @unchecked Sendable {
    var identifier: AVMetadataIdentifier?
    var key: (any NSCopying & NSObjectProtocol)?
    var commonKey: AVMetadataKey?
    var keySpace: AVMetadataKeySpace?
    var value: (any NSCopying & NSObjectProtocol)?
    var extendedLanguageTag: String?
    var time: CMTime = .invalid
    var duration: CMTime = .invalid
    var dataType: String?
    var startDate: Date?
    /// Attributes beside the value (an ID3 `TXXX` frame's description as `.info`).
    var extraAttributes: [AVMetadataExtraAttributeKey: Any]?
}

/// A metadata item whose fields can be set.
///
/// ```swift
/// let title = AVMutableMetadataItem()
/// title.identifier = .commonIdentifierTitle
/// title.value = "Evening news" as NSString
/// ```
///
/// Setting `identifier` also sets `keySpace` and `key` (and `commonKey` for common
/// identifiers); setting `keySpace` or `key` sets `identifier` when both are known.
open class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    /// An item with no key and no value.
    public init() {
        super.init(fields: MetadataFields())
    }

    override init(fields: MetadataFields) {
        super.init(fields: fields)
    }

    /// "keySpace/key"; setting it sets `keySpace`, `key` and `commonKey` to match.
    open override var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set {
            fields.withLock { fields in
                fields.identifier = newValue
                guard let newValue, let parts = newValue.keySpaceAndKey else { return }
                fields.keySpace = parts.keySpace
                fields.key = NSString(string: parts.key)
                fields.commonKey = parts.keySpace == .common ? AVMetadataKey(parts.key) : nil
            }
        }
    }
    /// The key within `keySpace`, a `String` or `NSString` in practice.
    open override var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set { fields.withLock { $0.key = newValue; Self.updateIdentifier(&$0) } }
    }
    /// Where `key` comes from.
    open override var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { fields.withLock { $0.keySpace = newValue; Self.updateIdentifier(&$0) } }
    }
    /// The value: an `NSString`, `NSNumber`, `NSData` or `NSDate`.
    open override var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set { fields.withLock { $0.value = newValue } }
    }
    /// The value's language as a BCP 47 tag.
    open override var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { fields.withLock { $0.extendedLanguageTag = newValue } }
    }
    /// The value's locale; setting it sets `extendedLanguageTag`.
    open override var locale: Locale? {
        get { super.locale }
        set { fields.withLock { $0.extendedLanguageTag = newValue?.identifier.replacingOccurrences(of: "_", with: "-") } }
    }
    /// Attributes beside the value (`.info`: an ID3 user text frame's description).
    open override var extraAttributes: [AVMetadataExtraAttributeKey: Any]? {
        get { super.extraAttributes }
        set { fields.withLock { $0.extraAttributes = newValue } }
    }
    /// Where in the timeline the item applies.
    open override var time: CMTime {
        get { super.time }
        set { fields.withLock { $0.time = newValue } }
    }
    /// How long the item applies.
    open override var duration: CMTime {
        get { super.duration }
        set { fields.withLock { $0.duration = newValue } }
    }
    /// The value's type.
    open override var dataType: String? {
        get { super.dataType }
        set { fields.withLock { $0.dataType = newValue } }
    }
    /// The wall-clock date the item applies from.
    open override var startDate: Date? {
        get { super.startDate }
        set { fields.withLock { $0.startDate = newValue } }
    }

    /// Recomputes the identifier (and common key) from key space and key.
    private static func updateIdentifier(_ fields: inout MetadataFields) {
        guard let keySpace = fields.keySpace, let key = fields.key.flatMap(Self.keyText) else {
            fields.identifier = nil
            fields.commonKey = nil
            return
        }
        fields.identifier = AVMetadataIdentifier.identifier(forKey: key, keySpace: keySpace)
        fields.commonKey = keySpace == .common ? AVMetadataKey(key) : nil
    }

    private static func keyText(_ key: any NSCopying & NSObjectProtocol) -> String? {
        (key as? String) ?? (key as? NSString).map { $0 as String } ?? (key as? AVMetadataKey)?.rawValue
    }
}

extension AVMetadataIdentifier {
    /// The key space and key an identifier names ("common/title": common, "title"); nil when
    /// it is not written "keySpace/key".
    var keySpaceAndKey: (keySpace: AVMetadataKeySpace, key: String)? {
        guard let slash = rawValue.firstIndex(of: "/") else { return nil }
        let space = String(rawValue[..<slash])
        let key = String(rawValue[rawValue.index(after: slash)...])
        guard !space.isEmpty, !key.isEmpty else { return nil }
        let known = AVMetadataIdentifier.identifierPrefixes.first { $0.value == space }?.key
        return (known ?? AVMetadataKeySpace(space), key)
    }
}
