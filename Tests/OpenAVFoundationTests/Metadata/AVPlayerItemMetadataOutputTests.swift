// Playhead: tests for AVPlayerItemMetadataOutput: timed ID3 in MPEG-TS and HLS and ICY titles
// from a Shoutcast-style station, delivered on the main queue as playback reaches them.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records what a metadata output delivers, with the item time at each call.
final class MetadataRecorder: AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
    struct Delivery: Sendable {
        let titles: [String]
        let starts: [Double]
        let itemTime: Double
        let fromTrack: Bool
        let onMain: Bool
    }
    private let log = Locked<[Delivery?]>([])  // nil: a flush
    private let time: @Sendable () -> Double

    init(time: @escaping @Sendable () -> Double) { self.time = time }

    func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?
    ) {
        let delivery = Delivery(
            titles: groups.flatMap { $0.items.filter { $0.commonKey == .commonKeyTitle }.compactMap(\.stringValue) },
            starts: groups.map(\.timeRange.start.seconds), itemTime: time(), fromTrack: track != nil,
            onMain: MainQueue.isCurrent)
        log.withLock { $0.append(delivery) }
    }

    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { log.withLock { $0.append(nil) } }

    var deliveries: [Delivery] { log.withLock { $0.compactMap { $0 } } }
    /// Titles in delivery order, "flush" for flushes.
    var events: [String] { log.withLock { $0.flatMap { $0?.titles ?? ["flush"] } } }
}

@MainActor
@Suite(.serialized) struct AVPlayerItemMetadataOutputTests {
    /// A player on a manual clock with a metadata output on `item`.
    private func play(_ item: AVPlayerItem, identifiers: [String]? = nil) async -> (AVPlayer, ManualClock, MetadataRecorder) {
        let clock = ManualClock()
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        let box = UncheckedBox(player)
        let recorder = MetadataRecorder { box.value.currentTime().seconds }
        let output = AVPlayerItemMetadataOutput(identifiers: identifiers)
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        return (player, clock, recorder)
    }

    /// Moves the clock in 10 ms steps until the item time reaches `seconds`.
    private func reach(_ seconds: Double, _ player: AVPlayer, _ clock: ManualClock) async {
        for _ in 0..<3_000 where player.currentTime().seconds < seconds { await advance(clock, by: 0.01) }
    }

    /// Moves the clock just past each of the first `count` titles in turn and waits for its
    /// delivery there: the engine's subtitle thread runs in real time, so on a loaded machine a
    /// clock that ran on would make a prompt delivery look late.
    private func reachTitles(through count: Int, _ player: AVPlayer, _ clock: ManualClock, _ recorder: MetadataRecorder) async {
        for (index, entry) in TimedMetadataMedia.titles.prefix(count).enumerated() {
            await reach(entry.seconds + 0.01, player, clock)
            await waitUntil("title \(index + 1)") { recorder.events.count >= index + 1 }
        }
    }

    /// Each title arrives once, in order, at its time (not before it, at most 50 ms after).
    private func expectTitlesOnTime(_ recorder: MetadataRecorder, through count: Int) {
        let expected = TimedMetadataMedia.titles.prefix(count)
        #expect(recorder.events == expected.map(\.title))
        for (delivery, entry) in zip(recorder.deliveries, expected) {
            #expect(delivery.starts.count == 1 && abs(delivery.starts[0] - entry.seconds) < 0.001)
            #expect(delivery.itemTime >= entry.seconds - 0.001 && delivery.itemTime < entry.seconds + 0.05)
            #expect(delivery.fromTrack && delivery.onMain)
        }
    }

    @Test func id3TitlesInATransportStreamArriveAsPlaybackReachesThem() async throws {
        let item = AVPlayerItem(url: try TimedMetadataMedia.transportStream())
        let changes = Locked<[String?]>([])
        let observation = item.observe(\.timedMetadata, options: [.new]) { item, _ in
            changes.withLock { $0.append(item.timedMetadata?.first?.stringValue) }
        }
        let (player, clock, recorder) = await play(item)
        await reach(0.45, player, clock)
        #expect(recorder.events.isEmpty)
        await reachTitles(through: 2, player, clock, recorder)
        expectTitlesOnTime(recorder, through: 2)
        await reachTitles(through: 3, player, clock, recorder)
        expectTitlesOnTime(recorder, through: 3)
        #expect(item.timedMetadata?.map(\.stringValue) == ["Third song", TimedMetadataMedia.artist])
        #expect(changes.withLock { $0 } == ["First song", "Second song", "Third song"])
        observation.invalidate()

        // A seek flushes, then hands over the group in force at the target.
        #expect(await player.seek(to: CMTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        await waitUntil("flush and current title") { recorder.events.count >= 5 }
        #expect(recorder.events.suffix(2) == ["flush", "Second song"])
        player.replaceCurrentItem(with: nil)
    }

    @Test func anOutputForSomeIdentifiersGetsOnlyThoseItems() async throws {
        let item = AVPlayerItem(url: try TimedMetadataMedia.transportStream())
        let (player, clock, recorder) = await play(item, identifiers: [AVMetadataIdentifier.id3MetadataLeadPerformer.rawValue])
        await reach(0.6, player, clock)
        await waitUntil("the first group") { !recorder.deliveries.isEmpty }
        #expect(recorder.events.isEmpty)  // no title items pass the filter: an artist-only group
        #expect(recorder.deliveries.first?.starts == [0.5])
        #expect(item.timedMetadata?.map(\.identifier) == [.id3MetadataTitleDescription, .id3MetadataLeadPerformer])
        player.replaceCurrentItem(with: nil)
    }

    @Test func id3TitlesInHLSArriveAsPlaybackReachesThem() async throws {
        let master = try TimedMetadataMedia.hls()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent())
        defer { server.stop() }
        let item = AVPlayerItem(url: server.url(for: master.lastPathComponent))
        let (player, clock, recorder) = await play(item)
        await reachTitles(through: 3, player, clock, recorder)
        expectTitlesOnTime(recorder, through: 3)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aShoutcastStationsTitlesArriveFromTheTransport() async throws {
        let audio = try Data(contentsOf: try TimedMetadataMedia.mp3())
        let body = ICYStream.body(
            audio: audio, metaInterval: 8_000, titles: [(0, "Station - One"), (64_000, "Station - Two")])
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        server.setRule(.icyStation(body, metaInterval: 8_000), for: "/radio")
        let item = AVPlayerItem(url: server.url(for: "radio"))
        let (player, clock, recorder) = await play(item)
        await reach(6, player, clock)
        await waitUntil("two titles") { recorder.events.count >= 2 }
        #expect(recorder.events == ["Station - One", "Station - Two"])
        #expect(recorder.deliveries.allSatisfy { !$0.fromTrack && $0.onMain })
        // The title is seen when libavformat's HTTP reader passes its block: up to one read
        // buffer (32 KiB, 2 s of this stream) ahead of the audio it belongs to, never after.
        let change = try #require(recorder.deliveries.last?.starts.first)
        #expect(change > 1.5 && change <= 4.05)
        // (libavformat's request asks for the titles; the one before it only looked at the
        // first bytes to tell a manifest: StreamedOpen+Sniffing.swift.)
        #expect(server.requests.last?.headers["icy-metadata"] == "1")
        player.replaceCurrentItem(with: nil)
    }
}
