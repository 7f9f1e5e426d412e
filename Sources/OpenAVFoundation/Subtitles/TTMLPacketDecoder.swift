// Playhead: subtitle packets the engine decodes itself. FFmpeg decodes most subtitle streams
// (`SubtitleDecoder`); an MP4 track of TTML documents (`stpp`: FFmpeg's own `-c:s ttml` MP4
// output, ISMV, IMSC1 files), which FFmpeg 5.1 only demuxes as data, is read by
// `TTMLPacketDecoder`: each packet one document, timed as a fragmented track's sample is
// (FragmentedTextTrack.swift): its times on the track's timeline (the container's, which the
// demuxer moves to start at item time zero), cut to the packet's span. ISMV's `dfxp` tracks,
// whose documents count from their sample, are read the same way.
//
// Concurrency: a decoder belongs to the thread that feeds it packets (the demux thread), as
// `SubtitleDecoder` does.
import FFmpegBridge
import Foundation
import OpenCoreMedia

/// What the demux thread decodes a selected subtitle stream with.
protocol SubtitlePacketDecoding: AnyObject {
    /// The stream it decodes.
    var streamIndex: Int { get }
    /// The ASS script header for its events; nil for the player's own look.
    var assHeader: String? { get }
    /// True when the events style themselves (ASS/SSA).
    var isStyled: Bool { get }
    /// Fonts the events may name.
    var fonts: [EmbeddedFont] { get }
    /// The events one packet completes.
    func decode(_ packet: Packet) -> [SubtitleEvent]
    /// Drops state after a seek.
    func flush()
}

extension SubtitleDecoder: SubtitlePacketDecoding {}

/// Decodes the TTML documents of an MP4 `stpp` track; see the file comment.
final class TTMLPacketDecoder: SubtitlePacketDecoding {
    let streamIndex: Int
    var assHeader: String? { nil }
    var isStyled: Bool { false }
    var fonts: [EmbeddedFont] { [] }

    /// The container time at item time zero, seconds.
    let timelineStart: Double

    /// A decoder of stream `streamIndex` of a container whose time `timelineStart` is item
    /// time zero.
    init(streamIndex: Int, timelineStart: CMTime) {
        self.streamIndex = streamIndex
        self.timelineStart = timelineStart.isNumeric ? timelineStart.seconds : 0
    }

    func decode(_ packet: Packet) -> [SubtitleEvent] {
        guard packet.byteCount > 0, packet.byteCount <= SubtitleFileLoading.maximumTTMLBytes else { return [] }
        let itemStart = packet.pts.isNumeric ? packet.pts.seconds : packet.dts.isNumeric ? packet.dts.seconds : 0
        let duration = packet.duration.isNumeric ? max(0, packet.duration.seconds) : 0
        return FragmentedTextTrack.ttmlEvents(
            FragmentedTextTrack.Sample(start: itemStart + timelineStart, duration: duration, bytes: ArraySlice(packet.bytes))
        ).moved(by: -timelineStart)
    }

    func flush() {}
}
