// Playhead: typed property names for `load(_:)`, such as `.duration` and `.tracks`.
import Foundation

/// A loadable property of some `Root` type, with its value type erased.
open class AVPartialAsyncProperty<Root>: NSObject, @unchecked Sendable {
    /// The property's key, as the string-based API names it ("duration", "tracks", ...).
    package let key: String

    package init(key: String) {
        self.key = key
    }

    open override var description: String { "AVAsyncProperty(\(key))" }
}

/// A loadable property of `Root` whose value has type `Value`, e.g.
/// `AVAsyncProperty<AVAsset, CMTime>` for `.duration`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    /// Where loading a property stands, with the value once it is loaded.
    @frozen public enum Status {
        /// Loading has not been requested.
        case notYetLoaded
        /// Loading is under way.
        case loading
        /// The property loaded with this value.
        case loaded(Value)
        /// Loading failed with this error.
        case failed(NSError)
    }

    private let read: @Sendable (Root) throws -> Value

    /// A property named `key` whose value `read` extracts from a loaded root.
    package init(key: String, read: @escaping @Sendable (Root) throws -> Value) {
        self.read = read
        super.init(key: key)
    }

    /// The value for a root whose key has loaded.
    package func value(of root: Root) throws -> Value { try read(root) }
}
