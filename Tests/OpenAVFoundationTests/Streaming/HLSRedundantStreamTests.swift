// Playhead: redundant variant streams (a variant listed again with the same attributes, its
// backup on another server). The loader adapts over one variant and, when the variant's
// server refuses a segment or its playlist, goes on from the backup: every picture plays
// once, and the refusal is in the error log.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSRedundantStreamTests {
    /// The ladder's `low` variant listed twice: `primary/low.m3u8` (served by a rule) and its
    /// backup, the fixture's own `low/index.m3u8`.
    private func serveRedundantLow(on server: LoopbackHTTPServer) {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
            primary/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
            low/index.m3u8
            """
        server.setRule(
            .content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/redundant.m3u8")
    }

    private func play(_ server: LoopbackHTTPServer) async -> (AVPlayerItem, [Int]) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/redundant.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        let times = sink.distinctMillis()
        return (item, times)
    }

    @Test func aSegmentItsServerRefusesIsFetchedFromTheBackupAndPlaybackGoesOnThere() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        serveRedundantLow(on: server)
        // The primary's first four segments are the fixture's; from the fifth on its server
        // has none (404).
        let text = try String(contentsOf: folder.appendingPathComponent("ladder/low/index.m3u8"), encoding: .utf8)
        var primary = text
        for index in 0..<Int(AdaptiveMedia.duration) {
            primary = primary.replacingOccurrences(
                of: "\nseg\(index).ts\n", with: index < 4 ? "\n../low/seg\(index).ts\n" : "\ngone/seg\(index).ts\n")
        }
        server.setRule(
            .content(Data(primary.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/primary/low.m3u8")
        let (item, times) = await play(server)

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        // The fifth segment asked once of the primary, then of the backup, which serves the
        // rest: every segment's media fetched once, in order (the primary's first four are the
        // same files).
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0.hasPrefix("/ladder/primary/gone/") } == ["/ladder/primary/gone/seg4.ts"], "\(paths)")
        #expect(paths.contains("/ladder/low/index.m3u8"), "the backup's playlist was read")
        let media = paths.filter { $0.hasPrefix("/ladder/low/seg") }
        #expect(media == (0..<Int(AdaptiveMedia.duration)).map { "/ladder/low/seg\($0).ts" }, "\(media)")
        let errors = item.errorLog()?.events ?? []
        #expect(errors.count == 1 && errors.first?.errorStatusCode == 404, "\(errors.map(\.errorComment))")
        #expect(item.asset is AVURLAsset)
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveVariantWhosePlaylistStopsLoadingGoesOnFromItsBackupInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 6, backups: true)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        live.grow(every: 1, ending: true)
        // Two reloads' worth in, the primary server goes down for good.
        await waitUntil(timeout: 10, "two more segments") { live.count >= 8 }
        live.takePrimaryDown()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        // Every picture from the start segment (three target durations from the edge, seg3)
        // to the last, once: the reloads went on from the backup.
        let times = sink.distinctMillis()
        #expect(times.count == 9 * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        let paths = server.requests.map(\.path)
        let backupReloads = paths.filter { $0.hasPrefix("/backup/") && $0.hasSuffix("/index.m3u8") }
        #expect(backupReloads.count >= 3, "the backup's playlist was reloaded: \(paths)")
        let errors = item.errorLog()?.events ?? []
        #expect(!errors.isEmpty && errors.allSatisfy { $0.errorStatusCode == 404 && ($0.uri ?? "").contains("/live/") },
                "\(errors.map { ($0.errorStatusCode, $0.uri ?? "") })")
    }

    @Test func aVariantWhosePlaylistCannotBeReadOpensFromItsBackup() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        serveRedundantLow(on: server)
        // No rule for primary/low.m3u8: its server answers 404.
        let (item, times) = await play(server)

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.accessLog() != nil, "Playhead's loader streams it from the backup")
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        #expect(server.requests.map(\.path).filter { $0 == "/ladder/primary/low.m3u8" }.count == 1)
    }
}
