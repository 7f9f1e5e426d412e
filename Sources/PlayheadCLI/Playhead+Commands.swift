// Playhead: the registered command list and the back ends commands are built with.

extension Playhead {
    /// The back ends that commands use, injected so tests and the real binary can differ.
    public struct Environment: Sendable {
        /// Loads a `ProbeSummary` for `playhead probe`.
        public var probeLoader: ProbeCommand.Loader

        /// Creates an environment; any back end left out is the unwired placeholder.
        public init(probeLoader: @escaping ProbeCommand.Loader = ProbeCommand.unwiredLoader) {
            self.probeLoader = probeLoader
        }

        /// The back ends the shipped `playhead` binary uses.
        public static var standard: Environment {
            Environment(probeLoader: AssetProbeLoader.summary(of:))
        }
    }

    /// Every command, in the order `playhead --help` lists them (except `help`, added last).
    ///
    /// Register a new command by adding it here.
    public static func commands(for environment: Environment) -> [Command] {
        [
            BenchCommand.command(),
            DevicesCommand.command(),
            PlayCommand.command(),
            ProbeCommand.command(loader: environment.probeLoader),
            ThumbnailCommand.command(),
        ]
    }

    /// The registered commands plus the built-in `help` command.
    static func allCommands(for environment: Environment) -> [Command] {
        let registered = commands(for: environment)
        return registered + [HelpCommand.command(listing: registered)]
    }
}
