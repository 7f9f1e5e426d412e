// Playhead: a TTML document as a tree that keeps text and elements in document order (a
// paragraph mixes text, spans and line breaks), read with Foundation's XMLParser (libxml2).
//
// Concurrency: values, and a parser delegate used by one call on the calling thread.
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Foundation

/// One element of a TTML document: its local name, its attributes by local name (`tts:color`
/// is `color`, `xml:id` is `id`), and its content in order.
struct TTMLElement: Sendable, Equatable {
    /// A piece of an element's content.
    enum Content: Sendable, Equatable {
        case element(TTMLElement)
        case text(String)
    }

    let name: String
    let attributes: [String: String]
    var content: [Content] = []

    /// The child elements, in order.
    var children: [TTMLElement] {
        content.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element called `name`.
    func child(_ name: String) -> TTMLElement? { children.first { $0.name == name } }

    /// Every element called `name` at any depth below this one, in document order.
    func descendants(_ name: String) -> [TTMLElement] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    /// The most elements read from one document, so a hostile file cannot exhaust memory.
    static let maximumElements = 500_000
    /// The deepest nesting read (real documents nest fewer than ten deep), so a hostile file
    /// cannot exhaust the stack of the recursive walks.
    static let maximumDepth = 64

    /// The document's root element; nil when `data` is not well-formed XML or is too large.
    /// External entities are never resolved.
    static func parse(_ data: Data) -> TTMLElement? {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        guard parser.parse(), !builder.overflowed, builder.stack.count == 1 else { return nil }
        return builder.stack[0].children.first
    }

    /// A name without its namespace prefix.
    static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack = [TTMLElement(name: "", attributes: [:])]
        var count = 0
        var overflowed = false
        /// Text not yet added to the innermost element (added whole at its next child or end,
        /// not piece by piece: libxml2 hands text over in small pieces).
        var pending = ""

        func flushText() {
            guard !pending.isEmpty else { return }
            if stack.count > 1 { stack[stack.count - 1].content.append(.text(pending)) }
            pending = ""
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            count += 1
            flushText()
            if count > TTMLElement.maximumElements || stack.count > TTMLElement.maximumDepth {
                overflowed = true
                parser.abortParsing()
                return
            }
            var local: [String: String] = [:]
            for (key, value) in attributes where !key.hasPrefix("xmlns") {
                local[TTMLElement.localName(key)] = value
            }
            stack.append(TTMLElement(name: TTMLElement.localName(elementName), attributes: local))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard stack.count > 1 else { return }
            flushText()
            let done = stack.removeLast()
            stack[stack.count - 1].content.append(.element(done))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if stack.count > 1 { pending += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if stack.count > 1 { pending += String(decoding: block, as: UTF8.self) }
        }
    }
}
