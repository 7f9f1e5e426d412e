// Playhead: the brightness of a small screen region over time, grabbed from an X display by
// FFmpeg's x11grab at 100 grabs a second, each stamped on the host clock: with a monitor
// recording of the sound, it measures lip-sync as a viewer sees and hears it.
//
// Concurrency: `init` starts ffmpeg and returns; `finish()` blocks until ffmpeg has ended (it
// stops by itself after `seconds`) and parses what it wrote. One caller at a time.
import Foundation
import OpenAVFoundation

/// A region's mean brightness, grabbed from an X display for a fixed time.
public final class ScreenBrightness: @unchecked Sendable {
    /// One grab: when it was taken (``SystemHostClock`` seconds) and the region's mean luma.
    public struct Grab: Sendable {
        public var host: Double
        public var luma: Double
    }

    /// The ffmpeg grabbing.
    private let grabber: SpawnedProcess
    private let output: URL
    /// Host clock minus wall clock, measured as the grab began (x11grab stamps wall time).
    private let wallToHost: Double

    /// Starts grabbing the `size`×`size` region at (`x`, `y`) of `display` for `seconds`.
    /// - Throws: when ffmpeg cannot be started.
    public init(display: String, x: Int, y: Int, size: Int = 32, seconds: Double) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-grab-\(UUID().uuidString).txt")
        wallToHost = SystemHostClock.shared.now - Date().timeIntervalSince1970
        let arguments = [
            "-hide_banner", "-loglevel", "error", "-nostdin",
            // Wall-clock stamps taken as each grab arrives, kept as they are (-copyts).
            "-use_wallclock_as_timestamps", "1", "-f", "x11grab", "-framerate", "100", "-draw_mouse", "0",
            "-video_size", "\(size)x\(size)", "-i", "\(display)+\(x),\(y)", "-frames:v", String(Int(seconds * 100)),
            "-copyts",
            "-vf", "signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=\(output.path)",
            "-f", "null", "-",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        grabber = try SpawnedProcess(try Subprocess.tool(named: "ffmpeg"), arguments, environment: environment)
    }

    /// Waits for the grab to end (at most `seconds` + 10) and returns every grab in order.
    public func finish(timeout: Double = 30) -> [Grab] {
        if !grabber.wait(seconds: timeout) {
            grabber.send(SIGKILL)
            grabber.waitUntilExit()
        }
        defer { try? FileManager.default.removeItem(at: output) }
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        var grabs: [Grab] = []
        var time: Double?
        for line in text.split(separator: "\n") {
            // `pts` counts microseconds of wall time (x11grab's time base); `pts_time` is
            // printed with too few digits to use.
            if let range = line.range(of: "pts:") {
                let digits = line[range.upperBound...].prefix { $0.isNumber }
                time = Double(digits).map { $0 / 1_000_000 }
            } else if line.hasPrefix("lavfi.signalstats.YAVG="), let wall = time,
                let luma = Double(line.dropFirst("lavfi.signalstats.YAVG=".count))
            {
                grabs.append(Grab(host: wall + wallToHost, luma: luma))
            }
        }
        return grabs
    }

    /// Host times where the region turned bright (luma above `threshold` after at least
    /// `quiet` seconds below it): the midpoint between the last dark grab and the first bright.
    public static func flashOnsets(in grabs: [Grab], threshold: Double = 100, quiet: Double = 0.3) -> [Double] {
        var onsets: [Double] = []
        var lastBright = -Double.infinity
        for index in grabs.indices.dropFirst() where grabs[index].luma > threshold {
            let grab = grabs[index]
            if grab.host - lastBright >= quiet, grabs[index - 1].luma <= threshold {
                onsets.append((grabs[index - 1].host + grab.host) / 2)
            }
            lastBright = grab.host
        }
        return onsets
    }
}
