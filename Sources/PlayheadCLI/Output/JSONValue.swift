// Playhead: a JSON document model whose objects keep their keys in insertion order.

/// A JSON value whose objects keep keys in the order they were written, so
/// output is deterministic and can be snapshot-tested.
///
/// Literals build values directly; dictionary literals keep their order:
/// ```swift
/// let value: JSONValue = ["duration": 63.5, "tracks": [], "title": nil]
/// value.formatted(.compact)   // {"duration":63.5,"tracks":[],"title":null}
/// ```
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number, printed without a fraction.
    case integer(Int)
    /// A floating-point number; printed with at most six decimals, `null` if not finite.
    case number(Double)
    /// A string, escaped on output.
    case string(String)
    /// An ordered list.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)
}

// MARK: - Optional conveniences

extension JSONValue {
    /// `.string(value)`, or `.null` when `value` is `nil`.
    public init(_ value: String?) {
        self = value.map(JSONValue.string) ?? .null
    }

    /// `.integer(value)`, or `.null` when `value` is `nil`.
    public init(_ value: Int?) {
        self = value.map(JSONValue.integer) ?? .null
    }

    /// `.number(value)`, or `.null` when `value` is `nil`.
    public init(_ value: Double?) {
        self = value.map(JSONValue.number) ?? .null
    }

    /// `.bool(value)`, or `.null` when `value` is `nil`.
    public init(_ value: Bool?) {
        self = value.map(JSONValue.bool) ?? .null
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal; keys keep their written order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - JSONObject

/// The members of a JSON object, in order, with unique keys.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue
    }

    /// The members in output order.
    public private(set) var members: [Member] = []

    /// An empty object.
    public init() {}

    /// An object from ordered pairs; a repeated key replaces the earlier value in place.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// A dictionary literal; keys keep their written order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The keys in output order.
    public var keys: [String] { members.map(\.key) }

    /// Reads a member, or sets one: a new key goes last, an existing key keeps its
    /// place, and setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            let index = members.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key: key, value: value))
            case (nil, nil): break
            }
        }
    }
}
