// Playhead: closed captions carried in the video's pictures (H.264/HEVC SEI, MPEG-2 user
// data): decoded on the video thread from the frames it decodes, kept for a few seconds, and
// put into the cue store while they are the legible selection.
//
// Concurrency: a `CaptionFeed` is created and used only by the video decode thread, which
// owns it and the caption decoder inside. The `CaptionBacklog` it writes to is shared: the
// video thread adds screens, and the coordinator's `loadLegible` action starts or stops
// feeding the cue store. Both run under the backlog's lock, so a screen decoded while captions
// are being selected reaches the store exactly once, either with the backlog or on its own
// (lock order: backlog, then the store's own lock; the store never calls back).
import FFmpegBridge
import Foundation

/// The caption screens of the last seconds, and whether they go to the cue store.
final class CaptionBacklog: Sendable {
    /// How far back caption screens are kept for a later selection.
    static let keptSeconds = 10.0

    struct State {
        /// Screens decoded since the last seek, from `keptSeconds` before the newest on.
        var recent: [SubtitleEvent] = []
        /// The caption decoder's ASS header (styles and the coordinate space of positions).
        var header: String?
        /// The legible selection version the cue store is fed for; nil while the captions
        /// are not selected.
        var feeding: Int?
    }

    private let state = Locked(State())
    private let store: SubtitleCueStore

    init(store: SubtitleCueStore) {
        self.store = store
    }

    /// Keeps `events` (video thread) and hands them to the store when captions are selected.
    func add(_ events: [SubtitleEvent], header: String?) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            state.header = header
            state.recent += events
            // The screen showing now stays, however old; older ones go after `keptSeconds`.
            if let newest = events.last?.start, newest.isNumeric {
                let horizon = newest - CMTime(seconds: Self.keptSeconds, preferredTimescale: 1000)
                if let keep = state.recent.lastIndex(where: { $0.start <= horizon }), keep > 0 {
                    state.recent.removeFirst(keep)
                }
            }
            if let version = state.feeding { store.add(events, version: version) }
        }
    }

    /// Starts feeding the store for selection `version` with the kept screens (captions were
    /// selected; the store was just emptied for it), or stops feeding (nil).
    func feed(version: Int?) {
        state.withLock { state in
            state.feeding = version
            guard let version else { return }
            store.setHeader(state.header, version: version)
            store.add(state.recent, version: version)
        }
    }

    /// Forgets the kept screens (video thread, after a seek).
    func seeked() {
        state.withLock { $0.recent.removeAll() }
    }
}

/// The video thread's caption decoder for the playing video stream.
final class CaptionFeed {
    /// The video stream whose pictures the captions come from.
    let videoStream: Int
    private let backlog: CaptionBacklog
    private var decoder: SubtitleDecoder?
    /// True when this FFmpeg has no caption decoder (nothing more is tried).
    private var unavailable = false

    init(videoStream: Int, backlog: CaptionBacklog) {
        self.videoStream = videoStream
        self.backlog = backlog
    }

    /// Decodes the captions of `frame` (frames in presentation order, each once) into the
    /// backlog. Pictures without caption data cost one side-data lookup.
    func take(_ frame: VideoFrame) {
        guard !unavailable, frame.hasClosedCaptions else { return }
        if decoder == nil {
            decoder = try? SubtitleDecoder(closedCaptionsOfVideoStream: videoStream)
            unavailable = decoder == nil
        }
        guard let decoder else { return }
        backlog.add(decoder.decodeCaptions(of: frame), header: decoder.assHeader)
    }

    /// Forgets the caption state after a seek: the screens on either side are unrelated.
    func seeked() {
        decoder?.flush()
        backlog.seeked()
    }
}
