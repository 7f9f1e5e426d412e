// Playhead: one change as a key-value observation's handler receives it.
//
// Concurrency: a plain value type; it is Sendable when the observed value is.
import Foundation

/// A change to an observed key path, passed to the handler of
/// `observe(_:options:changeHandler:)`.
///
/// Which fields are filled in depends on the options the observation was made with:
/// `newValue` needs `.new`, `oldValue` needs `.old`, and `isPrior` is only ever `true` for the
/// extra early call that `.prior` asks for.
public struct NSKeyValueObservedChange<Value> {
    /// The kind of change; always ``NSKeyValueChange/setting`` for OpenAVFoundation's properties.
    public let kind: NSKeyValueChange

    /// The value after the change, when the observation asked for `.new` (never set in a
    /// prior call).
    public let newValue: Value?

    /// The value before the change, when the observation asked for `.old` (never set in the
    /// initial call).
    public let oldValue: Value?

    /// The indexes of the affected elements for to-many changes; `nil` for OpenAVFoundation's
    /// single-valued properties.
    public let indexes: IndexSet?

    /// `true` when this call comes before the change happens (the `.prior` option).
    public let isPrior: Bool

    /// A change description built by the observation machinery.
    package init(
        kind: NSKeyValueChange, newValue: Value?, oldValue: Value?, indexes: IndexSet? = nil,
        isPrior: Bool
    ) {
        self.kind = kind
        self.newValue = newValue
        self.oldValue = oldValue
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

extension NSKeyValueObservedChange: Sendable where Value: Sendable {}
