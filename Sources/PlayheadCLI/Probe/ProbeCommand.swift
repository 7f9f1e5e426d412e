// Playhead: `playhead probe [--json] INPUT`, which describes one media input.

import Foundation

/// The `probe` command: loads a `ProbeSummary` through an injected loader and
/// prints it as text or JSON.
public enum ProbeCommand {
    /// Loads the summary for an input (a path or URL as typed).
    ///
    /// Errors it throws are reported as `playhead: <input>: <reason>` with exit 1.
    public typealias Loader = @Sendable (String) async throws -> ProbeSummary

    /// The placeholder loader used until a real back end is wired in; it always fails.
    public static let unwiredLoader: Loader = { _ in throw BackendNotWiredError() }

    /// The error `unwiredLoader` throws.
    public struct BackendNotWiredError: LocalizedError, Sendable {
        /// Creates the error.
        public init() {}
        /// `probe backend not wired`.
        public var errorDescription: String? { "probe backend not wired" }
    }

    /// The `--json` flag.
    static let jsonOption = CommandOption.flag(
        "json", help: "Print one JSON object instead of the readable summary.")

    /// The `INPUT` positional.
    static let inputArgument = PositionalArgument(
        "INPUT", help: "The media file path or URL to inspect.")

    /// Builds the `probe` command around a loader.
    ///
    /// - Parameter loader: Produces the summary for an input; see `Loader`.
    public static func command(loader: @escaping Loader) -> Command {
        Command(
            name: "probe",
            abstract: "Show a media file's container, duration, tracks and metadata.",
            discussion: """
                INPUT is a file path or any URL the engine can open (file, http, https \
                and so on). The readable summary leaves out what the input does not have; \
                --json always prints the same keys, with null for unknown values.
                """,
            options: [jsonOption],
            arguments: [inputArgument]
        ) { context in
            let input = context.arguments.argument(inputArgument.name) ?? ""
            let summary: ProbeSummary
            do {
                summary = try await loader(input)
            } catch {
                throw InputFailure(input: input, error: error)
            }
            context.console.print(
                render(summary, asJSON: context.arguments.flag(jsonOption.name)))
            return .success
        }
    }

    /// The text `probe` prints for a summary, without the final newline.
    ///
    /// - Parameters:
    ///   - summary: What was loaded.
    ///   - asJSON: `true` for the `--json` object, `false` for the readable text.
    public static func render(_ summary: ProbeSummary, asJSON: Bool) -> String {
        asJSON ? summary.jsonValue.formatted(.pretty) : summary.readableText
    }
}
