// Playhead: `playhead bench seek|startup|sync [--json] INPUT`, which measures the engine on one input.
import FFmpegBridge
import Foundation

/// The `bench` command: runs one named benchmark (the first positional) on an input and prints
/// its timings as text or JSON.
public enum BenchCommand {
    /// The benchmarks `bench` knows, by the word that selects them.
    enum Benchmark: String, CaseIterable {
        /// Exact seeks while paused; see `SeekBenchmark`.
        case seek
        /// Open to first frame, by phase and through a player; see `StartupBenchmark`.
        case startup
        /// Video against the audio clock during real-time playback; see `SyncBenchmark`.
        case sync
    }

    /// The `--json` flag.
    static let jsonOption = CommandOption.flag(
        "json", help: "Print one JSON object instead of the readable summary.")

    /// The `BENCHMARK` positional (the subcommand).
    static let benchmarkArgument = PositionalArgument(
        "BENCHMARK", help: "What to measure: seek, startup or sync.")

    /// The `INPUT` positional.
    static let inputArgument = PositionalArgument(
        "INPUT", help: "The media file path or URL to measure.")

    /// Builds the `bench` command.
    public static func command() -> Command {
        Command(
            name: "bench",
            abstract: "Measure exact-seek latency, startup time or A/V sync on one input.",
            discussion: """
                `bench seek` makes \(SeekBenchmark.seekCount) exact seeks (zero tolerance) to \
                fixed pseudo-random positions with the player paused and no audio, timing each \
                from the call to its completion handler, and prints the median, mean and \
                maximum; then it times the same lookups with no player (decoding alone, the \
                floor any exact seek pays). `bench startup` times open, stream info, first packet and first \
                decoded frame with the demuxer and decoders directly, and item creation to \
                first presented frame through a player; each figure is the median of \
                \(StartupBenchmark.runCount) runs in milliseconds since the start. `bench sync` \
                plays the input once in real time, headless, on the system audio device (else \
                the silent clock-driven output), and for every frame shown on the audio clock \
                records |presentation time - audio clock| as the frame is handed over; it \
                prints the frame count and the p50, p99 and maximum in milliseconds.
                """,
            options: [jsonOption],
            arguments: [benchmarkArgument, inputArgument],
            customUsage: "playhead bench (seek | startup | sync) [--json] INPUT"
        ) { context in
            let name = context.arguments.argument(benchmarkArgument.name) ?? ""
            guard let benchmark = Benchmark(rawValue: name) else {
                let known = Benchmark.allCases.map(\.rawValue).joined(separator: " or ")
                throw UsageError(.other("unknown benchmark '\(name)': expected \(known)"))
            }
            let input = context.arguments.argument(inputArgument.name) ?? ""
            let asJSON = context.arguments.flag(jsonOption.name)
            let url = InputURL.from(input)
            do {
                switch benchmark {
                case .seek:
                    let report = try await SeekBenchmark.run(url: url)
                    context.console.print(asJSON ? report.json.formatted(.compact) : report.text)
                case .startup:
                    let report = try await StartupBenchmark.run(url: url)
                    context.console.print(asJSON ? report.json.formatted(.compact) : report.text)
                case .sync:
                    let report = try await SyncBenchmark.run(url: url)
                    context.console.print(asJSON ? report.json.formatted(.compact) : report.text)
                }
            } catch let failure as MediaFailure {
                throw InputFailure(input: input, reason: failure.reason)
            } catch {
                throw InputFailure(input: input, error: error)
            }
            return .success
        }
    }
}
