// Audio in tiers: HLS tiered audio groups (low variants name one audio group, high variants
// another, each listing the same renditions by NAME) and a DASH audio AdaptationSet of several
// Representations. Playhead's loader streams them, one menu option per rendition, and the
// version heard follows the variant fetched: high at the start on a fast server, low once a
// cap lowers the variant. The fixtures' versions differ in tone, so the ear tells the tier.
// The playback tests run in the serial pass of `make test` only (`PLAYHEAD_REALTIME_TESTS`,
// `OverLoopback`), as the rendition switch tests do.
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

    @Test func renditionsNamedApartPairByLanguage() throws {
        // A packager that names each group's renditions by their bit rate.
        let named = tiers.map { line in
            line.contains(#"GROUP-ID="hi""#)
                ? line.replacingOccurrences(of: #"NAME=""#, with: #"NAME="HQ "#) : line
        }
        let found = try #require(try master(named).tieredAudio)
        #expect(found.renditions.map(\.name) == ["Français", "English"], "the lowest group's names")
        #expect(found.renditions.map { $0.versions.map { $0.url?.path } } == [
            ["/media/lo/fr.m3u8", "/media/hi/fr.m3u8"], ["/media/lo/en.m3u8", "/media/hi/en.m3u8"],
        ])
        // Named apart and with a language twice in a group (two English mixes): no pairing.
        let twice = named.map { $0.replacingOccurrences(of: #"LANGUAGE="fr""#, with: #"LANGUAGE="en""#) }
        #expect(try master(twice).tieredAudio == nil)
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
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct AudioTierPlaybackOverLoopbackTests {
    @Test func theHLSVersionHeardFollowsTheVariant() async throws {
        let playlist = try SelectionMedia.hlsTieredAudio.url()
        let rig = try await LoopbackPlaybackRig(
            LoopbackHTTPServer(root: playlist.deletingLastPathComponent()), path: playlist.lastPathComponent, startsHigh: true)
        defer { rig.server.stop() }
        let (item, player) = (rig.item, rig.player)
        /// The segment numbers of playlist `name` the server was asked for.
        func fetched(_ name: String) -> [Int] {
            rig.requested("/\(name)").compactMap { path in
                path.hasSuffix(".ts") ? Int(path.dropFirst(name.count + 1).dropLast(3)) : nil
            }
        }

        // One option per rendition, not one per group.
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.compactMap(\.extendedLanguageTag).sorted() == ["en", "fr"], "\(group.options.map(\.displayName))")
        #expect(item.accessLog() != nil, "Playhead's loader streams it")

        // The high variant first: its group's English (660 Hz) plays, the low group's is
        // never fetched.
        await rig.play(for: 3)
        let upper = rig.tone(from: 1, length: 1.5)
        #expect(abs(upper - 660) < 15, "the high version: \(upper)")
        let paths = rig.server.requests.map(\.path)
        #expect(fetched("out_1").contains(0) && fetched("out_4").contains(0), "\(paths)")
        #expect(fetched("out_0").isEmpty && fetched("out_2").isEmpty, "\(paths)")

        // A cap down to the low variant: what is fetched from now on is low, sound included
        // (the last segment, 10–12 s, at least: up to 8 s may have been fetched already).
        item.preferredPeakBitRate = 400_000
        await rig.play(for: 8.7)
        #expect(player.currentTime().seconds > 11.5, "\(rig.state())")
        let after = rig.server.requests.map(\.path)
        #expect(fetched("out_0").contains(5) && fetched("out_2").contains(5), "\(after)")
        #expect(!fetched("out_1").contains(5) && !fetched("out_4").contains(5))
        let lower = rig.tone(length: 0.5)
        #expect(abs(lower - 440) < 15, "the low version at the end: \(lower)")
        // Each version was fetched for the segments its variant was, but perhaps the one where
        // the variant changed (the rendition never waits for the variants' choice).
        #expect(Set(fetched("out_4")).subtracting(fetched("out_1")).count <= 1, "\(after)")
        #expect(Set(fetched("out_2")).subtracting(fetched("out_0")).count <= 1, "\(after)")
        let indicated = item.accessLog()?.events.map(\.indicatedBitrate) ?? []
        #expect(indicated.first == 900_000 && indicated.last == 300_000, "\(indicated)")
        // French was never fetched but for what opening read, and the sound never broke off.
        #expect(fetched("out_3").count + fetched("out_5").count <= 2)
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty)
        player.replaceCurrentItem(with: nil)
    }

    /// Sound only in two AdaptationSets: the default set's Representations are the variants,
    /// the other set an audio rendition beside them; both are options, and a switch lands.
    @Test func aDASHManifestWithSoundInTwoSetsOffersBothAndSwitches() async throws {
        let rig = try await LoopbackPlaybackRig(
            LoopbackHTTPServer(root: try DASHMedia.languagesFolder()), path: "languages/manifest.mpd", startsHigh: true)
        defer { rig.server.stop() }
        let (item, player) = (rig.item, rig.player)
        #expect(item.accessLog() != nil, "Playhead's loader streams it")
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.compactMap(\.extendedLanguageTag).sorted() == ["en", "fr"], "\(group.options.map(\.displayName))")
        #expect(group.defaultOption?.extendedLanguageTag == "en")
        await rig.play(for: 2)
        let english = rig.tone(from: 0.5, length: 1)
        #expect(abs(english - 440) < 15, "English first: \(english)")
        // The variants adapt over English's two Representations (the larger on a fast server).
        #expect(rig.requested("/languages/chunk-stream1-").count >= 1, "\(rig.server.requests.map(\.path))")

        let french = try #require(group.options.first { $0.extendedLanguageTag == "fr" })
        let main = rig.pipeline.switchboard.routedAudio
        item.select(french, in: group)
        var steps = 0
        while rig.pipeline.switchboard.routedAudio == main, steps < 300 {
            for _ in 0..<40 where rig.pipeline.switchboard.routedAudio == main {
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            await rig.play(for: 0.01)
            steps += 1
        }
        #expect(rig.pipeline.switchboard.routedAudio != main, "the switch landed")
        await rig.play(for: 1.5)
        let after = rig.tone(length: 0.5)
        #expect(abs(after - 880) < 15, "French: \(after)")
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty)
        player.replaceCurrentItem(with: nil)
    }

    @Test func theDASHRepresentationHeardFollowsTheVariant() async throws {
        let rig = try await LoopbackPlaybackRig(
            LoopbackHTTPServer(root: try DASHMedia.tiersFolder()), path: "tiers/manifest.mpd", startsHigh: true)
        defer { rig.server.stop() }
        let (item, player) = (rig.item, rig.player)
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.count == 1, "one option for the set: \(group.options.map(\.displayName))")

        // The larger video Representation first, with the larger audio one (660 Hz).
        await rig.play(for: 3)
        let upper = rig.tone(from: 1, length: 1.5)
        #expect(abs(upper - 660) < 15, "the larger audio Representation: \(upper)")
        #expect(rig.requested("/tiers/chunk-stream2-").isEmpty, "\(rig.server.requests.map(\.path))")

        // Capped to the small video Representation: the small audio one follows.
        item.preferredPeakBitRate = 300_000
        await rig.play(for: 8.7)
        #expect(player.currentTime().seconds > 11.5, "\(rig.state())")
        let small = rig.requested("/tiers/chunk-stream2-"), large = rig.requested("/tiers/chunk-stream3-")
        #expect(small.contains { $0.hasSuffix("00006.m4s") } && !large.contains { $0.hasSuffix("00006.m4s") }, "\(small) \(large)")
        let lower = rig.tone(length: 0.5)
        #expect(abs(lower - 440) < 15, "the small audio Representation at the end: \(lower)")
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty)
        player.replaceCurrentItem(with: nil)
    }
}
