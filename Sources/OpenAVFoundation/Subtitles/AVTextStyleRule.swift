// Playhead: AVTextStyleRule, a set of Core Media text markup attributes an app asks the player
// to draw subtitles with (`AVPlayerItem.textStyleRules`), and its property-list form.
// Concurrency: immutable objects, checked to hold property-list values only.
import Foundation

/// Text styling for the subtitles a player draws: Core Media text markup attributes
/// (`kCMTextMarkupAttribute_ForegroundColorARGB`, `…_FontFamilyName`, `…_RelativeFontSize`, …)
/// and, optionally, a selector naming which text they apply to.
///
/// ```swift
/// let yellow = AVTextStyleRule(textMarkupAttributes: [
///     kCMTextMarkupAttribute_ForegroundColorARGB as String: [1, 1, 1, 0],
///     kCMTextMarkupAttribute_RelativeFontSize as String: 150,
/// ])!
/// item.textStyleRules = [yellow]
/// ```
///
/// Playhead's window applies the rules without a selector to every subtitle without styles of
/// its own (ASS/SSA keeps its styles; the relative size applies to all); rules with a selector
/// are kept but, as Playhead's subtitles have no named spans, match nothing.
///
/// - Important: Immutable; thread-safe.
open class AVTextStyleRule: NSObject, NSCopying, @unchecked Sendable {
    /// The text markup attributes, keyed by `kCMTextMarkupAttribute_…` names.
    public let textMarkupAttributes: [String: Any]
    /// Which text the rule applies to; nil: all text.
    public let textSelector: String?

    /// A rule applying `textMarkupAttributes` to all text. Nil when an attribute's value is not
    /// a property-list value (string, number, boolean, date, data, or arrays and dictionaries
    /// of those).
    public convenience init?(textMarkupAttributes: [String: Any] = [:]) {
        self.init(textMarkupAttributes: textMarkupAttributes, textSelector: nil)
    }

    /// A rule applying `textMarkupAttributes` to the text `textSelector` names (nil: all text).
    /// Nil when an attribute's value is not a property-list value.
    public init?(textMarkupAttributes: [String: Any] = [:], textSelector: String?) {
        guard textMarkupAttributes.values.allSatisfy(Self.isPropertyListValue) else { return nil }
        self.textMarkupAttributes = textMarkupAttributes
        self.textSelector = textSelector
        super.init()
    }

    /// The rule itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Rules are equal when their selectors and attributes are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVTextStyleRule else { return false }
        return other.textSelector == textSelector
            && Self.sameValue(other.textMarkupAttributes, textMarkupAttributes)
    }

    /// True when two property-list values hold the same data (numbers compare by value,
    /// whether Swift numbers or `NSNumber`s).
    static func sameValue(_ lhs: Any, _ rhs: Any) -> Bool {
        if let left = stringKeyed(lhs), let right = stringKeyed(rhs) {
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { sameValue(value, $0) } ?? false }
        }
        if let left = list(lhs), let right = list(rhs) {
            return left.count == right.count && zip(left, right).allSatisfy(sameValue)
        }
        if let left = lhs as? String, let right = rhs as? String { return left == right }
        if let left = lhs as? Date, let right = rhs as? Date { return left == right }
        if let left = lhs as? Data, let right = rhs as? Data { return left == right }
        if let left = SubtitleAppearance.number(lhs), let right = SubtitleAppearance.number(rhs) {
            return left == right
        }
        if let left = lhs as? Bool, let right = rhs as? Bool { return left == right }
        return false
    }

    /// `value` as an array (a Swift array or an `NSArray`).
    private static func list(_ value: Any) -> [Any]? {
        if let array = value as? [Any] { return array }
        return (value as? NSArray).map { $0.map { $0 } }
    }

    /// A hash from the selector and the attribute names (equal rules hash alike).
    open override var hash: Int { textSelector.hashValue ^ textMarkupAttributes.keys.sorted().hashValue }

    /// Key of a rule's attributes in its property-list form.
    private static let attributesKey = "textMarkupAttributes"
    /// Key of a rule's selector in its property-list form.
    private static let selectorKey = "textSelector"

    /// `textStyleRules` as a property list (an array with one dictionary per rule), to store
    /// and read back with ``textStyleRules(fromPropertyList:)``.
    open class func propertyList(for textStyleRules: [AVTextStyleRule]) -> Any {
        textStyleRules.map { rule -> [String: Any] in
            var entry: [String: Any] = [attributesKey: rule.textMarkupAttributes]
            if let selector = rule.textSelector { entry[selectorKey] = selector }
            return entry
        }
    }

    /// The rules a property list from ``propertyList(for:)`` describes; nil when it is not one.
    open class func textStyleRules(fromPropertyList plist: Any) -> [AVTextStyleRule]? {
        let entries: [Any]
        if let array = plist as? [Any] {
            entries = array
        } else if let array = plist as? NSArray {
            entries = array.map { $0 }
        } else {
            return nil
        }
        var rules: [AVTextStyleRule] = []
        for entry in entries {
            guard let dictionary = stringKeyed(entry),
                let attributes = dictionary[attributesKey].flatMap(stringKeyed)
            else { return nil }
            let selector = dictionary[selectorKey]
            if selector != nil, !(selector is String) { return nil }
            guard let rule = AVTextStyleRule(textMarkupAttributes: attributes, textSelector: selector as? String)
            else { return nil }
            rules.append(rule)
        }
        return rules
    }

    /// `value` as a dictionary with string keys (a Swift dictionary or an `NSDictionary`).
    private static func stringKeyed(_ value: Any) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        guard let dictionary = value as? NSDictionary else { return nil }
        var result: [String: Any] = [:]
        for (key, element) in dictionary {
            guard let key = key as? String else { return nil }
            result[key] = element
        }
        return result
    }

    /// True for the values a property list may hold.
    static func isPropertyListValue(_ value: Any) -> Bool {
        switch value {
        case is String, is Bool, is Int, is Double, is Float, is CGFloat, is Date, is Data,
            is NSNumber, is NSString, is NSDate, is NSData:
            return true
        case is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            return true
        case let array as [Any]:
            return array.allSatisfy(isPropertyListValue)
        case let array as NSArray:
            return array.allSatisfy(isPropertyListValue)
        case let dictionary as [String: Any]:
            return dictionary.values.allSatisfy(isPropertyListValue)
        case let dictionary as NSDictionary:
            return dictionary.allSatisfy { $0.key is String && isPropertyListValue($0.value) }
        default:
            return false
        }
    }
}
