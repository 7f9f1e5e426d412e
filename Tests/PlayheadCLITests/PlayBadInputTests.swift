// Playhead: `playhead play` run as a process on inputs that cannot be played.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("play on bad inputs")
struct PlayBadInputTests {
    @Test("play fails on a bad input with exit 1 and one line", arguments: BadInput.allCases)
    func playRejectsBadInput(_ input: BadInput) async throws {
        let path = try BadInput.url(input).path
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--no-audio", path]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == ["playhead: \(path): \(input.cliReason)"[...]])
    }

    @Test("The JSON report of a failed play names the reason", arguments: BadInput.allCases)
    func reportOfAFailedPlayNamesTheReason(_ input: BadInput) async throws {
        let path = try BadInput.url(input).path
        let arguments = ["play", "--untimed", "--no-audio", "--report", "json", path]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(path): \(input.cliReason)"[...]])
        let report = try PlayheadProcess.jsonObject(result)
        #expect(report["status"] as? String == "failed")
        let item = try #require((report["items"] as? [[String: Any]])?.first)
        #expect(item["input"] as? String == path)
        #expect(item["status"] as? String == "failed")
        #expect(item["error"] as? String == input.cliReason)
    }

    @Test func theShortFormWithoutTheCommandFailsTheSameWay() async throws {
        let path = try BadInput.url(.textFileNamedMP4).path
        guard let result = try await PlayheadProcess.run([path, "--untimed", "--no-audio"]) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(path): \(BadInput.textFileNamedMP4.cliReason)"[...]])
    }

    @Test func aBadInputAmongGoodOnesFailsTheRunButTheOthersStillPlay() async throws {
        let good = try Fixture.url(.videoOnlyMP4).path
        let bad = try BadInput.url(.emptyFile).path
        let arguments = ["play", "--untimed", "--no-audio", "--report", "json", good, bad, good]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(bad): empty file"[...]])
        let items = try #require(try PlayheadProcess.jsonObject(result)["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String } == ["completed", "failed", "completed"])
    }

    @Test func anUndecodableVideoWithAudioSwitchedOffNamesTheCodec() async throws {
        // The only video is 'plhd' (no decoder) and --no-audio leaves nothing to play.
        let path = try Fixture.url(.undecodableVideoMP4).path
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--no-audio", path]) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(path): unsupported codec: plhd (no decoder available)"[...]])
    }

    @Test func encryptedMediaFailsWithOneLineSayingItIsProtected() async throws {
        let path = try ProtectedMedia.mp4().path
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--no-audio", path]) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(path): protected content (encrypted media; DRM is not supported)"[...]])
    }

    @Test func playUsageErrorsExitTwo() async throws {
        let wav = try Fixture.url(.wav).path
        for arguments in [["play"], ["play", "--rate", "40", wav], ["play", "--report", "xml", wav]] {
            guard let result = try await PlayheadProcess.run(arguments) else { return }
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("playhead: error: "), "\(arguments)")
        }
    }
}
