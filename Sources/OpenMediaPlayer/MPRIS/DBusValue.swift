// Playhead: the D-Bus values the MPRIS server sends and reads, and their (de)serialisation
// through libdbus's message iterators.
//
// Concurrency: stateless helpers; called only on the MPRIS server's bus thread, which owns the
// messages they read and write.
internal import CDBus
import Foundation

/// A D-Bus value of the kinds MPRIS uses.
indirect enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case boolean(Bool)
    case stringArray([String])
    /// a{sv}: names to variants, in order.
    case dictionary([(String, DBusValue)])

    static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.objectPath(let a), .objectPath(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.stringArray(let a), .stringArray(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value's D-Bus type signature.
    var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .int32: return "i"
        case .int64: return "x"
        case .double: return "d"
        case .boolean: return "b"
        case .stringArray: return "as"
        case .dictionary: return "a{sv}"
        }
    }
}

/// libdbus's type codes (the characters of a signature).
enum DBusType {
    static let invalid: Int32 = 0
    static let boolean = code("b")
    static let int32 = code("i")
    static let int64 = code("x")
    static let uint32 = code("u")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let array = code("a")
    static let variant = code("v")
    static let dictEntry = code("e")

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
}

/// Appends values to a message being built.
enum DBusWriter {
    /// Appends `value` (as its own type) at `iter`. Returns false when libdbus runs out of memory.
    @discardableResult
    static func append(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        switch value {
        case .string(let text): return appendString(text, type: DBusType.string, to: iter)
        case .objectPath(let path): return appendString(path, type: DBusType.objectPath, to: iter)
        case .int32(var number): return dbus_message_iter_append_basic(iter, DBusType.int32, &number) != 0
        case .int64(var number): return dbus_message_iter_append_basic(iter, DBusType.int64, &number) != 0
        case .double(var number): return dbus_message_iter_append_basic(iter, DBusType.double, &number) != 0
        case .boolean(let flag):
            var word: dbus_bool_t = flag ? 1 : 0
            return dbus_message_iter_append_basic(iter, DBusType.boolean, &word) != 0
        case .stringArray(let texts):
            return container(DBusType.array, "s", in: iter) { sub in
                texts.allSatisfy { appendString($0, type: DBusType.string, to: sub) }
            }
        case .dictionary(let entries):
            return container(DBusType.array, "{sv}", in: iter) { array in
                entries.allSatisfy { name, entry in
                    container(DBusType.dictEntry, nil, in: array) { pair in
                        appendString(name, type: DBusType.string, to: pair) && appendVariant(entry, to: pair)
                    }
                }
            }
        }
    }

    /// Appends `value` wrapped in a variant.
    @discardableResult
    static func appendVariant(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        container(DBusType.variant, value.signature, in: iter) { append(value, to: $0) }
    }

    private static func appendString(_ text: String, type: Int32, to iter: UnsafeMutablePointer<DBusMessageIter>)
        -> Bool
    {
        text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            return dbus_message_iter_append_basic(iter, type, &pointer) != 0
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, in iter: UnsafeMutablePointer<DBusMessageIter>,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(iter, type, $0, &sub) != 0 }
        } else {
            opened = dbus_message_iter_open_container(iter, type, nil, &sub) != 0
        }
        guard opened else { return false }
        let filled = withUnsafeMutablePointer(to: &sub) { body($0) }
        return dbus_message_iter_close_container(iter, &sub) != 0 && filled
    }
}

/// Reads the arguments of a received message.
struct DBusArguments {
    private(set) var values: [DBusValue?] = []

    /// Arguments given directly (tests of the method router).
    init(values: [DBusValue?]) { self.values = values }

    /// Reads every top-level argument of `message` (unsupported kinds read as nil; a variant
    /// reads as what it holds).
    init(_ message: OpaquePointer) {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return }
        repeat {
            values.append(Self.read(&iter))
        } while dbus_message_iter_next(&iter) != 0
    }

    private static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> DBusValue? {
        switch dbus_message_iter_get_arg_type(iter) {
        case DBusType.string, DBusType.objectPath:
            var pointer: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(iter, &pointer)
            guard let pointer else { return nil }
            let text = String(cString: pointer)
            return dbus_message_iter_get_arg_type(iter) == DBusType.string ? .string(text) : .objectPath(text)
        case DBusType.int64:
            var number: Int64 = 0
            dbus_message_iter_get_basic(iter, &number)
            return .int64(number)
        case DBusType.double:
            var number: Double = 0
            dbus_message_iter_get_basic(iter, &number)
            return .double(number)
        case DBusType.boolean:
            var word: dbus_bool_t = 0
            dbus_message_iter_get_basic(iter, &word)
            return .boolean(word != 0)
        case DBusType.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            return read(&sub)
        default:
            return nil
        }
    }

    /// The argument at `index` as a string (or object path).
    func string(_ index: Int) -> String? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .string(let text), .objectPath(let text): return text
        default: return nil
        }
    }

    /// The argument at `index` as a number.
    func number(_ index: Int) -> Double? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .int64(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    /// The argument at `index` as a boolean.
    func boolean(_ index: Int) -> Bool? {
        guard index < values.count, case .boolean(let flag) = values[index] else { return nil }
        return flag
    }

    /// The argument at `index` as a 64-bit integer.
    func int64(_ index: Int) -> Int64? {
        guard index < values.count, case .int64(let number) = values[index] else { return nil }
        return number
    }
}
