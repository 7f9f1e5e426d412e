// Playhead: an item stopped while a decoder's output is full lets go of its decode threads.
// A decoder that says "output full" until its frames are taken stays full once the item
// stops taking frames; the audio and video threads used to go on sending the same packet to
// it forever (a released item's audio thread was once found spinning so). Stand-in decoders
// that stay busy until frames are received, on a manual clock: nothing depends on speed.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct StoppedDecodeTests {
    /// How a stand-in decoder behaves: it takes its first packet, then stays busy (output
    /// full, no frame ready yet), as a decoder still making frames that are never let out.
    final class BusyState: @unchecked Sendable {
        private let lock = NSLock()
        private var sent = 0

        /// How many times a packet was handed over (accepted or refused as full).
        var sends: Int { lock.withLock { sent } }

        /// Counts a send; true when the decoder takes the packet (only the first).
        func send() -> Bool {
            lock.withLock {
                sent += 1
                return sent == 1
            }
        }
    }

    final class BusyAudioDecoder: AudioDecoding, @unchecked Sendable {
        let streamIndex: Int
        let state: BusyState
        init(streamIndex: Int, state: BusyState) {
            self.streamIndex = streamIndex
            self.state = state
        }
        func send(_ packet: Packet) -> DecodeStatus { state.send() ? .accepted : .outputFull }
        func sendEndOfStream() -> DecodeStatus { .outputFull }
        func receiveFrame() -> DecodeResult<AudioFrame> { .needsInput }
        func flush() {}
    }

    final class BusyVideoDecoder: VideoDecoding, @unchecked Sendable {
        let state: BusyState
        init(state: BusyState) { self.state = state }
        var skipsNonReferenceFrames = false
        func previewFrame(of packet: Packet) -> VideoFrame? { nil }
        func send(_ packet: Packet) -> DecodeStatus { state.send() ? .accepted : .outputFull }
        func sendEndOfStream() -> DecodeStatus { .outputFull }
        func receiveFrame() -> DecodeResult<VideoFrame> { .needsInput }
        func flush() {}
    }

    /// Starts an engine on scripted media whose audio or video decoder stays busy, waits until
    /// its thread keeps offering a packet to the full decoder, stops the engine and reports
    /// whether the thread let go of the decoder (the decoder is released with its thread).
    private func decoderReleasedAfterStop(busyAudio: Bool) async -> (busyBeforeStop: Bool, released: Bool) {
        let script = MediaScript(duration: 2)
        let state = BusyState()
        weak var released: AnyObject?
        let engine: ItemPlayback
        do {
            let clock = ManualClock()
            let asset = AVURLAsset(url: URL(fileURLWithPath: "/scripted/media.mp4"))
            let settings = ItemPlayback.Settings(
                item: AVPlayerItem(asset: asset), criteria: SelectionCriteriaSnapshot())
            engine = ItemPlayback(
                asset: asset, settings: settings,
                environment: timedEnvironment(RecordingVideoSink(), clock: clock, audio: true)
            ) { _, _ in }
            let audio: any AudioDecoding =
                busyAudio
                ? BusyAudioDecoder(streamIndex: script.audioStream!, state: state)
                : ScriptedAudioDecoder(streamIndex: script.audioStream!, sampleRate: script.sampleRate)
            let video: any VideoDecoding = busyAudio ? ScriptedVideoDecoder() : BusyVideoDecoder(state: state)
            released = busyAudio ? audio as AnyObject : video as AnyObject
            engine.start(
                scripted: WorkerParts(
                    description: script.description, source: ScriptedPacketSource(script),
                    video: (script.videoStream!, video), audio: audio))
        }
        // A second send refused as full: the thread now goes round taking frames and sending.
        let busy = await eventually { state.sends >= 3 }
        engine.stop()
        let gone = await eventually { released == nil }
        return (busy, gone)
    }

    @Test func anItemStoppedWhileItsAudioDecoderIsFullLetsGoOfIt() async {
        let outcome = await decoderReleasedAfterStop(busyAudio: true)
        #expect(outcome.busyBeforeStop, "the audio thread met a full decoder")
        #expect(outcome.released, "the audio thread ended after the stop instead of sending on")
    }

    @Test func anItemStoppedWhileItsVideoDecoderIsFullLetsGoOfIt() async {
        let outcome = await decoderReleasedAfterStop(busyAudio: false)
        #expect(outcome.busyBeforeStop, "the video thread met a full decoder")
        #expect(outcome.released, "the video thread ended after the stop instead of sending on")
    }
}
