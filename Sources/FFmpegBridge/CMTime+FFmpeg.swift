// Playhead: conversions between FFmpeg timestamps and CMTime.
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

extension CMTime {
    /// `ticks` of `timeBase` as an exact CMTime; `.invalid` for AV_NOPTS_VALUE.
    ///
    /// Time bases whose numerator is not 1 (rare: 1001/30000 style) are rescaled to a
    /// timescale of their denominator so the value stays exact whenever it can.
    init(ffmpegTicks ticks: Int64, timeBase: AVRational) {
        guard ticks != CFFmpeg_AV_NOPTS_VALUE(), timeBase.den > 0, timeBase.num > 0 else {
            self = .invalid
            return
        }
        if timeBase.num == 1 {
            self = CMTime(value: ticks, timescale: timeBase.den)
        } else {
            let (product, overflow) = ticks.multipliedReportingOverflow(by: Int64(timeBase.num))
            self = overflow
                ? CMTime(seconds: Double(ticks) * av_q2d(timeBase), preferredTimescale: timeBase.den)
                : CMTime(value: product, timescale: timeBase.den)
        }
    }

    /// A duration in AV_TIME_BASE (microsecond) units; `.invalid` for AV_NOPTS_VALUE.
    init(ffmpegMicroseconds microseconds: Int64) {
        self.init(ffmpegTicks: microseconds, timeBase: CFFmpeg_AV_TIME_BASE_Q())
    }

    /// One tick of `timeBase`.
    init(tickOf timeBase: AVRational) {
        self.init(ffmpegTicks: 1, timeBase: timeBase)
    }

    /// This time in ticks of `timeBase`, rounded to nearest; nil when not numeric.
    func ffmpegTicks(in timeBase: AVRational) -> Int64? {
        guard isNumeric, timescale > 0 else { return nil }
        return av_rescale_q_rnd(
            value, AVRational(num: 1, den: timescale), timeBase,
            AVRounding(rawValue: AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue))
    }
}
