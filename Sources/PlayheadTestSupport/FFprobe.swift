// Playhead: asks the ffprobe tool what a media file contains, as a reference for our probe.
import Foundation

/// The `ffprobe` command-line tool, used as ground truth in tests.
public enum FFprobe {
    /// Runs `ffprobe -v error -print_format json -show_format -show_streams` on `url`.
    ///
    /// - Returns: The container format, duration, tags and streams that ffprobe reports.
    /// - Throws: ``TestSupportError`` if ffprobe is missing, rejects the file or prints
    ///   something that is not the expected JSON.
    public static func summary(of url: URL) throws -> FFprobeSummary {
        let tool = try Subprocess.tool(named: "ffprobe")
        let arguments = [
            "-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.path,
        ]
        let result = try Subprocess.run(tool, arguments)
        guard result.status == 0 else {
            throw TestSupportError(
                "ffprobe could not read \(url.path) (exit \(result.status)): \(result.errorText)")
        }
        return try FFprobeSummary(json: result.outputData)
    }

    /// The container's start time (its first timestamp), seconds, as ffprobe reads it.
    public static func startTime(of url: URL) throws -> Double {
        let tool = try Subprocess.tool(named: "ffprobe")
        let result = try Subprocess.run(tool, ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", url.path])
        guard result.status == 0,
            let start = Double(String(decoding: result.outputData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw TestSupportError("ffprobe could not read the start of \(url.path): \(result.errorText)")
        }
        return start
    }

    /// How many packets the first audio stream of `url` holds, as ffprobe reads them.
    public static func packetCount(of url: URL) throws -> Int {
        let tool = try Subprocess.tool(named: "ffprobe")
        let arguments = ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path]
        let result = try Subprocess.run(tool, arguments)
        guard result.status == 0,
            let count = Int(String(decoding: result.outputData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw TestSupportError("ffprobe could not count the packets of \(url.path): \(result.errorText)")
        }
        return count
    }

    /// The bytes of every packet of each stream, by stream index, as ffprobe reads them.
    public static func packetBytes(of url: URL) throws -> [Int: Int64] {
        let tool = try Subprocess.tool(named: "ffprobe")
        let arguments = ["-v", "error", "-show_entries", "packet=stream_index,size", "-of", "csv=p=0", url.path]
        let result = try Subprocess.run(tool, arguments)
        guard result.status == 0 else {
            throw TestSupportError("ffprobe could not read \(url.path) (exit \(result.status)): \(result.errorText)")
        }
        var totals: [Int: Int64] = [:]
        for line in String(decoding: result.outputData, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let index = Int(fields[0]), let size = Int64(fields[1]) else { continue }
            totals[index, default: 0] += size
        }
        return totals
    }
}
