// Tiered audio groups (low variants name one audio group, high variants another, each listing
// the same renditions by NAME): Playhead's loader streams them, one menu option per rendition,
// and the version heard follows the variant fetched: high at the start on a fast server, low
// once a cap lowers the variant. The fixture's versions differ in tone, so the ear tells the tier.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HLSTieredAudioPlaylistTests {
    private let base = URL(string: "https://example.com/media/master.m3u8")!

    private func master(_ lines: [String]) throws -> HLSMultivariantPlaylist {
        let text = (["#EXTM3U"] + lines).joined(separator: "\n") + "\n"
        guard case .multivariant(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            throw TestSupportError("not a multivariant playlist")
        }
        return playlist
    }

    private let tiers = [
        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="hi/en.m3u8""#,
        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="Français",LANGUAGE="fr",URI="hi/fr.m3u8""#,
        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="Français",LANGUAGE="fr",URI="lo/fr.m3u8""#,
        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="lo/en.m3u8""#,
        #"#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="hi""#, "v2.m3u8",
        #"#EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="lo""#, "v0.m3u8",
        #"#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="lo""#, "v1.m3u8",
    ]

    @Test func groupsAreTiersInBandwidthOrderAndRenditionsPairByName() throws {
        let playlist = try master(tiers)
        #expect(playlist.streamedAudio == nil)
        let found = try #require(playlist.tieredAudio)
        #expect(found.groups == ["lo", "hi"])
        #expect(found.renditions.map(\.name) == ["Français", "English"])
        let english = try #require(found.renditions.last)
        #expect(english.versions.map { $0.url?.path } == ["/media/lo/en.m3u8", "/media/hi/en.m3u8"])
        let ascending = playlist.variants.sorted { $0.bandwidth < $1.bandwidth }
        #expect(found.tiers(of: ascending) == [0, 0, 1])
    }

    @Test func groupsThatDoNotPairAreLeftToLibavformat() throws {
        // A group lacking a name the other lists.
        #expect(try master(tiers.filter { !$0.contains("lo/fr") }).tieredAudio == nil)
        // A rendition the variants carry in their own bytes (no URI).
        let muxed = tiers.map { $0.replacingOccurrences(of: #","URI="lo/en.m3u8""#, with: "") }
        #expect(try master(muxed.map { $0.replacingOccurrences(of: #"DEFAULT=YES,URI="lo/en.m3u8""#, with: "DEFAULT=YES") })
            .tieredAudio == nil)
        // A variant naming no group.
        #expect(try master(tiers.map { $0.replacingOccurrences(of: #",AUDIO="lo""#, with: "") }).tieredAudio == nil)
        // One group for every variant is no tier (streamedAudio streams it).
        let single = try master(tiers.map { $0.replacingOccurrences(of: #"AUDIO="hi""#, with: #"AUDIO="lo""#) })
        #expect(single.tieredAudio == nil)
        #expect(single.streamedAudio != nil)
    }
}

@MainActor
@Suite struct HLSTieredAudioPlaybackTests {
    /// Positive-going zero crossings per second in `frames` of mono 48 kHz samples (0 when
    /// the samples do not reach that far).
    private func frequency(_ samples: [Float], _ frames: Range<Int>) -> Double {
        guard frames.lowerBound >= 0, frames.upperBound <= samples.count, frames.count > 1 else { return 0 }
        var crossings = 0
        for index in frames.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 { crossings += 1 }
        return Double(crossings) * 48_000 / Double(frames.count)
    }

    @Test func theVersionHeardFollowsTheVariant() async throws {
        let playlist = try SelectionMedia.hlsTieredAudio.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        let clock = ManualClock()
        let output = RecordingAudioOutput(clock: clock)
        ProcessThroughput.remember(50_000_000, for: HLSStreamLoader.serverKey(server.url(for: "")))
        let item = AVPlayerItem(url: server.url(for: playlist.lastPathComponent))
        item.preferredForwardBufferDuration = 4
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let pipeline = try #require(engine(of: player)?.pipeline)
        let ring = try #require(pipeline.ring)
        /// Advances in 10 ms steps, letting the real-time threads refill the ring first.
        func play(for seconds: Double) async {
            for _ in 0..<Int((seconds / 0.01).rounded()) {
                var refill = PatientDeadline(seconds: 20)
                while ring.bufferedDuration.seconds < 0.1, player.timeControlStatus != .paused,
                    !(pipeline.audioPackets.statistics.endOfStreamMarked && pipeline.audioPackets.statistics.isEmpty),
                    !refill.hasPassed()
                {
                    await mainQueueSleep(nanoseconds: 5_000_000)
                }
                clock.advance(by: 0.01)
                await output.caughtUp()
            }
        }
        /// The segment numbers of playlist `name` the server was asked for.
        func fetched(_ name: String) -> [Int] {
            server.requests.map(\.path).compactMap { path in
                path.hasPrefix("/\(name)") && path.hasSuffix(".ts") ? Int(path.dropFirst(name.count + 1).dropLast(3)) : nil
            }
        }

        // One option per rendition, not one per group.
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.compactMap(\.extendedLanguageTag).sorted() == ["en", "fr"], "\(group.options.map(\.displayName))")
        #expect(item.accessLog() != nil, "Playhead's loader streams it")

        // The high variant first (the throughput this process measured from the server was
        // high): its group's English (660 Hz) plays, and the low group's is never fetched.
        await play(for: 3)
        let start = 48_000
        let upper = frequency(output.samples, start..<(start + 72_000))  // 1–2.5 s
        #expect(abs(upper - 660) < 15, "the high version: \(upper)")
        #expect(fetched("out_1").contains(0) && fetched("out_4").contains(0), "\(server.requests.map(\.path))")
        #expect(fetched("out_0").isEmpty && fetched("out_2").isEmpty, "\(server.requests.map(\.path))")

        // A cap down to the low variant: what is fetched from now on is low, sound included
        // (the last segment, 10–12 s, at least: up to 8 s may have been fetched already).
        item.preferredPeakBitRate = 400_000
        await play(for: 8.7)
        #expect(player.currentTime().seconds > 11.5)
        #expect(fetched("out_0").contains(5) && fetched("out_2").contains(5), "\(server.requests.map(\.path))")
        #expect(!fetched("out_1").contains(5) && !fetched("out_4").contains(5))
        let end = output.samples.count
        let lower = frequency(output.samples, (end - 24_000)..<end)
        #expect(abs(lower - 440) < 15, "the low version at the end: \(lower)")
        // Each version was fetched for the segments its variant was.
        #expect(Set(fetched("out_4")).isSubset(of: Set(fetched("out_1"))), "\(server.requests.map(\.path))")
        #expect(Set(fetched("out_2")).isSubset(of: Set(fetched("out_0"))), "\(server.requests.map(\.path))")
        let indicated = item.accessLog()?.events.map(\.indicatedBitrate) ?? []
        #expect(indicated.first == 900_000 && indicated.last == 300_000, "\(indicated)")
        // French was never fetched, and the sound never broke off.
        #expect(fetched("out_3").count + fetched("out_5").count <= 2)
        #expect(output.silentRanges(minimumFrames: 48).isEmpty)
        player.replaceCurrentItem(with: nil)
    }
}
