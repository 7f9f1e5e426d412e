// Playhead: stand-ins for the demuxer and the decoders, so engine tests run on a manual clock
// with no media file, no container and no codec: packets come from a script, each video
// packet decodes to one blank picture at its time, each audio packet to silence of its length.
//
// Concurrency: each stand-in is used by the one engine thread it is handed to; the counters
// and the stall switch tests read or flip from their own thread are behind a lock.
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// Scripted media: video frames at a fixed rate with a keyframe every so often, and audio in
/// blocks, interleaved in time order as a muxer would.
package struct MediaScript: Sendable {
    /// How long the media lasts, in seconds.
    package var duration: Double
    /// Video frames per second (0: no video).
    package var frameRate: Double
    /// Every this many video frames is a keyframe.
    package var keyframeInterval: Int
    /// Seconds of audio per packet (0: no audio).
    package var audioBlock: Double
    /// The audio's sample rate.
    package var sampleRate: Int

    /// A script of `duration` seconds: 25 fps video with a keyframe a second and 20 ms audio
    /// blocks at 48 kHz unless told otherwise.
    package init(
        duration: Double, frameRate: Double = 25, keyframeInterval: Int = 25, audioBlock: Double = 0.02,
        sampleRate: Int = 48_000
    ) {
        self.duration = duration
        self.frameRate = frameRate
        self.keyframeInterval = keyframeInterval
        self.audioBlock = audioBlock
        self.sampleRate = sampleRate
    }

    /// The video stream's index, when there is video.
    package var videoStream: Int? { frameRate > 0 ? 0 : nil }
    /// The audio stream's index, when there is audio.
    package var audioStream: Int? { audioBlock > 0 ? (frameRate > 0 ? 1 : 0) : nil }

    /// What a demuxer would say of this media.
    package var description: MediaDescription {
        MediaDescription.scripted(
            duration: CMTime(seconds: duration, preferredTimescale: 90_000),
            videoSize: frameRate > 0 ? (16, 16) : nil, audio: audioBlock > 0 ? (sampleRate, 2) : nil)
    }

    /// One packet of the script.
    struct Entry {
        let time: Double
        let length: Double
        let stream: Int
        let isKeyframe: Bool
    }

    /// Every packet, in the order a muxer interleaves them (by time; video first on a tie).
    var entries: [Entry] {
        var all: [Entry] = []
        if let video = videoStream {
            let count = Int((duration * frameRate).rounded())
            for index in 0..<count {
                all.append(
                    Entry(
                        time: Double(index) / frameRate, length: 1 / frameRate, stream: video,
                        isKeyframe: index % keyframeInterval == 0))
            }
        }
        if let audio = audioStream {
            let count = Int((duration / audioBlock).rounded())
            for index in 0..<count {
                all.append(Entry(time: Double(index) * audioBlock, length: audioBlock, stream: audio, isKeyframe: true))
            }
        }
        return all.sorted { ($0.time, $0.stream) < ($1.time, $1.stream) }
    }
}

/// Reads a `MediaScript` as a demuxer reads a file; can be made to stall mid-read.
package final class ScriptedPacketSource: PacketSource, @unchecked Sendable {
    private let entries: [MediaScript.Entry]
    private let videoStream: Int?
    /// protected by `lock`
    private var position = 0
    /// protected by `lock`: reads hang once this many packets were read, until `release()`
    private var stallAfter: Int?
    /// protected by `lock`: the targets of the seeks carried out so far
    private var seekTargets: [CMTime] = []
    /// protected by `lock`: packets read so far
    private var reads = 0
    private let lock = NSCondition()

    /// True to behave as network input.
    package let isNetwork: Bool

    /// A source reading `script`.
    package init(_ script: MediaScript, isNetwork: Bool = false) {
        entries = script.entries
        videoStream = script.videoStream
        self.isNetwork = isNetwork
    }

    /// Makes reads hang once `count` packets were read, until `release()`.
    package func stall(after count: Int) {
        lock.withLock { stallAfter = count }
    }

    /// Lets stalled reads go on.
    package func release() {
        lock.withLock {
            stallAfter = nil
            lock.broadcast()
        }
    }

    /// The targets of the seeks carried out so far.
    package var seeks: [CMTime] { lock.withLock { seekTargets } }

    /// How many packets were read so far.
    package var packetsRead: Int { lock.withLock { reads } }

    package func readPacket() -> DemuxResult {
        let entry: MediaScript.Entry? = lock.withLock {
            while let limit = stallAfter, reads >= limit { lock.wait() }
            guard position < entries.count else { return nil }
            defer { position += 1; reads += 1 }
            return entries[position]
        }
        guard let entry else { return .endOfFile }
        let ticks = { (seconds: Double) in Int64((seconds * 90_000).rounded()) }
        guard
            let packet = Packet(
                bytes: [0], streamIndex: entry.stream, pts: ticks(entry.time), isKeyframe: entry.isKeyframe,
                duration: ticks(entry.length))
        else { return .failure(.io(detail: "out of memory")) }
        return .packet(packet)
    }

    package func seek(to target: CMTime, earliest: CMTime, latest: CMTime) -> Bool {
        let seconds = target.seconds
        return lock.withLock {
            seekTargets.append(target)
            // From the last video keyframe at or before the target (or the target itself
            // without video), every stream's packets from that time on.
            let keyframe = entries.last { $0.stream == videoStream && $0.isKeyframe && $0.time <= seconds + 1e-9 }
            let start = videoStream == nil ? seconds : keyframe?.time ?? 0
            position = entries.firstIndex { $0.time >= start - 1e-9 } ?? entries.count
            return true
        }
    }

    package var icyMetadataPacket: String? { nil }

    package func makeSubtitleDecoder(streamIndex: Int) -> SubtitleDecoder? { nil }
}

/// What a scripted decoder has decoded but not handed out yet, and whether the end was sent.
struct PendingFrames<Frame> {
    private var waiting: [Frame] = []
    private var ended = false

    /// Adds a decoded frame.
    mutating func append(_ frame: Frame) { waiting.append(frame) }

    /// No more packets come: once the waiting frames are out, the decoder reports its end.
    mutating func end() -> DecodeStatus {
        ended = true
        return .accepted
    }

    /// The next frame, or what a decoder says when it has none.
    mutating func next() -> DecodeResult<Frame> {
        if !waiting.isEmpty { return .frame(waiting.removeFirst()) }
        return ended ? .endOfStream : .needsInput
    }

    /// Drops everything (a seek).
    mutating func flush() {
        waiting.removeAll()
        ended = false
    }
}

/// Decodes each video packet to one blank picture at the packet's time, in order.
package final class ScriptedVideoDecoder: VideoDecoding, @unchecked Sendable {
    private var pending = PendingFrames<VideoFrame>()
    /// protected by `lock`
    private var decoded = 0
    private let lock = NSLock()

    /// A decoder with nothing in flight.
    package init() {}

    /// How many pictures were decoded so far.
    package var picturesDecoded: Int { lock.withLock { decoded } }

    package var skipsNonReferenceFrames = false

    package func previewFrame(of packet: Packet) -> VideoFrame? { nil }

    package func send(_ packet: Packet) -> DecodeStatus {
        guard let frame = VideoFrame.blank(pts: packet.pts, duration: packet.duration) else {
            return .failure(.init(code: -12))
        }
        pending.append(frame)
        lock.withLock { decoded += 1 }
        return .accepted
    }

    package func sendEndOfStream() -> DecodeStatus { pending.end() }

    package func receiveFrame() -> DecodeResult<VideoFrame> { pending.next() }

    package func flush() { pending.flush() }
}

/// Decodes each audio packet to silence of the packet's length.
package final class ScriptedAudioDecoder: AudioDecoding, @unchecked Sendable {
    package let streamIndex: Int
    private let sampleRate: Int
    private var pending = PendingFrames<AudioFrame>()

    /// A decoder of the stream `streamIndex` at `sampleRate`.
    package init(streamIndex: Int, sampleRate: Int = 48_000) {
        self.streamIndex = streamIndex
        self.sampleRate = sampleRate
    }

    package func send(_ packet: Packet) -> DecodeStatus {
        let samples = Int((packet.duration.seconds * Double(sampleRate)).rounded())
        guard let frame = AudioFrame.silence(pts: packet.pts, sampleCount: samples, sampleRate: sampleRate, channels: 2)
        else { return .failure(.init(code: -12)) }
        pending.append(frame)
        return .accepted
    }

    package func sendEndOfStream() -> DecodeStatus { pending.end() }

    package func receiveFrame() -> DecodeResult<AudioFrame> { pending.next() }

    package func flush() { pending.flush() }
}
