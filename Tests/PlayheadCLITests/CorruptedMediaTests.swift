// Playhead: `playhead probe` and `playhead play` on damaged and oversized media, run as
// processes: each run ends by itself within a time limit, with exit 0 (damage concealed) or
// exit 1 and one clear line, never a crash or a hang.
//
// `make test` runs `CorruptedMedia.fastSet` and a dozen real-world variants
// (`realWorldFastSet()`); `make stress` (PLAYHEAD_STRESS=1) adds `CorruptedMedia.fullSet()`,
// every fixture with six kinds of damage plus the 60 real-world variants.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("corrupted media never crashes or hangs")
struct CorruptedMediaTests {
    /// Seconds one run may take. Untimed playback of a two-second fixture takes well under a
    /// second; the CLI's own no-progress watchdog fires only after 30 s, so a run stuck in the
    /// engine shows up here as a hang.
    static let limit =
        ProcessInfo.processInfo.environment["PLAYHEAD_RUN_LIMIT"].flatMap(Double.init) ?? 25.0

    static var stressEnabled: Bool { ProcessInfo.processInfo.environment["PLAYHEAD_STRESS"] == "1" }

    @Test("probe and play end cleanly on damaged media", arguments: CorruptedMedia.fastSet)
    func damagedMediaEndsCleanly(_ variant: CorruptedMedia) async throws {
        try await Self.check(variant)
    }

    @Test(
        "stress: every fixture and real-world clip, damaged six ways",
        .enabled(if: stressEnabled, "set PLAYHEAD_STRESS=1 (make stress)"),
        arguments: stressEnabled ? CorruptedMedia.fullSet() : [])
    func everyDamagedVariantEndsCleanly(_ variant: CorruptedMedia) async throws {
        try await Self.check(variant)
    }

    @Test(
        "real-world clips: a dozen of the 60 damaged variants end cleanly",
        arguments: CorruptedMedia.realWorldFastSet())
    func damagedRealWorldClipEndsCleanly(_ variant: CorruptedMedia) async throws {
        try await Self.check(variant)
    }

    @Test func theRealWorldSetHasSixtyVariantsCoveringEverySourceAndDamage() throws {
        let clips = RealWorldMedia.files()
        guard clips.count == 4 else { return }  // offline machine: the clips were not fetched
        let set = CorruptedMedia.realWorldSet()
        #expect(set.count == 60)
        #expect(Set(set).count == 60)
        let fast = CorruptedMedia.realWorldFastSet()
        #expect(fast.count == 12)
        #expect(Set(fast.map(\.source)).count == 6)
        #expect(Set(fast.map(\.damage)).count == 10)
        // Damage is deterministic: the same variant gives the same bytes twice.
        let variant = set[17]
        let bytes = try Data(contentsOf: try variant.url())
        #expect(variant.damaged(try Data(contentsOf: try variant.source.url())) == bytes)
    }

    @Test("oversized media is refused without allocating it", arguments: OversizedMedia.allCases)
    func oversizedMediaIsRefused(_ input: OversizedMedia) async throws {
        let path = try input.url().path
        guard let probe = try await PlayheadProcess.run(["probe", path], limit: Self.limit),
            let play = try await PlayheadProcess.run(
                ["play", "--untimed", "--report", "json", path], limit: Self.limit)
        else { return }
        #expect(
            probe.ending == .exited(0) || probe.ending == .exited(1),
            "probe \(input): \(probe.ending)")
        if let reason = input.expectedReason {
            #expect(play.ending == .exited(1), "\(input): \(play.ending)")
            #expect(play.errorLines == ["playhead: \(path): \(reason)"])
        } else {
            #expect(play.ending == .exited(0), "\(input): \(play.ending) \(play.standardError)")
            let report = try JSONSerialization.jsonObject(with: Data(play.standardOutput.utf8))
            #expect((report as? [String: Any])?["videoFramesPresented"] as? Int == 0)
        }
        // Believing the PNG header costs 768 MB; the refusal must stay far below that.
        if let peak = try Self.peakResidentKilobytes(["play", "--untimed", "--no-audio", path]) {
            #expect(peak < 400_000, "\(input): play peaked at \(peak) KB")
        }
    }

    /// The peak RSS of one `playhead` run, measured by /usr/bin/time (nil when it is missing).
    static func peakResidentKilobytes(_ arguments: [String]) throws -> Int? {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path),
            let executable = PlayheadBinary.url
        else { return nil }
        let result = try Subprocess.run(time, ["-f", "peak=%M", executable.path] + arguments)
        let text = result.standardError
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("peak=") }) else {
            return nil
        }
        return Int(line.dropFirst(5))
    }

    /// Runs probe and play on `variant` and checks how each ended.
    static func check(_ variant: CorruptedMedia, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let path = try variant.url().path
        let commands = [
            ["probe", path],
            ["play", "--untimed", "--no-audio", "--report", "json", path],
        ]
        for arguments in commands {
            guard let run = try await PlayheadProcess.run(arguments, limit: limit) else { return }
            let what = "\(arguments[0]) \(variant) (\(path))"
            switch run.ending {
            case .signalled(let signal):
                Issue.record(
                    "\(what) crashed with signal \(signal): \(run.standardError)",
                    sourceLocation: sourceLocation)
            case .hung:
                Issue.record(
                    "\(what) still running after \(limit) s; killed", sourceLocation: sourceLocation
                )
            case .exited(0):
                #expect(
                    run.errorLines.isEmpty, "\(what): \(run.standardError)",
                    sourceLocation: sourceLocation)
                if arguments[0] == "play" {
                    let report = try JSONSerialization.jsonObject(
                        with: Data(run.standardOutput.utf8))
                    #expect(
                        (report as? [String: Any])?["status"] as? String == "completed", "\(what)",
                        sourceLocation: sourceLocation)
                }
            case .exited(1):
                #expect(
                    run.errorLines.count == 1, "\(what): \(run.standardError)",
                    sourceLocation: sourceLocation)
                let line = run.errorLines.first ?? ""
                #expect(
                    line.hasPrefix("playhead: \(path): "), "\(what): \(line)",
                    sourceLocation: sourceLocation)
                #expect(
                    line.count > "playhead: \(path): ".count + 3, "\(what): \(line)",
                    sourceLocation: sourceLocation)
            case .exited(let status):
                Issue.record(
                    "\(what) exited with \(status): \(run.standardError)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
