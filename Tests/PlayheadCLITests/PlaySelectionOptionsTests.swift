// Playhead: `playhead play --audio-lang/--sub-lang/--sub/--no-sub`: checking and real runs.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite struct PlaySelectionOptionsTests {
    func parse(_ words: [String]) throws -> PlayOptions {
        let parsed = try OptionParser.parse(
            words, options: PlayOptions.all, arguments: [PlayCommand.inputsArgument])
        return try PlayOptions.from(parsed, inputs: parsed.arguments("INPUT"))
    }

    @Test func readsTheSelectionOptions() throws {
        let subtitles = try SelectionMedia.sidecarClip.url().deletingLastPathComponent()
            .appendingPathComponent("other.srt")
        let options = try parse(["--audio-lang", "fre", "--sub", subtitles.path, "a.mkv"])
        #expect(options.selection.audioLanguage == "fre")
        #expect(options.selection.subtitleFile == subtitles.path)
        #expect(!options.selection.noSubtitles)
        #expect(try parse(["--no-sub", "a.mkv"]).selection.noSubtitles)
        #expect(try parse(["--sub-lang", "pt-BR", "a.mkv"]).selection.subtitleLanguage == "pt-BR")
        #expect(try parse(["a.mkv"]).selection.isDefault)
    }

    @Test(arguments: [
        ["--audio-lang", "12", "a.mkv"], ["--sub-lang", "x", "a.mkv"],
        ["--no-sub", "--sub-lang", "en", "a.mkv"],
    ])
    func rejectsBadSelections(_ words: [String]) {
        #expect(throws: UsageError.self) { try parse(words) }
    }

    @Test func aMissingSubtitleFileFailsWithOneLine() async throws {
        guard
            let result = try await PlayheadProcess.run([
                "play", "--untimed", "--sub", "/no/such.srt", "a.mkv",
            ])
        else {
            return
        }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: /no/such.srt: no such file"[...]])
        let folder = FileManager.default.temporaryDirectory.path
        var directory = PlaySelection()
        directory.subtitleFile = folder
        #expect(directory.subtitleFileProblem == "is a directory, not a subtitle file")
    }

    @MainActor
    @Test func selectionIsAppliedToTheItem() async throws {
        let film = try SelectionMedia.film.url()
        var selection = PlaySelection()
        selection.audioLanguage = "fr"
        selection.subtitleLanguage = "fre"
        let item = AVPlayerItem(asset: selection.asset(for: film))
        #expect(await selection.apply(to: item).isEmpty)
        let audible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .audible))
        let legible = try #require(item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(
            item.currentMediaSelection.selectedMediaOption(in: audible)?.extendedLanguageTag == "fr"
        )
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible)?.codecName == "ass")

        var missing = PlaySelection()
        missing.audioLanguage = "de"
        #expect(
            await missing.apply(to: AVPlayerItem(url: film)) == ["no audio track in language de"])

        let clip = try SelectionMedia.sidecarClip.url()
        var file = PlaySelection()
        file.subtitleFile =
            clip.deletingLastPathComponent().appendingPathComponent("other.srt").path
        let withFile = AVPlayerItem(asset: file.asset(for: clip))
        #expect(await file.apply(to: withFile).isEmpty)
        let group = try #require(
            withFile.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(
            withFile.currentMediaSelection.selectedMediaOption(in: group)?.fileURL?
                .lastPathComponent == "other.srt")
    }

    @Test func playingWithAnUnknownLanguageWarnsAndStillPlays() async throws {
        let film = try SelectionMedia.film.url().path
        guard
            let result = try await PlayheadProcess.run([
                "play", "--untimed", "--no-audio", "--sub-lang", "de", film,
            ])
        else {
            return
        }
        #expect(result.status == 0)
        #expect(result.standardError.contains("playhead: \(film): no subtitles in language de"))
    }
}
