// Playhead: helpers for network playback tests: a server over the generated streaming media,
// and playing a URL to its end.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// A loopback server for `NetworkMedia.folder()`.
func networkMediaServer() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer(root: try NetworkMedia.folder())
}

/// The progressive MP4 of `server`, which stops sending at 55 % of the file until
/// `releaseHolds()`, with a read time-out long enough that a loaded machine never turns the
/// hold into a failure.
func heldProgressiveAsset(on server: LoopbackHTTPServer) throws -> AVURLAsset {
    let size = try Data(contentsOf: NetworkMedia.folder().appendingPathComponent("progressive.mp4")).count
    server.setRule(.hold(atByte: size * 55 / 100), for: "/progressive.mp4")
    return AVURLAsset(url: server.url(for: "progressive.mp4"), options: [AVURLAssetPlayheadTimeoutKey: 600])
}

/// What playing an item untimed to its end (or failure) produced.
@MainActor
struct NetworkPlayback {
    let item: AVPlayerItem
    let player: AVPlayer
    let sink: RecordingVideoSink
    let log: NotificationLog

    var reachedEnd: Bool { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
    var failedToEnd: Bool { log.count(AVPlayerItem.failedToPlayToEndTimeNotification) == 1 }
    /// Presented frame times in seconds.
    var frameTimes: [Double] { sink.frames.map(\.pts.seconds) }
}

/// Plays `asset` untimed (its sound too, when `audio`) until it ends or fails, then releases
/// the player's item.
@MainActor
func playUntimed(_ asset: AVAsset, audio: Bool = false, timeout: Double = 30) async -> NetworkPlayback {
    let sink = RecordingVideoSink()
    let item = AVPlayerItem(asset: asset)
    let player = AVPlayer(environment: untimedEnvironment(sink, audio: audio), playerItem: item)
    let log = NotificationLog(
        [AVPlayerItem.didPlayToEndTimeNotification, AVPlayerItem.failedToPlayToEndTimeNotification,
         AVPlayerItem.playbackStalledNotification], object: item)
    player.play()
    await waitUntil(timeout: timeout, "end or failure of \(asset)") {
        log.count(AVPlayerItem.didPlayToEndTimeNotification) > 0 || item.status == .failed
    }
    player.replaceCurrentItem(with: nil)
    return NetworkPlayback(item: item, player: player, sink: sink, log: log)
}
