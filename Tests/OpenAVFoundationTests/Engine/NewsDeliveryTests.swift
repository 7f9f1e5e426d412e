// Playhead: the engine's news reaches the player on the main queue in the order it was
// decided, a burst in one main-queue hop.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NewsDeliveryTests {
    @Test func aBurstOfNewsArrivesInOrderInOneMainQueueHop() async {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/scripted/news.mp4"))
        let settings = ItemPlayback.Settings(item: AVPlayerItem(asset: asset), criteria: SelectionCriteriaSnapshot())
        let received = Locked<[String]>([])
        let onMain = Locked(true)
        let engine = ItemPlayback(asset: asset, settings: settings, environment: PlaybackEnvironment()) { _, event in
            if !MainQueue.isCurrent { onMain.withLock { $0 = false } }
            if case .timeAdvanced(let time, _) = event { received.withLock { $0.append("time \(time.seconds)") } }
            if case .reachedEnd = event { received.withLock { $0.append("end") } }
        }
        // Queued while the main queue is busy (this test runs on it and does not yield until
        // all six are queued): the first piece schedules the hop, the rest ride along. Even
        // queued on the main queue, nothing is handled inline.
        for index in 1...5 {
            engine.send(.timeAdvanced(CMTime(seconds: Double(index), preferredTimescale: 1), generation: 0))
        }
        engine.send(.reachedEnd)
        #expect(received.withLock { $0 }.isEmpty, "nothing is delivered inline")
        await waitUntil("delivered") { received.withLock { $0.count } == 6 }
        #expect(received.withLock { $0 } == ["time 1.0", "time 2.0", "time 3.0", "time 4.0", "time 5.0", "end"])
        #expect(onMain.withLock { $0 })
        let delivery = engine.newsDelivery
        #expect(delivery.queued == 6 && delivery.hops == 1)
    }
}
