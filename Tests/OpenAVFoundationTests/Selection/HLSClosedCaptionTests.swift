// Playhead: tests for closed captions an HLS master playlist declares (EXT-X-MEDIA
// TYPE=CLOSED-CAPTIONS and the variants' CLOSED-CAPTIONS attribute): the parser, how the
// declaration shapes the legible options, and captions named "English" played from a loopback
// HTTP server on a manual clock.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSClosedCaptionTests {
    static let accessibility: [AVMediaCharacteristic] = [
        .transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility,
    ]

    // MARK: - The playlist

    @Test func captionRenditionsOfTheVariantsGroupAreParsed() {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Subs",LANGUAGE="en",URI="subs.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="other",NAME="Other",INSTREAM-ID="CC1"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1",DEFAULT=YES,AUTOSELECT=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog, public.easy-to-read"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="Español",LANGUAGE="es",INSTREAM-ID="cc3"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="Again",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,CLOSED-CAPTIONS="cc",SUBTITLES="s"
            low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000,CLOSED-CAPTIONS="cc"
            high.m3u8
            """
        let declaration = HLSSubtitleRenditions.parseCaptions(text)
        #expect(
            declaration
                == .renditions([
                    CaptionRendition(
                        name: "English", language: "en", instreamID: "CC1", isDefault: true,
                        characteristics: [
                            "public.accessibility.transcribes-spoken-dialog", "public.easy-to-read",
                        ]),
                    CaptionRendition(name: "Español", language: "es", instreamID: "CC3"),
                ]))
        // The subtitle rendition is still read as before, the caption lines left alone.
        #expect(HLSSubtitleRenditions.parse(text, base: nil).map(\.name) == ["Subs"])
    }

    @Test func noneNothingAndUnreferencedGroupsAreTold() {
        let none = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1000,CLOSED-CAPTIONS=NONE
            a.m3u8
            """
        #expect(HLSSubtitleRenditions.parseCaptions(none) == .noCaptions)
        let silent = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\na.m3u8\n"
        #expect(HLSSubtitleRenditions.parseCaptions(silent) == nil)
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ns.ts\n#EXT-X-ENDLIST\n"
        #expect(HLSSubtitleRenditions.parseCaptions(media) == nil)
        #expect(HLSSubtitleRenditions.parseCaptions("not a playlist") == nil)
        let unreferenced = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="Deutsch",LANGUAGE="de",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1000
            a.m3u8
            """
        #expect(
            HLSSubtitleRenditions.parseCaptions(unreferenced)
                == .renditions([
                    CaptionRendition(name: "Deutsch", language: "de", instreamID: "CC1")
                ]))
    }

    // MARK: - The options

    /// The legible options of `media` opened as the engine opens it, as if its playlist said
    /// `declaration`.
    private func captionOptions(_ media: CaptionMedia, _ declaration: HLSCaptionDeclaration?) throws
        -> [AVMediaSelectionOption]
    {
        let demuxer = try Demuxer(location: try MediaLocation(url: try media.url()))
        var description = demuxer.description
        description.hlsCaptions = declaration
        let groups = SelectionGroups.make(description, sidecars: [])
        return groups.first { $0.characteristic == .legible }?.options ?? []
    }

    @Test func theDeclarationDecidesWhatIsOffered() throws {
        // Declared before any caption data was seen: offered on the video stream all the same.
        let english = CaptionRendition(name: "English", language: "en", instreamID: "CC1")
        let declared = try captionOptions(.noCaptions, .renditions([english]))
        #expect(declared.map(\.displayName) == ["English"])
        #expect(declared.first?.streamIndex == 0 && declared.first?.isCarriedInVideo == true)
        // NONE: the captions in the pictures are not offered.
        #expect(try captionOptions(.h264SEI, .noCaptions).isEmpty)
        // Only channels Playhead cannot decode: the pictures decide, as without a playlist.
        let undecodable = try captionOptions(
            .h264SEI,
            .renditions([
                CaptionRendition(name: "Français", language: "fr", instreamID: "CC3"),
                CaptionRendition(name: "English 708", language: "en", instreamID: "SERVICE1"),
            ]))
        #expect(undecodable.map(\.displayName) == ["CC1"])
        #expect(undecodable.first?.extendedLanguageTag == nil)
        #expect(try captionOptions(.noCaptions, .renditions([])).isEmpty)
    }

    // MARK: - Over HTTP

    /// Moves the clock in 10 ms steps until the item time reaches `seconds`.
    private func reach(_ seconds: Double, _ player: AVPlayer, _ clock: ManualClock) async {
        for _ in 0..<2_000 where player.currentTime().seconds < seconds {
            await advance(clock, by: 0.01)
        }
    }

    @Test func aNamedCaptionRenditionIsTheOptionAndPlays() async throws {
        let master = try CaptionMedia.hlsSEI.url()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent())
        defer { server.stop() }
        let url = server.url(for: master.lastPathComponent)
        let asset = AVURLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.count == 1)
        let option = try #require(group.options.first)
        #expect(option.mediaType == .closedCaption)
        #expect(option.displayName == "English")
        let french = Locale(identifier: "fr_FR")
        #expect(option.displayName(with: french) == "English", "the NAME, as it is")
        #expect(option.extendedLanguageTag == "en")
        #expect(option.locale?.identifier == "en")
        #expect(option.codecName == "eia_608" && option.isPlayable && option.isCarriedInVideo)
        #expect(option.hasMediaCharacteristic(.legible))
        #expect(Self.accessibility.allSatisfy { option.hasMediaCharacteristic($0) })
        #expect(!option.isFlaggedDefault, "DEFAULT=YES picks among captions, does not turn them on")
        #expect(group.defaultOption == nil, "captions start off")
        #expect(group.flaggedDefaultOption == nil, "also in the CLI")
        let title = option.commonMetadata.first { $0.commonKey == .commonKeyTitle }
        #expect(title?.stringValue == "English")

        // The segments keep the AAC priming the MP4's edit list hid: the timeline starts with
        // the audio, and the pictures (with the captions) 1024 samples, 21.3 ms, later.
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let picturesStart = try await video.load(.timeRange).start.seconds
        #expect(abs(picturesStart - 1024.0 / 48_000) < 0.002, "\(picturesStart)")

        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            url, clock: clock
        ) { $0.options.first }
        await reach(0.9, player, clock)
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
        await reach(1.1 + picturesStart, player, clock)
        await waitUntil("Hello world shows") { recorder.last?.strings == ["Hello world"] }
        if let shown = recorder.last {
            #expect(abs(shown.time - picturesStart - 1.0) < 0.021, "\(shown.time)")
        }
        await reach(1.9, player, clock)
        #expect(recorder.last?.strings == ["Hello world"])
        await reach(2.1 + picturesStart, player, clock)
        await waitUntil("Hello world goes") { recorder.last?.strings == [] }
        if let cleared = recorder.last {
            #expect(abs(cleared.time - picturesStart - 2.0) < 0.021, "\(cleared.time)")
        }
        player.replaceCurrentItem(with: nil)
    }
}
