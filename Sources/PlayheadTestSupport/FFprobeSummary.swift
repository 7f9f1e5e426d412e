// Playhead: the parts of ffprobe's JSON report that tests compare against.
import Foundation

/// What `ffprobe` says about one file: its container and each of its streams.
public struct FFprobeSummary: Equatable, Sendable {
    /// The demuxer name(s), comma separated, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`.
    public var formatName: String
    /// The container duration in seconds, if ffprobe knows it.
    public var duration: Double?
    /// Container-level tags with lowercased keys (`title`, `artist`, `album`, ...).
    public var tags: [String: String]
    /// Every stream, in file order.
    public var streams: [Stream]

    /// Creates a summary from its parts.
    public init(formatName: String, duration: Double?, tags: [String: String], streams: [Stream]) {
        self.formatName = formatName
        self.duration = duration
        self.tags = tags
        self.streams = streams
    }

    /// Parses the output of `ffprobe -print_format json -show_format -show_streams`.
    ///
    /// - Throws: ``TestSupportError`` when `json` is not in that shape.
    public init(json: Data) throws {
        let report: FFprobeReport
        do {
            report = try JSONDecoder().decode(FFprobeReport.self, from: json)
        } catch {
            throw TestSupportError("unexpected ffprobe output: \(error)")
        }
        self.init(
            formatName: report.format?.formatName ?? "",
            duration: report.format?.duration.flatMap(Double.init),
            tags: FFprobeReport.lowercased(report.format?.tags),
            streams: (report.streams ?? []).map(Stream.init(report:)))
    }

    /// Streams counted by kind; attached pictures are counted apart from video.
    public var streamCounts: StreamCounts {
        var counts = StreamCounts()
        for stream in streams {
            switch stream.codecType {
            case "video" where stream.isAttachedPicture: counts.attachedPictures += 1
            case "video": counts.video += 1
            case "audio": counts.audio += 1
            case "subtitle": counts.subtitle += 1
            default: break
            }
        }
        return counts
    }

    /// The streams of one kind (`video`, `audio`, `subtitle`, ...), attached pictures included.
    public func streams(ofType codecType: String) -> [Stream] {
        streams.filter { $0.codecType == codecType }
    }
}
