// Playhead: tests for the player's media selection criteria and the asset's every selection.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct MediaSelectionCriteriaTests {
    /// The film's groups: audio eng (default) and fre; subtitles SubRip eng and ASS fre.
    private func filmGroups() async throws -> (AVURLAsset, AVMediaSelectionGroup, AVMediaSelectionGroup) {
        let asset = AVURLAsset(url: try SelectionMedia.film.url())
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        return (asset, audible, legible)
    }

    @Test func criteriaPickByLanguageThenCharacteristicsAndElseLeaveTheDefault() async throws {
        let (_, audible, legible) = try await filmGroups()
        let french = AVPlayerMediaSelectionCriteria(preferredLanguages: ["de", "fr"], preferredMediaCharacteristics: nil)
        #expect(french.choose(in: audible)?.extendedLanguageTag == "fr")
        #expect(french.choose(in: legible)?.codecName == "ass")
        let german = AVPlayerMediaSelectionCriteria(preferredLanguages: ["de"], preferredMediaCharacteristics: nil)
        #expect(german.choose(in: audible) == nil)
        let none = AVPlayerMediaSelectionCriteria(preferredLanguages: nil, preferredMediaCharacteristics: nil)
        #expect(none.choose(in: audible) == nil)
        let forced = AVPlayerMediaSelectionCriteria(
            preferredLanguages: nil, preferredMediaCharacteristics: [.containsOnlyForcedSubtitles])
        #expect(forced.choose(in: legible) == nil)  // the film has no forced track

        var snapshot = SelectionCriteriaSnapshot(criteria: [.audible: french])
        #expect(snapshot.automaticOption(in: audible)?.extendedLanguageTag == "fr")
        #expect(snapshot.automaticOption(in: legible) == nil)  // no criteria: subtitles stay off
        snapshot.appliesAutomatically = false
        #expect(snapshot.automaticOption(in: audible) == audible.defaultOption)
    }

    @Test func aPlayersCriteriaChooseTheSubtitlesItsItemShows() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try SelectionMedia.film.url())
        let output = AVPlayerItemLegibleOutput()
        let recorder = LegibleRecorder()
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock))
        player.setMediaSelectionCriteria(
            AVPlayerMediaSelectionCriteria(preferredLanguages: ["fr"], preferredMediaCharacteristics: nil),
            forMediaCharacteristic: .legible)
        #expect(player.mediaSelectionCriteria(forMediaCharacteristic: .legible)?.preferredLanguages == ["fr"])
        #expect(player.mediaSelectionCriteria(forMediaCharacteristic: .audible) == nil)
        _ = try await item.asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions)
        player.replaceCurrentItem(with: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let legible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible)?.codecName == "ass")
        #expect(item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: legible))
        for _ in 0..<2_000 where player.currentTime().seconds < 1.2 { await advance(clock, by: 0.01) }
        await waitUntil("the French cue") { recorder.last?.strings == ["Bonjour rouge"] }

        // An explicit choice is no longer automatic, and criteria changes leave it alone.
        item.select(legible.options.first { $0.codecName == "subrip" }, in: legible)
        #expect(!item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: legible))
        player.setMediaSelectionCriteria(nil, forMediaCharacteristic: .legible)
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible)?.codecName == "subrip")
        player.replaceCurrentItem(with: nil)
    }

    @Test func changingCriteriaMovesTheCurrentItemsAutomaticChoiceOnce() async throws {
        let item = AVPlayerItem(url: try SelectionMedia.film.url())
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let audible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible)?.extendedLanguageTag == "en")
        let log = NotificationLog([AVPlayerItem.mediaSelectionDidChangeNotification], object: item)
        let french = AVPlayerMediaSelectionCriteria(preferredLanguages: ["fr"], preferredMediaCharacteristics: nil)
        player.setMediaSelectionCriteria(french, forMediaCharacteristic: .audible)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible)?.extendedLanguageTag == "fr")
        player.setMediaSelectionCriteria(french, forMediaCharacteristic: .audible)  // no move: no post
        player.appliesMediaSelectionCriteriaAutomatically = false
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible)?.extendedLanguageTag == "en")
        #expect(!item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: audible))
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(log.count(AVPlayerItem.mediaSelectionDidChangeNotification) == 2)
        player.replaceCurrentItem(with: nil)
    }

    @Test func allMediaSelectionsCombineEveryOptionOfEveryGroup() async throws {
        let (asset, audible, legible) = try await filmGroups()
        let all = asset.allMediaSelections
        // 2 audio options × (2 subtitle options + off).
        #expect(all.count == 6)
        let pairs = all.map { selection in
            "\(selection.selectedMediaOption(in: audible)?.extendedLanguageTag ?? "-")/"
                + "\(selection.selectedMediaOption(in: legible)?.codecName ?? "off")"
        }
        #expect(pairs == ["en/subrip", "en/ass", "en/off", "fr/subrip", "fr/ass", "fr/off"])
        let loaded = try await asset.load(.allMediaSelections)
        #expect(loaded.count == 6)
        let audioOnly = AVURLAsset(url: try Fixture.url(.wav))
        #expect(try await audioOnly.load(.allMediaSelections).count == 1)
    }
}
