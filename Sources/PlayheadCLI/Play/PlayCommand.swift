// Playhead: `playhead play [options] INPUT...`, which plays media headless.
import Foundation
import OpenAVFoundation

/// The `play` command.
public enum PlayCommand {
    /// The `INPUT...` positional.
    static let inputsArgument = PositionalArgument(
        "INPUT", help: "Media files or URLs, played one after another.", isVariadic: true)

    /// Builds the `play` command.
    public static func command() -> Command {
        Command(
            name: "play",
            abstract: "Play media (headless: no window yet) with sound, status line and keys.",
            discussion: """
                On a terminal a status line shows the state, position, progress, buffered \
                amount and rate; keys: space pauses, left/right seek 5 s, q quits. `playhead \
                INPUT...` is short for `playhead play INPUT...`. With --report json one JSON \
                object is printed on stdout at the end. Exit status 1 when an input fails.
                """,
            options: PlayOptions.all,
            arguments: [inputsArgument],
            customUsage: "playhead play [OPTIONS] INPUT..."
        ) { context in
            let inputs = context.arguments.arguments(inputsArgument.name)
            let options = try PlayOptions.from(context.arguments, inputs: inputs)
            let reports = await MainActor.run { PlaySession(options: options, console: context.console) }
                .run()
            if options.reportJSON {
                context.console.print(PlayReport.run(items: reports).formatted(.compact))
            }
            return reports.contains { $0.status == .failed } ? .failure : .success
        }
    }
}
