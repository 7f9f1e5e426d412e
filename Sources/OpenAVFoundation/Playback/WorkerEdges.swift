// Playhead: the edges between the engine's workers and FFmpeg, as small protocols: where
// packets come from, and the video and audio decoders. The bridge's `Demuxer`, `VideoDecoder`
// and `AudioDecoder` are the real ones; PlayheadTestSupport has scripted stand-ins, so the
// whole engine runs on a `ManualClock` with no media at all.
//
// Concurrency: each conforming object is owned by the one worker it is handed to (the demux,
// video or audio thread; another audio track's decoder waits in the switchboard until the
// audio thread takes it), as the FFmpeg objects always were.
import FFmpegBridge
import Foundation

/// Where the demux thread reads packets from.
package protocol PacketSource: AnyObject {
    /// True for network input: what was read is kept for seeking back without new requests,
    /// and a read may stall.
    var isNetwork: Bool { get }
    /// The next packet of an active stream, the end, or why reading stopped.
    func readPacket() -> DemuxResult
    /// Moves reading to a keyframe between `earliest` and `latest`, as near `target` as it
    /// can; false when it could not.
    func seek(to target: CMTime, earliest: CMTime, latest: CMTime) -> Bool
    /// As `seek(to:earliest:latest:)`; with a `keyframe` step (of backward play or fast
    /// forward) a streamed input that can fetch the keyframe alone gives just it, then ends.
    func seek(to target: CMTime, earliest: CMTime, latest: CMTime, keyframe step: KeyframeStep?) -> Bool
    /// Moves reading to just before `point` to read on after a cut read (what was read
    /// before is dropped by the caller): no keyframe needs to come first.
    func seekToResume(at point: CMTime) -> Bool
    /// True when a loader of Playhead's streams the input (Playhead's HLS and DASH loader).
    var isStreamed: Bool { get }
    /// True when the input fetches keyframes alone (a VOD HLS stream with I-frame playlists):
    /// fast forward steps through them.
    var servesKeyframesAlone: Bool { get }
    /// True when a seek lands straight on any keyframe of stream `index` from the container's
    /// own index (a seekable input read straight: MP4, MOV, Matroska, AVI and others that
    /// index their keyframes); fast forward steps through them when the input is local.
    func seeksIndexedKeyframes(of index: Int) -> Bool
    /// The last Shoutcast/Icecast title the input carried (nil: none).
    var icyMetadataPacket: String? { get }
    /// A decoder for the subtitle stream `streamIndex`, or nil when it cannot be decoded.
    func makeSubtitleDecoder(streamIndex: Int) -> SubtitleDecoder?
    /// The container time at item time zero (what is subtracted from every timestamp read).
    var timelineStart: CMTime { get }
    /// The inputs loaded only while one of their streams plays (an HLS stream's audio
    /// renditions), by stream; none for most sources.
    var companionInputs: [Int: any StreamingInput] { get }
    /// Loads only the companion inputs holding a stream of `wanted`, a parked one starting
    /// again at `time`; true when one started again.
    @discardableResult
    func loadCompanions(holding wanted: Set<Int>, from time: CMTime) -> Bool
}

extension PacketSource {
    /// As `seek(to:earliest:latest:)` with `point` the latest.
    package func seekToResume(at point: CMTime) -> Bool {
        seek(to: point, earliest: .negativeInfinity, latest: point)
    }
    /// As `seek(to:earliest:latest:)`: no keyframe is fetched alone.
    package func seek(to target: CMTime, earliest: CMTime, latest: CMTime, keyframe step: KeyframeStep?) -> Bool {
        seek(to: target, earliest: earliest, latest: latest)
    }
    /// Not streamed.
    package var isStreamed: Bool { false }
    /// Timestamps as the container has them.
    package var timelineStart: CMTime { .zero }
    /// Not streamed: no keyframe is fetched alone.
    package var servesKeyframesAlone: Bool { false }
    /// No index to step through.
    package func seeksIndexedKeyframes(of index: Int) -> Bool { false }
    /// None: every stream comes from one input.
    package var companionInputs: [Int: any StreamingInput] { [:] }
    /// Nothing to load.
    @discardableResult
    package func loadCompanions(holding wanted: Set<Int>, from time: CMTime) -> Bool { false }
}

/// What the video decode thread decodes with.
package protocol VideoDecoding: AnyObject {
    /// The first picture of `packet` decoded at once, ahead of the decoder's own output (the
    /// first frame after opening), or nil.
    func previewFrame(of packet: Packet) -> VideoFrame?
    /// Hands `packet` to the decoder.
    func send(_ packet: Packet) -> DecodeStatus
    /// Tells the decoder no more packets come, so it lets out what it holds.
    func sendEndOfStream() -> DecodeStatus
    /// The next decoded picture, or why there is none now.
    func receiveFrame() -> DecodeResult<VideoFrame>
    /// Drops everything in flight (a seek).
    func flush()
    /// True while pictures nothing refers to need not be decoded (before an exact target).
    var skipsNonReferenceFrames: Bool { get set }
}

/// What the audio thread decodes with (one per switchable audio track).
package protocol AudioDecoding: AnyObject {
    /// The audio stream this decoder decodes.
    var streamIndex: Int { get }
    /// Hands `packet` to the decoder.
    func send(_ packet: Packet) -> DecodeStatus
    /// Tells the decoder no more packets come.
    func sendEndOfStream() -> DecodeStatus
    /// The next block of decoded audio, or why there is none now.
    func receiveFrame() -> DecodeResult<AudioFrame>
    /// Drops everything in flight (a seek or a track switch).
    func flush()
}

extension Demuxer: PacketSource {
    /// True when a `StreamingInput` feeds it.
    package var isStreamed: Bool { streamingInput != nil }
    /// The streamed input's answer (false for any other).
    package var servesKeyframesAlone: Bool { streamingInput?.servesKeyframesAlone ?? false }
    /// True for a seekable input read straight (not streamed) whose container indexes stream
    /// `index`'s keyframes.
    package func seeksIndexedKeyframes(of index: Int) -> Bool {
        streamingInput == nil && isSeekable && hasKeyframeIndex(stream: index)
    }

    /// A subtitle decoder on this demuxer's stream `streamIndex`.
    package func makeSubtitleDecoder(streamIndex: Int) -> SubtitleDecoder? {
        try? SubtitleDecoder(demuxer: self, streamIndex: streamIndex)
    }
}

extension VideoDecoder: VideoDecoding {}

extension AudioDecoder: AudioDecoding {}
