// Playhead: Playhead's own HLS loader on streams whose bytes need more than one container:
// fragmented MP4 (`EXT-X-MAP`), whose initialisation section is fetched once per map and fed
// before the media segments and again at a switch between variants, and a playlist of two
// separately encoded pieces joined by `EXT-X-DISCONTINUITY`, whose timestamps start again at
// the join. Every picture is compared with a decode of the variant's own files.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct SectionedStreamingTests {
    /// Milliseconds of a time, for comparing timestamps exactly.
    func millis(_ time: CMTime) -> Int { Int((time.seconds * 1000).rounded()) }

    /// Every picture of `files` (read in order as one stream from a local file), by presentation
    /// time in milliseconds: its checksum.
    func referencePictures(_ files: [URL]) throws -> [Int: UInt64] {
        let joined = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-ref-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: joined) }
        var bytes = Data()
        for file in files { bytes += try Data(contentsOf: file) }
        try bytes.write(to: joined)
        let demuxer = try Demuxer(location: try MediaLocation(url: joined))
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index)
        demuxer.setActiveStreams([index])
        var pictures: [Int: UInt64] = [:]
        func take() {
            while let frame = decoder.receiveFrame().frame { pictures[millis(frame.pts)] = frame.checksum() }
        }
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull { take() }
            take()
        }
        decoder.sendEndOfStream()
        take()
        return pictures
    }

    /// Plays `ladder/master.m3u8` from `server` untimed to its end on the lowest variant (a
    /// peak of 300 kbit/s); the player still holds the item.
    func playLowestToEnd(_ server: LoopbackHTTPServer) async -> (AVPlayerItem, AVPlayer, RecordingVideoSink) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        return (item, player, sink)
    }

    /// The variant names of the media segments the server served, in order.
    private func segmentVariants(_ server: LoopbackHTTPServer, suffix: String) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix(suffix) }
            .map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" }
    }

    // Switches follow a throttled link: this runs in the serial pass, one test at a time.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aFragmentedMP4LadderPlaysEveryPictureOfItsVariantsAcrossSwitchesOverAShapedLink() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        let playlist = try String(contentsOf: folder.appendingPathComponent("ladder/low/index.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""), "the fixture is fragmented MP4")
        let segments = Int(AdaptiveMedia.fragmentedDuration)
        var references: [Int: [Int: UInt64]] = [:]
        for variant in AdaptiveMedia.variants.prefix(2) {
            let directory = folder.appendingPathComponent("ladder/\(variant.name)")
            references[variant.width] = try referencePictures(
                [directory.appendingPathComponent("init.mp4")]
                    + (0..<segments).map { directory.appendingPathComponent("seg\($0).m4s") })
        }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // 4 Mbit/s: far above the middle variant, so the loader climbs as soon as it may.
        server.bytesPerSecond = 500_000
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredForwardBufferDuration = 2
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the middle variant") { segmentVariants(server, suffix: ".m4s").contains("mid") }
        item.preferredPeakBitRate = 300_000  // down to the lowest variant at once
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let variants = segmentVariants(server, suffix: ".m4s")
        #expect(variants.first == "low" && variants.contains("mid") && variants.last == "low", "\(variants)")
        // Each variant's initialisation section is fetched once, however often it is fed.
        for name in ["low", "mid"] {
            #expect(server.requests.filter { $0.path == "/ladder/\(name)/init.mp4" }.count == 1, "\(name)/init.mp4")
        }
        // Every picture once, 40 ms apart, each the very picture the variant's own files decode to
        // at that time; the size changes on whole seconds (segment boundaries).
        let frames = sink.frames
        #expect(frames.count == segments * 25, "\(frames.count) pictures")
        let steps = zip(frames, frames.dropFirst()).map { millis($1.pts) - millis($0.pts) }
        #expect(steps.allSatisfy { $0 == 40 }, "no gap and no repeat")
        let mismatched = frames.filter { references[$0.frame.width]?[millis($0.pts)] != $0.frame.checksum() }
        #expect(mismatched.isEmpty, "\(mismatched.count) pictures differ, first at \(mismatched.first.map { millis($0.pts) } ?? -1) ms")
        let first = frames.first.map { millis($0.pts) } ?? 0
        let changes = zip(frames, frames.dropFirst()).filter { $0.frame.width != $1.frame.width }
            .map { millis($1.pts) - first }
        #expect(changes.count >= 2 && changes.allSatisfy { $0 % 1000 == 0 }, "switches on segment boundaries: \(changes)")
        #expect(item.errorLog()?.events.isEmpty == true)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aFragmentedMP4SeekFeedsTheInitialisationSectionAgain() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredForwardBufferDuration = 1
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.duration.seconds == AdaptiveMedia.fragmentedDuration, "the playlist gives the length")
        let target = CMTime(seconds: 4.5, preferredTimescale: 1000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs(player.currentTime().seconds - 4.5) < 0.01)
        sink.reset()
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let times = sink.frames.map { millis($0.itemTime) }
        #expect(times.count >= 36 && times.count <= 40, "1.5 s of pictures after the seek: \(times.count)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        #expect(server.requests.contains { $0.path == "/ladder/low/seg4.m4s" })
        #expect(server.requests.filter { $0.path == "/ladder/low/init.mp4" }.count == 1, "kept, not fetched again")
        player.replaceCurrentItem(with: nil)
    }

    @Test func byteRangesNameTheInitialisationSectionAndTheSegmentsOfOneFile() async throws {
        let folder = try AdaptiveMedia.singleFileFolder()
        let playlist = try String(contentsOf: folder.appendingPathComponent("ladder/low/index.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-MAP:URI=\"all.mp4\",BYTERANGE="), "the fixture names its map by range")
        let reference = try referencePictures([folder.appendingPathComponent("ladder/low/all.mp4")])
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, player, sink) = await playLowestToEnd(server)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let frames = sink.frames
        #expect(frames.count == 75, "\(frames.count) pictures")
        #expect(frames.allSatisfy { reference[millis($0.pts)] == $0.frame.checksum() }, "the file's own pictures")
        // The initialisation section once, then each segment: four ranges of the one file.
        let ranges = server.requests.filter { $0.path == "/ladder/low/all.mp4" }.map(\.range)
        #expect(ranges.count == 4 && ranges.allSatisfy { $0?.hasPrefix("bytes=") == true }, "\(ranges)")
        #expect(ranges.first == "bytes=0-\(Self.mapLength(playlist) - 1)")
        player.replaceCurrentItem(with: nil)
    }

    /// A server that does not do ranges (Python's `http.server`, some misconfigured origins)
    /// answers each request with the whole file: the loader cuts each range from it, so every
    /// picture still plays once (before, each segment was the whole file again).
    @Test func byteRangesFromAServerThatIgnoresRangesAreCutFromTheWholeFile() async throws {
        let folder = try AdaptiveMedia.singleFileFolder()
        let file = folder.appendingPathComponent("ladder/low/all.mp4")
        let reference = try referencePictures([file])
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        server.setRule(.ignoringRanges(try Data(contentsOf: file), contentType: "video/mp4"), for: "/ladder/low/all.mp4")
        let (item, player, sink) = await playLowestToEnd(server)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let frames = sink.frames
        #expect(frames.count == 75, "\(frames.count) pictures")
        #expect(frames.allSatisfy { reference[millis($0.pts)] == $0.frame.checksum() }, "the file's own pictures")
        player.replaceCurrentItem(with: nil)
    }

    /// The length in the playlist's `EXT-X-MAP` `BYTERANGE`.
    private static func mapLength(_ playlist: String) -> Int {
        let line = playlist.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MAP:") } ?? ""
        let value = line.split(separator: "BYTERANGE=\"").last?.prefix { $0.isNumber } ?? ""
        return Int(value) ?? -1
    }

    /// The fragmented ladder's `low` playlist with its last three segments after a second
    /// `EXT-X-MAP` naming `map` and taken from `variant`.
    private func serveMapChange(to map: String, segmentsOf variant: String, on server: LoopbackHTTPServer) {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:1", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-MAP:URI=\"init.mp4\""]
        for index in 0..<3 { lines += ["#EXTINF:1.000000,", "seg\(index).m4s"] }
        lines.append("#EXT-X-MAP:URI=\"\(map)\"")
        for index in 3..<6 { lines += ["#EXTINF:1.000000,", "../\(variant)/seg\(index).m4s"] }
        lines.append("#EXT-X-ENDLIST")
        server.setRule(
            .content(Data((lines.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
            for: "/ladder/low/index.m3u8")
    }

    @Test func aNewMapIsFedAtItsFirstSegment() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        var references: [Int: [Int: UInt64]] = [:]
        for variant in AdaptiveMedia.variants.prefix(2) {
            let directory = folder.appendingPathComponent("ladder/\(variant.name)")
            references[variant.width] = try referencePictures(
                [directory.appendingPathComponent("init.mp4")]
                    + (0..<6).map { directory.appendingPathComponent("seg\($0).m4s") })
        }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        serveMapChange(to: "../mid/init.mp4", segmentsOf: "mid", on: server)
        // The low playlist only.
        let (_, player, sink) = await playLowestToEnd(server)
        let frames = sink.frames
        #expect(frames.count == 150, "\(frames.count) pictures")
        #expect(frames.prefix(75).allSatisfy { $0.frame.width == 160 } && frames.suffix(75).allSatisfy { $0.frame.width == 320 })
        #expect(frames.allSatisfy { references[$0.frame.width]?[millis($0.pts)] == $0.frame.checksum() }, "the maps' own pictures")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { millis($1.pts) - millis($0.pts) == 40 })
        #expect(server.requests.filter { $0.path == "/ladder/mid/init.mp4" }.count == 1)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aMapThatNamesALocalFileIsRefusedAndItsSegmentsSkipped() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        serveMapChange(to: "file:///etc/passwd", segmentsOf: "low", on: server)
        let (item, player, sink) = await playLowestToEnd(server)
        #expect(sink.count == 75, "the three segments before the refused map: \(sink.count)")
        let events = item.errorLog()?.events ?? []
        #expect(!events.isEmpty && events.allSatisfy { $0.uri == "file:///etc/passwd" && $0.errorComment?.contains("refused") == true })
        #expect(!server.requests.contains { $0.path.hasSuffix("/seg3.m4s") }, "no segment without its map")
        #expect(item.status == .readyToPlay)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aDiscontinuityKeepsTheItemTimeContinuousAcrossTheJoin() async throws {
        let folder = try AdaptiveMedia.discontinuityFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // One variant: the pieces are told apart by picture.
        let (item, player, sink) = await playLowestToEnd(server)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let total = 2 * AdaptiveMedia.pieceDuration
        #expect(item.duration.seconds == total, "the playlist gives the length")
        let frames = sink.frames
        #expect(frames.count == Int(total * 25), "\(frames.count) pictures")
        let times = frames.map { millis($0.itemTime) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no jump in item time: \(times)")
        // The second piece's first picture shows at the first piece's end, and is the picture
        // its own first segment decodes to.
        let piece = Int(AdaptiveMedia.pieceDuration * 1000)
        let join = try #require(frames.firstIndex { millis($0.itemTime) - times[0] >= piece })
        #expect(millis(frames[join].itemTime) - times[0] == piece)
        let directory = folder.appendingPathComponent("ladder/low")
        let a = try referencePictures([directory.appendingPathComponent("a/seg0.ts")])
        let b = try referencePictures([directory.appendingPathComponent("b/seg0.ts")])
        #expect(frames[join].frame.checksum() == b[b.keys.min() ?? 0], "the second piece starts at the join")
        #expect(frames[0].frame.checksum() == a[a.keys.min() ?? 0])
        #expect(item.stallCount == 0)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aSeekIntoTheSecondPieceLandsOnItsPlaylistTime() async throws {
        let folder = try AdaptiveMedia.discontinuityFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredForwardBufferDuration = 1
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let target = CMTime(seconds: 4.52, preferredTimescale: 1000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs(player.currentTime().seconds - 4.52) < 0.01)
        #expect(abs((sink.last?.itemTime.seconds ?? -1) - 4.52) < 0.05)
        sink.reset()
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let times = sink.frames.map { millis($0.itemTime) }
        #expect(times.count >= 34 && times.count <= 38, "1.5 s of pictures after the seek: \(times.count)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        #expect((times.last ?? 0) > 5900 && (times.last ?? 0) < 6100)
        player.replaceCurrentItem(with: nil)
    }
}
