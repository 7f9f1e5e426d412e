// Playhead: the kind of change a key-value observation reports.
//
// Concurrency: a plain value type; safe to share between threads.

/// How an observed value changed.
///
/// OpenAVFoundation's observable properties are single values, so their observations always
/// report ``setting``; the collection kinds exist so code written for Apple's API compiles.
public enum NSKeyValueChange: UInt, Sendable {
    /// The value was replaced as a whole.
    case setting = 1
    /// Elements were inserted into an observed to-many collection.
    case insertion = 2
    /// Elements were removed from an observed to-many collection.
    case removal = 3
    /// Elements of an observed to-many collection were replaced.
    case replacement = 4
}
