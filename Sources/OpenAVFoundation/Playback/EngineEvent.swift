// Playhead: what reaches an item's coordinator (commands from the player, news from the
// workers) and what it decides in return.
//
// Concurrency: plain values, made on any thread and handed to the coordinator.
import FFmpegBridge
import Foundation

/// Something the coordinator is told: a command from the player (main queue) or news from
/// one of the engine's workers (open work, demux, video, audio, presentation).
enum EngineEvent: Sendable {
    // MARK: Commands
    /// Time runs at `rate` from host time `host` (0 pauses; with `waiting`, time stands while
    /// the player waits for data to play on at its rate).
    case setRate(Double, host: Double, waiting: Bool = false)
    /// The audio gain (volume × mute).
    case setGain(Float)
    /// The user's audio delay changed (seconds; positive: sound after picture).
    case setAudioDelay(Double)
    /// The rate play will run at once it runs (the player's rate while it waits, or its
    /// default rate while paused): audio decoded ahead is made at that tempo.
    case setUpcomingRate(Double)
    /// Start a seek; completion is reported with `.seekFinished`.
    case seek(SeekRequest)
    /// Stop for good; `clearsVideo` false keeps the last picture on the video sinks.
    case stop(clearsVideo: Bool)
    /// Hold (true) or release (false) presentation: a prerolled queue item.
    case setHeld(Bool)
    /// Play this audio stream from now on.
    case selectAudio(Int)
    /// Show subtitles from this source (nil: none) from now on.
    case selectLegible(MediaOptionSource?)
    /// The player's time observers next need the time at this item time (+∞: none).
    case observersNeedTime(at: CMTime)
    /// Time starts to run at host time `start` (not before `now`), where it stands then: the
    /// next rate applies from that moment (`setRate(_:time:atHostTime:)`).
    case scheduleStart(at: Double, now: Double)

    // MARK: Open work
    /// The media opened with these parts; time starts at zero at `host`.
    case opened(OpenedParts, host: Double)
    /// The variant of a multivariant stream chosen at the open, by its `BANDWIDTH`.
    case variantChosen(bitRate: Int)

    // MARK: Demux thread
    /// Reading starts: buffering is tracked from now on.
    case readingStarted
    /// The demux thread asks what to do: it picked up seeks up to generation `pickedUpTo`.
    case demuxAsks(pickedUpTo: Int)
    /// A packet was read from the container at `host`.
    case packetRead(Packet, host: Double)
    /// Re-evaluate the buffer at `host` (`endOfStream`: the demuxer reached the end;
    /// `force`: report even when nothing changed).
    case bufferCheck(endOfStream: Bool, force: Bool, host: Double)
    /// A seek moved reading to this time: the buffered range starts again there.
    case readingRestarted(at: CMTime)
    /// The packet cache let go of media before this time.
    case bufferDropped(before: CMTime)
    /// A kept run was reopened: reading goes on from its end.
    case bufferResumed(CMTimeRange)
    /// The runs the packet cache keeps besides the current one.
    case bufferKeptRanges([CMTimeRange])
    /// Reading goes on after a read failure was left behind (a seek or a replay).
    case readResumed
    /// Reading stopped on an error (`failure` nil: a local file, whose end just plays out).
    case readFailed(MediaFailure?)
    /// The demuxer reached the end of generation `generation` at `host`.
    case packetsEnded(generation: Int, host: Double)
    /// Reading goes on after the end was reached (an audio track read on demand was switched
    /// to once everything else was read): the end no longer counts as buffered.
    case packetsReopened
    /// The playing audio track, read on demand, was left while its server stalled it and is
    /// selected again before another took over: an exact seek of the engine's own to where
    /// time stands at `host` starts every source there again.
    case resyncAudioDue(host: Double)

    // MARK: Video decode thread
    /// The first frame of `generation` was decoded: its seek lands at `landing`.
    case videoLanding(generation: Int, at: CMTime)
    /// The video decoder drained the end of stream of `generation`.
    case videoEnded(generation: Int)
    /// The video thread skips pictures of `generation` that refer to ones keyframes-only
    /// decoding left out (fast play ended after the seek of `generation` showed its picture):
    /// the picture where time stands (at `host`) needs an exact seek.
    case videoAwaitsKeyframe(generation: Int, host: Double)

    // MARK: Audio thread
    /// Decoded audio of `generation` starting at `start` is about to be written.
    case audioChunk(generation: Int, start: CMTime)
    /// This much audio of `generation` went into the ring (item seconds) at `host`.
    case audioWritten(seconds: Double, generation: Int, host: Double)
    /// The audio decoder drained the end of stream of `generation`.
    case audioEnded(generation: Int)
    /// The audio thread switched to track `stream` in `generation` at `host`: the audio it
    /// has (the ring's and the track's packets read so far) reaches `bufferedThrough`.
    case audioSwitched(stream: Int, bufferedThrough: CMTime, generation: Int, host: Double)

    // MARK: Presentation thread
    /// The first frame of `generation` was shown at item time `time`, host time `host`.
    case firstFrameShown(generation: Int, time: CMTime, host: Double)
    /// A frame was shown at item time `time`; `measuredAt` is the host time its sync error is
    /// measured at (frames shown on the clock), nil otherwise.
    case frameShown(time: CMTime, pts: CMTime, measuredAt: Double?)
    /// A late frame was dropped.
    case frameDropped
    /// A frame was shown as fast as frames come (untimed): the clock follows it.
    case untimedFrameShown(pts: CMTime, host: Double)
    /// No frame is waiting for `generation`: a seek may land without one (`videoEnded`: the
    /// frame queue reached its end).
    case noFrameWaiting(generation: Int, host: Double, videoEnded: Bool)
    /// Time `time` of `generation` is due to the player's time observers.
    case timeDue(CMTime, generation: Int)
    /// Playback of `generation` used up its streams (or reached the forward end) at `host`.
    case endDue(generation: Int, host: Double)
    /// Playback reached item time `time` at `host`: the forward end may be due.
    case playedTo(CMTime, host: Double)
    /// The scheduled start's host time came (`host`): time runs and the audio output starts.
    case scheduledStartReached(host: Double)
    /// Playing backward, time went below the picture shown: the keyframe at or before `time`
    /// is to be shown next (a step of its own generation, not a seek of the player's).
    case reverseStepDue(to: CMTime)
    /// Playing backward, time reached the reverse end at `host`.
    case reverseEndDue(host: Double)
    /// Stepping forward through keyframes, the picture at `time` (or time itself, if later)
    /// is up: the first keyframe after it is to be fetched and shown when time reaches it.
    case forwardStepDue(after: CMTime)
    /// The source turned out not to fetch keyframes alone (its I-frame playlist is unusable),
    /// found at `host`: fast forward plays every frame, with sound.
    case keyframesUnavailable(host: Double)
}

/// What the open work learned and made.
struct OpenedParts: Sendable {
    let pipeline: Pipeline
    let duration: CMTime
    let forwardEndTime: CMTime
    let reverseEndTime: CMTime
    let audioStream: Int?
    /// Rates above this step forward through the source's keyframes (nil: it cannot; see
    /// `EngineState.forwardStepsAbove`).
    var forwardStepsAbove: Double?
}

/// The engine's threads the coordinator can wake.
struct EngineThreads: OptionSet, Sendable {
    let rawValue: Int
    static let demux = EngineThreads(rawValue: 1)
    static let video = EngineThreads(rawValue: 2)
    static let audio = EngineThreads(rawValue: 4)
    static let presenter = EngineThreads(rawValue: 8)
    /// The subtitle and timed metadata thread.
    static let subtitles = EngineThreads(rawValue: 16)
    static let all: EngineThreads = [.demux, .video, .audio, .presenter, .subtitles]
}

/// What the coordinator decided in answer to an event. The coordinator carries out each one
/// before it takes the next event (so a seek's flush is done before any thread can see its
/// generation), except `.reply`, which goes back to the worker that asked.
enum EngineAction: Sendable {
    /// Wake these threads.
    case wake(EngineThreads)
    /// Move every queue to `generation`, dropping what they hold.
    case flushQueues(generation: Int)
    /// Cut a network read that may be stuck on a stalled connection (for a seek).
    case kickStalledRead
    /// Stop reading for good and release every thread blocked on a queue.
    case abort
    /// Bring the audio output to what rate and stop ask for (on the output queue).
    case applyAudioOutput
    /// Set the ring's volume.
    case setVolume(Float)
    /// Shift the audio clock by the user's audio delay.
    case applyAudioDelay(Double)
    /// Keep the ring silent until this host time (a scheduled start).
    case gateAudio(at: Double)
    /// Clear the video sinks.
    case clearVideo
    /// Empty the cue store for `version` and load `source` into it.
    case loadLegible(MediaOptionSource?, version: Int)
    /// Mark both packet queues ended (the demuxer reached the end of the current generation).
    case endPacketQueues
    /// Mark the frame queue ended (the video decoder drained the current generation).
    case endFrameQueue
    /// Send this up to the player.
    case report(PlaybackEvent)
    /// The answer to the worker that posted the event.
    case reply(EngineReply)
}

/// Answers to workers that ask the coordinator.
enum EngineReply: Sendable, Equatable {
    /// What the demux thread does next: stop, carry out `seek` (nil: none new), read for
    /// `generation` with `selection`.
    case demuxOrders(DemuxOrders)
    /// How the audio thread treats the chunk it asked about.
    case audio(EngineState.AudioLanding)
    /// The end was reached now (false: it was earlier, is stale, or is not due).
    case ended(Bool)
    /// The time went up to the player (false: no observer needs it yet, or it is stale).
    case reported(Bool)

    static func == (lhs: EngineReply, rhs: EngineReply) -> Bool {
        switch (lhs, rhs) {
        case (.audio(let a), .audio(let b)): a == b
        case (.ended(let a), .ended(let b)): a == b
        case (.reported(let a), .reported(let b)): a == b
        case (.demuxOrders(let a), .demuxOrders(let b)):
            a.stopped == b.stopped && a.generation == b.generation && a.seek?.generation == b.seek?.generation
        default: false
        }
    }
}

/// What the demux thread is told each time round its loop.
struct DemuxOrders: Sendable {
    let stopped: Bool
    /// A seek it has not carried out yet.
    let seek: PendingSeek?
    let generation: Int
    let selection: EngineSelection
}
