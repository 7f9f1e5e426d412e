// Playhead: `AVURLAsset.load(.variants)` for the adaptive streams Playhead's loader reads (an
// HLS multivariant playlist, a DASH manifest) and for an asset that is not adaptive.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct AssetVariantTests {
    @Test func anHLSLaddersVariantsAreItsPlaylistsStreamInfEntries() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "ladder/master.m3u8")).load(.variants)
        #expect(variants.map(\.peakBitRate) == AdaptiveMedia.variants.map { Double($0.bandwidth) })
        #expect(variants.map { $0.videoAttributes?.presentationSize }
            == AdaptiveMedia.variants.map { CGSize(width: $0.width, height: $0.height) })
        #expect(variants.allSatisfy { $0.videoAttributes?.codecTypes == [NSNumber(value: kCMVideoCodecType_H264)] })
        #expect(variants.allSatisfy { $0.audioAttributes?.formatIDs == [NSNumber(value: kAudioFormatMPEG4AAC)] })
        #expect(variants.allSatisfy { $0.averageBitRate == nil })
    }

    @Test func aDASHManifestsVariantsAreItsVideoRepresentations() async throws {
        let server = try LoopbackHTTPServer(root: try DASHMedia.folder())
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "template/manifest.mpd")).load(.variants)
        // Each counts the 64 kbit/s sound that plays with it, as an HLS variant's BANDWIDTH.
        #expect(variants.map(\.peakBitRate) == DASHMedia.representations.map { Double($0.bitRate + 64_000) })
        #expect(variants.map { $0.videoAttributes?.presentationSize }
            == DASHMedia.representations.map { CGSize(width: $0.width, height: $0.height) })
        #expect(variants.allSatisfy { $0.videoAttributes?.codecTypes == [NSNumber(value: kCMVideoCodecType_H264)] })
        // FFmpeg's DASH muxer states the AdaptationSet's frame rate; no range is stated: SDR.
        #expect(variants.allSatisfy { $0.videoAttributes?.nominalFrameRate == 25 })
        #expect(variants.allSatisfy { $0.videoAttributes?.videoRange == .sdr })
    }

    @Test func aVariantStatingAFrameRateAndARangeHasThemInItsVideoAttributes() {
        let hdr = AVAssetVariant(
            StreamVariant(
                peakBitRate: 8_000_000, averageBitRate: nil, width: 3840, height: 2160, codecs: "hvc1.2.4.L150.B0",
                frameRate: 59.94, videoRange: "PQ"))
        #expect(hdr.videoAttributes?.nominalFrameRate == 59.94)
        #expect(hdr.videoAttributes?.videoRange == .pq)
        #expect(hdr.videoAttributes?.codecTypes == [NSNumber(value: kCMVideoCodecType_HEVC)])
        let unstated = AVAssetVariant(
            StreamVariant(peakBitRate: 64_000, averageBitRate: nil, width: nil, height: nil, codecs: "mp4a.40.2"))
        #expect(unstated.videoAttributes == nil, "sound only")
        #expect(AVVideoRange(rawValue: "HLG") == .hlg)
    }

    @Test func aVariantsRequiredVideoLayoutsAreItsLayoutAttributes() async throws {
        // The ladder's own variants, listed by a multivariant playlist of this test's that
        // states layouts: a stereo 180° variant that may also be shown flat, a 360° one, and
        // one that states none.
        let root = try AdaptiveMedia.linkedVariants(["low", "mid", "high"])
        defer { try? FileManager.default.removeItem(at: root) }
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2",REQ-VIDEO-LAYOUT="CH-STEREO/PROJ-HEQU,CH-MONO"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180,CODECS="avc1.64001e,mp4a.40.2",REQ-VIDEO-LAYOUT="PROJ-AIV,PROJ-EQUI"
            mid/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"
            high/index.m3u8

            """
        try master.write(to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "master.m3u8")).load(.variants)
        try #require(variants.count == 3)
        let layouts = variants.map { variant in
            (variant.videoAttributes?.videoLayoutAttributes ?? []).map { ($0.stereoViewComponents, $0.projectionType) }
        }
        #expect(layouts[0].map(\.0) == [[.leftEye, .rightEye], []])
        #expect(layouts[0].map(\.1) == [.halfEquirectangular, .rectangular])
        // Apple Immersive Video is a layout Playhead does not know: that entry is skipped.
        #expect(layouts[1].map(\.0) == [[]] && layouts[1].map(\.1) == [.equirectangular])
        #expect(layouts[2].map(\.0) == [[]] && layouts[2].map(\.1) == [.rectangular], "none stated: flat video")
    }

    @Test func aDASHRepresentationsFramePackingAndProjectionAreItsLayoutAttributes() async throws {
        // The DASH fixture's manifest, its video Representations declaring a top-bottom stereo
        // packing (the small one) and an OMAF equirectangular projection (the large one).
        let template = try DASHMedia.folder().appendingPathComponent("template")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dash-layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("template"), withDestinationURL: template)
        var text = try String(contentsOf: template.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        text = text.replacingOccurrences(of: "<Period ", with: "<BaseURL>template/</BaseURL><Period ")
        text = text.replacingOccurrences(
            of: #"width="160" height="90" sar="1:1">"#,
            with: #"width="160" height="90" sar="1:1"><FramePacking schemeIdUri="urn:mpeg:mpegB:cicp:VideoFramePackingType" value="4"/>"#)
        text = text.replacingOccurrences(
            of: #"width="320" height="180" sar="1:1">"#,
            with: #"width="320" height="180" sar="1:1"><EssentialProperty schemeIdUri="urn:mpeg:mpegI:omaf:2017:pf" omaf:projection_type="0"/>"#)
        try text.write(to: root.appendingPathComponent("layouts.mpd"), atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "layouts.mpd")).load(.variants)
        try #require(variants.count == 2)
        let layouts = variants.map { variant in
            (variant.videoAttributes?.videoLayoutAttributes ?? []).map { ($0.stereoViewComponents, $0.projectionType) }
        }
        #expect(layouts[0].map(\.0) == [[.leftEye, .rightEye]] && layouts[0].map(\.1) == [.rectangular])
        #expect(layouts[1].map(\.0) == [[]] && layouts[1].map(\.1) == [.equirectangular])
    }

    @Test func dashLayoutsAreReadFromTheRepresentationOrItsSet() throws {
        func layout(_ representation: String, set: String = "") throws -> StreamVideoLayout? {
            let text = """
                <?xml version="1.0"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:omaf="urn:mpeg:mpegI:omaf:2017" type="static" mediaPresentationDuration="PT4S">
                <Period><AdaptationSet mimeType="video/mp4">\(set)
                <Representation id="v" bandwidth="500000"><SegmentTemplate timescale="1" duration="2" media="v$Number$.m4s"/>\(representation)</Representation>
                </AdaptationSet></Period></MPD>
                """
            let parsed = try #require(DASHManifest.parse(Data(text.utf8), base: URL(string: "https://cdn.example/a.mpd")!))
            return parsed.variants.first?.videoLayout
        }
        let packing = { (value: String) in #"<FramePacking schemeIdUri="urn:mpeg:mpegB:cicp:VideoFramePackingType" value="\#(value)"/>"# }
        #expect(try layout("") == nil, "none stated")
        #expect(try layout(packing("3")) == StreamVideoLayout(isStereo: true), "side by side")
        #expect(try layout("", set: packing("4")) == StreamVideoLayout(isStereo: true), "from the set")
        #expect(try layout(packing("6")) == StreamVideoLayout(), "2D: flat")
        #expect(try layout(packing("9")) == nil, "a packing it cannot tell")
        let omaf = #"<SupplementalProperty schemeIdUri="urn:mpeg:mpegI:omaf:2017:pf""#
        #expect(try layout(omaf + "/>") == StreamVideoLayout(projection: .equirectangular), "no type listed: equirectangular")
        #expect(try layout(omaf + #" omaf:projection_type="1"/>"#) == nil, "a cube map is not told as a layout")
        #expect(try layout(packing("4") + omaf + #" omaf:projection_type="0"/>"#)
            == StreamVideoLayout(isStereo: true, projection: .equirectangular))
    }

    @Test func aLayoutRequirementsEntriesAreReadAsTheSpecificationAsks() {
        let layouts = StreamVideoLayout.layouts(requiredBy: "CH-STEREO/PROJ-PRIM, CH-MONO ,PROJ-RECT/CH-STEREO")
        #expect(layouts == [
            StreamVideoLayout(isStereo: true, projection: .parametricImmersive), StreamVideoLayout(),
            StreamVideoLayout(isStereo: true),
        ])
        #expect(StreamVideoLayout.layouts(requiredBy: "CH-STEREO/CH-MONO").isEmpty, "conflicting specifiers")
        #expect(StreamVideoLayout.layouts(requiredBy: "CH-STEREO/X-FUTURE,PROJ-EQUI") == [
            StreamVideoLayout(projection: .equirectangular)
        ], "an entry with an unknown specifier is skipped")
        #expect(StreamVideoLayout.layouts(requiredBy: "").isEmpty)
    }

    @Test func aVariantTellsTheChannelsOfEachAudioRenditionItPlaysWith() async throws {
        let folder = try SelectionMedia.hlsAudioRenditions.url().deletingLastPathComponent()
        let name = "channels-\(UUID().uuidString.prefix(8)).m3u8"
        let text = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="out_1.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",CHANNELS="6/-/BINAURAL,DOWNMIX",URI="out_2.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64000c,mp4a.40.2",AUDIO="aud""#,
            "out_0.m3u8",
        ].joined(separator: "\n")
        try Data((text + "\n").utf8).write(to: folder.appendingPathComponent(name))
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: name))
        let audio = try #require(try await asset.load(.variants).first?.audioAttributes)
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let english = try #require(audible.options.first { $0.extendedLanguageTag == "en" })
        let french = try #require(audible.options.first { $0.extendedLanguageTag == "fr" })
        let stereo = try #require(audio.renditionSpecificAttributes(for: english))
        #expect(stereo.channelCount == 2 && !stereo.isBinaural && !stereo.isDownmix && !stereo.isImmersive)
        let headphones = try #require(audio.renditionSpecificAttributes(for: french))
        #expect(headphones.channelCount == 6 && headphones.isBinaural && headphones.isDownmix && !headphones.isImmersive)
        // Another asset's option of another name is none of this variant's renditions.
        let other = try #require(
            try await AVURLAsset(url: try SelectionMedia.twoLanguagesAudio.url()).loadMediaSelectionGroup(for: .audible))
        let foreign = other.options.map { audio.renditionSpecificAttributes(for: $0) }
        #expect(foreign.allSatisfy { $0 == nil })
    }

    @Test func anAssetThatDoesNotAdaptHasNoVariants() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        #expect(try await asset.load(.variants).isEmpty)
    }

    @Test func codecsEntriesNameTheirFourCharacterCodes() {
        #expect(AVAssetVariant.videoCodec("avc3.640028") == kCMVideoCodecType_H264)
        #expect(AVAssetVariant.videoCodec("hev1.1.6.L93.B0") == kCMVideoCodecType_HEVC)
        #expect(AVAssetVariant.videoCodec("mp4a.40.2") == nil)
        #expect(AVAssetVariant.videoCodec("vp9") == kCMVideoCodecType_VP9, "WebM's plain name")
        #expect(AVAssetVariant.audioFormat("mp4a.40.5") == kAudioFormatMPEG4AAC)
        #expect(AVAssetVariant.audioFormat("ec-3") == kAudioFormatEnhancedAC3)
        #expect(AVAssetVariant.audioFormat("avc1.64001e") == nil)
    }
}
