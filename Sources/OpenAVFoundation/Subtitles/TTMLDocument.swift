// Playhead: TTML subtitle documents (W3C TTML text: the IMSC1 and EBU-TT-D profiles DASH and
// HLS streams carry, DFXP files) read into subtitle events as ASS event lines, the form every
// other text subtitle takes in Playhead. Each paragraph (`<p>`) becomes one event per span of
// time its content does not change: timing nests (an element's `begin` and `end` count from
// its parent's begin, `dur` from its own, and it ends with its parent), text collapses its
// white space unless `xml:space="preserve"`, `<br/>` breaks the line, and italic, bold,
// underline, colour, text alignment and the region's place (top, middle, bottom) are kept.
// Clock times (`01:02:03.5`, `01:02:03:12` in frames) and offsets (`1.5s`, `250ms`, `30f`,
// `9000t`) are read with the document's frame rate, sub-frame rate and tick rate. Images
// (the IMSC1 image profile) and animation (`<set>`) are not shown.
//
// Concurrency: pure functions.
import FFmpegBridge
import Foundation
import OpenCoreMedia

/// Reading TTML documents; see the file comment.
enum TTMLDocument {
    /// The most events read from one document.
    static let maximumEvents = 100_000

    /// True when `data` starts like a TTML document (XML whose root is `tt`), allowing for a
    /// byte order mark, an XML declaration, comments and white space.
    static func looksLikeTTML(_ data: Data) -> Bool {
        var rest = Substring(String(decoding: data.prefix(4096), as: UTF8.self))
        guard rest.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "<" else { return false }
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: open)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") {
                // A declaration, comment or doctype: look past its end.
                let close = tag.hasPrefix("!--") ? tag.range(of: "-->")?.upperBound : tag.firstIndex(of: ">")
                guard let close else { return false }
                rest = tag[close...]
                continue
            }
            let name = tag.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return TTMLElement.localName(String(name)) == "tt"
        }
        return false
    }

    /// The document's paragraphs as events; nil when `data` is not a TTML document.
    static func events(_ data: Data) -> [SubtitleEvent]? {
        guard let root = TTMLElement.parse(data), root.name == "tt" else { return nil }
        let clock = TTMLClock(root: root.attributes)
        let sheet = TTMLStyleSheet(head: root.child("head"))
        guard let body = root.child("body") else { return [] }
        var reader = ParagraphReader(clock: clock, sheet: sheet, rootExtent: root.attributes["extent"])
        reader.read(
            body, parent: .init(begin: 0, end: nil), specified: [:], region: nil,
            preserves: root.attributes["space"] == "preserve")
        return reader.events
    }
}

/// An element's active interval, seconds; `end` nil when it is open.
private struct TTMLInterval {
    var begin: Double
    var end: Double?

    func contains(_ other: TTMLInterval) -> Bool {
        other.begin >= begin && (end == nil || (other.end.map { $0 <= end! } ?? false))
    }
}

/// Walks a body, computing timing and style, and turns each paragraph into events.
private struct ParagraphReader {
    let clock: TTMLClock
    let sheet: TTMLStyleSheet
    let rootExtent: String?
    var events: [SubtitleEvent] = []

    /// The most pieces of time one paragraph is cut into.
    static let maximumPieces = 1000

    /// A run of a paragraph's content: text (or a line break) shown over `interval`.
    private struct Run {
        var text: String
        var isBreak: Bool
        var style: TTMLStyle
        var interval: TTMLInterval
        var preserves: Bool
    }

    /// The interval of `element` within `parent`'s, or nil when it never shows (or gives a
    /// time that cannot be read). Times are kept on 90 kHz ticks, so sums that differ in the
    /// last bit meet exactly.
    func interval(of element: TTMLElement, in parent: TTMLInterval) -> TTMLInterval? {
        func ticks(_ seconds: Double) -> Double { (seconds * 90_000).rounded() / 90_000 }
        for name in ["begin", "end", "dur"] {
            if let text = element.attributes[name], clock.seconds(text) == nil { return nil }
        }
        let begin = ticks(parent.begin + (element.attributes["begin"].flatMap(clock.seconds) ?? 0))
        var end = element.attributes["end"].flatMap(clock.seconds).map { ticks(parent.begin + $0) }
        if let duration = element.attributes["dur"].flatMap(clock.seconds) { end = min(end ?? .infinity, ticks(begin + duration)) }
        if let parentEnd = parent.end { end = min(end ?? parentEnd, parentEnd) }
        if let end, end <= begin { return nil }
        return TTMLInterval(begin: begin, end: end)
    }

    /// The styling attributes specified on `element` and its ancestors (`inherited`): the
    /// styles it references, then its own attributes, over what it inherits.
    func specified(by element: TTMLElement, inheriting inherited: [String: String]) -> [String: String] {
        inherited.merging(sheet.referenced(element.attributes)) { _, new in new }
            .merging(element.attributes.filter { $0.key != "style" }) { _, new in new }
    }

    /// The computed style: the region's styles under everything specified.
    func style(_ specified: [String: String], region: String?) -> TTMLStyle {
        TTMLStyle().applying(region.flatMap { sheet.regions[$0] } ?? [:]).applying(specified)
    }

    mutating func read(_ element: TTMLElement, parent: TTMLInterval, specified inherited: [String: String], region: String?, preserves: Bool) {
        guard events.count < TTMLDocument.maximumEvents, let interval = interval(of: element, in: parent) else { return }
        let region = element.attributes["region"] ?? region
        let specified = specified(by: element, inheriting: inherited)
        let preserves = element.attributes["space"].map { $0 == "preserve" } ?? preserves
        for child in element.children {
            if child.name == "p" {
                paragraph(child, parent: interval, specified: specified, region: region, preserves: preserves)
            } else if child.name == "div" {
                read(child, parent: interval, specified: specified, region: region, preserves: preserves)
            }
        }
    }

    private mutating func paragraph(_ element: TTMLElement, parent: TTMLInterval, specified inherited: [String: String], region: String?, preserves: Bool) {
        guard let interval = interval(of: element, in: parent) else { return }
        // The region may be named on a span (as FFmpeg writes it) when the paragraph has none.
        let region = element.attributes["region"] ?? region ?? element.descendants("span").lazy.compactMap { $0.attributes["region"] }.first
        let specified = specified(by: element, inheriting: inherited)
        let style = style(specified, region: region)
        var runs: [Run] = []
        collect(element, interval: interval, specified: specified, region: region,
                preserves: element.attributes["space"].map { $0 == "preserve" } ?? preserves, into: &runs)
        // Every time the content changes inside the paragraph starts a new event.
        var edges = Set([interval.begin] + (interval.end.map { [$0] } ?? []))
        for run in runs { edges.insert(run.interval.begin); if let end = run.interval.end { edges.insert(end) } }
        // (A paragraph of more timed pieces than this is a hostile one: the rest is left out.)
        let sorted = edges.sorted().prefix(Self.maximumPieces)
        let row = sheet.verticalRow(ofRegion: region, extent: rootExtent)
        for (index, begin) in sorted.enumerated() where interval.end.map({ begin < $0 }) ?? true {
            guard events.count < TTMLDocument.maximumEvents else { break }
            let end = index + 1 < sorted.count ? sorted[index + 1] : nil
            let piece = TTMLInterval(begin: begin, end: end)
            let text = Self.assText(runs.filter { $0.interval.contains(piece) })
            guard !text.isEmpty else { continue }
            let alignment = (row - 1) * 3 + style.horizontal
            events.append(
                SubtitleEvent(
                    start: CMTime(seconds: begin, preferredTimescale: 90_000),
                    end: end.map { CMTime(seconds: $0, preferredTimescale: 90_000) },
                    assLines: ["\(events.count),0,Default,,0,0,0,,\(alignment == 2 ? "" : "{\\an\(alignment)}")\(text)"]))
        }
    }

    private func collect(_ element: TTMLElement, interval: TTMLInterval, specified: [String: String], region: String?, preserves: Bool, into runs: inout [Run]) {
        let style = style(specified, region: region)
        for content in element.content {
            switch content {
            case .text(let text):
                runs.append(Run(text: text, isBreak: false, style: style, interval: interval, preserves: preserves))
            case .element(let child) where child.name == "br":
                runs.append(Run(text: "", isBreak: true, style: style, interval: interval, preserves: preserves))
            case .element(let child) where child.name == "span":
                guard let inner = self.interval(of: child, in: interval) else { continue }
                collect(child, interval: inner, specified: self.specified(by: child, inheriting: specified), region: region,
                        preserves: child.attributes["space"].map { $0 == "preserve" } ?? preserves, into: &runs)
            case .element:
                continue
            }
        }
    }

    /// ASS event text for `runs`: white space collapsed (unless preserved) and trimmed at the
    /// line edges, line breaks as `\N`, styles as override tags.
    private static func assText(_ runs: [Run]) -> String {
        var lines: [[(text: String, style: TTMLStyle)]] = [[]]
        for run in runs {
            if run.isBreak { lines.append([]); continue }
            if run.preserves {
                let parts = run.text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    if index > 0 { lines.append([]) }
                    lines[lines.count - 1].append((String(part), run.style))
                }
            } else {
                lines[lines.count - 1].append((collapsingWhiteSpace(run.text), run.style))
            }
        }
        var output: [String] = []
        // The event's style is ASS's Default (plain white): every difference is a tag.
        var current = TTMLStyle()
        for line in lines {
            // Collapse the spaces where runs meet, then trim the line's ends.
            var pieces: [(text: String, style: TTMLStyle)] = []
            for piece in line where !piece.text.isEmpty {
                var text = piece.text
                if let last = pieces.last?.text, last.hasSuffix(" "), text.hasPrefix(" ") { text.removeFirst() }
                if pieces.isEmpty { text = String(text.drop { $0 == " " }) }
                if !text.isEmpty { pieces.append((text, piece.style)) }
            }
            while let last = pieces.last, last.text.hasSuffix(" ") {
                let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
                if trimmed.isEmpty { pieces.removeLast() } else { pieces[pieces.count - 1].text = trimmed; break }
            }
            var text = ""
            for piece in pieces {
                text += piece.style.tags(from: current) + escaped(piece.text)
                current = piece.style
            }
            output.append(text)
        }
        while output.last?.isEmpty == true { output.removeLast() }
        while output.first?.isEmpty == true { output.removeFirst() }
        return output.joined(separator: "\\N")
    }

    /// `text` with each run of XML white space (space, tab, CR, LF; not a no-break space)
    /// made one space.
    private static func collapsingWhiteSpace(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var inSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !inSpace { scalars.append(" ") }
                inSpace = true
            } else {
                scalars.append(scalar)
                inSpace = false
            }
        }
        return String(scalars)
    }

    /// Text as ASS event text: braces escaped (`\{`, `\}`, as libass reads them), and a
    /// backslash that ASS would read with what follows it (`\N`, `\h`, `\{`) or with a tag
    /// after it kept apart by a word joiner, as FFmpeg's WebVTT decoder does.
    private static func escaped(_ text: String) -> String {
        var result = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == "{" || character == "}" { result.append("\\") }
            result.append(character)
            if character == "\\", index + 1 == characters.count || "Nnh{}".contains(characters[index + 1]) {
                result.append("\u{2060}")
            }
        }
        return result
    }
}

/// A document's time base: its frame rate, sub-frame rate and tick rate.
struct TTMLClock: Sendable {
    var frameRate = 30.0
    var subFrameRate = 1.0
    var tickRate = 1.0

    /// The latest time read (about 317 years: a track timeline counted from 1970 fits; later
    /// times are a broken or hostile document's).
    static let latestSeconds = 1e10

    init(root attributes: [String: String]) {
        func rate(_ name: String, in range: ClosedRange<Double>) -> Double? {
            attributes[name].flatMap { Double($0) }.flatMap { range.contains($0) ? $0 : nil }
        }
        let declaredRate = rate("frameRate", in: 1...1000)
        if let declaredRate { frameRate = declaredRate }
        if let multiplier = attributes["frameRateMultiplier"]?.split(separator: " ").compactMap({ Double($0) }),
            multiplier.count == 2, (1...1e6).contains(multiplier[0]), (1...1e6).contains(multiplier[1]),
            (1...1000).contains(frameRate * multiplier[0] / multiplier[1])
        {
            frameRate *= multiplier[0] / multiplier[1]
        }
        if let declared = rate("subFrameRate", in: 1...1000) { subFrameRate = declared }
        if let declared = rate("tickRate", in: 1...1e10) {
            tickRate = declared
        } else if declaredRate != nil {
            tickRate = frameRate * subFrameRate
        }
    }

    /// A TTML time expression in seconds: a clock time (`hh:mm:ss`, `hh:mm:ss.fraction`,
    /// `hh:mm:ss:frames[.subframes]`) or an offset (`<number>h|m|s|ms|f|t`); nil when
    /// unreadable.
    func seconds(_ text: String) -> Double? {
        guard let seconds = unboundedSeconds(text), seconds.isFinite, seconds <= Self.latestSeconds else { return nil }
        return seconds
    }

    private func unboundedSeconds(_ text: String) -> Double? {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.contains(":") {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4, let hours = Double(parts[0]), let minutes = Double(parts[1]),
                let seconds = Double(parts[2]), hours >= 0, minutes >= 0, seconds >= 0
            else { return nil }
            var total = hours * 3600 + minutes * 60 + seconds
            if parts.count == 4 {
                let frameParts = parts[3].split(separator: ".")
                guard let frames = frameParts.first.flatMap({ Double($0) }), frames >= 0 else { return nil }
                let subframes = frameParts.count > 1 ? Double(frameParts[1]) ?? 0 : 0
                total += (frames + subframes / subFrameRate) / frameRate
            }
            return total
        }
        let units: [(String, Double)] = [
            ("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / frameRate), ("t", 1 / tickRate),
        ]
        for (unit, scale) in units where value.hasSuffix(unit) {
            guard let number = Double(value.dropLast(unit.count)), number >= 0, number.isFinite else { return nil }
            return number * scale
        }
        return nil
    }
}
