// Playhead: CMTime and CMTimeRange boxed in NSValue, as AVFoundation's time arrays need.
import Foundation

// corelibs Foundation traps on struct type encodings, so the values are stored as byte arrays.
// A four-byte tag in front says which kind of value the bytes hold: reading `objCType` to tell
// would leak a copy of the encoding on every read in corelibs Foundation.
private let timeTag: UInt32 = 0x5048_544D  // "PHTM"
private let timeRangeTag: UInt32 = 0x5048_5452  // "PHTR"

/// The bytes an NSValue made here holds: a tag, then the value.
private struct Tagged<Value> {
    var tag: UInt32
    var value: Value
}

/// The largest value read back when checking the tag; NSValues made elsewhere that hold more
/// than this are not read (they are never times).
private let readLimit = 512

extension NSValue {
    /// A value holding `time`, for APIs that take or return `[NSValue]`
    /// (`loadedTimeRanges`, `addBoundaryTimeObserver(forTimes:queue:using:)`, ...).
    public convenience init(time: CMTime) {
        var tagged = Tagged(tag: timeTag, value: time)
        self.init(bytes: &tagged, objCType: "[\(MemoryLayout<Tagged<CMTime>>.size)C]")
    }

    /// The time this value holds; `.invalid` when it holds something else.
    public var timeValue: CMTime {
        readTagged(timeTag, as: CMTime.self) ?? .invalid
    }

    /// A value holding `timeRange`.
    public convenience init(timeRange: CMTimeRange) {
        var tagged = Tagged(tag: timeRangeTag, value: timeRange)
        self.init(bytes: &tagged, objCType: "[\(MemoryLayout<Tagged<CMTimeRange>>.size)C]")
    }

    /// The time range this value holds; `.invalid` when it holds something else.
    public var timeRangeValue: CMTimeRange {
        readTagged(timeRangeTag, as: CMTimeRange.self) ?? .invalid
    }

    private func readTagged<Value>(_ tag: UInt32, as type: Value.Type) -> Value? {
        // NSNumber (the only other NSValue kind in corelibs Foundation) cannot copy its bytes.
        if self is NSNumber { return nil }
        // getValue copies the whole stored value: read into a buffer larger than any value
        // made here (and than NSNumber's), then check the tag.
        return withUnsafeTemporaryAllocation(byteCount: readLimit, alignment: 16) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            getValue(buffer.baseAddress!)
            let tagged = buffer.baseAddress!.loadUnaligned(as: Tagged<Value>.self)
            return tagged.tag == tag ? tagged.value : nil
        }
    }
}
