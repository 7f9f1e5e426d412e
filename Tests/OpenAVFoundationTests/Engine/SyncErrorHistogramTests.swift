// Playhead: tests for SyncErrorHistogram, the A/V sync error accumulator behind `bench sync`.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct SyncErrorHistogramTests {
        @Test func emptyHistogramReportsZero() async {
            let histogram = SyncErrorHistogram()
            #expect(histogram.count == 0 && histogram.maximum == 0)
            #expect(histogram.percentile(0.5) == 0 && histogram.percentile(0.99) == 0)
        }

        @Test func percentilesAreNearestRankBinEdgesWithAnExactMaximum() async {
            var histogram = SyncErrorHistogram()
            // 1 ms … 100 ms, signs ignored: rank k holds k ms.
            for millisecond in 1...100 {
                let sign: Double = millisecond.isMultiple(of: 2) ? 1 : -1
                histogram.record(sign * Double(millisecond) / 1_000)
            }
            #expect(histogram.count == 100)
            #expect(histogram.maximum == 0.1)
            // Each sample sits at the low edge of its bin (up to rounding), so the reported
            // percentile is within one bin above the exact one.
            let width = SyncErrorHistogram.binWidth
            for (fraction, exact) in [(0.5, 0.05), (0.99, 0.099), (0.01, 0.001)] {
                let value = histogram.percentile(fraction)
                #expect(value >= exact - width / 2 && value <= exact + width + 1e-12, "\(fraction)")
            }
            #expect(histogram.percentile(1) == 0.1)
        }

        @Test func errorsPastTheLastBinReportTheExactMaximum() async {
            var histogram = SyncErrorHistogram()
            for _ in 0..<9 { histogram.record(0.000_25) }
            histogram.record(2.5)
            histogram.record(.nan)
            #expect(histogram.count == 10)
            #expect(abs(histogram.percentile(0.5) - 0.000_3) < 1e-12)
            #expect(histogram.percentile(0.99) == 2.5)
            #expect(histogram.maximum == 2.5)
        }
    }
}
