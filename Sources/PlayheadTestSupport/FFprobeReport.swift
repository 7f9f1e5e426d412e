// Playhead: the raw JSON shape printed by ffprobe, decoded before it is summarised.
import Foundation

/// Mirrors the subset of ffprobe's JSON that ``FFprobeSummary`` reads. ffprobe prints numbers
/// such as durations and sample rates as strings, so those stay strings here.
struct FFprobeReport: Decodable {
    struct Format: Decodable {
        var formatName: String?
        var duration: String?
        var tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case formatName = "format_name"
            case duration, tags
        }
    }

    struct SideData: Decodable {
        var rotation: Double?
    }

    struct Stream: Decodable {
        var index: Int
        var codecType: String?
        var codecName: String?
        var codecTagString: String?
        var width: Int?
        var height: Int?
        var sampleRate: String?
        var channels: Int?
        var duration: String?
        var disposition: [String: Int]?
        var tags: [String: String]?
        var sideDataList: [SideData]?

        enum CodingKeys: String, CodingKey {
            case index, width, height, channels, duration, disposition, tags
            case codecType = "codec_type"
            case codecName = "codec_name"
            case codecTagString = "codec_tag_string"
            case sampleRate = "sample_rate"
            case sideDataList = "side_data_list"
        }
    }

    var format: Format?
    var streams: [Stream]?

    /// Copies `tags` with every key lowercased (containers disagree on `TITLE` vs `title`).
    static func lowercased(_ tags: [String: String]?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in tags ?? [:] {
            result[key.lowercased()] = value
        }
        return result
    }
}
