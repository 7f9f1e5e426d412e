// Playhead: an audio output on the desktop's sound server (PulseAudio, or PipeWire through
// pipewire-pulse), with the latency the server measures instead of a guess, that plays on
// silently while the server is away and reconnects when it is back.
//
// Concurrency: `open`, `start`, `stop`, `close` and `discardBuffered` may be called from any
// thread; `lock` serialises them and guards the connection, the stand-in and what `open` was
// given. The getters any thread may call (latency, counts, whether it plays silently) read a
// mirror of the connection and the stand-in under a lock of its own, never waiting for
// `lock`. Losing the server and reconnecting run on `recovery` and take the same lock;
// libpulse's main loop thread never takes it (it only queues the loss on `recovery`). At most
// one of the connection and the stand-in renders at a time: each is stopped before the other
// starts. The server's requests to pause and resume go from the main loop thread to
// `recovery`, which calls the handler (its own mutex) there.
import Foundation
import OpenAVFoundation
import Synchronization

/// Plays the engine's audio on the sound server's default sink (or a named one).
///
/// When the server goes away the output plays on silently on the system clock (time does not
/// stop), says so once through `notice`, and tries to reconnect twice a second; once the
/// server is back, sound resumes from where playback is.
package final class PulseAudioOutput: AudioOutput, @unchecked Sendable {
    /// The audio a stream keeps queued on the server on a desktop: enough that a busy
    /// machine does not run dry, little enough for a prompt pause and seek (pause corks, a
    /// seek flushes, a rate change rewrites what is queued) and a volume change heard soon
    /// (mpv keeps about 160 ms).
    static let desktopBuffer = 0.15
    /// The queue on a machine whose CPUs can be taken away (``ProcessorStalls``): such a
    /// virtual machine or container stops every thread, real-time ones included, for up to
    /// 100 ms when its cores are busy. Measured on the CI machines beside a busy loop per
    /// core: 150 ms lost 10-30 ms a few times in each 20-second run, 300 ms now and then,
    /// 450 ms never. Also what any stream grows to after the server ran dry.
    static let stallProneBuffer = 0.45
    /// The queue streams start with: `PLAYHEAD_AUDIO_BUFFER` (seconds, 0.02 to 0.45), else
    /// ``stallProneBuffer`` or ``desktopBuffer`` by the machine.
    static let targetBuffer = chosenBuffer(ProcessInfo.processInfo.environment["PLAYHEAD_AUDIO_BUFFER"])
        ?? (ProcessorStalls.likely ? stallProneBuffer : desktopBuffer)

    /// The buffer a `PLAYHEAD_AUDIO_BUFFER` value asks for, in seconds; nil when it is not a
    /// number from 0.02 to 0.45 (the longest queue the ring's room for audio re-made after a
    /// rate change is sized for).
    static func chosenBuffer(_ value: String?) -> Double? {
        guard let seconds = value.flatMap(Double.init), seconds >= 0.02, seconds <= stallProneBuffer else { return nil }
        return seconds
    }
    /// How often a lost server is tried again.
    static let reconnectInterval = 0.5

    package let name = "pulse"
    /// The audio a stream keeps queued on the server, in seconds.
    private let buffer: Double
    /// The sink to play on; nil: the server's default.
    private let sinkName: String?
    /// The server to connect to (`unix:/path` or a host); nil: libpulse's own choice
    /// (`PULSE_SERVER`, then the user's runtime directory).
    private let server: String?
    /// Told (on a background queue) when the server is lost and when it is back.
    private let notice: (@Sendable (SoundServerNews) -> Void)?
    private let lock = NSLock()
    /// protected by lock: the connection playing now (nil while the server is away)
    private var stream: PulseStream? { didSet { publish() } }
    /// protected by lock: the silent stand-in while the server is away
    private var standIn: ClockDrivenAudioOutput? { didSet { publish() } }
    /// protected by lock: what `open` was given, for reconnecting
    private var opened: (format: AudioOutputFormat, source: any AudioRenderSource)?
    /// protected by lock: whether the engine wants sound now
    private var running = false
    /// protected by lock: underruns of the connections closed or lost since `open`
    private var pastUnderruns = 0 { didSet { publish() } }
    /// protected by its mutex: `stream`, `standIn` and `pastUnderruns` as last set (under
    /// `lock`), for the getters any thread may call: they never wait for `lock`, which a
    /// device call holds (a connection being made, the end being played out).
    private let published = Locked<(stream: PulseStream?, standIn: ClockDrivenAudioOutput?, pastUnderruns: Int)>(
        (nil, nil, 0))
    /// Reconnection attempts and the hand-over to the stand-in run here, off the main loop.
    private let recovery = DispatchQueue(label: "playhead.pulse.recovery")
    /// protected by its mutex: who hears the server's requests to pause and resume
    private let requestHandler = Locked<(@Sendable (SoundServerRequest) -> Void)?>(nil)
    private let losses = Atomic<Int>(0)

    /// An output for `sinkName` (nil: the default sink) on `server` (nil: the user's),
    /// keeping `buffer` seconds queued on the server (growing to ``stallProneBuffer`` after
    /// the server ran dry); nothing connects until `open`.
    package init(
        server: String? = nil, sinkName: String? = nil, buffer: Double = PulseAudioOutput.targetBuffer,
        notice: (@Sendable (SoundServerNews) -> Void)? = nil
    ) {
        self.buffer = buffer
        self.server = server
        self.sinkName = sinkName
        self.notice = notice
    }

    package var outputLatency: Double {
        let (stream, standIn, _) = published.withLock { $0 }
        return stream?.latency ?? standIn?.outputLatency ?? 0
    }

    /// Mirrors the connection, the stand-in and the past underruns for the getters (called
    /// under `lock` by every change of them).
    private func publish() {
        published.withLock { $0 = (stream, standIn, pastUnderruns) }
    }

    /// Times the server ran out of audio to play since `open`, over every connection (the
    /// end of the audio, played out, is not one).
    package var deviceUnderruns: Int {
        let (stream, _, past) = published.withLock { $0 }
        return past + (stream?.underruns.load(ordering: .relaxed) ?? 0)
    }

    /// Sets who hears the server's requests to pause and resume (on a background queue).
    package func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?) {
        requestHandler.withLock { $0 = handler }
    }

    /// Times the connection to the server was lost since `open`.
    package var serverLosses: Int { losses.load(ordering: .relaxed) }

    /// True while the server is away and the output plays silently.
    package var isPlayingSilently: Bool { published.withLock { $0.standIn != nil } }

    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        lock.lock()
        defer { lock.unlock() }
        precondition(stream == nil && standIn == nil, "PulseAudioOutput opened twice")
        let connection = try connect(format: format, source: source)
        stream = connection
        opened = (connection.format, source)
        return connection.format
    }

    package func start() {
        lock.lock()
        defer { lock.unlock() }
        running = true
        stream?.setRunning(true)
        standIn?.start()
    }

    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        running = false
        stream?.setRunning(false)
        standIn?.stop()
    }

    package func stopAfterPlayingOut(timeout: Double) {
        lock.lock()
        defer { lock.unlock() }
        running = false
        stream?.playOut(timeout: timeout)
        standIn?.stop()
    }

    /// True while a server stream plays (not the silent stand-in of a lost server): its queued
    /// audio can be overwritten.
    package var rewritesQueuedAudio: Bool {
        published.withLock { $0.stream != nil && $0.standIn == nil }
    }

    package func discardBuffered() {
        lock.lock()
        defer { lock.unlock() }
        stream?.flush()
    }

    package func close() {
        lock.lock()
        let (closing, silent) = (stream, standIn)
        pastUnderruns += closing?.underruns.load(ordering: .relaxed) ?? 0
        stream = nil
        standIn = nil
        opened = nil
        running = false
        lock.unlock()
        closing?.close()
        silent?.close()
    }

    /// A new connection playing `source`, which reports its loss to this output.
    private func connect(format: AudioOutputFormat, source: any AudioRenderSource) throws -> PulseStream {
        try PulseStream(
            format: format, source: source, server: server, sink: sinkName, buffer: buffer, grownBuffer: max(Self.stallProneBuffer, buffer),
            onRequest: { [weak self] request in
                // Off the main loop's thread: the handler may call back into this output.
                guard let output = self else { return }
                output.recovery.async { output.requestHandler.withLock { $0 }?(request) }
            }
        ) { [weak self] connection in
            // Not on the main loop's thread: the hand-over takes this output's lock, which
            // the commands hold while they take the main loop's.
            guard let output = self else { return }
            output.recovery.async { output.lose(connection) }
        }
    }

    /// The server went away: the silent stand-in takes over the source at once, continuing
    /// the clock from the latency the server last measured, and reconnection starts.
    private func lose(_ connection: PulseStream) {
        lock.lock()
        guard stream === connection, let opened else {
            lock.unlock()
            return
        }
        pastUnderruns += connection.underruns.load(ordering: .relaxed)
        stream = nil
        // The dead connection renders nothing more; closing it stops its main loop.
        connection.close()
        let silent = ClockDrivenAudioOutput(
            clock: SystemHostClock.shared, name: "pulse (server away)", outputLatency: connection.latency)
        _ = try? silent.open(format: opened.format, source: opened.source)
        if running { silent.start() }
        standIn = silent
        lock.unlock()
        losses.add(1, ordering: .relaxed)
        notice?(.wentAway)
        scheduleReconnect()
    }

    /// Tries the server again after `reconnectInterval`, and again until it answers or the
    /// output is closed.
    private func scheduleReconnect() {
        recovery.asyncAfter(deadline: .now() + Self.reconnectInterval) { [weak self] in
            guard let self else { return }
            guard let opened = self.lock.withLock({ self.standIn != nil ? self.opened : nil }) else { return }
            guard let connection = try? self.connect(format: opened.format, source: opened.source) else {
                self.scheduleReconnect()
                return
            }
            // The stand-in keeps time until the server shows it plays: it asked for more
            // after its first fill of silence.
            connection.startWarmUp()
            let deadline = Date().addingTimeInterval(5)
            while connection.warmUpRequests.load(ordering: .relaxed) < 2, !connection.lost.load(ordering: .relaxed),
                Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.01)
            }
            guard connection.warmUpRequests.load(ordering: .relaxed) >= 2 else {
                connection.close()
                self.scheduleReconnect()
                return
            }
            self.lock.lock()
            guard let silent = self.standIn, self.opened != nil else {
                self.lock.unlock()
                connection.close()
                return
            }
            // The stand-in stops before the connection starts: one consumer at a time.
            silent.stop()
            self.standIn = nil
            self.stream = connection
            connection.endWarmUp(running: self.running)
            self.lock.unlock()
            silent.close()
            self.notice?(.cameBack)
        }
    }
}


/// What a sound-server output tells its owner about the server.
package enum SoundServerNews: Sendable, Equatable, CustomStringConvertible {
    /// The server went away: playback goes on, silently, and reconnection is being tried.
    case wentAway
    /// The server answered again and sound resumed.
    case cameBack

    /// The one line a program prints about it.
    package var description: String {
        switch self {
        case .wentAway: "the sound server went away; playing on without sound until it is back"
        case .cameBack: "the sound server is back"
        }
    }
}
