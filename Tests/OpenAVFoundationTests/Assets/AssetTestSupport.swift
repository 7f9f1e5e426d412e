// Playhead: shared helpers for the asset tests: loading fixtures and reading ffprobe's view.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

/// An asset for a fixture with the properties most tests read, loaded through `load(_:)`.
struct LoadedFixture {
    let fixture: Fixture
    let url: URL
    let asset: AVURLAsset
    let duration: CMTime
    let tracks: [AVAssetTrack]
    let reference: FFprobeSummary

    init(_ fixture: Fixture) async throws {
        self.fixture = fixture
        url = try Fixture.url(fixture)
        asset = AVURLAsset(url: url)
        (duration, tracks) = try await asset.load(.duration, .tracks)
        reference = try FFprobe.summary(of: url)
    }

    /// The loaded tracks of one media type.
    func tracks(_ type: AVMediaType) -> [AVAssetTrack] { tracks.filter { $0.mediaType == type } }

    /// ffprobe's streams of one kind, attached pictures left out (they are not tracks).
    func referenceStreams(_ codecType: String) -> [FFprobeSummary.Stream] {
        reference.streams(ofType: codecType).filter { !$0.isAttachedPicture }
    }
}

extension Fixture {
    /// True for the fixtures with no video track at all.
    var isAudioOnly: Bool { expectedStreams.video == 0 }
}

/// The `NSError` a loading call threw, or an issue recorded when it did not throw.
func loadingError(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> NSError? {
    do {
        try await body()
        Issue.record("loading succeeded but should have failed", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error as NSError
    }
}
