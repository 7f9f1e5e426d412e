// Playhead: inputs that are not playable media fail to load with an error that says why.
import Foundation
@testable import FFmpegBridge
@testable import OpenAVFoundation
import PlayheadTestSupport
import Testing

extension BadInput {
    /// The one-line reason loading (and the CLI) gives for this input.
    var expectedReason: String {
        switch self {
        case .missingFile: return "no such file"
        case .directory: return "is a directory, not a media file"
        case .emptyFile: return "empty file"
        case .randomBytes, .textFileNamedMP4: return "not a media file (no known format recognised)"
        case .truncatedMP4: return "damaged or truncated media file: moov atom not found"
        }
    }

    /// The error domain and code loading reports.
    var expectedDomainAndCode: (String, Int) {
        switch self {
        case .missingFile: return (NSURLErrorDomain, NSURLErrorFileDoesNotExist)
        case .directory: return (NSURLErrorDomain, NSURLErrorFileIsDirectory)
        case .emptyFile, .randomBytes, .textFileNamedMP4:
            return (AVFoundationErrorDomain, AVError.Code.fileFormatNotRecognized.rawValue)
        case .truncatedMP4: return (AVFoundationErrorDomain, AVError.Code.fileFailedToParse.rawValue)
        }
    }
}

@Suite("Bad inputs through the asset API")
struct BadInputAssetTests {
    @Test("load(_:) fails with a clear error", arguments: BadInput.allCases)
    func loadFailsWithAClearError(_ input: BadInput) async throws {
        let url = try BadInput.url(input)
        let asset = AVURLAsset(url: url)
        let error = try #require(await loadingError { _ = try await asset.load(.duration, .tracks) })
        #expect(error.localizedDescription == input.expectedReason)
        let (domain, code) = input.expectedDomainAndCode
        #expect(error.domain == domain)
        #expect(error.code == code)
        #expect(error.userInfo[AVErrorPlayheadInputKey] as? String == url.path)
        #expect(error.localizedFailureReason == input.expectedReason)

        // Every property reports the same failure; the blocking getters give empty values.
        var statusError: NSError?
        #expect(asset.statusOfValue(forKey: "tracks", error: &statusError) == .failed)
        #expect(statusError?.localizedDescription == input.expectedReason)
        #expect(asset.statusOfValue(forKey: "playable", error: nil) == .unknown, "never requested")
        let isPlayable = await loadingError { _ = try await asset.load(.isPlayable) }
        #expect(isPlayable?.localizedDescription == input.expectedReason)
        #expect(asset.duration == .invalid)
        #expect(asset.tracks.isEmpty)
        #expect(!asset.isPlayable)
        #expect(asset.commonMetadata.isEmpty)
    }

    @Test("The legacy API reports the same failure", arguments: BadInput.allCases)
    func legacyAPIReportsTheSameFailure(_ input: BadInput) async throws {
        let asset = AVURLAsset(url: try BadInput.url(input))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            asset.loadValuesAsynchronously(forKeys: ["duration", "playable"]) { done.resume() }
        }
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "playable", error: &error) == .failed)
        #expect(error?.localizedDescription == input.expectedReason)
    }

    @Test func anUnsupportedSchemeIsRefusedWithItsName() async throws {
        let asset = AVURLAsset(url: try #require(URL(string: "gopher://example.com/clip.mp4")))
        let error = try #require(await loadingError { _ = try await asset.load(.duration) })
        #expect(error.localizedDescription == "unsupported URL scheme 'gopher'")
        #expect(error.domain == NSURLErrorDomain && error.code == NSURLErrorUnsupportedURL)
        #expect(error.userInfo[AVErrorPlayheadInputKey] as? String == "gopher://example.com/clip.mp4")
    }

    @Test func aPathInsideAFileIsNoSuchFile() async throws {
        let inside = try Fixture.url(.wav).appendingPathComponent("inner.mp4")
        let error = await loadingError { _ = try await AVURLAsset(url: inside).load(.tracks) }
        #expect(error?.localizedDescription == "no such file")
    }

    // MARK: - Error mapping (permission denied cannot be produced as root)

    @Test func permissionDeniedMapsToAnErrorSayingSo() async {
        let error = MediaFailure.permissionDenied.nsError(input: "/secret/clip.mp4")
        #expect(error.localizedDescription == "permission denied")
        #expect(error.domain == NSURLErrorDomain)
        #expect(error.code == NSURLErrorNoPermissionsToReadFile)
        #expect(error.userInfo[AVErrorPlayheadInputKey] as? String == "/secret/clip.mp4")
    }

    @Test(
        "Every failure maps to a one-line description with a fitting code",
        arguments: [
            (MediaFailure.fileNotFound, "no such file", NSURLErrorDomain, NSURLErrorFileDoesNotExist),
            (.permissionDenied, "permission denied", NSURLErrorDomain, NSURLErrorNoPermissionsToReadFile),
            (.isDirectory, "is a directory, not a media file", NSURLErrorDomain, NSURLErrorFileIsDirectory),
            (.emptyFile, "empty file", AVFoundationErrorDomain, -11828),
            (.notMediaFile, "not a media file (no known format recognised)", AVFoundationErrorDomain, -11828),
            (.damaged(detail: ""), "damaged or truncated media file", AVFoundationErrorDomain, -11829),
            (.damaged(detail: "moov atom not found"), "damaged or truncated media file: moov atom not found",
             AVFoundationErrorDomain, -11829),
            (.noAudioOrVideo, "no decodable stream (no audio or video track)", AVFoundationErrorDomain, -11838),
            (.unsupportedCodec(codecs: ["plhd"]), "unsupported codec: plhd (no decoder available)",
             AVFoundationErrorDomain, -11833),
            (.unsupportedCodec(codecs: ["a", "b"]), "unsupported codec: a, b (no decoder available)",
             AVFoundationErrorDomain, -11833),
            (.timedOut, "timed out while opening", NSURLErrorDomain, NSURLErrorTimedOut),
            (.cancelled, "cancelled", NSURLErrorDomain, NSURLErrorCancelled),
            (.unsupportedScheme("ftp"), "unsupported URL scheme 'ftp'", NSURLErrorDomain, NSURLErrorUnsupportedURL),
            (.io(detail: ""), "input/output error", AVFoundationErrorDomain, -11849),
            (.io(detail: "Connection reset"), "Connection reset", AVFoundationErrorDomain, -11849),
        ])
    func failureMapping(_ failure: MediaFailure, _ text: String, _ domain: String, _ code: Int) async {
        let error = failure.nsError(input: "x")
        #expect(error.localizedDescription == text)
        #expect(!text.contains("\n"))
        #expect(error.domain == domain)
        #expect(error.code == code)
    }
}
