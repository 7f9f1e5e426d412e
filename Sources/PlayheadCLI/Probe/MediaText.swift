// Playhead: human-readable spellings of durations, bit rates and rates for CLI output.

/// Formats media quantities for people; shared by `probe` and later commands.
public enum MediaText {
    /// `HH:MM:SS.mmm`, rounded to the millisecond, for example `00:01:03.500`.
    /// Hours grow past two digits when needed; negative times get a leading `-`;
    /// `nil` or a non-finite value gives `unknown`.
    public static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "unknown" }
        let totalMilliseconds = Int64((abs(seconds) * 1000).rounded())
        let milliseconds = totalMilliseconds % 1000
        let totalSeconds = totalMilliseconds / 1000
        let sign = seconds < 0 && totalMilliseconds > 0 ? "-" : ""
        return sign + padded(totalSeconds / 3600, 2) + ":" + padded(totalSeconds / 60 % 60, 2)
            + ":" + padded(totalSeconds % 60, 2) + "." + padded(milliseconds, 3)
    }

    /// `00:01:03.500 (63.500 s)`, or `unknown` for `nil` or a non-finite value.
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "unknown" }
        return clock(seconds) + " (" + fixed(seconds, fractionDigits: 3) + " s)"
    }

    /// A bit rate in b/s, kb/s or Mb/s (decimal units) with at most one decimal:
    /// `800 b/s`, `128 kb/s`, `1.2 Mb/s`.
    public static func bitRate(_ bitsPerSecond: Int) -> String {
        let value = Double(bitsPerSecond)
        if abs(value) < 1000 { return "\(bitsPerSecond) b/s" }
        let kilobits = (value / 100).rounded() / 10
        if abs(kilobits) < 1000 {
            return DecimalText.format(kilobits, maximumFractionDigits: 1) + " kb/s"
        }
        return DecimalText.format(value / 1_000_000, maximumFractionDigits: 1) + " Mb/s"
    }

    /// A frame rate with at most two decimals: `29.97 fps`, `25 fps`.
    public static func frameRate(_ framesPerSecond: Double) -> String {
        guard framesPerSecond.isFinite else { return "? fps" }
        return DecimalText.format(framesPerSecond, maximumFractionDigits: 2) + " fps"
    }

    // MARK: - Helpers

    /// `value` with exactly `fractionDigits` decimals.
    static func fixed(_ value: Double, fractionDigits: Int) -> String {
        let scale = Double(pow10(fractionDigits))
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(pow10(fractionDigits))
        let fraction = scaled % Int64(pow10(fractionDigits))
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard fractionDigits > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + padded(fraction, fractionDigits)
    }

    private static func pow10(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
