// Playhead: opens a container and describes it (the work behind asset loading and `probe`).
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// Inspects media: opens the container, reads stream information and returns a
/// `MediaDescription`, closing everything before it returns.
///
/// Concurrency: `describe` blocks its calling thread on I/O for at most about twice the
/// timeout. Call it from a background queue, never the main queue. It shares no state
/// between calls; an `InterruptDeadline` passed in may be aborted from any thread.
package enum MediaInspector {
    /// Limits for one inspection.
    package struct Limits: Sendable {
        /// Seconds each blocking phase (open, stream info) may take.
        package var timeout: Double = 15
        /// The most streams a container may declare before it is refused.
        package var maximumStreams: Int = 256
        /// Creates limits with the defaults.
        package init() {}
    }

    /// Opens and describes the media at `location`.
    ///
    /// - Throws: a `MediaFailure` for inputs that cannot be opened or hold no streams.
    package static func describe(
        _ location: MediaLocation, limits: Limits = Limits(),
        interrupt: InterruptDeadline = InterruptDeadline()
    ) throws(MediaFailure) -> MediaDescription {
        let container = try FormatContext(
            location: location, timeout: limits.timeout, interrupt: interrupt)
        if let error = container.findStreamInfo(timeout: limits.timeout, limits: .standard) {
            if let failure = container.inputRefusalFailure { throw failure }
            if interrupt.isAborted { throw .cancelled }
            if container.streamCount == 0 {
                throw error.code == FFmpegError.exit ? .timedOut : .damaged(detail: error.detail)
            }
        }
        if interrupt.isAborted { throw .cancelled }
        guard container.streamCount > 0 else { throw .notMediaFile }
        guard container.streamCount <= limits.maximumStreams else {
            throw .damaged(detail: "\(container.streamCount) streams is more than Playhead accepts")
        }
        return describe(container, timeout: limits.timeout)
    }

    /// Describes the opened `container`; the extra reads it may make (an HLS multivariant
    /// playlist read again for its renditions, a timed-metadata track's key tables), whose
    /// results are optional, each wait at most 5 s, less when the input's `timeout` is shorter.
    static func describe(_ container: FormatContext, timeout: Double) -> MediaDescription {
        let extraReadWait = min(timeout, 5)
        let context = container.pointer.pointee
        var streams = (0..<container.streamCount).compactMap { index in
            container.stream(at: index).map { StreamDescriber.describe($0, index: index) }
        }
        if streams.contains(where: { $0.codecTag == "mebx" }) {
            // Keyed by the container's track IDs, which the streams carry until renumbered.
            let tables = container.boxedMetadataKeys(timeout: extraReadWait)
            for index in streams.indices where streams[index].codecTag == "mebx" {
                streams[index].boxedMetadataKeys = tables[streams[index].trackID] ?? []
            }
        }
        let tags = MediaTagReader.tags(of: context.metadata)
        var description = MediaDescription(
            formatName: context.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            formatLongName: context.iformat.flatMap { $0.pointee.long_name }.map {
                String(cString: $0)
            } ?? "",
            duration: CMTime(ffmpegMicroseconds: context.duration),
            startTime: CMTime(ffmpegMicroseconds: context.start_time),
            bitRate: context.bit_rate > 0 ? Int(context.bit_rate) : nil,
            streams: StreamDescriber.assignTrackIDs(streams),
            tags: tags,
            artwork: [],
            probeScore: Int(context.probe_score),
            durationIsEstimated: context.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE)
        if !description.startTime.isValid { description.startTime = .zero }
        if !description.duration.isValid {
            description.duration = longestStreamDuration(description.streams) ?? .indefinite
        }
        description.chapters = chapters(of: container, offset: description.startTime)
        let declared = HLSSubtitleRenditions.read(container, timeout: extraReadWait)
        (description.subtitleRenditions, description.hlsCaptions) = (declared.subtitles, declared.captions)
        description.sessionData = declared.sessionData
        description.neighbourFileNames = neighbours(of: context.url.map { String(cString: $0) })
        description.artwork = (0..<container.streamCount).compactMap { index in
            container.stream(at: index).flatMap(StreamDescriber.artwork(of:))
        }
        return description
    }

    /// The container's chapters, moved onto the item timeline (which starts at zero).
    private static func chapters(of container: FormatContext, offset: CMTime) -> [MediaChapter] {
        let context = container.pointer.pointee
        guard context.nb_chapters > 0, let list = context.chapters else { return [] }
        let shift = offset.isNumeric && offset > .zero ? offset : .zero
        return (0..<Int(context.nb_chapters)).compactMap { index in
            guard let chapter = list[index]?.pointee else { return nil }
            let start = CMTime(ffmpegTicks: chapter.start, timeBase: chapter.time_base)
            let end = CMTime(ffmpegTicks: chapter.end, timeBase: chapter.time_base)
            guard start.isNumeric else { return nil }
            let tags = MediaTagReader.tags(of: chapter.metadata)
            return MediaChapter(
                title: tags.first { $0.key == "title" }?.value, start: start - shift,
                end: end.isNumeric ? end - shift : start - shift, tags: tags)
        }.sorted { $0.start < $1.start }
    }

    /// The files beside the local file at FFmpeg URL `url` ("file:/path") that share its name's
    /// stem, sorted; empty for other URLs.
    private static func neighbours(of url: String?) -> [String] {
        guard let url, url.hasPrefix("file:") else { return [] }
        let file = URL(fileURLWithPath: String(url.dropFirst("file:".count)))
        let stem = file.deletingPathExtension().lastPathComponent + "."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
        return names.filter { $0.hasPrefix(stem) && $0 != file.lastPathComponent }.sorted()
    }

    private static func longestStreamDuration(_ streams: [StreamDescription]) -> CMTime? {
        streams.map(\.duration).filter(\.isNumeric).max()
    }
}

/// Reads an AVDictionary into ordered tags.
enum MediaTagReader {
    static func tags(of dictionary: OpaquePointer?) -> [MediaTag] {
        guard let dictionary else { return [] }
        var tags: [MediaTag] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value else { continue }
            tags.append(MediaTag(key: String(cString: key).lowercased(), value: String(cString: value)))
        }
        return tags
    }
}
