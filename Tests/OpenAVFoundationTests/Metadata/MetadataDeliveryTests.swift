// Playhead: when timed metadata groups are handed out as time moves (no threads, no media).
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct MetadataDeliveryTests {
    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    private func store(titlesAt starts: [Double]) -> TimedMetadataStore {
        let store = TimedMetadataStore(changed: WakeupSignal())
        for start in starts {
            let item = AVMutableMetadataItem()
            item.identifier = .icyMetadataStreamTitle
            item.value = "title at \(start)" as NSString
            store.add([item], at: seconds(start))
        }
        return store
    }

    private func titles(_ due: ([AVTimedMetadataGroup], flushed: Bool)?) -> [Double] {
        due?.0.map(\.timeRange.start.seconds) ?? []
    }

    @Test func eachGroupOnceAsTimePassesItEvenWhenTimeStepsBackALittle() {
        var delivery = MetadataDelivery(store: store(titlesAt: [0, 2]))
        #expect(titles(delivery.due(at: seconds(0.5), generation: 0)) == [0])
        // The clock hands over to an audio clock that trails it: no group again.
        #expect(delivery.due(at: seconds(0.45), generation: 0) == nil)
        #expect(delivery.due(at: seconds(1.0), generation: 0) == nil)
        #expect(titles(delivery.due(at: seconds(2.1), generation: 0)) == [2])
    }

    @Test func aSeekFlushesAndDeliversTheGroupInForceThere() {
        var delivery = MetadataDelivery(store: store(titlesAt: [0, 2]))
        _ = delivery.due(at: seconds(2.5), generation: 0)
        let due = delivery.due(at: seconds(0.5), generation: 1)
        #expect(due?.flushed == true)
        #expect(titles(due) == [0])
    }

    @Test func timeFarBackWithoutASeekDeliversAfresh() {
        var delivery = MetadataDelivery(store: store(titlesAt: [0, 2]))
        _ = delivery.due(at: seconds(2.5), generation: 0)
        #expect(titles(delivery.due(at: seconds(0.5), generation: 0)) == [0])
    }
}
