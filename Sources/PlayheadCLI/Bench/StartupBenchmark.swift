// Playhead: `playhead bench startup`: time to first frame, by phase and through a player.
//
// Concurrency: main actor; the FFmpegBridge phases run on a detached task so the main queue
// stays free for the player runs' notifications.
import Foundation
import OpenAVFoundation

/// Runs the startup benchmark.
@MainActor
enum StartupBenchmark {
    /// Runs per measurement; each reported figure is the median.
    nonisolated static let runCount = 5
    /// Seconds a player may take to show its first frame.
    nonisolated static let playerTimeout = 30.0

    /// Measures `url` `runCount` times with the bridge types and `runCount` times with a player.
    ///
    /// - Throws: `MediaFailure` or the item's error when the input cannot be played.
    static func run(url: URL) async throws -> StartupReport {
        var phases: [StartupPhases] = []
        for _ in 0..<runCount {
            phases.append(try await Task.detached { try StartupPhases.measure(url: url) }.value)
        }
        var player: [Double] = []
        for _ in 0..<runCount {
            guard let milliseconds = try await playerFirstFrame(url: url) else { break }
            player.append(milliseconds)
        }
        func median(_ values: [Double]) -> Double { BenchStatistics(values).median }
        return StartupReport(
            runs: runCount,
            phases: StartupPhases(
                open: median(phases.map(\.open)), streamInfo: median(phases.map(\.streamInfo)),
                firstPacket: median(phases.map(\.firstPacket)),
                firstFrame: median(phases.map(\.firstFrame))),
            playerFirstFrame: player.isEmpty ? nil : median(player))
    }

    /// Milliseconds from creating an item for `url` (on a playing player without audio) to its
    /// first frame reaching a video sink; nil when the input has no video.
    static func playerFirstFrame(url: URL) async throws -> Double? {
        let sinks = VideoSinks()
        let sink = BenchVideoSink()
        sinks.add(sink)
        let player = AVPlayer(
            environment: PlaybackEnvironment(makeAudioOutput: nil, videoSinks: sinks))
        defer { player.replaceCurrentItem(with: nil) }
        let start = BenchClock.now()
        let item = AVPlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        player.play()
        guard
            let shown = try await BenchWait.untilFirstFrame(
                sink, item: item, timeout: playerTimeout)
        else { return nil }
        return BenchClock.milliseconds(from: start, to: shown)
    }
}

/// The medians of one startup run.
struct StartupReport: Equatable {
    /// How many runs each median is taken over.
    var runs: Int
    /// The bridge-level phase marks, in milliseconds since the start of opening.
    var phases: StartupPhases
    /// Item creation to first presented frame through `AVPlayer`; nil without video.
    var playerFirstFrame: Double?

    /// `{"openMs","streamInfoMs","firstPacketMs","firstFrameMs","playerFirstFrameMs","runs"}`.
    var json: JSONValue {
        [
            "openMs": .number(BenchClock.rounded(phases.open)),
            "streamInfoMs": .number(BenchClock.rounded(phases.streamInfo)),
            "firstPacketMs": .number(BenchClock.rounded(phases.firstPacket)),
            "firstFrameMs": .number(BenchClock.rounded(phases.firstFrame)),
            "playerFirstFrameMs": JSONValue(playerFirstFrame.map(BenchClock.rounded)),
            "runs": .integer(runs),
        ]
    }

    /// The readable summary.
    var text: String {
        func ms(_ value: Double?) -> String {
            value.map { String(format: "%8.2f ms", $0) } ?? "       n/a"
        }
        return """
            startup, median of \(runs) runs, milliseconds since the start
            open                 \(ms(phases.open))
            stream info          \(ms(phases.streamInfo))
            first packet         \(ms(phases.firstPacket))
            first frame          \(ms(phases.firstFrame))
            player first frame   \(ms(playerFirstFrame))
            """
    }
}
