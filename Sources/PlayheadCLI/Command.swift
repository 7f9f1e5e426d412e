// Playhead: the description of one `playhead` subcommand.

/// One `playhead` subcommand: its name, help text, option table, positional
/// arguments and the work it does.
///
/// Commands are plain values. To add one, write a file with a
/// `static func` that builds it and list it in `Playhead.commands(for:)`.
public struct Command: Sendable {
    /// The work a command does once its arguments have parsed.
    ///
    /// Throw `UsageError` for a bad value (exit 2 with this command's usage),
    /// `InputFailure` when the input can't be used (exit 1, one line naming the
    /// input); any other error is printed as `playhead: <reason>` with exit 1.
    public typealias Run = @Sendable (CommandContext) async throws -> ExitCode

    /// The word after `playhead` that selects this command.
    public var name: String

    /// One sentence for the command list and the top of the command's help.
    public var abstract: String

    /// Optional paragraphs shown in the command's help after the usage line.
    public var discussion: String?

    /// The option table; `-h, --help` is added automatically.
    public var options: [CommandOption]

    /// The positional arguments, required ones first.
    public var arguments: [PositionalArgument]

    /// A hand-written usage line replacing the generated one, without the `Usage: ` prefix.
    public var customUsage: String?

    /// The command's work.
    public var run: Run

    /// Creates a command description.
    ///
    /// - Parameters:
    ///   - name: The word that selects the command.
    ///   - abstract: One sentence describing it.
    ///   - discussion: Extra help paragraphs, if any.
    ///   - options: The option table.
    ///   - arguments: The positional arguments, required ones first.
    ///   - customUsage: A usage line to show instead of the generated one.
    ///   - run: The work to do with the parsed arguments.
    public init(
        name: String, abstract: String, discussion: String? = nil,
        options: [CommandOption] = [], arguments: [PositionalArgument] = [],
        customUsage: String? = nil, run: @escaping Run
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.customUsage = customUsage
        self.run = run
    }

    // MARK: - Usage

    /// The usage line without the `Usage: ` prefix: `playhead probe [--json] INPUT`.
    public var usage: String {
        if let customUsage { return customUsage }
        let words =
            ["\(Playhead.executableName) \(name)"]
            + options.map(\.usageSpelling) + arguments.map(\.usageSpelling)
        return words.joined(separator: " ")
    }

    /// The line that points at the full help: `See 'playhead help probe'.`
    public var helpHint: String {
        "See '\(Playhead.executableName) help \(name)'."
    }
}

// MARK: - Context

/// What a running command receives: its parsed arguments and where to write.
public struct CommandContext: Sendable {
    /// The options and positionals from the command line.
    public var arguments: ParsedArguments

    /// The output sink for standard output and standard error.
    public var console: Console

    /// Creates a context.
    public init(arguments: ParsedArguments, console: Console) {
        self.arguments = arguments
        self.console = console
    }
}
