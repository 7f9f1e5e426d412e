// Playhead: an access-log event names its server from the start: one whose requests were all
// abandoned or cut (a switch with no completed segment) still reports the playlist's server,
// and a segment on another host (a CDN) is the server from then on, counted as no change.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct StreamingLogServerTests {
    private func variant(_ url: String) -> HLSVariant {
        HLSVariant(
            url: URL(string: url)!, bandwidth: 1_000, averageBandwidth: nil, width: nil, height: nil, codecs: nil,
            audioGroup: nil, subtitleGroup: nil)
    }

    @Test func anEventWithNoCompletedRequestNamesItsPlaylistsServer() {
        let log = StreamingLog()
        log.started(on: variant("http://127.0.0.1:8000/low.m3u8"), at: 0)
        log.segmentFetched(
            URL(string: "http://127.0.0.1:8000/low/0.ts")!, bytes: 1_000, seconds: 0.1, mediaSeconds: 1,
            from: variant("http://127.0.0.1:8000/low.m3u8"), estimate: 0)
        // A switch whose first segment was abandoned: no request completed in it.
        log.switched(to: variant("http://127.0.0.2:8000/high.m3u8"), estimate: 5_000)
        let events = log.accessRecords.map(AVPlayerItemAccessLogEvent.init)
        #expect(events.map(\.serverAddress) == ["127.0.0.1", "127.0.0.2"])
        #expect(events.map(\.numberOfServerAddressChanges) == [0, 0])
        // Its segments on another host are the server from then on, no change counted.
        log.segmentFetched(
            URL(string: "http://127.0.0.3:8000/high/1.ts")!, bytes: 1_000, seconds: 0.1, mediaSeconds: 1,
            from: variant("http://127.0.0.2:8000/high.m3u8"), estimate: 0)
        let later = log.accessRecords.map(AVPlayerItemAccessLogEvent.init)
        #expect(later.last?.serverAddress == "127.0.0.3" && later.last?.numberOfServerAddressChanges == 0)
    }
}
