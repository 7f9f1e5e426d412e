// Playhead: plays a live DASH manifest (`LiveDASHManifest`) from its live edge to the end its
// packager declares, for the live DASH tests.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// An item of the live manifest at `path` on `server` played untimed with sound: `opened`
/// runs once it is ready (before play), then the packager ends the 12 s event once its last
/// segment is whole. Returns the item and its distinct picture times in milliseconds.
@MainActor
func playLiveDASHToItsEnd(
    _ live: LiveDASHManifest, at path: String, on server: LoopbackHTTPServer, opened: (AVPlayerItem) -> Void = { _ in }
) async -> (AVPlayerItem, [Int]) {
    let sink = RecordingVideoSink()
    let item = AVPlayerItem(url: server.url(for: path))
    let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
    let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
    await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }
    opened(item)
    player.play()
    await waitUntil(timeout: 30, "the last segment") { Date().timeIntervalSince(live.availabilityStart) > 12.3 }
    live.end()
    await waitUntil(timeout: 30, "the end") {
        log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
    }
    player.replaceCurrentItem(with: nil)
    let times = sink.distinctMillis()
    return (item, times)
}
