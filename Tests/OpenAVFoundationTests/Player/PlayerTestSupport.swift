// Playhead: helpers for player tests: a recording video sink, waiting on the main queue.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records every frame presented (item time and checksum on demand).
final class RecordingVideoSink: VideoSink {
    struct Entry: Sendable {
        let itemTime: CMTime
        let pts: CMTime
        let frame: VideoFrame
        /// `SystemHostClock` time of the presentation.
        let host: Double
    }

    private let entries = Locked<[Entry]>([])
    private let clears = Locked(0)
    private let delay = Locked(0.0)

    /// The display delay the sink claims (0 unless a test sets it).
    var displayDelay: Double {
        get { delay.withLock { $0 } }
        set { delay.withLock { $0 = newValue } }
    }

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let host = SystemHostClock.shared.now
        entries.withLock { $0.append(Entry(itemTime: itemTime, pts: frame.pts, frame: frame, host: host)) }
    }

    func clear() { clears.withLock { $0 += 1 } }

    /// How many times the sink was told to drop its frame.
    var clearCount: Int { clears.withLock { $0 } }

    /// Forgets what was recorded so far.
    func reset() { entries.withLock { $0.removeAll() } }

    var frames: [Entry] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var last: Entry? { entries.withLock { $0.last } }

    /// The item times (milliseconds) of the pictures presented from the `first`th on, a
    /// picture presented again in a row counted once.
    func distinctMillis(from first: Int = 0) -> [Int] {
        frames.dropFirst(first).map { Int(($0.itemTime.seconds * 1000).rounded()) }
            .reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
    }
}

/// Waits on the main actor (letting the main queue run) until `condition` holds.
/// `AVURLAsset` options for a test over loopback whose outcome must not depend on the machine:
/// every wait the player bounds by wall time (the time-out, content steering's first ranking,
/// the session data documents, the I-frame playlist of trick play) is a minute, so a loaded
/// machine gets what a fast one does. (A test of what happens when a wait runs out sets its own.)
var patientNetworkOptions: [String: Any] {
    [
        AVURLAssetPlayheadTimeoutKey: 60, AVURLAssetPlayheadSteeringWaitKey: 60,
        AVURLAssetPlayheadSessionDataWaitKey: 60, AVURLAssetPlayheadKeyframePlaylistWaitKey: 60,
    ]
}

@MainActor
func waitUntil(
    timeout: Double = 20, _ what: String = "condition", sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    var deadline = PatientDeadline(seconds: timeout)
    while !condition() {
        if deadline.hasPassed() {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
        await mainQueueSleep(nanoseconds: 5_000_000)
    }
}

/// An output driven by a manual clock that can be waited for until it rendered what is due.
protocol CatchingUpAudioOutput: AnyObject, Sendable {
    @discardableResult
    func waitUntilCaughtUp(timeout: Double) -> Bool
}

extension ClockDrivenAudioOutput: CatchingUpAudioOutput {}
extension RecordingAudioOutput: CatchingUpAudioOutput {}

extension CatchingUpAudioOutput {
    /// `waitUntilCaughtUp(timeout:)` waited for on a thread of its own, so the main queue goes on
    /// serving the rest of the parallel pass meanwhile (a test that held it at every step of a
    /// long run starved other tests' main-queue waits on a loaded machine).
    @discardableResult
    func caughtUp(timeout: Double = 10) async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread { done.resume(returning: self.waitUntilCaughtUp(timeout: timeout)) }
        }
    }
}

/// Sleeps through a main-queue timer instead of `Task.sleep`.
///
/// `Task.sleep` resumes through Swift's cooperative thread pool, which tests that wait
/// synchronously on subprocesses can fill (it has one thread per core); then real-time tests see
/// the main actor stall for seconds. A main-queue timer resumes without the pool.
@MainActor
func mainQueueSleep(nanoseconds: UInt64) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            done.resume()
        }
    }
}

/// Collects notifications posted for one object.
@MainActor
final class NotificationLog {
    private final class Received: Sendable { let names = Locked<[NSNotification.Name]>([]) }
    private let received = Received()
    nonisolated(unsafe) private var tokens: [any NSObjectProtocol] = []

    init(_ names: [NSNotification.Name], object: AnyObject?) {
        for name in names {
            let received = self.received
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) {
                    note in received.names.withLock { $0.append(note.name) }
                })
        }
    }

    var names: [NSNotification.Name] { received.names.withLock { $0 } }

    func count(_ name: NSNotification.Name) -> Int { names.filter { $0 == name }.count }

    isolated deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}

/// An environment for untimed, silent playback into `sink`.
func untimedEnvironment(_ sink: RecordingVideoSink, audio: Bool = false) -> PlaybackEnvironment {
    let sinks = VideoSinks()
    sinks.add(sink)
    return PlaybackEnvironment(
        makeAudioOutput: audio ? { @Sendable in ClockDrivenAudioOutput(clock: SystemHostClock.shared) } : nil,
        videoSinks: sinks, untimed: true)
}

/// An environment for timed playback on `clock` into `sink`, with a clock-driven audio output
/// on the same clock when `audio` is true.
func timedEnvironment(
    _ sink: RecordingVideoSink, clock: any HostClock, audio: Bool = false
) -> PlaybackEnvironment {
    let sinks = VideoSinks()
    sinks.add(sink)
    return PlaybackEnvironment(
        hostClock: clock,
        makeAudioOutput: audio
            ? { @Sendable in
                let output = ClockDrivenAudioOutput(clock: clock)
                ClockDrivenOutputs.shared.add(output, on: clock)
                return output
            } : nil,
        videoSinks: sinks)
}

/// The clock-driven outputs ``timedEnvironment(_:clock:audio:)`` made, found by the clock they
/// run on (both held weakly), so a test can feed each step (``advanceFed(_:by:playing:step:thenUpTo:until:)``).
final class ClockDrivenOutputs: @unchecked Sendable {
    static let shared = ClockDrivenOutputs()
    private struct Made {
        weak var clock: AnyObject?
        weak var output: ClockDrivenAudioOutput?
    }
    private let made = Locked<[Made]>([])

    func add(_ output: ClockDrivenAudioOutput, on clock: any HostClock) {
        made.withLock { list in
            list.removeAll { $0.clock == nil || $0.output == nil }
            list.append(Made(clock: clock as AnyObject, output: output))
        }
    }

    /// The live outputs made on `clock`.
    func outputs(on clock: ManualClock) -> [ClockDrivenAudioOutput] {
        made.withLock { list in list.filter { $0.clock === clock }.compactMap(\.output) }
    }
}

/// Advances `clock` by `seconds` in steps, letting the engine threads and the main queue keep
/// up after each step.
@MainActor
func advance(_ clock: ManualClock, by seconds: Double, step: Double = 0.02) async {
    var left = seconds
    while left > 1e-9 {
        let delta = min(step, left)
        clock.advance(by: delta)
        left -= delta
        await mainQueueSleep(nanoseconds: 2_000_000)
    }
}

/// Advances `clock` by `seconds`, then keeps moving it in small steps (up to `limit` more
/// seconds) until `condition` holds. With audio on a manual clock the audio thread runs in
/// real time: when it falls behind, the audio clock stops (an underrun, as on a device), so
/// the item time can trail the clock on a loaded machine or under a sanitizer.
@MainActor
func advance(
    _ clock: ManualClock, by seconds: Double, step: Double = 0.02, thenUpTo limit: Double,
    until condition: @MainActor () -> Bool
) async {
    await advance(clock, by: seconds, step: step)
    var moved = 0.0
    while !condition(), moved < limit {
        await advance(clock, by: step)
        moved += step
    }
}

/// Advances `clock` by `seconds` in steps so that the audio clock follows it exactly however
/// loaded the machine is: before each step the real-time decode thread gets up to ten real
/// seconds to queue that step's audio (an empty ring stops the audio clock, as on a device)
/// and for a playing run's output to start, and after it the render thread of `output` catches
/// up (until it renders, the audio clock stands at what it rendered last). Near the end of the
/// item it goes on at once.
@MainActor
func advanceFed(
    _ clock: ManualClock, by seconds: Double, playing player: AVPlayer, output: ClockDrivenAudioOutput,
    step: Double = 0.02
) async {
    await advanceFed(clock, by: seconds, playing: player, outputs: { [output] }, step: step)
}

/// ``advanceFed(_:by:playing:output:step:)`` for a player whose items each have an output of
/// their own (a queue): `outputs` lists them; a step waits for one of them to run, and every
/// running one catches up after it.
@MainActor
func advanceFed(
    _ clock: ManualClock, by seconds: Double, playing player: AVPlayer,
    outputs: () -> [ClockDrivenAudioOutput], step: Double = 0.02
) async {
    var left = seconds
    while left > 1e-9 {
        let delta = min(step, left)
        // Up to ten real seconds: a loaded machine running a sanitizer (or a build beside the
        // tests) has starved the decode thread of 8x audio for two.
        for _ in 0..<2_000 {
            guard let ring = engine(of: player)?.pipeline?.ring, !ring.isAtEnd else { break }
            // Stalled, waiting for media: time stands whatever the ring holds.
            if player.timeControlStatus == .waitingToPlayAtSpecifiedRate, player.reasonForWaitingToPlay == .toMinimizeStalls {
                break
            }
            // At least a step, and more than the 50 ms the ring waits for before it starts.
            let fed = ring.bufferedDuration.seconds >= max(delta, 0.05) + 0.01
            // A run's output starts on its own queue after `play()`: until it runs, time stands,
            // so a step taken before it would be lost to a loaded machine.
            if fed && (player.rate == 0 || outputs().contains { $0.isRunning }) { break }
            await mainQueueSleep(nanoseconds: 5_000_000)
        }
        clock.advance(by: delta)
        left -= delta
        for output in outputs() { await output.caughtUp(timeout: 10) }
        await mainQueueSleep(nanoseconds: 2_000_000)
    }
}

/// ``advance(_:by:step:)`` with each step fed as ``advanceFed(_:by:playing:output:step:)`` when
/// the player plays into clock-driven outputs made by `timedEnvironment` on `clock` (plain
/// steps otherwise). Only for forward play: backward and fast play leave the output stopped.
@MainActor
func advanceFed(_ clock: ManualClock, by seconds: Double, playing player: AVPlayer, step: Double = 0.02) async {
    let outputs = { ClockDrivenOutputs.shared.outputs(on: clock) }
    guard !outputs().isEmpty else {
        await advance(clock, by: seconds, step: step)
        return
    }
    await advanceFed(clock, by: seconds, playing: player, outputs: outputs, step: step)
}

/// ``advance(_:by:step:thenUpTo:until:)`` with each step fed as ``advanceFed(_:by:playing:output:step:)``
/// feeds it when the player plays into clock-driven outputs made by `timedEnvironment`: the sound's clock follows
/// the manual clock however slow the machine (plain steps once let the clock's budget run out
/// while a sanitizer slowed the audio thread, and the picture stood).
@MainActor
func advanceFed(
    _ clock: ManualClock, by seconds: Double, playing player: AVPlayer, step: Double = 0.02,
    thenUpTo limit: Double, until condition: @MainActor () -> Bool
) async {
    let outputs = { ClockDrivenOutputs.shared.outputs(on: clock) }
    guard !outputs().isEmpty else {
        await advance(clock, by: seconds, step: step, thenUpTo: limit, until: condition)
        return
    }
    await advanceFed(clock, by: seconds, playing: player, outputs: outputs, step: step)
    var moved = 0.0
    while !condition(), moved < limit {
        await advanceFed(clock, by: step, playing: player, outputs: outputs, step: step)
        moved += step
    }
}

/// The current item's engine (nil when the player has none).
func engine(of player: AVPlayer) -> ItemPlayback? {
    player.state.withLock { $0.engine }
}

/// Plays `item` at 8x from the picture at 2.5 s (with a keyframe every second) until the
/// keyframe at 3 s shows, once its step was asked for; returns how many milliseconds past 3 s
/// it shows (fewer than `limit`).
@MainActor
func fastForwardToTheKeyframeAt3(
    _ item: AVPlayerItem, _ player: AVPlayer, _ clock: ManualClock, _ sink: RecordingVideoSink, offsetBelow limit: Int
) async throws -> Int {
    player.rate = 8
    #expect(item.canPlayFastForward)
    await forwardStepAsked(player, after: sink)
    await advance(clock, by: 0.1)
    await waitUntil("the keyframe at 3 s shows") { sink.count == 1 }
    let offset = try #require(sink.last.map { millis($0.pts) - 3_000 })
    #expect((0..<limit).contains(offset), "\(offset)")
    return offset
}

/// After a pause showed `still`: plays at 1x and checks the picture goes on from it a frame at
/// a time (four frames of 25 fps), each the decoder's own by `reference`.
@MainActor
func onePlaysOnFrameByFrame(
    from still: RecordingVideoSink.Entry, _ player: AVPlayer, _ clock: ManualClock, _ sink: RecordingVideoSink,
    reference: [Int: UInt64]
) async {
    sink.reset()
    player.rate = 1
    for frame in 1...4 {
        // A frame's time at a time, each step fed and taken once the next picture is decoded
        // ahead: moving on while it was still being decoded (a loaded machine) made it late,
        // and it was dropped for the one after.
        await waitUntil("a picture decoded ahead of frame \(frame)") {
            sink.count >= frame || engine(of: player)?.pipeline?.videoFrames.peek() != nil
        }
        await advanceFed(clock, by: 0.04, playing: player)
        // Time may start a moment after the clock (once the sound is heard): small steps
        // until it reaches the frame's time, never past it by more than one.
        let due = still.pts.seconds + 0.04 * Double(frame) - 0.001
        var extra = 0.0
        let started = Date()
        while sink.count < frame, player.currentTime().seconds < due, extra < 1, Date().timeIntervalSince(started) < 60 {
            await advanceFed(clock, by: 0.005, playing: player, step: 0.005)
            extra += 0.005
        }
        await waitUntil("frame \(frame) after where time stood") { sink.count >= frame }
    }
    // (The sound's clock can trail the manual clock on a loaded machine, never run ahead.)
    let resumed = sink.frames.map { millis($0.pts) }
    #expect(resumed.first == millis(still.pts) + 40, "\(resumed)")
    #expect(resumed == resumed.sorted() && Set(resumed).count == resumed.count, "\(resumed)")
    for entry in sink.frames {
        #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
    }
}

/// Twelve seconds at 25 fps (x264 with B-frames, a keyframe every `gop` frames) and a 440 Hz
/// tone, in `container`, made once per name.
func twelveSecondClip(named name: String, container: String, gop: Int = 25, extra: [String] = []) throws -> URL {
    try GeneratedMedia.url(
        named: name, fileExtension: container,
        ffmpeg: [
            "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=25:duration=12",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12",
            "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "\(gop)", "-keyint_min", "\(gop)",
            "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
        ] + extra)
}

/// Pauses and returns the picture that then shows, checking it is the frame where time stood
/// (the decoder's own, by `reference`), not a keyframe ahead.
@MainActor
func pauseShowsThePictureWhereTimeStands(
    _ item: AVPlayerItem, _ player: AVPlayer, _ sink: RecordingVideoSink, reference: [Int: UInt64]
) async throws -> RecordingVideoSink.Entry {
    let stepsShown = sink.count
    player.pause()
    let stood = item.currentTime()
    await waitUntil("the picture where time stood") { sink.count > stepsShown }
    let still = try #require(sink.last)
    #expect(millis(still.pts) <= millis(stood) && millis(stood) - millis(still.pts) < 40, "\(millis(still.pts)) for \(stood.seconds)")
    #expect(reference[millis(still.pts)] == still.frame.checksum())
    return still
}

/// With fast forward's last keyframe up: moves the clock `seconds` on, waits for the end (in
/// `log`) and checks that no picture came after the `shown` ones, that time stands at `end`
/// and that the player paused.
@MainActor
func expectTheEnd(
    at end: Double, after seconds: Double, showing shown: Int, _ item: AVPlayerItem, _ player: AVPlayer,
    _ clock: ManualClock, _ sink: RecordingVideoSink, _ log: NotificationLog
) async {
    await advance(clock, by: seconds)
    await waitUntil("the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
    #expect(sink.count == shown, "\(sink.frames.map { millis($0.pts) })")
    #expect(abs(item.currentTime().seconds - end) < 0.05, "\(item.currentTime().seconds)")
    #expect(player.rate == 0)
}

/// At 8x with a keyframe every second, from the picture of the one before `keyframes` (shown
/// `offset` ms past its second): for each, once its step was asked for, checks it has not
/// shown half a second of media short of it, then that it shows at its time with the picture
/// of a linear decode (`reference`, checked as it shows: its buffer may serve a later decode).
@MainActor
func stepThroughKeyframes(
    _ keyframes: ClosedRange<Int>, offset: Int, _ player: AVPlayer, _ clock: ManualClock, _ sink: RecordingVideoSink,
    reference: [Int: UInt64]
) async {
    for keyframe in keyframes {
        await forwardStepAsked(player, after: sink)
        await advance(clock, by: 0.0625)
        #expect(sink.last.map { millis($0.pts) } == (keyframe - 1) * 1000 + offset, "keyframe \(keyframe) early")
        await advance(clock, by: 0.0625)
        await waitUntil("the keyframe at \(keyframe) s shows") { sink.last.map { millis($0.pts) } == keyframe * 1000 + offset }
        if let entry = sink.last {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
    }
}

/// Waits until fast forward's engine has asked for its next step (a keyframe seek in flight
/// from no earlier than the last picture `sink` got: not the step whose picture just showed,
/// which lands a moment after the sink has it), so a test moves the clock only once the
/// step's target is set, however slowly threads run.
@MainActor
func forwardStepAsked(_ player: AVPlayer, after sink: RecordingVideoSink) async {
    let shown = sink.last?.pts ?? .negativeInfinity
    await waitUntil("the next fast forward step is asked for") {
        engine(of: player)?.coordinator.read {
            $0.seek.map { $0.isForwardStep && !$0.landed && $0.request.target >= shown } ?? false
        } ?? false
    }
}

/// Names of this process's threads that belong to the playback engine ("playhead.*").
func playheadThreadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else {
            return nil
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("playhead.") ? trimmed : nil
    }
}

/// A frame's identity for comparisons: its pts in milliseconds.
func millis(_ time: CMTime) -> Int { Int((time.seconds * 1000).rounded()) }

/// Every frame of `url` decoded linearly (untimed playback), as checksums keyed by pts in
/// milliseconds.
@MainActor
func linearChecksums(of url: URL) async -> [Int: UInt64] {
    await linearFrames(of: url).mapValues { $0.checksum() }
}

/// Every frame of `url` from an untimed linear playback, by pts in milliseconds.
@MainActor
func linearFrames(of url: URL) async -> [Int: VideoFrame] {
    let sink = RecordingVideoSink()
    let item = AVPlayerItem(url: url)
    let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
    let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
    player.play()
    await waitUntil("linear decode") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
    player.replaceCurrentItem(with: nil)
    var frames: [Int: VideoFrame] = [:]
    for entry in sink.frames { frames[millis(entry.pts)] = entry.frame }
    return frames
}

/// Records the values a key path of `object` takes (initial value included), on the main queue.
@MainActor
final class ValueLog<Object: _KeyValueObservable & AnyObject, Value: Sendable> {
    private(set) var values: [Value] = []
    private var observation: NSKeyValueObservation?

    init(_ object: Object, _ keyPath: KeyPath<Object, Value>) {
        observation = object.observe(keyPath, options: [.initial, .new]) { [weak self] _, change in
            guard let value = change.newValue else { return }
            MainActor.assumeIsolated { self?.values.append(value) }
        }
    }

    func stop() { observation?.invalidate() }
}

/// True when real-time timing tests should run: only in the separate, quiet pass `make test`
/// makes with PLAYHEAD_REALTIME_TESTS set (in the main pass the whole suite shares two cores and
/// real-time margins mean nothing).
let realTimeTestsEnabled = ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil

/// True once playback has started: playing now, or already past the start (a short item can
/// play to its end while a loaded test machine is not looking).
@MainActor
func startedPlaying(_ player: AVPlayer) -> Bool {
    player.timeControlStatus == .playing || player.currentTime() > .zero
}
