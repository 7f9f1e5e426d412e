// Playhead: exact ordering of CMTime values (CMTimeCompare, ==, <).

// MARK: - Exact comparison

extension CMTime {
    /// Orders two times exactly, returning -1, 0 or 1.
    ///
    /// Kinds come first: negative infinity < finite < indefinite < positive
    /// infinity < invalid, and any two times of the same special kind are
    /// equal. Two finite times compare by epoch first, then by the exact
    /// value of `value / timescale`, using 128-bit cross-multiplication.
    static func _compare(_ lhs: CMTime, _ rhs: CMTime) -> Int32 {
        let lhsKind = lhs._kind
        let rhsKind = rhs._kind
        if lhsKind != rhsKind { return lhsKind.rawValue < rhsKind.rawValue ? -1 : 1 }
        guard lhsKind == .numeric else { return 0 }
        if lhs.epoch != rhs.epoch { return lhs.epoch < rhs.epoch ? -1 : 1 }
        if lhs.timescale == rhs.timescale {
            return lhs.value == rhs.value ? 0 : (lhs.value < rhs.value ? -1 : 1)
        }
        let left = Int128(lhs.value) * Int128(rhs.timescale)
        let right = Int128(rhs.value) * Int128(lhs.timescale)
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}

// MARK: - Equatable

extension CMTime: Equatable {
    /// Whether two times denote the same instant, compared exactly across
    /// timescales (`1/2 == 300/600`); flags such as `.hasBeenRounded` are ignored.
    ///
    /// All invalid times are equal to each other, as are all indefinite times.
    ///
    /// - Parameters:
    ///   - lhs: A time.
    ///   - rhs: Another time.
    /// - Returns: `true` when `CMTimeCompare(lhs, rhs) == 0`.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool {
        _compare(lhs, rhs) == 0
    }
}

// MARK: - Comparable

extension CMTime: Comparable {
    /// Whether `lhs` comes before `rhs` in CoreMedia's total order.
    ///
    /// - Parameters:
    ///   - lhs: A time.
    ///   - rhs: Another time.
    /// - Returns: `true` when `CMTimeCompare(lhs, rhs) < 0`.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool {
        _compare(lhs, rhs) < 0
    }
}
