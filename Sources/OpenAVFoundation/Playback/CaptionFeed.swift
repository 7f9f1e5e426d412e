// Playhead: closed captions carried in the video's pictures (H.264/HEVC SEI, MPEG-2 user
// data), decoded on the video thread from the frames it decodes and put into the cue store
// while they are the legible selection.
//
// Concurrency: created and used only by the video decode thread, which owns it and the caption
// decoder inside. The thread passes in the legible selection it read from the coordinator;
// the feed writes cues into the pipeline's cue store, which locks internally.
import FFmpegBridge
import Foundation

/// The caption decoder of the playing video stream and the caption screens of the last
/// seconds, kept so captions selected mid-play show what is on screen at once.
final class CaptionFeed {
    /// How far back caption screens are kept for a later selection.
    static let keptSeconds = 10.0

    /// The video stream whose pictures the captions come from.
    let videoStream: Int
    private let store: SubtitleCueStore
    private var decoder: SubtitleDecoder?
    /// True when this FFmpeg has no caption decoder (nothing more is tried).
    private var unavailable = false
    /// Caption screens decoded since the last seek, from `keptSeconds` ago on.
    private var recent: [SubtitleEvent] = []
    /// The legible selection version the store is being fed for; -1 when none.
    private var fedVersion = -1

    init(videoStream: Int, store: SubtitleCueStore) {
        self.videoStream = videoStream
        self.store = store
    }

    /// True once a picture carried captions (the feed then follows selection changes).
    var isActive: Bool { decoder != nil }

    /// Decodes the captions of `frame` (frames in presentation order, each once) and, while
    /// these captions are `selection`, hands the screens to the store.
    func take(_ frame: VideoFrame, selection: () -> (MediaOptionSource?, Int)) {
        guard !unavailable, frame.hasClosedCaptions else { return }
        if decoder == nil {
            decoder = try? SubtitleDecoder(closedCaptionsOfVideoStream: videoStream)
            unavailable = decoder == nil
        }
        guard let decoder else { return }
        let events = decoder.decodeCaptions(of: frame)
        guard !events.isEmpty else { return }
        recent += events
        // The screen showing now stays, however old; older ones go after `keptSeconds`.
        if let newest = events.last?.start, newest.isNumeric {
            let horizon = newest - CMTime(seconds: Self.keptSeconds, preferredTimescale: 1000)
            if let keep = recent.lastIndex(where: { $0.start <= horizon }), keep > 0 {
                recent.removeFirst(keep)
            }
        }
        follow(selection(), fresh: events)
    }

    /// Starts or stops feeding the store after a selection change (also while paused, when
    /// no frame arrives): a newly selected feed gets the screens of the last seconds.
    func follow(_ selection: (MediaOptionSource?, Int), fresh: [SubtitleEvent] = []) {
        let (source, version) = selection
        guard case .closedCaptions(let stream) = source, stream == videoStream else {
            fedVersion = -1
            return
        }
        if version == fedVersion {
            store.add(fresh, version: version)
            return
        }
        // The store is emptied for a new selection by the coordinator's action; until it has
        // been, writes for the version would be dropped: try again with the next frame.
        guard store.version == version else { return }
        fedVersion = version
        store.setHeader(decoder?.assHeader, version: version)
        store.add(recent, version: version)
    }

    /// Forgets the caption state after a seek: the screens on either side are unrelated.
    func seeked() {
        decoder?.flush()
        recent.removeAll()
    }
}
