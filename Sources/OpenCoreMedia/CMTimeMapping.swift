// Playhead: CMTimeMapping, how a span of a source's time lands on a target timeline.
// Concurrency: a value type.

/// Maps `source` (a range of a track's media time) onto `target` (a range of the
/// presentation timeline). An empty edit has an invalid `source.start`.
public struct CMTimeMapping: Sendable, Equatable {
    /// The range of the track's media.
    public var source: CMTimeRange
    /// Where that range plays on the presentation timeline.
    public var target: CMTimeRange

    /// A mapping with empty ranges at zero.
    public init() {
        self.init(source: CMTimeRange(), target: CMTimeRange())
    }

    /// A mapping of `source` onto `target`.
    public init(source: CMTimeRange, target: CMTimeRange) {
        self.source = source
        self.target = target
    }

    /// The mapping with every field invalid.
    public static let invalid = CMTimeMapping(source: .invalid, target: .invalid)
}

/// A mapping of `source` onto `target`.
public func CMTimeMappingMake(_ source: CMTimeRange, _ target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: source, target: target)
}

/// An empty edit: nothing of the source plays during `target`.
public func CMTimeMappingMakeEmpty(_ target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: CMTimeRange(start: .invalid, duration: target.duration), target: target)
}
