// Playhead: the resume positions file of `playhead play --resume`: bounded, replaced whole,
// forgiving of a damaged file, forgetting positions at the start and near the end; and one
// run that stops partway followed by one that resumes there.
import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite struct ResumeStoreTests {
    /// A private folder, removed afterwards.
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func keepsTheMostRecentEntriesUpToTheLimit() throws {
        try withFolder { folder in
            var store = ResumeStore(file: folder.appendingPathComponent("resume.json"), limit: 3)
            for index in 0..<5 {
                store.record(
                    "/m/\(index).mp4", position: 30, duration: 100,
                    now: Date(timeIntervalSince1970: Double(index)))
            }
            #expect(store.entries.map(\.key) == ["/m/4.mp4", "/m/3.mp4", "/m/2.mp4"])
            store.record("/m/2.mp4", position: 40, duration: 100)  // seen again: to the front
            #expect(store.entries.map(\.key) == ["/m/2.mp4", "/m/4.mp4", "/m/3.mp4"])
            #expect(store.save() == nil)
            var reread = ResumeStore(file: store.file, limit: 3)
            #expect(reread.load() == nil)
            #expect(reread.entries == store.entries)
            #expect(reread.position(for: "/m/2.mp4") == 40)
        }
    }

    @Test func forgetsTheFirstSecondsTheEndAndUnknownDurations() {
        var store = ResumeStore(file: URL(fileURLWithPath: "/nonexistent/resume.json"))
        store.record("/a.mp4", position: 60, duration: 600)
        #expect(store.position(for: "/a.mp4") == 60)
        store.record("/a.mp4", position: 3, duration: 600)  // the first seconds
        #expect(store.position(for: "/a.mp4") == nil)
        store.record("/a.mp4", position: 60, duration: 600)
        store.record("/a.mp4", position: 580, duration: 600)  // in the last 5 %
        #expect(store.position(for: "/a.mp4") == nil)
        store.record("/b.mp4", position: 16, duration: 20)  // in the last 5 s
        store.record("/c", position: 60, duration: nil)  // a live stream
        #expect(store.entries.isEmpty)
        #expect(ResumeStore.isWorthResuming(position: 14, duration: 20))
    }

    @Test func savingReplacesTheFileWholeAndLeavesNothingBeside() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("state/playhead/resume.json")
            var store = ResumeStore(file: file)
            store.record("/m/one.mp4", position: 30, duration: 100)
            #expect(store.save() == nil, "the folder is made")
            store.record("/m/two.mp4", position: 50, duration: 100)
            #expect(store.save() == nil)
            #expect(
                try FileManager.default.contentsOfDirectory(
                    atPath: file.deletingLastPathComponent().path) == ["resume.json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            #expect(object["version"] as? Int == 1)
            #expect(
                (object["entries"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == [
                    "/m/two.mp4", "/m/one.mp4",
                ])
        }
    }

    @Test func aDamagedFileIsOneWarningAndAFreshStart() throws {
        try withFolder { folder in
            let file = folder.appendingPathComponent("resume.json")
            try Data("{\"version\": 1, \"entries\": [{\"key\": ".utf8).write(to: file)
            var store = ResumeStore(file: file)
            let loaded = store.load()
            let warning = try #require(loaded)
            #expect(
                warning
                    == "playhead: warning: \(file.path): not a resume state file; resume positions start afresh"
            )
            #expect(store.entries.isEmpty)
            store.record("/m/one.mp4", position: 30, duration: 100)
            #expect(store.save() == nil)
            var reread = ResumeStore(file: file)
            #expect(reread.load() == nil, "the next save replaced the damaged file")
            #expect(reread.position(for: "/m/one.mp4") == 30)
        }
    }

    @Test func theDefaultFileFollowsXDGStateHome() {
        #expect(
            ResumeStore.defaultFile(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path
                == "/s/playhead/resume.json")
        #expect(
            ResumeStore.defaultFile(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).path
                == "/h/.local/state/playhead/resume.json")
        #expect(ResumeKeeper.clock(75.9) == "01:15")
        #expect(ResumeKeeper.clock(3725) == "1:02:05")
    }

    @Test func aRunStoppedPartwayIsResumedByTheNextRunWithResume() async throws {
        let clip = try GeneratedMedia.url(
            named: "resume-clip", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=20", "-c:v", "libx264",
                "-pix_fmt", "yuv420p",
            ])
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        var environment = ProcessInfo.processInfo.environment.filter {
            $0.key != "DBUS_SESSION_BUS_ADDRESS"
        }
        environment["XDG_STATE_HOME"] = state.path

        // 25 frames from 8 s, then it stops: 9 s of 20 are remembered.
        let first = try #require(
            try await PlayheadProcess.run(
                [
                    "play", "--untimed", "--resume", "--start", "8", "--frames", "25", "--report",
                    "json", clip.path,
                ],
                limit: 120, environment: environment))
        #expect(first.status == 0, "\(first.errorText)")
        #expect(first.errorLines.isEmpty, "nothing to resume the first time: \(first.errorLines)")
        var store = ResumeStore(file: state.appendingPathComponent("playhead/resume.json"))
        #expect(store.load() == nil)
        let remembered = try #require(store.position(for: clip.standardizedFileURL.path))
        // (An untimed run may show a few frames more before it stops on a loaded machine.)
        #expect(remembered > 8 && remembered < 10, "remembered \(remembered)")

        let second = try #require(
            try await PlayheadProcess.run(
                ["play", "--untimed", "--resume", "--frames", "1", "--report", "json", clip.path],
                limit: 120,
                environment: environment))
        #expect(second.status == 0, "\(second.errorText)")
        #expect(
            second.errorLines == [
                "playhead: \(clip.path): resuming at \(ResumeKeeper.clock(remembered))"
            ])
        let items = try #require(
            try PlayheadProcess.jsonObject(second)["items"] as? [[String: Any]])
        let position = try #require(items.first?["position"] as? Double)
        #expect(
            position > remembered - 0.2 && position < remembered + 1,
            "resumed at \(position), remembered \(remembered)")
    }
}
