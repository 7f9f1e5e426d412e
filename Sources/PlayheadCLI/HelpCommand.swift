// Playhead: `playhead help [COMMAND]`, which prints the top-level or a command's help.

/// The built-in `help` command.
public enum HelpCommand {
    /// The `COMMAND` positional.
    static let commandArgument = PositionalArgument(
        "COMMAND", help: "The command to describe; leave out for the command list.",
        isOptional: true)

    /// Builds the `help` command for a list of registered commands.
    ///
    /// - Parameter registered: The commands it can describe (itself is added).
    public static func command(listing registered: [Command]) -> Command {
        Command(
            name: "help",
            abstract: "Show the help for a command.",
            arguments: [commandArgument]
        ) { context in
            let all = registered + [command(listing: registered)]
            guard let name = context.arguments.argument(commandArgument.name) else {
                context.console.writeOutput(HelpFormatter.rootHelp(commands: all))
                return .success
            }
            guard let target = all.first(where: { $0.name == name }) else {
                throw UsageError(.unknownCommand(name))
            }
            context.console.writeOutput(HelpFormatter.help(for: target))
            return .success
        }
    }
}
