// Playhead: the `playhead` entry point that picks a command, parses and runs it.
import Foundation

/// The `playhead` command-line tool: global options, command dispatch and the
/// exit-code conventions every command shares.
///
/// ```swift
/// let code = await Playhead.run(arguments: ["probe", "--json", "demo.mp4"], console: .standard)
/// ```
public enum Playhead {
    /// The tool's version, printed by `playhead --version`.
    public static let version = "0.1.0"

    /// The executable's name as used in messages and help.
    public static let executableName = "playhead"

    /// The one-line description at the top of `playhead --help`.
    public static let abstract = "Play and inspect media with an AVFoundation-style engine."

    /// The top-level usage line without the `Usage: ` prefix.
    public static let usage = "\(executableName) COMMAND [OPTIONS] [ARGUMENTS]"

    /// The top-level help hint printed after a usage error that belongs to no command.
    public static let helpHint = "See '\(executableName) --help'."

    /// `--version`, the one global option besides `-h, --help`.
    static let versionOption = CommandOption.flag("version", help: "Print the version and exit.")

    /// The options accepted before a command name, in help order.
    public static let globalOptions = [CommandOption.help, versionOption]

    // MARK: - Running

    /// Runs one invocation of the tool and returns the status to exit with.
    ///
    /// Never exits the process and never throws: every outcome is written to
    /// `console` and summarised by the returned code.
    ///
    /// - Parameters:
    ///   - arguments: The command-line words after the program name.
    ///   - console: Where to write standard output and standard error.
    ///   - environment: The back ends commands use, such as the probe loader.
    /// - Returns: `.success`, `.failure` (media or network error) or `.usageError`.
    public static func run(
        arguments: [String], console: Console, environment: Environment = .standard
    ) async -> ExitCode {
        let commands = allCommands(for: environment)
        guard let first = arguments.first else {
            // `playhead` alone plays the built-in demo.
            return await run(PlayCommand.command(demoWithoutInput: true), arguments: [], console: console)
        }
        if OptionParser.looksLikeOption(first) {
            // `playhead --frames 5 clip.mp4` is short for `playhead play --frames 5 clip.mp4`;
            // `playhead --fullscreen` (play options, no input) plays the built-in demo.
            let isGlobal = globalOptions.contains { $0.longSpelling == first || first == "-h" }
            if !isGlobal, PlayCommand.isPlayOption(first) {
                return await run(PlayCommand.command(demoWithoutInput: true), arguments: arguments, console: console)
            }
            if !isGlobal, arguments.contains(where: looksLikeInput),
                let play = commands.first(where: { $0.name == "play" })
            {
                return await run(play, arguments: arguments, console: console)
            }
            return runGlobalOptions(arguments, commands: commands, console: console)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if looksLikeInput(first), let play = commands.first(where: { $0.name == "play" }) {
                return await run(play, arguments: arguments, console: console)
            }
            return report(UsageError(.unknownCommand(first)), usage: usage, hint: helpHint, console)
        }
        return await run(command, arguments: Array(arguments.dropFirst()), console: console)
    }

    /// Parses `words` for one command, runs it and maps what it throws to an exit code.
    ///
    /// - Parameters:
    ///   - command: The command to run.
    ///   - words: The command-line words after the command name.
    ///   - console: Where to write standard output and standard error.
    /// - Returns: The command's own code, or `.usageError` / `.failure` for what it threw.
    public static func run(
        _ command: Command, arguments words: [String], console: Console
    ) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try OptionParser.parse(
                words, options: command.options, arguments: command.arguments)
        } catch {
            return report(error, usage: command.usage, hint: command.helpHint, console)
        }
        if parsed.isHelpRequested {
            console.writeOutput(HelpFormatter.help(for: command))
            return .success
        }
        do {
            return try await command.run(CommandContext(arguments: parsed, console: console))
        } catch let error as UsageError {
            return report(error, usage: command.usage, hint: command.helpHint, console)
        } catch let failure as InputFailure {
            console.printError(Diagnostics.line(for: failure))
            return .failure
        } catch {
            console.printError(Diagnostics.line(for: error))
            return .failure
        }
    }

    // MARK: - Helpers

    /// Whether a first word that names no command is a media input (`playhead INPUT` is short
    /// for `playhead play INPUT`): a URL, a path, a file name with an extension, or an existing
    /// file.
    static func looksLikeInput(_ word: String) -> Bool {
        word.contains("://") || word.contains("/") || word.contains(".")
            || FileManager.default.fileExists(atPath: word)
    }

    /// Handles words that start with an option instead of a command: `--help`, `--version`.
    private static func runGlobalOptions(
        _ words: [String], commands: [Command], console: Console
    ) -> ExitCode {
        do {
            let parsed = try OptionParser.parse(words, options: [versionOption], arguments: [])
            if parsed.isHelpRequested {
                console.writeOutput(HelpFormatter.rootHelp(commands: commands))
            } else {
                console.print("\(executableName) \(version)")
            }
            return .success
        } catch {
            return report(error, usage: usage, hint: helpHint, console)
        }
    }

    /// Writes a usage error's lines to standard error and returns `.usageError`.
    private static func report(
        _ error: UsageError, usage: String, hint: String, _ console: Console
    ) -> ExitCode {
        for line in Diagnostics.lines(for: error, usage: usage, hint: hint) {
            console.printError(line)
        }
        return .usageError
    }
}
