// Playhead: `playhead play [options] INPUT...`, which plays media in a window or headless.
import Foundation
import OpenAVFoundation

/// The `play` command.
public enum PlayCommand {
    /// The `INPUT...` positional.
    static let inputsArgument = PositionalArgument(
        "INPUT", help: "Media files or URLs, played one after another.", isVariadic: true)

    /// Builds the `play` command.
    ///
    /// - Parameter demoWithoutInput: when true, no input plays the built-in demo (how
    ///   `playhead` with no input runs); `playhead play` itself requires an input.
    public static func command(demoWithoutInput: Bool = false) -> Command {
        var inputs = inputsArgument
        inputs.isOptional = demoWithoutInput
        return Command(
            name: "play",
            abstract: "Play media in a window (or headless) with sound, controls and keys.",
            discussion: """
                With a display ($DISPLAY or $WAYLAND_DISPLAY) a window opens with playback \
                controls; keys: space/k pause, left/right seek 5 s, j/l 10 s, up/down volume, \
                m mute, f fullscreen, [ ] speed, . and , step a frame while paused, \
                PageDown/PageUp next/previous chapter, a next audio language, s next \
                subtitles, z/x subtitles 0.1 s earlier/later, Shift+S screenshot, q quits. The subtitle track the \
                file flags as default (else a forced one) shows unless --sub or --sub-lang \
                picks another or --no-sub turns subtitles off; --sub-delay, --sub-font and \
                --sub-scale change when and how the window draws them. \
                Without a display, with --headless or with --untimed, playback is headless. \
                On a terminal a status line shows the state, position, progress, buffered \
                amount and rate; keys: space pauses, left/right seek 5 s, q quits. `playhead \
                INPUT...` is short for `playhead play INPUT...`; `playhead` with no input plays a \
                built-in demo (a moving test picture with a title and a tone). With --report json one JSON \
                object is printed on stdout at the end. Exit status 1 when an input fails.
                """,
            options: PlayOptions.all,
            arguments: [inputs],
            customUsage: "playhead play [OPTIONS] INPUT..."
        ) { context in
            let inputs = context.arguments.arguments(inputsArgument.name)
            let options = try PlayOptions.from(context.arguments, inputs: inputs)
            if let problem = options.selection.subtitleFileProblem, let file = options.selection.subtitleFile {
                context.console.printError("playhead: \(file): \(problem)")
                return .failure
            }
            let reports = await MainActor.run { PlaySession(options: options, console: context.console) }
                .run()
            if options.reportJSON {
                context.console.print(PlayReport.run(items: reports).formatted(.compact))
            }
            return reports.contains { $0.status == .failed } ? .failure : .success
        }
    }
}
