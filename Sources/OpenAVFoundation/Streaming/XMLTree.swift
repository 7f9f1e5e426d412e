// Playhead: a small element tree read with Foundation's XMLParser (libxml2 underneath), for
// the documents the streaming layer reads (DASH manifests).
//
// Concurrency: values, and a parser delegate used by one call on the calling thread.
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Foundation

/// One element of an XML document: its local name (any namespace prefix dropped), its
/// attributes, its child elements in order and its text.
struct XMLTree: Equatable, Sendable {
    let name: String
    let attributes: [String: String]
    var children: [XMLTree] = []
    var text = ""

    /// The first child element called `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Every child element called `name`, in order.
    func children(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The document in `data` as a tree; nil when it is not well-formed XML. External entities
    /// are never resolved.
    static func parse(_ data: Data) -> XMLTree? {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        guard parser.parse(), builder.stack.count == 1 else { return nil }
        return builder.stack[0].children.first
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack = [XMLTree(name: "", attributes: [:])]

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(XMLTree(name: local, attributes: attributes))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard stack.count > 1 else { return }
            let done = stack.removeLast()
            stack[stack.count - 1].children.append(done)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack[stack.count - 1].text += string
        }
    }
}
