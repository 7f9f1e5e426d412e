// Playhead: HLS variable substitution (`EXT-X-DEFINE`): the variables a playlist defines
// itself (`NAME`/`VALUE`), takes from its multivariant playlist (`IMPORT`) or from the query
// of its own URL (`QUERYPARAM`), and every `{$name}` reference replaced by its value before
// the playlist is parsed.
//
// Concurrency: pure functions on values; any thread.
import Foundation

/// A playlist's text with its variable references replaced, and the variables it defined.
struct HLSVariables: Equatable, Sendable {
    /// The text with every `{$name}` after the variable's definition replaced by its value.
    let text: String
    /// Every variable the playlist defined, by name: a multivariant playlist's are what its
    /// media playlists may import.
    let definitions: [String: String]

    /// Why a playlist's variables cannot be resolved; the HLS specification asks clients to
    /// refuse such a playlist.
    enum Failure: Error, Equatable {
        /// A reference to a variable not defined before it.
        case undefined(String)
        /// A variable defined twice, or a definition without a usable name.
        case badDefinition(String)
    }

    /// The longest text substitution may grow a playlist to: a value referenced on every line
    /// cannot blow a playlist up past the size limit it was read under by more than this.
    static let growthLimit = 4

    /// Resolves `text`, the playlist fetched from `url`; `imports` are the variables of the
    /// multivariant playlist that listed it (empty for a multivariant playlist itself).
    /// A playlist with no `EXT-X-DEFINE` and no reference comes back unchanged.
    init(_ text: String, url: URL, imports: [String: String] = [:]) throws(Failure) {
        guard text.contains("#EXT-X-DEFINE:") || text.contains("{$") else {
            (self.text, definitions) = (text, [:])
            return
        }
        var defined: [String: String] = [:]
        var lines: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.hasPrefix("#EXT-X-DEFINE:") {
                let (name, value) = try Self.definition(line.dropFirst("#EXT-X-DEFINE:".count), url: url, imports: imports)
                guard defined[name] == nil else { throw .badDefinition(name) }
                defined[name] = value
                lines.append(String(line))
            } else {
                lines.append(try Self.substitute(line, defined))
            }
        }
        let result = lines.joined(separator: "\n")
        guard result.utf8.count <= max(text.utf8.count, 1) * Self.growthLimit else { throw .badDefinition("growth") }
        (self.text, definitions) = (result, defined)
    }

    /// The name and value one `EXT-X-DEFINE` gives.
    private static func definition(_ attributes: Substring, url: URL, imports: [String: String]) throws(Failure)
        -> (String, String)
    {
        let list = HLSPlaylist.attributes(attributes)
        if let name = list["NAME"] {
            guard isName(name), let value = list["VALUE"] else { throw .badDefinition(name) }
            return (name, value)
        }
        if let name = list["IMPORT"] {
            guard let value = imports[name] else { throw .undefined(name) }
            return (name, value)
        }
        if let name = list["QUERYPARAM"] {
            let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
            guard isName(name), let value = query.first(where: { $0.name == name })?.value else { throw .undefined(name) }
            return (name, value)
        }
        throw .badDefinition(String(attributes))
    }

    /// `line` with each `{$name}` replaced.
    private static func substitute(_ line: Substring, _ defined: [String: String]) throws(Failure) -> String {
        guard line.contains("{$") else { return String(line) }
        var result = ""
        var rest = line[...]
        while let open = rest.range(of: "{$") {
            result += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(after[..<close])
            guard isName(name) else {
                // Not a reference (a name holds letters, digits, '-' and '_' only): kept as is.
                result += "{$"
                rest = after
                continue
            }
            guard let value = defined[name] else { throw .undefined(name) }
            result += value
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// True for a variable name: one or more of `[A-Za-z0-9_-]`.
    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                || byte == 0x5F
        }
    }
}
