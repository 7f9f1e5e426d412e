// Playhead: tests for closed captions as a legible option: the options and their
// characteristics, and the cues a legible output delivers on a manual clock, for captions in
// H.264 SEI, in MPEG-2 user data and in a QuickTime caption track; plus the forced and SDH
// characteristics of flagged subtitle tracks.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct ClosedCaptionSelectionTests {
    static let accessibility: [AVMediaCharacteristic] = [
        .transcribesSpokenDialogForAccessibility, .describesMusicAndSoundForAccessibility,
    ]

    @Test(arguments: [CaptionMedia.h264SEI, .mpeg2UserData])
    func captionsInTheVideoAreTheLegibleOptionCC1(_ media: CaptionMedia) async throws {
        let asset = AVURLAsset(url: try media.url())
        #expect(try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions).contains(.legible))
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.count == 1)
        let option = try #require(group.options.first)
        #expect(option.mediaType == .closedCaption)
        #expect(option.displayName == "CC1")
        #expect(option.codecName == "eia_608")
        #expect(option.isPlayable)
        #expect(option.extendedLanguageTag == nil)
        #expect(option.hasMediaCharacteristic(.legible))
        #expect(Self.accessibility.allSatisfy { option.hasMediaCharacteristic($0) })
        #expect(!option.hasMediaCharacteristic(.containsOnlyForcedSubtitles))
        #expect(option.propertyList() as? String == "captions:0")
        #expect(group.mediaSelectionOption(withPropertyList: "captions:0") == option)
        #expect(group.defaultOption == nil, "captions start off, as subtitles do")
        // The video track itself is still one video track.
        let tracks = try await asset.load(.tracks)
        #expect(tracks.map(\.mediaType) == (media == .h264SEI ? [.video, .audio] : [.video]))
    }

    @Test func aQuickTimeCaptionTrackIsAClosedCaptionOptionWithItsLanguage() async throws {
        let asset = AVURLAsset(url: try CaptionMedia.quickTimeTrack.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let option = try #require(group.options.first)
        #expect(group.options.count == 1)
        #expect(option.mediaType == .closedCaption)
        #expect(option.extendedLanguageTag == "en")
        #expect(option.displayName(with: Locale(identifier: "en_US")) == "English CC")
        #expect(Self.accessibility.allSatisfy { option.hasMediaCharacteristic($0) })
        let track = try #require(try await asset.loadTracks(withMediaType: .closedCaption).first)
        #expect(track.codec == "eia_608")
    }

    @Test func videoWithoutCaptionsHasNoLegibleGroup() async throws {
        let asset = AVURLAsset(url: try CaptionMedia.noCaptions.url())
        #expect(try await asset.loadMediaSelectionGroup(for: .legible) == nil)
    }

    @Test func forcedAndHearingImpairedTracksSayWhatTheyAre() async throws {
        let asset = AVURLAsset(url: try CaptionMedia.flaggedSubtitles.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        try #require(group.options.count == 2)
        let forced = group.options[0], sdh = group.options[1]
        #expect(forced.mediaType == .subtitle && sdh.mediaType == .subtitle)
        #expect(forced.hasMediaCharacteristic(.containsOnlyForcedSubtitles))
        #expect(!Self.accessibility.contains { forced.hasMediaCharacteristic($0) })
        #expect(!sdh.hasMediaCharacteristic(.containsOnlyForcedSubtitles))
        #expect(Self.accessibility.allSatisfy { sdh.hasMediaCharacteristic($0) })
        #expect(sdh.displayName(with: Locale(identifier: "en_US")) == "English SDH")
        #expect(group.defaultOption == forced, "a forced track is the default")
        let criteria = AVPlayerMediaSelectionCriteria(
            preferredLanguages: nil,
            preferredMediaCharacteristics: [.transcribesSpokenDialogForAccessibility])
        #expect(criteria.choose(in: group) == sdh)
    }

    /// Moves the clock in 10 ms steps until the item time reaches `seconds`.
    private func reach(_ seconds: Double, _ player: AVPlayer, _ clock: ManualClock) async {
        for _ in 0..<2_000 where player.currentTime().seconds < seconds {
            await advance(clock, by: 0.01)
        }
    }

    /// "Hello world" 1–2 s and "Second line" 3–4 s, each reported at its own time.
    @Test(arguments: [CaptionMedia.h264SEI, .mpeg2UserData, .quickTimeTrack])
    func selectedCaptionsShowAtTheirTimes(_ media: CaptionMedia) async throws {
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            try media.url(), clock: clock
        ) { $0.options.first }
        await reach(0.9, player, clock)
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
        for (text, start, end) in [("Hello world", 1.0, 2.0), ("Second line", 3.0, 4.0)] {
            await reach(start + 0.1, player, clock)
            await waitUntil("\(text) shows") { recorder.last?.strings == [text] }
            if let shown = recorder.last { #expect(abs(shown.time - start) < 0.021, "\(shown.time)") }
            await reach(end - 0.1, player, clock)
            #expect(recorder.last?.strings == [text])
            await reach(end + 0.1, player, clock)
            await waitUntil("\(text) goes") { recorder.last?.strings == [] }
            if let cleared = recorder.last { #expect(abs(cleared.time - end) < 0.021, "\(cleared.time)") }
        }
        #expect(recorder.all.contains { $0.cues.first?.alignment != nil })
        player.replaceCurrentItem(with: nil)
    }

    /// Captions turned on in the middle of a caption show it at once (the video thread kept
    /// the screens it decoded), also while paused.
    @Test func captionsSelectedWhilePausedShowTheCurrentScreen() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            try CaptionMedia.h264SEI.url(), clock: clock
        ) { _ in nil }
        await reach(1.4, player, clock)
        player.pause()
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
        let item = try #require(player.currentItem)
        let group = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        item.select(group.options.first, in: group)
        await waitUntil("the caption on screen shows") { recorder.last?.strings == ["Hello world"] }
        item.select(nil, in: group)
        await waitUntil("turned off") { recorder.last?.strings == [] }
        player.replaceCurrentItem(with: nil)
    }
}
