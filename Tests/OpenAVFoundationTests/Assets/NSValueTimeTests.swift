// Playhead: CMTime and CMTimeRange boxed in NSValue, as AVFoundation's time arrays need.
import Foundation
import OpenAVFoundation
import Testing

@Suite("NSValue holding times")
struct NSValueTimeTests {
    @Test(arguments: [
        CMTime(value: 3, timescale: 2), .zero, .invalid, .indefinite, .positiveInfinity, .negativeInfinity,
        CMTime(value: -7, timescale: 1_000_000_000),
    ])
    func aTimeRoundTrips(_ time: CMTime) async {
        let value = NSValue(time: time)
        let back = value.timeValue
        #expect(back.value == time.value)
        #expect(back.timescale == time.timescale)
        #expect(back.flags == time.flags)
        #expect(back.epoch == time.epoch)
        #expect(value.timeRangeValue == .invalid, "a time is not a range")
    }

    @Test func aTimeRangeRoundTrips() async {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 4), duration: CMTime(value: 9, timescale: 10))
        let value = NSValue(timeRange: range)
        #expect(value.timeRangeValue == range)
        #expect(value.timeRangeValue.end == range.end)
        #expect(!value.timeValue.isValid, "a range is not a time")
    }

    @Test func equalTimesMakeEqualValues() async {
        let a = NSValue(time: CMTime(value: 5, timescale: 10))
        let b = NSValue(time: CMTime(value: 5, timescale: 10))
        let c = NSValue(time: CMTime(value: 6, timescale: 10))
        #expect(a.isEqual(b))
        #expect(!a.isEqual(c))
        let values = [NSValue(timeRange: .zero), NSValue(timeRange: .invalid)]
        #expect(values.map(\.timeRangeValue) == [.zero, .invalid])
    }

    @Test func aValueOfAnotherTypeIsNeitherATimeNorARange() async {
        let number = NSNumber(value: 42) as NSValue
        #expect(!number.timeValue.isValid)
        #expect(number.timeRangeValue == .invalid)
    }
}
