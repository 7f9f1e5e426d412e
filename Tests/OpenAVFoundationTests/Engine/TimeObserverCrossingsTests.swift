// Playhead: tables for the periodic and boundary time-observer arithmetic.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct TimeObserverCrossingsTests {
        /// (interval ms, previous ms, current ms, expected crossed multiples)
        static let periodicTable: [(Int64, Int64, Int64, ClosedRange<Int64>?)] = [
            (500, 0, 100, nil),
            (500, 0, 500, 1...1),
            (500, 499, 501, 1...1),
            (500, 500, 999, nil),
            (500, 500, 1_000, 2...2),
            (500, 100, 2_600, 1...5),
            (500, 600, 600, nil),
            (1_000, -1_500, -200, -1 ... -1),
            (1_000, -2_000, 0, -1...0),
            // Reverse playback: multiples in [current, previous).
            (500, 1_000, 900, nil),
            (500, 1_001, 1_000, 2...2),
            (500, 1_000, 400, 1...1),
            (500, 2_600, 100, 1...5),
        ]

        @Test(arguments: periodicTable)
        func periodicCrossingsMatchTheTable(
            row: (Int64, Int64, Int64, ClosedRange<Int64>?)
        ) async {
            let (interval, previous, current, expected) = row
            let crossed = TimeObserverCrossings.periodicCrossings(
                interval: ms(interval), previous: ms(previous), current: ms(current))
            #expect(crossed == expected)
            #expect(
                TimeObserverCrossings.periodicShouldFire(
                    interval: ms(interval), previous: ms(previous), current: ms(current))
                    == (expected != nil))
        }

        @Test func periodicCrossingsAreExactForThirds() async {
            let third = CMTime(value: 1, timescale: 3)
            let crossed = TimeObserverCrossings.periodicCrossings(
                interval: third, previous: CMTime(value: 333, timescale: 1_000),
                current: CMTime(value: 1, timescale: 3))
            #expect(crossed == 1...1)
            #expect(
                TimeObserverCrossings.periodicCrossings(
                    interval: third, previous: CMTime(value: 1, timescale: 3),
                    current: CMTime(value: 334, timescale: 1_000)) == nil)
        }

        @Test func periodicCrossingsRejectUnusableInput() async {
            #expect(
                TimeObserverCrossings.periodicCrossings(
                    interval: .zero, previous: .zero, current: ms(1_000)) == nil)
            #expect(
                TimeObserverCrossings.periodicCrossings(
                    interval: ms(100), previous: .invalid, current: ms(1_000)) == nil)
            #expect(
                TimeObserverCrossings.periodicCrossings(
                    interval: ms(-100), previous: .zero, current: ms(1_000)) == nil)
        }

        static let boundaries = [ms(1_000), ms(2_000), ms(2_000), ms(3_500)]

        /// (previous ms, current ms, continuous, expected indices)
        static let boundaryTable: [(Int64, Int64, Bool, Range<Int>)] = [
            (0, 999, true, 0..<0),
            (0, 1_000, true, 0..<1),
            (1_000, 1_500, true, 1..<1),
            (1_500, 2_000, true, 1..<3),
            (900, 4_000, true, 0..<4),
            (3_500, 9_000, true, 4..<4),
            (0, 4_000, false, 0..<0),
            (2_500, 2_500, true, 0..<0),
            // Reverse playback: boundaries in [current, previous).
            (2_500, 2_000, true, 1..<3),
            (2_000, 1_000, true, 0..<1),
            (4_000, 0, true, 0..<4),
            (4_000, 0, false, 0..<0),
        ]

        @Test(arguments: boundaryTable)
        func boundaryCrossingsMatchTheTable(row: (Int64, Int64, Bool, Range<Int>)) async {
            let (previous, current, continuous, expected) = row
            let crossed = TimeObserverCrossings.boundaryCrossings(
                Self.boundaries, previous: ms(previous), current: ms(current),
                isContinuous: continuous)
            #expect(crossed.isEmpty == expected.isEmpty)
            if !expected.isEmpty { #expect(crossed == expected) }
        }

        @Test func noBoundariesMeansNothingFires() async {
            #expect(
                TimeObserverCrossings.boundaryCrossings(
                    [], previous: .zero, current: ms(5_000), isContinuous: true
                ).isEmpty)
        }
    }
}
