// Playhead: CMTime and CMTimeRange boxed in NSValue, as AVFoundation's time arrays need.
import Foundation

// corelibs Foundation traps on struct type encodings, so the values are stored as byte
// arrays whose encodings name their size; `isEqual` then compares the bytes.
private let timeEncoding = "[\(MemoryLayout<CMTime>.size)C]"
private let timeRangeEncoding = "[\(MemoryLayout<CMTimeRange>.size)C]"

extension NSValue {
    /// A value holding `time`, for APIs that take or return `[NSValue]`
    /// (`loadedTimeRanges`, `addBoundaryTimeObserver(forTimes:queue:using:)`, ...).
    public convenience init(time: CMTime) {
        var copy = time
        self.init(bytes: &copy, objCType: timeEncoding)
    }

    /// The time this value holds; `.invalid` when it holds something else.
    public var timeValue: CMTime {
        guard String(cString: objCType) == timeEncoding else { return .invalid }
        var time = CMTime.invalid
        withUnsafeMutableBytes(of: &time) { getValue($0.baseAddress!) }
        return time
    }

    /// A value holding `timeRange`.
    public convenience init(timeRange: CMTimeRange) {
        var copy = timeRange
        self.init(bytes: &copy, objCType: timeRangeEncoding)
    }

    /// The time range this value holds; `.invalid` when it holds something else.
    public var timeRangeValue: CMTimeRange {
        guard String(cString: objCType) == timeRangeEncoding else { return .invalid }
        var range = CMTimeRange.invalid
        withUnsafeMutableBytes(of: &range) { getValue($0.baseAddress!) }
        return range
    }
}
