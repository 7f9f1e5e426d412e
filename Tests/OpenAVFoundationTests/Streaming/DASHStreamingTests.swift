// Playhead: static DASH presentations streamed by Playhead's own loader (issue 17, deliverable
// 5): the video Representations are variants the same rule adapts over, the audio
// AdaptationSet an audio rendition read beside them, with the access log and the safety rules
// of the HLS path. Fixtures from FFmpeg's DASH muxer (`DASHMedia`).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct DASHStreamingTests {
    /// Plays `path` on `server` untimed to its end (or failure); returns the item and sink.
    private func play(
        _ path: String, on server: LoopbackHTTPServer, peak: Double = 0, audio: Bool = false
    ) async -> (AVPlayerItem, RecordingVideoSink) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: path))
        item.preferredPeakBitRate = peak
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: audio), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        return (item, sink)
    }

    /// Milliseconds of each distinct picture time, in order.
    private func pictureTimes(_ sink: RecordingVideoSink) -> [Int] {
        sink.distinctMillis()
    }

    @Test func aTemplatedLadderIsStreamedAndAdaptsWithEveryPictureOnce() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, sink) = await play("template/manifest.mpd", on: server, audio: true)

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let times = pictureTimes(sink)
        #expect(times.count == Int(DASHMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat across switches")
        // The audio AdaptationSet is read beside the video: every audio segment, once.
        let paths = server.requests.map(\.path)
        let audioChunks = paths.filter { $0.hasPrefix("/template/chunk-stream2-") }
        #expect(!audioChunks.isEmpty && Set(audioChunks).count == audioChunks.count, "\(audioChunks)")
        // Playhead's loader streamed it: the access log counts what the server served.
        let events = try #require(item.accessLog()?.events)
        // (Initialisation sections count as media requests, as in HLS.)
        let served = paths.filter { $0.hasPrefix("/template/chunk-") || $0.hasPrefix("/template/init-") }
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count, "\(events.map(\.numberOfMediaRequests))")
        #expect(events.first?.uri?.hasSuffix("manifest.mpd#representation=0") == true, "\(events.map(\.uri))")
        // The pictures shown last are the Representation the log says played last (on an idle
        // loopback the rule climbs to the larger one; a loaded machine may measure less).
        let lastRate = events.last?.indicatedBitrate ?? 0
        // (A variant's rate counts the 64 kbit/s sound that plays with it.)
        let lastWidth = DASHMedia.representations.first { Double($0.bitRate + 64_000) == lastRate }?.width
        #expect(lastWidth != nil && sink.frames.last?.frame.width == lastWidth, "\(lastRate)")
        #expect(item.errorLog()?.events.isEmpty == true)
    }

    @Test func aPeakBitRateKeepsTheSmallRepresentation() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, sink) = await play("template/manifest.mpd", on: server, peak: 300_000)

        #expect(item.status == .readyToPlay)
        #expect(pictureTimes(sink).count == Int(DASHMedia.duration) * 25)
        #expect(sink.frames.allSatisfy { $0.frame.width == 160 })
        #expect(!server.requests.contains { $0.path.hasPrefix("/template/chunk-stream1-") }, "the 800 kb/s one is never fetched")
    }

    @Test func aSegmentListIsReadAsByteRangesOfOneFile() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, sink) = await play("list/manifest.mpd", on: server)

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let times = pictureTimes(sink)
        #expect(times.count == Int(DASHMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        let ranged = server.requests.filter { $0.path.hasPrefix("/list/manifest-stream") && $0.range != nil }
        #expect(ranged.count >= Int(DASHMedia.duration), "one range request a segment: \(ranged.count)")
        #expect(item.accessLog() != nil)
    }

    @Test func anOnDemandPresentationIsReadThroughItsSegmentIndexes() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, sink) = await play("indexed/manifest.mpd", on: server, audio: true)

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let times = pictureTimes(sink)
        #expect(times.count == Int(DASHMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat across switches")
        // Each file: its index once at open, then ranges of it; the audio is read beside.
        let requests = server.requests.filter { $0.path.hasPrefix("/indexed/") && $0.path.hasSuffix(".mp4") }
        #expect(requests.allSatisfy { $0.range != nil })
        #expect(Set(requests.map(\.path)).isSuperset(of: ["/indexed/low.mp4", "/indexed/audio.mp4"]))
        #expect(requests.filter { $0.path == "/indexed/audio.mp4" }.count >= Int(DASHMedia.duration) + 2)
        #expect(item.accessLog() != nil)
    }

    @Test func anOnDemandPresentationWhoseIndexesFormAHierarchyIsReadThroughThem() async throws {
        let server = try LoopbackHTTPServer(root: try DASHMedia.hierarchicalFolder())
        defer { server.stop() }
        let (item, sink) = await play("hierarchy/manifest.mpd", on: server, audio: true)
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let times = pictureTimes(sink)
        #expect(times.count == Int(DASHMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        // Each file: its top index, the two it names, then ranges of it.
        let requests = server.requests.filter { $0.path.hasPrefix("/hierarchy/") && $0.path.hasSuffix(".mp4") }
        #expect(requests.allSatisfy { $0.range != nil })
        #expect(requests.filter { $0.path == "/hierarchy/audio.mp4" }.count >= Int(DASHMedia.duration) + 3)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it")
    }

    @Test func aManifestWithSoundOnlyAdaptsOverItsAudioRepresentations() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "sound/manifest.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        #expect(item.tracks.compactMap(\.assetTrack?.mediaType) == [.audio])
        let seconds = engine(of: player)?.statistics.audioSeconds ?? 0
        #expect(abs(seconds - DASHMedia.duration) < 0.2, "every second of sound: \(seconds)")
        #expect(sink.count == 0)
        let events = try #require(item.accessLog()?.events, "Playhead's loader streamed it")
        #expect(events.first?.indicatedBitrate == 64_000, "it starts on the lower Representation")
        #expect(server.requests.contains { $0.path.hasPrefix("/sound/chunk-stream") })
        player.replaceCurrentItem(with: nil)
    }

    @Test func periodsPlayOneAfterAnotherWithEveryPictureOnce() async throws {
        let folder = try DASHMedia.periodsFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, sink) = await play("periods/manifest.mpd", on: server, audio: true)

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 12) < 0.05, "both Periods: \(item.duration.seconds) s")
        let times = pictureTimes(sink)
        #expect(times.count == 12 * 25, "\(times.count) pictures")
        #expect(times.first == 0 && zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        // The introduction's pictures for its 4 s, then the programme's.
        let boundary = Int(DASHMedia.introduction.seconds * 1000)
        let introduction = sink.frames.filter { Int(($0.itemTime.seconds * 1000).rounded()) < boundary }
        let programme = sink.frames.filter { Int(($0.itemTime.seconds * 1000).rounded()) >= boundary }
        #expect(introduction.allSatisfy { $0.frame.width == DASHMedia.introduction.width }, "\(Set(introduction.map(\.frame.width)))")
        #expect(programme.allSatisfy { $0.frame.width != DASHMedia.introduction.width } && !programme.isEmpty)
        // Every segment of both Periods' sound was fetched, once (the muxer's files).
        let isSound = { (path: String) in
            path.hasPrefix("/periods/intro/chunk-stream1-") || path.hasPrefix("/periods/programme/chunk-stream2-")
        }
        let audio = server.requests.map(\.path).filter(isSound)
        let files = try ["intro", "programme"].flatMap { part in
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("periods/\(part)").path)
                .map { "/periods/\(part)/\($0)" }
        }
        #expect(audio.sorted() == files.filter(isSound).sorted(), "\(audio)")
        #expect(item.errorLog()?.events.isEmpty == true)
        // libavformat's DASH demuxer (FFmpeg's ffprobe on the same URL) reads one Period only.
        let probe = try await Subprocess.runOffPool(
            try Subprocess.tool(named: "ffprobe"),
            ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
             "-of", "csv=p=0", server.url(for: "periods/manifest.mpd").absoluteString], limit: 120)
        // (It prints the stream once for its program and once on its own.)
        let theirs = String(decoding: probe.outputData, as: UTF8.self).split(separator: "\n").first.flatMap { Int($0) }
        #expect(theirs == 100, "libavformat: \(String(describing: theirs)) pictures, Playhead \(times.count)")
    }

    @Test func aPeriodsMediaPastItsEndIsNotShownWhereTheNextPlays() async throws {
        let folder = try DASHMedia.periodsFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // The introduction's Period made 3.6 s long: its last segment holds 0.4 s more, where
        // the programme's Period plays.
        server.setRule(
            .content(Data(try DASHMedia.periodsManifest(introductionEndingAt: 3.6).utf8), contentType: "application/dash+xml"),
            for: "/periods/short.mpd")
        let (item, sink) = await play("periods/short.mpd", on: server, audio: true)

        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 11.6) < 0.05, "\(item.duration.seconds) s")
        let times = pictureTimes(sink)
        #expect(times.count == 290 && times.first == 0, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "time never goes back: no picture twice")
        let introduction = sink.frames.filter { $0.frame.width == DASHMedia.introduction.width }
        #expect(introduction.count == 90 && introduction.last.map { Int(($0.itemTime.seconds * 1000).rounded()) } == 3560)
        #expect(item.errorLog()?.events.isEmpty == true)
    }

    @Test func theAudioAdaptationSetIsAnAudibleOptionWithItsLanguage() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: "template/manifest.mpd"))
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.count == 1)
        #expect(group.options.first?.extendedLanguageTag == "eng" || group.options.first?.locale?.identifier == "en")
    }

    /// Serves `template/manifest.mpd` with a WebVTT text AdaptationSet added, as
    /// `template/<name>.mpd`, its file at `base` (cues 1–2 s "Hello world", 3–4 s "Second line").
    private func serveSubtitles(_ name: String, base: String, from folder: URL, on server: LoopbackHTTPServer) throws {
        let text = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let set = """
            <AdaptationSet contentType="text" mimeType="text/vtt" lang="en"><Label>English</Label>
            <Representation id="sub" bandwidth="1000"><BaseURL>\(base)</BaseURL></Representation></AdaptationSet>
            </Period>
            """
        let manifest = text.replacingOccurrences(of: "</Period>", with: set)
        #expect(manifest != text)
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/template/\(name).mpd")
        let cues = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello world\n\n00:00:03.000 --> 00:00:04.000\nSecond line\n"
        server.setRule(.content(Data(cues.utf8), contentType: "text/vtt"), for: "/template/subs.vtt")
    }

    @Test func aWebVTTTextSetIsALegibleOptionWhoseCuesShowOnTime() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveSubtitles("subs", base: "subs.vtt", from: folder, on: server)
        let url = server.url(for: "template/subs.mpd")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.extendedLanguageTag) == ["en"])
        #expect(group.options.first?.displayName == "English")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(server.requests.contains { $0.path == "/template/subs.vtt" })
        player.replaceCurrentItem(with: nil)
    }

    @Test func aTextSetNamingALocalFileIsNotOffered() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveSubtitles("local", base: "file:///etc/passwd", from: folder, on: server)
        let group = try await AVURLAsset(url: server.url(for: "template/local.mpd")).loadMediaSelectionGroup(for: .legible)
        #expect(group?.options.isEmpty ?? true, "\(group?.options.map(\.displayName) ?? [])")
    }

    @Test func aManifestWhoseBaseURLIsALocalFileIsRefusedAndTheItemSaysWhy() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let text = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let local = text.replacingOccurrences(of: "<Period ", with: "<BaseURL>file:///etc/</BaseURL>\n<Period ")
        #expect(local != text)
        server.setRule(.content(Data(local.utf8), contentType: "application/dash+xml"), for: "/local/manifest.mpd")
        let (item, sink) = await play("local/manifest.mpd", on: server)

        #expect(sink.count == 0, "nothing from the local files plays")
        // Every segment's initialisation section is refused: the item fails at once, saying why.
        #expect(item.status == .failed)
        let reason = (item.error as NSError?)?.localizedFailureReason ?? ""
        #expect(reason.contains("refused file URL"), "\(reason)")
        #expect(!server.requests.contains { $0.path.hasPrefix("/template/") }, "no request goes elsewhere")
    }
}
