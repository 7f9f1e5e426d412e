// Playhead: turns a command's argument words into ParsedArguments using its option table.

/// Parses the words after a command name against that command's option table.
///
/// Accepted forms: `--flag`, `--opt value`, `--opt=value`, `-o value`, a lone `-`
/// (a positional, conventionally standard input) and `--` (everything after it is
/// positional). Options may be repeated and may appear before or after positionals.
/// `-h` or `--help` anywhere before `--` wins over every other word, even invalid ones.
public enum OptionParser {
    /// Parses `words` against an option table and a list of positional arguments.
    ///
    /// - Parameters:
    ///   - words: The arguments after the command name.
    ///   - options: The command's option table; `CommandOption.help` is always added.
    ///   - arguments: The command's positional arguments, required ones first.
    /// - Returns: The parsed options and positionals, or a result with
    ///   `isHelpRequested` set.
    /// - Throws: `UsageError` for an unknown option, a missing or unexpected value,
    ///   a missing required positional, or an extra positional.
    public static func parse(
        _ words: [String], options: [CommandOption], arguments: [PositionalArgument]
    ) throws(UsageError) -> ParsedArguments {
        if requestsHelp(words) {
            return ParsedArguments(isHelpRequested: true)
        }
        let table = options + [CommandOption.help]
        var result = ParsedArguments()
        var loose: [String] = []
        var index = words.startIndex
        var optionsEnded = false

        while index < words.endIndex {
            let word = words[index]
            index += 1
            if optionsEnded || !looksLikeOption(word) {
                loose.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else {
                let (option, spelling, inlineValue) = try lookUp(word, in: table)
                switch option.kind {
                case .flag:
                    if inlineValue != nil { throw UsageError(.unexpectedValue(option: spelling)) }
                    result.flagCounts[option.name, default: 0] += 1
                case .value:
                    let value: String
                    if let inlineValue {
                        value = inlineValue
                    } else if index < words.endIndex, !looksLikeOption(words[index]) {
                        value = words[index]
                        index += 1
                    } else {
                        throw UsageError(.missingValue(option: spelling))
                    }
                    result.optionValues[option.name, default: []].append(value)
                }
            }
        }

        try assign(loose, to: arguments, in: &result)
        return result
    }

    // MARK: - Pieces

    /// Whether `-h` or `--help` appears before any `--`.
    static func requestsHelp(_ words: [String]) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == "-h" || word == "--help" { return true }
        }
        return false
    }

    /// Whether a word is an option (or `--`) rather than a value: it starts with a dash,
    /// is not a lone `-`, and is not a negative number such as `-1.5`.
    static func looksLikeOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-" && Double(word) == nil
    }

    /// Finds the table row for an option word.
    ///
    /// - Returns: The option, the spelling the user typed (without any `=value`),
    ///   and the inline value after `=`, if any.
    private static func lookUp(
        _ word: String, in table: [CommandOption]
    ) throws(UsageError) -> (CommandOption, String, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name: Substring
            let inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = body
                inlineValue = nil
            }
            guard let option = table.first(where: { $0.name == name }) else {
                throw UsageError(.unknownOption("--" + name))
            }
            return (option, "--" + name, inlineValue)
        }
        let body = word.dropFirst()
        guard body.count == 1, let option = table.first(where: { $0.shortName == body.first })
        else {
            throw UsageError(.unknownOption(word))
        }
        return (option, word, nil)
    }

    /// Matches loose words to the declared positionals, in order.
    private static func assign(
        _ loose: [String], to arguments: [PositionalArgument], in result: inout ParsedArguments
    ) throws(UsageError) {
        for (position, argument) in arguments.enumerated() {
            if argument.isVariadic {
                let rest = position < loose.count ? Array(loose[position...]) : []
                if rest.isEmpty && !argument.isOptional {
                    throw UsageError(.missingArgument(argument.name))
                }
                result.variadicPositionals[argument.name] = rest
                return
            }
            if position < loose.count {
                result.positionals[argument.name] = loose[position]
            } else if !argument.isOptional {
                throw UsageError(.missingArgument(argument.name))
            }
        }
        if loose.count > arguments.count {
            throw UsageError(.unexpectedArgument(loose[arguments.count]))
        }
    }
}
