// Playhead: HLS packed audio (raw AAC, MP3 or AC-3 segments led by ID3 tags, as audio-only
// streams such as radio are packaged) streamed by Playhead's own loader: the frames are read by
// libavformat's raw demuxer for the codec, timed by the playlist (every container counts from zero at its section's
// start), so a seek lands where the playlist says and the ladder adapts like any other.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@MainActor
@Suite struct PackedAudioStreamingTests {
    /// The packets `demuxer` reads next: presentation seconds.
    private func times(of demuxer: Demuxer, limit: Int = 10_000) -> [Double] {
        var result: [Double] = []
        while result.count < limit, case .packet(let packet) = demuxer.readPacket() { result.append(packet.pts.seconds) }
        return result
    }

    /// The opened demuxer of `path` on `server`, through Playhead's loader.
    private func open(_ path: String, on server: LoopbackHTTPServer) throws -> (Demuxer, HLSStreamLoader) {
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: path)), timeout: 15, interrupt: InterruptDeadline())
        let loader = try #require(opened.demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        return (opened.demuxer, loader)
    }

    @Test(arguments: PackedAudioMedia.Codec.allCases)
    func aPackedAudioLadderIsReadByTheLoaderOnThePlaylistsTimeline(_ codec: PackedAudioMedia.Codec) throws {
        let server = try LoopbackHTTPServer(root: try PackedAudioMedia.folder(codec))
        defer { server.stop() }
        let (demuxer, loader) = try open("master.m3u8", on: server)
        #expect(loader.probeName == "stream.\(codec.rawValue)" && loader.variants.count == 2)
        #expect(demuxer.description.streams.map(\.kind) == [.audio])
        #expect(demuxer.description.formatName == "hls")
        let read = times(of: demuxer)
        // Every frame once, one frame (1024, 1152 or 1536 samples) apart, from zero to the end.
        let frame = Double(codec.samplesPerFrame) / Double(PackedAudioMedia.sampleRate)
        #expect(abs((read.first ?? -1) - 0) < 1e-6, "\(read.prefix(3))")
        #expect(zip(read, read.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 }, "no gap, no repeat")
        #expect(abs((read.last ?? 0) + frame - Double(PackedAudioMedia.duration)) < 0.1, "\(read.last ?? 0)")
    }

    @Test func aSeekStartsAFreshContainerAtTheSegmentsPlaylistTime() throws {
        let folder = try PackedAudioMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (demuxer, _) = try open("low/index.m3u8", on: server)
        let playlist = try String(contentsOf: folder.appendingPathComponent("low/index.m3u8"), encoding: .utf8)
        let durations = playlist.split(separator: "\n").compactMap { line in
            line.hasPrefix("#EXTINF:") ? Double(line.dropFirst(8).split(separator: ",")[0]) : nil
        }
        let second = durations[0]  // where the second segment starts
        _ = times(of: demuxer, limit: 20)
        #expect(demuxer.seek(to: CMTime(seconds: second + 0.5, preferredTimescale: 1000), earliest: .negativeInfinity, latest: .positiveInfinity))
        let read = times(of: demuxer)
        // The segment holding the target, read from its start at its place on the playlist
        // (before, its container's zero would have been taken for the item's).
        #expect(abs((read.first ?? -1) - second) < 1e-3, "first after the seek: \(read.first ?? -1), segment at \(second)")
        let frame = 1024.0 / Double(PackedAudioMedia.sampleRate)
        #expect(zip(read, read.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 })
        #expect(abs((read.last ?? 0) + frame - Double(PackedAudioMedia.duration)) < 0.1)
    }

    @Test func theSongEachSegmentsTagNamesArrivesAsTimedMetadataWhenItChanges() async throws {
        let folder = try PackedAudioMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let playlist = try String(contentsOf: folder.appendingPathComponent("low/index.m3u8"), encoding: .utf8)
        let durations = playlist.split(separator: "\n").compactMap { line in
            line.hasPrefix("#EXTINF:") ? Double(line.dropFirst(8).split(separator: ",")[0]) : nil
        }
        let item = AVPlayerItem(url: server.url(for: "low/index.m3u8"))
        let clock = ManualClock()
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        let box = UncheckedBox(player)
        let recorder = MetadataRecorder { box.value.currentTime().seconds }
        let output = AVPlayerItemMetadataOutput(identifiers: nil)
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        for _ in 0..<3_000 where player.currentTime().seconds < 5 { await advance(clock, by: 0.01) }
        await waitUntil("two songs") { recorder.events.count >= 2 }
        player.replaceCurrentItem(with: nil)
        // Each song once (the tag repeated on the second segment says nothing new), at the
        // start of the segment whose tag first names it, with no timestamp frame.
        #expect(recorder.events == ["First song", "Second song"])
        let starts = recorder.deliveries.flatMap(\.starts)
        #expect(starts.count == 2 && abs(starts[0]) < 1e-6 && abs(starts[1] - durations[0] - durations[1]) < 1e-3, "\(starts)")
        #expect(recorder.deliveries.allSatisfy { $0.onMain })
        #expect(item.timedMetadata?.map(\.identifier) == [.id3MetadataTitleDescription])
    }

    @Test(arguments: PackedAudioMedia.Codec.allCases)
    func aPackedAudioStreamPlaysToItsEndWithItsAccessLog(_ codec: PackedAudioMedia.Codec) async throws {
        let folder = try PackedAudioMedia.folder(codec)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let item = AVPlayerItem(url: server.url(for: "master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink(), audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(abs(item.playbackStatistics.audioSeconds - Double(PackedAudioMedia.duration)) < 0.1)
        let events = try #require(item.accessLog()?.events, "Playhead's loader streamed it")
        let served = server.requests.map(\.path).filter { $0.hasSuffix(".\(codec.rawValue)") }
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count)
        #expect(item.errorLog()?.events.isEmpty == true)
    }
}

/// Packed audio timed by its segments' ID3 timestamps (PackedAudioTiming.swift).
@MainActor
@Suite struct PackedAudioTimestampTests {
    /// The AAC fixture's variants served with every `EXTINF` but the last 50 ms short of its
    /// segment's audio (as a playlist of rounded durations may be): the server, and the
    /// playlists' time of each segment.
    private func skewedServer() throws -> (LoopbackHTTPServer, starts: [Double]) {
        let folder = try PackedAudioMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        var starts: [Double] = [0]
        for variant in PackedAudioMedia.variants.map(\.name) {
            let playlist = try String(contentsOf: folder.appendingPathComponent("\(variant)/index.m3u8"), encoding: .utf8)
            var lines = playlist.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            starts = [0]
            for index in lines.indices.filter({ lines[$0].hasPrefix("#EXTINF:") }).dropLast() {
                let seconds = Double(lines[index].dropFirst(8).split(separator: ",")[0])! - 0.05
                lines[index] = String(format: "#EXTINF:%.6f,", seconds)
                starts.append(starts.last! + seconds)
            }
            server.setRule(.init(body: Data(lines.joined(separator: "\n").utf8)), for: "/\(variant)/index.m3u8")
        }
        return (server, starts)
    }

    private func open(_ server: LoopbackHTTPServer, _ path: String = "low/index.m3u8") throws -> Demuxer {
        try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: path)), timeout: 15, interrupt: InterruptDeadline()
        ).demuxer
    }

    private func times(of demuxer: Demuxer, limit: Int = 10_000) -> [Double] {
        var result: [Double] = []
        while result.count < limit, case .packet(let packet) = demuxer.readPacket() { result.append(packet.pts.seconds) }
        return result
    }

    private let frame = 1024.0 / Double(PackedAudioMedia.sampleRate)

    @Test func aPlaylistWhoseDurationsFallShortIsReadStraightThroughWithEveryFrameOnce() throws {
        let (server, _) = try skewedServer()
        defer { server.stop() }
        let read = times(of: try open(server))
        // Read on by one container, the segments' frames follow each other whatever the
        // playlist says (a fresh container, after a seek, is placed by the tag).
        #expect(abs((read.first ?? -1) - 0) < 1e-6)
        #expect(zip(read, read.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 }, "no overlap, no gap")
        #expect(abs((read.last ?? 0) + frame - Double(PackedAudioMedia.duration)) < 0.1, "\(read.last ?? 0)")
    }

    @Test func aSeekLandsOnTheSegmentWhereItsTimestampPlacesIt() throws {
        let (server, starts) = try skewedServer()
        defer { server.stop() }
        let demuxer = try open(server)
        _ = times(of: demuxer, limit: 20)
        // Into the third segment by the playlist; its audio really starts 100 ms later (two
        // short durations before it), where the timeline anchored at the open puts it.
        #expect(demuxer.seek(to: CMTime(seconds: starts[2] + 0.5, preferredTimescale: 1000), earliest: .negativeInfinity, latest: .positiveInfinity))
        let read = times(of: demuxer)
        #expect(abs((read.first ?? -1) - (starts[2] + 0.1)) < 1e-3, "first after the seek: \(read.first ?? -1)")
        #expect(zip(read, read.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 })
    }

    @Test func aSwitchOfVariantReadsOnWithEveryFrameOnce() throws {
        let (server, _) = try skewedServer()
        defer { server.stop() }
        // A fast link measured before: the ladder starts on its high variant.
        ProcessThroughput.remember(100_000_000, for: HLSStreamLoader.serverKey(server.baseURL))
        let demuxer = try open(server, "master.m3u8")
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader)
        var read = times(of: demuxer, limit: 20)
        // A cap below the high variant: the next segment comes from the low one, whose raw
        // frames the same container reads on (no fresh one, no new placement).
        loader.setCaps(VariantAdaptation.Caps(peakBitRate: 100_000))
        read += times(of: demuxer)
        let variants = Set(server.requests.map(\.path).filter { $0.hasSuffix(".aac") }.map { $0.split(separator: "/")[0] })
        #expect(variants == ["high", "low"], "\(server.requests.map(\.path))")
        #expect(zip(read, read.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 }, "no overlap, no gap")
        #expect(abs((read.last ?? 0) + frame - Double(PackedAudioMedia.duration)) < 0.1, "\(read.last ?? 0)")
    }

    @Test func aPackedAudioRenditionOfATransportStreamVariantIsPlacedOnTheVideosClock() throws {
        let server = try LoopbackHTTPServer(root: try PackedAudioMedia.videoWithAudioRendition())
        defer { server.stop() }
        let demuxer = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: "master.m3u8")), timeout: 15, interrupt: InterruptDeadline()
        ).demuxer
        let kinds = demuxer.description.streams.map(\.kind)
        #expect(kinds.contains(.video) && kinds.contains(.audio), "\(kinds)")
        var first: [StreamKind: Double] = [:]
        var audio: [Double] = []
        while case .packet(let packet) = demuxer.readPacket() {
            let kind = demuxer.description.streams[packet.streamIndex].kind
            first[kind] = min(first[kind] ?? .infinity, packet.pts.seconds)
            if kind == .audio { audio.append(packet.pts.seconds) }
        }
        // The first picture at zero, the sound half a second later, as their shared clock
        // says (before, the sound's own first segment was put at zero: half a second early).
        #expect(abs((first[.video] ?? -1) - 0) < 1e-3, "\(first)")
        #expect(abs((first[.audio] ?? -1) - PackedAudioMedia.renditionLead) < 1e-3, "\(first)")
        let frame = 1024 / Double(PackedAudioMedia.sampleRate)
        #expect(zip(audio, audio.dropFirst()).allSatisfy { abs(($1 - $0) - frame) < 1e-4 }, "every frame once, no gap")
    }

    @Test func aTimestampIsReadFromTheTagsPrivFrameAndAJumpOrAWrapIsHandled() {
        let tag = PackedAudioMedia.id3Tag(timestamp: 900_000 + (UInt64(1) << 33), title: "x") + Data([0xFF, 0xF1])
        #expect(PackedAudioTiming.timestamp(leading: tag) == 10, "33 bits of the 90 kHz clock")
        #expect(PackedAudioTiming.timestamp(leading: Data([0xFF, 0xF1, 0, 0])) == nil)
        var origins: [Int: Double] = [:]
        // The first segment anchors its timeline at its playlist place.
        #expect(PackedAudioTiming.start(timestamp: 10, timeline: 0, playlistStart: 0, origins: &origins) == 0)
        #expect(PackedAudioTiming.start(timestamp: 16.02, timeline: 0, playlistStart: 6, origins: &origins) == 6.02)
        // Another timeline (after a discontinuity) anchors on its own.
        #expect(PackedAudioTiming.start(timestamp: 500, timeline: 1, playlistStart: 12, origins: &origins) == 12)
        // Across the clock's wrap.
        origins[2] = PackedAudioTiming.wrap - 1
        #expect(abs(PackedAudioTiming.start(timestamp: 5, timeline: 2, playlistStart: 6, origins: &origins) - 6) < 1e-6)
        // A jump (a packager's clock restarted): anchored again where the playlist says.
        #expect(PackedAudioTiming.start(timestamp: 3_000, timeline: 0, playlistStart: 18, origins: &origins) == 18)
        #expect(abs(PackedAudioTiming.start(timestamp: 3_006.01, timeline: 0, playlistStart: 24, origins: &origins) - 24.01) < 1e-6)
        // The video's anchor, when its clock is the audio's; not when it lies further off.
        var anchored: [Int: Double] = [:]
        #expect(PackedAudioTiming.start(timestamp: 10.5, timeline: 0, playlistStart: 0, origins: &anchored, videoOrigin: 10.067) == 10.5 - 10.067)
        #expect(anchored[0] == 10.067)
        #expect(PackedAudioTiming.start(timestamp: 90, timeline: 1, playlistStart: 6, origins: &anchored, videoOrigin: 0) == 6)
        #expect(anchored[1] == 84)
    }
}
