// Playhead: builds the `--help` text for `playhead` and for each command from their tables.

/// Generates help text from command descriptions; nothing here is written by hand
/// per command except the abstract, discussion and per-row help sentences.
public enum HelpFormatter {
    /// The width help text wraps at.
    public static let lineWidth = 80

    /// The widest left column before a row's help moves to its own line.
    static let maximumLabelWidth = 24

    // MARK: - Documents

    /// The help for `playhead --help`: usage, the command list and the global options.
    ///
    /// - Parameter commands: Every registered command, in listing order.
    public static func rootHelp(commands: [Command]) -> String {
        let name = Playhead.executableName
        var sections: [String] = [
            "\(name): \(Playhead.abstract)",
            """
            Usage: \(Playhead.usage)
                   \(name) [PLAY OPTIONS]      plays the built-in demo
                   \(name) help COMMAND
                   \(name) --version
            """,
        ]
        sections.append(
            "Commands:\n" + table(commands.map { ($0.name, $0.abstract) }))
        sections.append(
            "Options:\n" + table(Playhead.globalOptions.map { ($0.helpSpelling, $0.help) }))
        sections.append(
            wrap(
                "Exit status: 0 on success, 1 when an input cannot be opened or read, "
                    + "2 when the command line is wrong."))
        sections.append("See '\(name) help COMMAND' for a command's options.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The help for `playhead help CMD` and `playhead CMD --help`.
    public static func help(for command: Command) -> String {
        var sections: [String] = [
            "\(Playhead.executableName) \(command.name): \(command.abstract)",
            "Usage: \(command.usage)",
        ]
        if let discussion = command.discussion {
            sections.append(
                discussion.components(separatedBy: "\n\n").map { wrap($0) }
                    .joined(separator: "\n\n"))
        }
        let argumentRows = command.arguments.map { ($0.name, $0.help) }
        let optionRows = (command.options + [CommandOption.help]).map {
            ($0.helpSpelling, $0.isRepeatable ? $0.help + " May be repeated." : $0.help)
        }
        let labelWidth = columnWidth(for: argumentRows + optionRows)
        if !argumentRows.isEmpty {
            sections.append("Arguments:\n" + table(argumentRows, labelWidth: labelWidth))
        }
        sections.append("Options:\n" + table(optionRows, labelWidth: labelWidth))
        return sections.joined(separator: "\n\n") + "\n"
    }

    // MARK: - Layout

    /// The left-column width that fits every label up to `maximumLabelWidth`.
    static func columnWidth(for rows: [(String, String)]) -> Int {
        let widest = rows.map(\.0.count).max() ?? 0
        return min(widest, maximumLabelWidth)
    }

    /// A two-column listing indented by two spaces; long help wraps under its column,
    /// and a label wider than the column puts its help on the next line.
    static func table(_ rows: [(String, String)], labelWidth: Int? = nil) -> String {
        let width = labelWidth ?? columnWidth(for: rows)
        let indent = String(repeating: " ", count: 2 + width + 2)
        var lines: [String] = []
        for (label, help) in rows {
            let wrapped = wrap(help, width: lineWidth - indent.count)
                .split(separator: "\n", omittingEmptySubsequences: false)
            if label.count > width {
                lines.append("  " + label)
                lines.append(contentsOf: wrapped.map { indent + $0 })
                continue
            }
            let padded = "  " + label + String(repeating: " ", count: width - label.count + 2)
            for (index, piece) in wrapped.enumerated() {
                lines.append((index == 0 ? padded : indent) + piece)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Greedy word wrap of one paragraph; words longer than `width` stay whole.
    static func wrap(_ text: String, width: Int = lineWidth) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}
