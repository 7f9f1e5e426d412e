// Playhead: times the demux and decode phases of opening an input with FFmpegBridge directly.
//
// Concurrency: synchronous and single-threaded; run it off the main actor.
import FFmpegBridge
import Foundation

/// Milliseconds from the start of opening an input to the end of each startup phase.
struct StartupPhases: Equatable {
    /// `avformat_open_input` done.
    var open: Double
    /// `avformat_find_stream_info` done.
    var streamInfo: Double
    /// The first packet of the chosen stream read.
    var firstPacket: Double
    /// Its decoder opened and the first frame decoded.
    var firstFrame: Double

    /// Seconds each blocking FFmpeg phase may take.
    static let timeout = 15.0

    /// Measures one startup of `url`.
    ///
    /// `Demuxer.init` opens and reads stream info in one step, so the split comes from two
    /// opens: a `FormatContext` plus `findStreamInfo` times open and stream info; a `Demuxer`
    /// then times first packet and first frame after its own init, and those deltas are added to
    /// the stream-info mark. The stream is the best video stream, else the best audio stream.
    ///
    /// - Throws: `MediaFailure` when the input cannot be opened or decoded.
    static func measure(url: URL) throws(MediaFailure) -> StartupPhases {
        let location = try MediaLocation(url: url)
        let start = BenchClock.now()
        let opened: ContinuousClock.Instant
        let described: ContinuousClock.Instant
        do {
            let container = try FormatContext(location: location, timeout: timeout)
            opened = BenchClock.now()
            container.findStreamInfo(timeout: timeout)
            described = BenchClock.now()
        }

        let demuxer = try Demuxer(location: location, timeout: timeout)
        let demuxerReady = BenchClock.now()
        let decoder = try FirstFrameDecoder(demuxer: demuxer)
        let packet = try decoder.readPacket()
        let packetRead = BenchClock.now()
        try decoder.decodeFirstFrame(startingWith: packet)
        let decoded = BenchClock.now()

        let streamInfo = BenchClock.milliseconds(from: start, to: described)
        return StartupPhases(
            open: BenchClock.milliseconds(from: start, to: opened),
            streamInfo: streamInfo,
            firstPacket: streamInfo + BenchClock.milliseconds(from: demuxerReady, to: packetRead),
            firstFrame: streamInfo + BenchClock.milliseconds(from: demuxerReady, to: decoded))
    }
}

/// Reads one stream of a demuxer and decodes until its first frame, video or audio alike.
private struct FirstFrameDecoder {
    let demuxer: Demuxer
    let streamIndex: Int
    let kind: StreamKind

    init(demuxer: Demuxer) throws(MediaFailure) {
        self.demuxer = demuxer
        if let video = demuxer.bestStream(of: .video) {
            (streamIndex, kind) = (video, .video)
        } else if let audio = demuxer.bestStream(of: .audio) {
            (streamIndex, kind) = (audio, .audio)
        } else {
            throw .noAudioOrVideo
        }
        demuxer.setActiveStreams([streamIndex])
    }

    /// The first packet of the stream.
    func readPacket() throws(MediaFailure) -> Packet {
        switch demuxer.readPacket() {
        case .packet(let packet): return packet
        case .endOfFile: throw .damaged(detail: "no packets")
        case .failure(let failure): throw failure
        }
    }

    /// Opens the decoder (the engine's default threading) and feeds it packets from `first` on
    /// until it returns a frame.
    func decodeFirstFrame(startingWith first: Packet) throws(MediaFailure) {
        let send: (Packet?) -> DecodeStatus
        let receive: () -> DecodeResult<Void>
        switch kind {
        case .video:
            let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: streamIndex)
            send = { $0.map(decoder.send) ?? decoder.sendEndOfStream() }
            receive = { Self.discardingFrame(decoder.receiveFrame()) }
        default:
            let decoder = try AudioDecoder(demuxer: demuxer, streamIndex: streamIndex)
            send = { $0.map(decoder.send) ?? decoder.sendEndOfStream() }
            receive = { Self.discardingFrame(decoder.receiveFrame()) }
        }
        var next: Packet? = first
        var ended = false
        while true {
            var advance = false
            if !ended {
                let status = send(next)
                if case .failure(let error) = status { throw .damaged(detail: error.description) }
                ended = next == nil
                advance = status != .outputFull && !ended
            }
            switch receive() {
            case .frame: return
            case .needsInput where !ended: break
            case .needsInput, .endOfStream: throw .damaged(detail: "no frame decoded")
            case .failure(let error): throw .damaged(detail: error.description)
            }
            guard advance else { continue }
            switch demuxer.readPacket() {
            case .packet(let packet): next = packet
            case .endOfFile: next = nil
            case .failure(let failure): throw failure
            }
        }
    }

    private static func discardingFrame<Frame>(_ result: DecodeResult<Frame>) -> DecodeResult<Void>
    {
        switch result {
        case .frame: return .frame(())
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        case .failure(let error): return .failure(error)
        }
    }
}
