// Playhead: one stream as ffprobe describes it.
import Foundation

extension FFprobeSummary {
    /// One stream of a file, reduced to the fields tests compare.
    public struct Stream: Equatable, Sendable {
        /// The stream's index in the container.
        public var index: Int
        /// `video`, `audio`, `subtitle`, `data` or `attachment`.
        public var codecType: String
        /// FFmpeg's short codec name (`h264`, `aac`, `subrip`, ...); nil for an unknown codec.
        public var codecName: String?
        /// The container's four-character code for the codec (`avc1`, `mp4a`, ...), if any.
        public var codecTag: String?
        /// Coded width in pixels (video only).
        public var width: Int?
        /// Coded height in pixels (video only).
        public var height: Int?
        /// Samples per second (audio only).
        public var sampleRate: Int?
        /// Channel count (audio only).
        public var channels: Int?
        /// The `language` tag (ISO 639-2, e.g. `eng`), if present.
        public var language: String?
        /// True when the stream is a still picture such as cover art, not moving video.
        public var isAttachedPicture: Bool
        /// Display rotation in degrees from the display matrix (or the legacy `rotate` tag).
        public var rotation: Double?
        /// The stream's own duration in seconds, if ffprobe reports one.
        public var duration: Double?

        /// Creates a stream description; everything but the index and type is optional.
        public init(
            index: Int, codecType: String, codecName: String? = nil, codecTag: String? = nil,
            width: Int? = nil,
            height: Int? = nil, sampleRate: Int? = nil, channels: Int? = nil,
            language: String? = nil, isAttachedPicture: Bool = false, rotation: Double? = nil,
            duration: Double? = nil
        ) {
            self.index = index
            self.codecType = codecType
            self.codecName = codecName
            self.codecTag = codecTag
            self.width = width
            self.height = height
            self.sampleRate = sampleRate
            self.channels = channels
            self.language = language
            self.isAttachedPicture = isAttachedPicture
            self.rotation = rotation
            self.duration = duration
        }

        init(report: FFprobeReport.Stream) {
            let tags = FFprobeReport.lowercased(report.tags)
            let matrixRotation = report.sideDataList?.lazy.compactMap(\.rotation).first
            self.init(
                index: report.index,
                codecType: report.codecType ?? "unknown",
                codecName: report.codecName,
                codecTag: report.codecTagString,
                width: report.width,
                height: report.height,
                sampleRate: report.sampleRate.flatMap { Int($0) },
                channels: report.channels,
                language: tags["language"],
                isAttachedPicture: report.disposition?["attached_pic"] == 1,
                rotation: matrixRotation ?? tags["rotate"].flatMap(Double.init),
                duration: report.duration.flatMap(Double.init))
        }
    }
}
