// Playhead: HLS attribute lists (`NAME=value,NAME="quoted, value"`), as the tags of a
// playlist carry them.
//
// Concurrency: pure functions; any thread.
import Foundation

extension HLSPlaylist {
    /// An attribute list (`NAME=value,NAME="quoted, value"`) as a dictionary, quotes removed.
    static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in attributeList(text) { result[attribute.name] = String(attribute.value) }
        return result
    }

    /// An attribute list's entries in order, each value without its quotes and whether it had
    /// them (a quoted string, as opposed to a number, an enumerated string or hexadecimal).
    static func attributeList(_ text: Substring) -> [(name: String, value: Substring, quoted: Bool)] {
        var result: [(name: String, value: Substring, quoted: Bool)] = []
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            let quoted = rest.first == "\""
            var value: Substring
            if quoted {
                let body = rest.dropFirst()
                let close = body.firstIndex(of: "\"") ?? body.endIndex
                value = body[..<close]
                rest = close < body.endIndex ? body[body.index(after: close)...] : body[close...]
                if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] } else { rest = "" }
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma]
                rest = comma < rest.endIndex ? rest[rest.index(after: comma)...] : ""
            }
            result.append((name, value, quoted))
        }
        return result
    }
}
