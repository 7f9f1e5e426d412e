// Playhead: tests for OptionParser's accepted forms and every usage-error path.

import PlayheadCLI
import Testing

@Suite struct OptionParserTests {
    let options: [CommandOption] = [
        .flag("json", help: "JSON."),
        .flag("verbose", short: "v", help: "Chatty."),
        .value("at", short: "a", valueName: "S", help: "Seek.", repeatable: true),
        .value("title", valueName: "TEXT", help: "Title."),
    ]
    let arguments = [
        PositionalArgument("INPUT", help: "Input."),
        PositionalArgument("OUTPUT", help: "Output.", isOptional: true),
    ]

    func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try OptionParser.parse(words, options: options, arguments: arguments)
    }

    // MARK: - Accepted forms

    @Test func aLongFlagIsRecorded() async throws {
        let parsed = try parse(["--json", "in.mp4"])
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("verbose"))
        #expect(parsed.argument("INPUT") == "in.mp4")
        #expect(parsed.argument("OUTPUT") == nil)
    }

    @Test func aShortFlagIsRecordedUnderItsLongName() async throws {
        let parsed = try parse(["-v", "in.mp4"])
        #expect(parsed.flag("verbose"))
        #expect(parsed.flagCounts["verbose"] == 1)
    }

    @Test func aValueMayFollowAsTheNextWord() async throws {
        #expect(try parse(["--title", "Hello world", "in"]).value("title") == "Hello world")
    }

    @Test func aValueMayBeAttachedWithEquals() async throws {
        #expect(try parse(["--title=a=b", "in"]).value("title") == "a=b")
        #expect(try parse(["--title=", "in"]).value("title") == "")
    }

    @Test func aShortOptionTakesTheNextWordAsItsValue() async throws {
        #expect(try parse(["-a", "12", "in"]).value("at") == "12")
    }

    @Test func repeatedOptionsKeepEveryValueInOrder() async throws {
        let parsed = try parse(["--at", "1", "in", "--at=2.5", "-a", "3"])
        #expect(parsed.values("at") == ["1", "2.5", "3"])
        #expect(parsed.value("at") == "3")
        #expect(parsed.values("title") == [])
    }

    @Test func repeatedFlagsAreCounted() async throws {
        #expect(try parse(["-v", "--verbose", "in"]).flagCounts["verbose"] == 2)
    }

    @Test func optionsMayComeAfterPositionals() async throws {
        let parsed = try parse(["in", "out", "--json"])
        #expect(parsed.flag("json"))
        #expect(parsed.argument("OUTPUT") == "out")
    }

    @Test func doubleDashEndsOptions() async throws {
        let parsed = try parse(["--json", "--", "--weird-name", "-v"])
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("verbose"))
        #expect(parsed.argument("INPUT") == "--weird-name")
        #expect(parsed.argument("OUTPUT") == "-v")
    }

    @Test func aLoneDashIsAPositional() async throws {
        #expect(try parse(["-"]).argument("INPUT") == "-")
    }

    @Test func aNegativeNumberIsAcceptedAsAValue() async throws {
        #expect(try parse(["--at", "-1.5", "in"]).value("at") == "-1.5")
    }

    @Test func helpWinsOverEverythingElse() async throws {
        #expect(try parse(["--bogus", "--at", "-h"]).isHelpRequested)
        #expect(try parse(["a", "b", "c", "--help"]).isHelpRequested)
        #expect(try parse(["in"]).isHelpRequested == false)
    }

    @Test func helpAfterDoubleDashIsAPositional() async throws {
        let parsed = try parse(["--", "--help"])
        #expect(!parsed.isHelpRequested)
        #expect(parsed.argument("INPUT") == "--help")
    }

    @Test func typedValuesConvertOrReportTheBadValue() async throws {
        let parsed = try parse(["--at", "12.5", "--title", "x", "in"])
        #expect(try parsed.value("at", as: Double.self, expected: "seconds") == 12.5)
        #expect(try parsed.value("missing", as: Double.self, expected: "seconds") == nil)
        #expect(
            throws: UsageError(.invalidValue(option: "--title", value: "x", expected: "a number"))
        ) {
            try parsed.value("title", as: Int.self, expected: "a number")
        }
    }

    // MARK: - Usage errors

    @Test func anUnknownLongOptionIsAUsageError() async {
        #expect(throws: UsageError(.unknownOption("--bogus"))) { try parse(["--bogus", "in"]) }
    }

    @Test func anUnknownOptionWithAValueNamesOnlyTheOption() async {
        #expect(throws: UsageError(.unknownOption("--bogus"))) { try parse(["--bogus=1", "in"]) }
    }

    @Test func anUnknownShortOptionIsAUsageError() async {
        #expect(throws: UsageError(.unknownOption("-x"))) { try parse(["-x", "in"]) }
    }

    @Test func clusteredShortOptionsAreNotSupported() async {
        #expect(throws: UsageError(.unknownOption("-va"))) { try parse(["-va", "in"]) }
    }

    @Test func aValueOptionAtTheEndIsMissingItsValue() async {
        #expect(throws: UsageError(.missingValue(option: "--at"))) { try parse(["in", "--at"]) }
    }

    @Test func aValueOptionFollowedByAnOptionIsMissingItsValue() async {
        #expect(throws: UsageError(.missingValue(option: "-a"))) {
            try parse(["-a", "--json", "in"])
        }
    }

    @Test func aFlagGivenAValueIsAUsageError() async {
        #expect(throws: UsageError(.unexpectedValue(option: "--json"))) {
            try parse(["--json=yes", "in"])
        }
    }

    @Test func aMissingRequiredPositionalIsAUsageError() async {
        #expect(throws: UsageError(.missingArgument("INPUT"))) { try parse(["--json"]) }
    }

    @Test func anExtraPositionalIsAUsageError() async {
        #expect(throws: UsageError(.unexpectedArgument("third"))) {
            try parse(["first", "second", "third"])
        }
    }

    @Test func usageErrorMessagesReadNaturally() async {
        let cases: [(UsageError.Reason, String)] = [
            (.unknownOption("--x"), "unknown option '--x'"),
            (.missingValue(option: "--at"), "missing value for option '--at'"),
            (.unexpectedValue(option: "--json"), "option '--json' does not take a value"),
            (.missingArgument("INPUT"), "missing required argument INPUT"),
            (.unexpectedArgument("b"), "unexpected argument 'b'"),
            (.unknownCommand("frob"), "unknown command 'frob'"),
            (
                .invalidValue(option: "--at", value: "x", expected: "seconds"),
                "invalid value 'x' for option '--at': expected seconds"
            ),
            (.other("something else"), "something else"),
        ]
        for (reason, message) in cases {
            #expect(UsageError(reason).message == message)
        }
    }

    // MARK: - Table spellings

    @Test func optionSpellingsComeFromTheTable() async {
        #expect(options[0].usageSpelling == "[--json]")
        #expect(options[2].usageSpelling == "[--at S ...]")
        #expect(options[2].helpSpelling == "-a, --at S")
        #expect(arguments[1].usageSpelling == "[OUTPUT]")
    }
}
