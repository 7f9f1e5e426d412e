// Playhead: runs the CLI in-process with a recording console for tests.

import PlayheadCLI

/// The outcome of one in-process `Playhead.run`.
struct CLIOutcome {
    /// The returned exit code.
    var code: ExitCode
    /// Everything written to standard output.
    var standardOutput: String
    /// Everything written to standard error.
    var standardError: String
}

/// Runs `playhead` in-process with `arguments`, capturing both streams.
///
/// - Parameters:
///   - arguments: The words after the program name.
///   - probeLoader: The probe back end; defaults to the unwired placeholder.
func runCLI(
    _ arguments: [String],
    probeLoader: @escaping ProbeCommand.Loader = ProbeCommand.unwiredLoader
) async -> CLIOutcome {
    let recorder = ConsoleRecorder()
    let code = await Playhead.run(
        arguments: arguments, console: recorder.console,
        environment: Playhead.Environment(probeLoader: probeLoader))
    return CLIOutcome(
        code: code, standardOutput: recorder.standardOutput,
        standardError: recorder.standardError)
}
