// Playhead: reads a whole subtitle file (SubRip, WebVTT, ASS/SSA, ...) into SubtitleEvents.
import Foundation
import OpenCoreMedia

/// A subtitle file read in one go: sidecar files are small, so every event is decoded up
/// front and playback only looks them up.
///
/// Concurrency: `read` blocks on file I/O; call it from a background queue, never the main
/// queue. It shares no state between calls.
package enum SubtitleFileReader {
    /// What a subtitle file holds.
    package struct Contents: Sendable, Equatable {
        /// FFmpeg's codec name ("subrip", "webvtt", "ass", ...).
        package var codecName: String
        /// The language tag the file itself declares (rare), as stored.
        package var language: String?
        /// The ASS header (styles, PlayResX/Y) FFmpeg made for the events.
        package var assHeader: String?
        /// Every event in file order.
        package var events: [SubtitleEvent]
        /// True for ASS/SSA files, which style themselves.
        package var isStyled = false

        /// Contents read by a reader other than FFmpeg's (TTML): unstyled events and no header.
        package init(codecName: String, events: [SubtitleEvent]) {
            self.codecName = codecName
            self.events = events
        }
    }

    /// The most events read from one file, so a huge or hostile file cannot exhaust memory.
    package static let maximumEvents = 100_000

    /// Opens `location`, decodes its first subtitle stream and returns every event.
    ///
    /// Reading stops after `totalTime` seconds with what was read so far, so a live HLS
    /// subtitle playlist (which never ends) cannot keep the caller's thread forever.
    ///
    /// - Throws: `.notMediaFile` when the file holds no subtitle stream, and the opening
    ///   failures of `Demuxer`.
    package static func read(
        _ location: MediaLocation, timeout: Double = 15, totalTime: Double = 30
    )
        throws(MediaFailure) -> Contents
    {
        let started = Date()
        let demuxer = try Demuxer(location: location, timeout: timeout)
        // (An MP4 track of TTML documents is read by the engine's own TTML reader, not here.)
        guard let stream = demuxer.description.tracks.first(where: { $0.kind == .subtitle && $0.codecName != "ttml" }) else {
            throw .notMediaFile
        }
        let decoder = try SubtitleDecoder(demuxer: demuxer, streamIndex: stream.index)
        demuxer.setActiveStreams([stream.index])
        var events: [SubtitleEvent] = []
        reading: while events.count < maximumEvents, Date().timeIntervalSince(started) < totalTime {
            switch demuxer.readPacket() {
            case .packet(let packet): events += decoder.decode(packet)
            case .endOfFile: break reading
            case .failure(let failure):
                if events.isEmpty { throw failure }
                break reading
            }
        }
        // A subtitle file's times are as written: the Demuxer moves its timeline to start at
        // zero (right for media), which would shift a PGS .sup (whose first display set sets
        // its start time) earlier; text formats have no start time, so this adds zero.
        let shift = demuxer.timelineStart
        if shift.isNumeric, shift != .zero {
            for index in events.indices {
                events[index].start = events[index].start + shift
                events[index].end = events[index].end.map { $0 + shift }
            }
        }
        var contents = Contents(codecName: stream.codecName, events: events)
        contents.language = stream.language
        contents.assHeader = decoder.assHeader
        contents.isStyled = decoder.isStyled
        return contents
    }
}
