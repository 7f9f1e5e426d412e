// Playhead: the TTML styling Playhead shows (italic, bold, underline, colour, text alignment)
// and where a region puts its text, resolved as TTML inherits it: a region's styles, then the
// parent's computed style, then the referenced `<style>`s, then the element's own attributes.
//
// Concurrency: values and pure functions.
import Foundation

/// The computed style of a piece of TTML content, as far as an ASS event can carry it.
struct TTMLStyle: Sendable, Equatable {
    var isItalic = false
    var isBold = false
    var isUnderlined = false
    /// ASS colour `&HBBGGRR&`; nil for the default (white).
    var assColour: String?
    /// `tts:textAlign`: 1 left, 2 centre, 3 right (ASS's horizontal part).
    var horizontal = 2

    /// This style with the styling attributes of `attributes` applied over it.
    func applying(_ attributes: [String: String]) -> TTMLStyle {
        var style = self
        if let value = attributes["fontStyle"] { style.isItalic = value == "italic" || value == "oblique" }
        if let value = attributes["fontWeight"] { style.isBold = value == "bold" }
        if let value = attributes["textDecoration"] {
            let words = value.split(separator: " ")
            if words.contains("underline") { style.isUnderlined = true }
            if words.contains("noUnderline") || words.contains("none") { style.isUnderlined = false }
        }
        if let value = attributes["color"], let colour = Self.colour(value) {
            style.assColour = colour == "&HFFFFFF&" ? nil : colour
        }
        switch attributes["textAlign"] {
        case "left", "start": style.horizontal = 1
        case "center": style.horizontal = 2
        case "right", "end": style.horizontal = 3
        default: break
        }
        return style
    }

    /// The override tags that turn `previous` into this style (empty when they are alike).
    func tags(from previous: TTMLStyle) -> String {
        // Back to the default colour: a reset to the event's style (whose colour the viewer's
        // appearance may set), then what stays on.
        if assColour == nil, previous.assColour != nil {
            return "{\\r" + (isItalic ? "\\i1" : "") + (isBold ? "\\b1" : "") + (isUnderlined ? "\\u1" : "") + "}"
        }
        var tags = ""
        if isItalic != previous.isItalic { tags += isItalic ? "\\i1" : "\\i0" }
        if isBold != previous.isBold { tags += isBold ? "\\b1" : "\\b0" }
        if isUnderlined != previous.isUnderlined { tags += isUnderlined ? "\\u1" : "\\u0" }
        if assColour != previous.assColour, let assColour { tags += "\\c" + assColour }
        return tags.isEmpty ? "" : "{" + tags + "}"
    }

    /// A TTML colour (`#rrggbb`, `#rrggbbaa`, `rgb(r,g,b)`, `rgba(r,g,b,a)` or a named colour)
    /// as an ASS colour; nil when unreadable.
    static func colour(_ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        var components: [Int] = []
        if value.hasPrefix("#"), value.count == 7 || value.count == 9 {
            let digits = Array(value.dropFirst())
            components = stride(from: 0, to: 6, by: 2).compactMap { Int(String(digits[$0...$0 + 1]), radix: 16) }
        } else if value.hasPrefix("rgb"), let open = value.firstIndex(of: "("), let close = value[open...].firstIndex(of: ")") {
            components = value[value.index(after: open)..<close].split(separator: ",").prefix(3).compactMap {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
        } else if let named = namedColours[value] {
            components = named
        }
        guard components.count == 3, components.allSatisfy({ (0...255).contains($0) }) else { return nil }
        return String(format: "&H%02X%02X%02X&", components[2], components[1], components[0])
    }

    private static let namedColours: [String: [Int]] = [
        "white": [255, 255, 255], "black": [0, 0, 0], "red": [255, 0, 0], "lime": [0, 255, 0],
        "green": [0, 128, 0], "blue": [0, 0, 255], "yellow": [255, 255, 0], "cyan": [0, 255, 255],
        "aqua": [0, 255, 255], "magenta": [255, 0, 255], "fuchsia": [255, 0, 255], "gray": [128, 128, 128],
        "grey": [128, 128, 128], "silver": [192, 192, 192], "maroon": [128, 0, 0], "olive": [128, 128, 0],
        "navy": [0, 0, 128], "purple": [128, 0, 128], "teal": [0, 128, 128],
    ]
}

/// The `<style>` and `<region>` definitions of a document's head.
struct TTMLStyleSheet: Sendable {
    /// Each `<style>`'s attributes with the styles it references folded in, by `xml:id`.
    private(set) var styles: [String: [String: String]] = [:]
    /// Each region's styling attributes (its own and its referenced styles'), by `xml:id`.
    private(set) var regions: [String: [String: String]] = [:]

    init(head: TTMLElement?) {
        let definitions = head?.descendants("style").filter { $0.attributes["id"] != nil } ?? []
        let byID = Dictionary(definitions.map { ($0.attributes["id"]!, $0.attributes) }, uniquingKeysWith: { a, _ in a })
        for id in byID.keys { _ = Self.flatten(id, in: byID, into: &styles, visiting: []) }
        for region in head?.descendants("region") ?? [] {
            guard let id = region.attributes["id"] else { continue }
            var attributes = referenced(region.attributes)
            // A region's nested <style> children style it too.
            for nested in region.children where nested.name == "style" {
                attributes.merge(nested.attributes) { _, new in new }
            }
            attributes.merge(region.attributes) { _, new in new }
            regions[id] = attributes
        }
    }

    /// The attributes of the styles `attributes` references (`style="a b"`, later wins).
    func referenced(_ attributes: [String: String]) -> [String: String] {
        var merged: [String: String] = [:]
        for id in (attributes["style"] ?? "").split(separator: " ").map(String.init) {
            merged.merge(styles[id] ?? [:]) { _, new in new }
        }
        return merged
    }

    /// Style `id` with the styles it references folded in, each flattened once (`done`); a
    /// reference back into the chain being flattened (`visiting`) is ignored.
    private static func flatten(
        _ id: String, in byID: [String: [String: String]], into done: inout [String: [String: String]],
        visiting: Set<String>
    ) -> [String: String] {
        if let flat = done[id] { return flat }
        guard let own = byID[id], !visiting.contains(id), visiting.count < 64 else { return [:] }
        var merged: [String: String] = [:]
        for reference in (own["style"] ?? "").split(separator: " ").map(String.init) {
            merged.merge(flatten(reference, in: byID, into: &done, visiting: visiting.union([id]))) { _, new in new }
        }
        merged.merge(own) { _, new in new }
        done[id] = merged
        return merged
    }

    /// Where region `id` puts its text vertically: 1 bottom, 2 middle, 3 top (the row of ASS's
    /// numpad alignment: 1-3, 4-6, 7-9), from its origin, extent and `displayAlign`; bottom
    /// when the region is unknown or placed in units Playhead cannot read.
    func verticalRow(ofRegion id: String?, extent rootExtent: String?) -> Int {
        guard let id, let region = regions[id] else { return 1 }
        let height = Self.length(rootExtent, index: 1)
        guard let top = Self.fraction(region["origin"], index: 1, of: height) else { return 1 }
        let size = Self.fraction(region["extent"], index: 1, of: height) ?? (1 - top)
        let y: Double
        switch region["displayAlign"] {
        case "after": y = top + size
        case "center": y = top + size / 2
        default: y = top
        }
        return y >= 0.6 ? 1 : y >= 0.3 ? 2 : 3
    }

    /// Component `index` of a pair of lengths (`"10% 80%"`, `"64px 480px"`) as a fraction of
    /// the root container; pixels need the root's pixel size.
    private static func fraction(_ text: String?, index: Int, of rootPixels: Double?) -> Double? {
        guard let parts = text?.split(separator: " ").map(String.init), parts.count == 2 else { return nil }
        let part = parts[index]
        if part.hasSuffix("%") { return Double(part.dropLast()).map { $0 / 100 } }
        if part.hasSuffix("px"), let rootPixels, rootPixels > 0 { return Double(part.dropLast(2)).map { $0 / rootPixels } }
        return nil
    }

    /// Component `index` of the root's `tts:extent` in pixels.
    private static func length(_ text: String?, index: Int) -> Double? {
        guard let parts = text?.split(separator: " "), parts.count == 2, parts[index].hasSuffix("px") else { return nil }
        return Double(parts[index].dropLast(2))
    }
}
