// Playhead: the sound of a DASH presentation of two Periods, heard on a manual clock: the
// introduction's tone for its 4 s, then the programme's, with no silence where they meet.
// Runs in the serial pass of `make test` only (`PLAYHEAD_REALTIME_TESTS`, suite name ending
// in `OverLoopback`): a loopback server and the engine's real threads, starved beside the
// whole parallel pass.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct DASHPeriodPlaybackOverLoopbackTests {
    @Test func eachPeriodsSoundIsHeardInItsStretchWithNoSilenceBetween() async throws {
        let rig = try await LoopbackPlaybackRig(
            LoopbackHTTPServer(root: try DASHMedia.periodsFolder()), path: "periods/manifest.mpd")
        defer { rig.server.stop() }
        #expect(rig.item.accessLog() != nil, "Playhead's loader streams it")
        await rig.play(for: 6)

        let introduction = rig.tone(from: 0.5, length: 3)
        let end = rig.tone(from: 3.5, length: 0.45)
        let programme = rig.tone(from: 4.1, length: 1.8)
        #expect(abs(introduction - 880) < 15, "the introduction's tone: \(introduction) (\(rig.state()))")
        #expect(abs(end - 880) < 25, "up to its end: \(end)")
        #expect(abs(programme - 440) < 15, "then the programme's: \(programme) (\(rig.state()))")
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty, "\(rig.output.silentRanges(minimumFrames: 48))")
        rig.player.replaceCurrentItem(with: nil)
    }

    @Test func aPeriodsSoundPastItsEndIsNotHeardOverTheNext() async throws {
        let server = try LoopbackHTTPServer(root: try DASHMedia.periodsFolder())
        defer { server.stop() }
        // The introduction's Period cut to 3.6 s; its sound runs on to 4 s in its segment.
        server.setRule(
            .content(Data(try DASHMedia.periodsManifest(introductionEndingAt: 3.6).utf8), contentType: "application/dash+xml"),
            for: "/periods/short.mpd")
        let rig = try await LoopbackPlaybackRig(server, path: "periods/short.mpd")
        await rig.play(for: 6)

        let end = rig.tone(from: 3.2, length: 0.38)
        let programme = rig.tone(from: 3.65, length: 1.8)
        #expect(abs(end - 880) < 25, "the introduction's tone up to its end: \(end) (\(rig.state()))")
        #expect(abs(programme - 440) < 15, "the programme's from 3.6 s: \(programme) (\(rig.state()))")
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty, "\(rig.output.silentRanges(minimumFrames: 48))")
        rig.player.replaceCurrentItem(with: nil)
    }
}
