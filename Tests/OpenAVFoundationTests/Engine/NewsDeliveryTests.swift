// Playhead: the engine's news reaches the player on the main queue in the order it was
// decided, a burst in one main-queue hop.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NewsDeliveryTests {
    @Test func aBurstOfNewsArrivesInOrderInOneMainQueueHopWithRestatementsCoalesced() async {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/scripted/news.mp4"))
        let settings = ItemPlayback.Settings(item: AVPlayerItem(asset: asset), criteria: SelectionCriteriaSnapshot())
        let received = Locked<[String]>([])
        let onMain = Locked(true)
        let engine = ItemPlayback(asset: asset, settings: settings, environment: PlaybackEnvironment()) { _, event in
            if !MainQueue.isCurrent { onMain.withLock { $0 = false } }
            if case .timeAdvanced(let time, _) = event { received.withLock { $0.append("time \(time.seconds)") } }
            if case .reachedEnd = event { received.withLock { $0.append("end") } }
            if case .buffer(let report) = event { received.withLock { $0.append("buffer \(report.loadedRanges.count)") } }
        }
        // Queued while the main queue is busy (this test runs on it and does not yield until
        // all six are queued): the first piece schedules the hop, the rest ride along. Even
        // queued on the main queue, nothing is handled inline.
        // Restatements (time of one generation, buffer reports) in a row collapse to the latest;
        // a new generation's time or other news in between keeps both.
        func time(_ seconds: Int, _ generation: Int) -> PlaybackEvent {
            .timeAdvanced(CMTime(value: CMTimeValue(seconds), timescale: 1), generation: generation)
        }
        // Loaded ranges that grew are kept step by step; flags over the same ranges are not.
        func buffer(_ ranges: Int, full: Bool = false) -> PlaybackEvent {
            let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
            var flags = PlaybackStateMachine.Buffer()
            flags.isFull = full
            return .buffer(BufferReport(flags: flags, loadedRanges: Array(repeating: range, count: ranges)))
        }
        let burst: [PlaybackEvent] = [
            time(1, 0), time(2, 0), time(3, 0), time(4, 1), time(5, 1), buffer(1), buffer(1, full: true),
            buffer(2), .reachedEnd, time(6, 1),
        ]
        for event in burst { engine.send(event) }
        #expect(received.withLock { $0 }.isEmpty, "nothing is delivered inline")
        await waitUntil("delivered") { received.withLock { $0.count } == 6 }
        #expect(received.withLock { $0 } == ["time 3.0", "time 5.0", "buffer 1", "buffer 2", "end", "time 6.0"])
        #expect(onMain.withLock { $0 })
        let delivery = engine.newsDelivery
        #expect(delivery.queued == 10 && delivery.coalesced == 4 && delivery.hops == 1)
    }
}
