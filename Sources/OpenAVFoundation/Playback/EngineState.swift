// Playhead: everything one item's engine knows and decides: seeks and generations, landing,
// per-stream end of stream, the clock anchor, rate, gain, selection, the buffer tracker and
// statistics.
//
// Concurrency: a value. Its one owner is the item's `EngineCoordinator`, which changes it only
// through `handle(_:)` (EngineState+Handle.swift), one event at a time; threads read copies
// through the coordinator. Nothing else holds a mutable reference to it.
import FFmpegBridge
import Foundation

/// A seek the engine is carrying out.
struct PendingSeek: Sendable {
    let request: SeekRequest
    /// The generation whose data belongs to this seek.
    let generation: Int
    /// Where playback lands: the target for exact seeks, the first frame's time otherwise.
    var landing: CMTime?
    /// True once the first frame at the new position was shown (the seek completed).
    var landed = false
    /// True for a step of reverse playback: a keyframe seek of the engine's own, which lands
    /// without re-anchoring the running clock.
    var isReverseStep = false
    /// True for a step of fast forward through keyframes: the first keyframe after the
    /// target, shown when time reaches it, without re-anchoring the running clock.
    var isForwardStep = false
    /// True for a step of either direction.
    var isKeyframeStep: Bool { isReverseStep || isForwardStep }
    /// True for a seek the engine made itself (trick play's steps, the exact seek that resumes
    /// forward play after them): the player hears nothing of it, and the queues it empties
    /// are no stall.
    var isEngineOwn = false
}

/// The first audio of a generation put into the ring, and when.
struct QueuedAudio: Sendable, Equatable {
    let generation: Int
    /// The host time its first chunk went into the ring.
    let since: Double
}

/// Where the item's audio output is in its life.
enum AudioOutputPhase: Sendable { case idle, running, closed }

/// The state of one item's engine, changed only by its coordinator.
struct EngineState: Sendable {
    /// Bumped by every seek; data from older generations is stale.
    var generation = 0
    /// The desired rate of time: 0 while paused.
    var rate: Double = 0
    var gain: Float = 1
    /// The user's audio delay in seconds (positive: sound after picture).
    var audioDelay: Double = 0
    /// The rate play will run at while `rate` is 0: the tempo audio is prepared at.
    var upcomingRate: Double = 1
    /// Rates above this step forward through the item's keyframes (nil: the item cannot):
    /// `keyframeFastForwardRate` for a VOD HLS stream with I-frame playlists,
    /// `indexedFastForwardRate` for a local file whose container indexes its keyframes (MP4,
    /// MOV, Matroska, AVI and others).
    var forwardStepsAbove: Double?
    /// True when the item's video can step forward through keyframes.
    var canStepForward: Bool { forwardStepsAbove != nil }
    /// The generation whose picture the current run of trick play's steps began from (time
    /// reports made since then stay current through the steps).
    var keyframeRunSince = Int.max
    /// Rates above this step through the keyframes of a stream that fetches them alone, as
    /// AVPlayer plays HLS fast from its I-frame playlists: each keyframe shows when time
    /// reaches it, and no sound plays.
    static let keyframeFastForwardRate = 2.0
    /// The fastest rate at which every video frame is decoded: faster, decoding every frame
    /// would outrun a small machine's decoder (8x a 30 fps stream is 240 pictures a second).
    static let everyFrameRateLimit = 4.0
    /// Rates above this step through a local file's indexed keyframes, silently (slower ones
    /// play every frame with sound at their tempo).
    static let indexedFastForwardRate = everyFrameRateLimit

    /// True while fast forward steps through keyframes.
    var stepsForward: Bool { forwardStepsAbove.map { rate > $0 } ?? false }
    /// True while the picture steps from keyframe to keyframe (backward, or fast forward).
    var stepsThroughKeyframes: Bool { rate < 0 || stepsForward }
    /// True while time runs forward with the sound playing (not stepping through keyframes).
    var playsSound: Bool { rate > 0 && !stepsForward }
    /// True while the video thread decodes keyframes only: faster than `everyFrameRateLimit`
    /// on an item that cannot step through keyframes (DASH, HLS without I-frame playlists,
    /// MPEG-TS and remote files), which reads on through everything with the sound at the
    /// rate's tempo.
    var decodesKeyframesOnly: Bool {
        hasVideo && !isUntimed && rate > Self.everyFrameRateLimit && !stepsThroughKeyframes
    }
    /// Set when keyframes-only decoding ended (a rate of 4 or less, a pause, a wait) with no
    /// seek in flight: the picture where time stands was never decoded. The next rate change
    /// that is not a wait for data (play at 4x or slower, pause) makes an exact seek of the
    /// engine's own there; a wait does not (play at the fast rate goes on from the keyframes).
    /// Any seek clears it.
    var owesPictureSeek = false
    /// Set when the video thread skips pictures keyframes-only decoding left without
    /// references while a seek is in flight (`videoAwaitsKeyframe`): once it lands, an exact
    /// seek of the engine's own where time stands. Any seek clears it.
    var owesPictureSeekAtLanding = false
    /// True while the player waits for data with a rate set (time stands, rate 0 here).
    var isWaitingForData = false

    /// The tempo the audio thread converts at: the rate, or the upcoming one while paused,
    /// within what the converter's tempo stage does (faster rates play audio at its limit).
    var audioTempo: Double {
        let wanted = rate > 0 ? rate : upcomingRate
        return min(max(wanted, AudioConverter.tempoRange.lowerBound), AudioConverter.tempoRange.upperBound)
    }
    var stopped = false
    var seek: PendingSeek?
    /// The system-time clock; the audio clock corrects it while audio plays.
    var clock = MediaClock(rate: 0)
    /// Host time after which the audio clock reflects the current rate: the start of the
    /// current run (play, a rate change, a seek's landing).
    var audioClockTrustedAfter: Double = 0
    var duration: CMTime = .indefinite
    var forwardEndTime: CMTime = .invalid
    /// Where reverse playback ends: `reversePlaybackEndTime` when set, else zero.
    var reverseEndTime: CMTime = .invalid
    /// The item time of the last frame shown (or audio played, for audio-only items).
    var lastPresented: CMTime = .zero
    var statistics = PlaybackStatistics()
    /// Set when the end was reported for the current generation.
    var endReported = false
    /// Set when playing backward reached the reverse end; cleared by a seek or forward play.
    var reverseEndReported = false
    /// The generation whose video reached end of stream (-1: none).
    var eosGeneration = -1
    /// The generation whose audio reached end of stream and drained (-1: none).
    var audioEOSGeneration = -1
    var hasVideo = false
    var hasAudio = false
    /// The audio stream and subtitle source selected for playback (ItemPlayback+Selection).
    var selection = EngineSelection()
    /// Why reading a network input stopped early (nil: it did not); the item fails with it once
    /// playback uses up what was read.
    var readFailure: MediaFailure?
    /// The generation of the last seek the demux thread picked up. A seek kicks a stuck read
    /// only while its generation is newer, so a kick never lands on a read after its seek.
    var demuxSeekGeneration = 0
    /// The `BANDWIDTH` of the variant being played (nil: not a multivariant stream).
    var variantBitRate: Int?
    /// True while the item is prerolled for a queue: it opens and decodes its first frames
    /// but presents nothing and reports no time until released.
    var isHeld = false
    /// True for network media: a seek may have to cut a read stuck on a stalled connection.
    var isNetwork = false
    /// True when frames are presented as fast as decoding allows (`--untimed`): fast rates
    /// change nothing in what is decoded.
    var isUntimed = false
    /// The queues and outputs, once the media is open.
    var pipeline: Pipeline?
    /// The buffer flags and ranges; nil until the demux thread starts reading.
    var buffer: BufferTracker?
    /// The item time at which the player's time observers next need the time; +∞ while no
    /// observer does.
    var nextTick: CMTime = .positiveInfinity
    /// The host time at which time starts to run (`setRate(_:time:atHostTime:)`); nil once it
    /// has or when none was asked for. Until then time stands where it will start, and the
    /// ring is gated: the output runs but is silent until that moment.
    var scheduledStart: Double?
    /// The generation whose audio went into the ring last, and since when (nil: none yet).
    var audioQueued: QueuedAudio?
    /// True from the open until time first runs (a rate above zero) or a seek is made.
    var isOpening = true
    /// While opening: where the sound begins (the first audio, from zero on). Time stands
    /// there rather than at the first picture when the sound begins first (a transport
    /// stream's audio leads its video by a frame or more), so it does not go back when play
    /// starts with the sound.
    var openingAudioStart: CMTime?

    /// The item time at `host`: the audio clock when it is trustworthy, the system clock
    /// otherwise. Time never runs ahead of sound that is about to start: while this run's
    /// audio is due but not heard yet (the output starting, a sound server's latency, a
    /// suspended sink or a Bluetooth headset waking up), it stands where the run began, so it
    /// does not jump back when the audio clock takes over.
    func time(atHost host: Double) -> CMTime {
        let running = scheduledStart.map { max(host, $0) } ?? host
        // (Before its first frame is heard, the audio clock stands at that frame's time.)
        if let audio = trustedAudioClock(atHost: running) { return audio }
        guard awaitsFirstAudio else { return clock.time(atHost: running) }
        let waited = max(0, running - audioClockTrustedAfter)
        // Audio that never comes (a gap in the track) holds time only so long; audio waiting
        // in the ring for an output slow to start holds it longer.
        let allowance = holdsUnheardAudio ? Self.queuedAudioAllowance : Self.firstAudioAllowance
        let held = audioClockTrustedAfter + max(0, waited - allowance)
        return clock.time(atHost: max(held, clock.anchorHost))
    }

    /// How long time waits at the start of a run for its audio to be heard before the system
    /// clock runs on without it, when that audio has not been decoded in time (a sound
    /// server's latency is 20-200 ms).
    static let firstAudioAllowance = 0.5

    /// How long time waits for an output to start playing the audio waiting for it in the
    /// ring: a sink resumed from suspension or a Bluetooth headset can take a second or two;
    /// an output silent for longer is taken as stuck and time runs on without it.
    static let queuedAudioAllowance = 5.0

    /// True when this run's audio was in the ring within ``firstAudioAllowance`` of the run's
    /// start and is still there, unheard: only the output keeps it from being heard. (Audio
    /// that arrives later does not hold time that has started to run.)
    private var holdsUnheardAudio: Bool {
        guard let queued = audioQueued, queued.generation == generation,
            queued.since < audioClockTrustedAfter + Self.firstAudioAllowance,
            let ring = pipeline?.ring
        else { return false }
        return ring.bufferedFrames > 0
    }

    /// True while playing forward with audio selected that has not ended and whose clock is not
    /// trusted yet for this run.
    private var awaitsFirstAudio: Bool {
        guard playsSound, selection.audioStream != nil, let ring = pipeline?.ring else { return false }
        return !ring.isAtEnd
    }

    /// The audio clock at `host` when it reflects the current rate and generation; nil while
    /// paused, before audio of this generation was heard, or without audio.
    func trustedAudioClock(atHost host: Double) -> CMTime? {
        guard playsSound, let ring = pipeline?.ring, let snapshot = ring.clockSnapshot,
            snapshot.host >= audioClockTrustedAfter, snapshot.generation == generation
        else { return nil }
        let audio = snapshot.time(atHost: host)
        return audio.isNumeric ? audio : nil
    }

    /// `time` kept within the item: not before zero, not past the end.
    func clamped(_ time: CMTime) -> CMTime {
        var result = max(time, .zero)
        if duration.isNumeric && result > duration { result = duration }
        return result
    }

    /// Where playback stops: the forward end time when set, else the duration.
    var endTime: CMTime { forwardEndTime.isNumeric ? forwardEndTime : duration }

    /// True while paused (or stepping through keyframes: one picture a step) at `generation`
    /// with nothing pending: the video decode thread may rest once that generation's first
    /// frame is out. A held engine (prerolled for a queue or
    /// a looper) is not paused in this sense: its frames should be ready the moment it takes
    /// over.
    func isPaused(at generation: Int) -> Bool {
        // Stepping through keyframes shows one picture per generation too
        // (ItemPlayback+Reverse.swift, ItemPlayback+FastForward.swift).
        (rate <= 0 || stepsForward) && !isHeld && self.generation == generation
    }

    /// Where reverse playback stops: the reverse end time when set, else zero.
    var reverseEnd: CMTime { reverseEndTime.isNumeric ? max(reverseEndTime, .zero) : .zero }

    /// The exact target of the seek of `generation`, or nil (opening and inexact seeks).
    func exactTarget(of generation: Int) -> CMTime? {
        guard let seek, seek.generation == generation, seek.request.isExact else { return nil }
        return seek.request.target
    }

    /// The landing time of the seek of `generation`, once known.
    func landing(of generation: Int) -> CMTime? {
        seek.flatMap { $0.generation == generation ? $0.landing : nil }
    }

    /// True when the seek of `generation` (or a newer one) no longer waits to land.
    func hasLanded(_ generation: Int) -> Bool {
        seek.map { $0.generation != generation || $0.landed } ?? true
    }

    /// True once the first video frame of the current generation waits in the queue (items
    /// with video), or once the media is open (audio only).
    var isFirstFrameReady: Bool {
        guard let pipeline else { return false }
        guard pipeline.videoStream != nil else { return true }
        return pipeline.videoFrames.peek()?.generation == generation
    }
}
