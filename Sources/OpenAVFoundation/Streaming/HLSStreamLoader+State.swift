// Playhead: what the HLS loader hands the demuxer (its chunks of segment bytes) and the state
// its threads share.
//
// Concurrency: `State` is guarded by the loader's `condition` (HLSStreamLoader.swift).
import FFmpegBridge
import Foundation

extension HLSStreamLoader {
    /// A fetched segment waiting to be read.
    struct Chunk {
        let data: Data
        let start: Double
        let duration: Double
        let variant: Int
        /// Which section it belongs to (a new number where a fresh container must read on),
        /// and the discontinuity sequence of its segment.
        let section: Int
        let timeline: Int
        /// The container time at `start`, and where its DASH Period ends, when the playlist says.
        var mediaStart: Double? = nil
        var sectionEnd: Double? = nil
        /// Packed audio: its tag's timestamp (seconds of the 90 kHz clock), when it has one, and
        /// the item time that places it at (PackedAudioTiming.swift), set when its section
        /// begins to be read (the video's anchor is known by then).
        var timestamp: Double? = nil
        var timedStart: Double? = nil
    }

    /// What the loader thread, the demuxer's reads and the controls share (under `condition`).
    struct State {
        var chunks: [Chunk] = []
        /// Packed audio's segment tags not yet taken (`takeTimedMetadata()`), and what the
        /// last one said (a tag is kept when it says something new, or first after a restart).
        var tags: [(items: [AVMetadataItem], start: Double)] = []
        var lastTag: [String]?
        var readOffset = 0
        var nextSegment = 0
        var generation = 0
        /// The section the demuxer's container reads (nil: whichever comes first), and where
        /// packed audio's timestamp places its start.
        var readSection: Int?
        var readSectionStart: Double?
        /// Packed audio: the timestamp (seconds of the 90 kHz clock) at item time zero, per
        /// timeline (PackedAudioTiming.swift); kept across restarts, as a container's anchor is.
        var packedOrigins: [Int: Double] = [:]
        /// Item seconds the demuxer has read up to, and the loader has fetched up to.
        var readPosition = 0.0
        var fetchedEnd = 0.0
        var loaderDone = false
        var closed = false
        /// True while nobody reads the stream (an audio rendition not selected): nothing is
        /// fetched until the next restart.
        var parked = false
        /// One segment may be fetched past the forward buffer (see `fetchNextSegmentNow()`).
        var reachesAhead = false
        /// True while the demuxer's read waits for a chunk; `starvedSince` the monotonic time of
        /// the first wait of a read that has not got bytes yet (the reader waits in 50 ms
        /// slices, which leave gaps in `readerWaiting`).
        var readerWaiting = false
        var starvedSince: Double?
        /// Set by `leaveWhenStarved`: park once the reader starves while a segment request has
        /// taken `starvedAfter` seconds.
        var leavesWhenStarved = false
        /// The monotonic time the loader thread's segment job began, while it runs.
        var segmentRequestSince: Double?
        var failure: MediaFailure?
        var caps = VariantAdaptation.Caps()
        /// Content steering: the pathway the bytes come from, and the latest ranking of the
        /// pathways with a count of rankings taken (HLSStreamLoader+Pathways.swift).
        var pathway = HLSSteeringTag.defaultPathway
        /// The pathways moved to since the steering server was last asked (DASH names every
        /// one used since then).
        var pathwaysSinceAsk: [String] = []
        var pathwayPriority: [String] = []
        var pathwayClones: [HLSPathwayClone] = []
        var priorityVersion = 0
        /// The variant of the bytes being read (index into `variants`).
        var playingVariant: Int?
        /// False until a playback engine takes the stream: until then only about one segment is
        /// fetched ahead of the demuxer (an asset being inspected does not download 30 s).
        var activated = false
        /// Seconds to fetch past the playhead once activated.
        var bufferAhead = HLSStreamLoader.bufferAhead
        /// The segments on one timeline (a live playlist's grow with its reloads).
        var timeline: HLSLiveTimeline
        /// A live playlist's next reload, and its last change (nil for VOD).
        var nextReload: Date?
        var lastChange = Date()
        /// True once a segment's bytes were handed to the demuxer; why the last segment
        /// passed over without bytes was (a stream that ends with none fails with it).
        var delivered = false
        var skipReason: String?
        /// Backward play's keyframe restarts (HLSStreamLoader+Keyframes.swift): the keyframe
        /// times of the I-frame playlist once read (empty: none to use), the keyframe (an
        /// index into them) the last restart for one keyframe announced until the loader
        /// thread takes it, and whether
        /// that keyframe was delivered (nothing more is fetched or read until a restart).
        var keyframeStarts: [Double]?
        /// The discontinuity sequence of each of those keyframes.
        var keyframeTimelines: [Int] = []
        var keyframeRestart: Int?
        var keyframeServed = false
        /// True while a restart for one keyframe waits for the I-frame playlist to be read.
        var keyframeRestartPending = false
        /// The keyframe (an index into `keyframeStarts`, with `iFrames`) or segment (of the
        /// timeline) the last restart for one keyframe came to, and the time it asked for; nil
        /// after any other restart.
        var lastStep: (index: Int, asked: Double, iFrames: Bool)?
    }
}
