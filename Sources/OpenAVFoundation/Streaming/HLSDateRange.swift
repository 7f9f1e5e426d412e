// Playhead: one `EXT-X-DATERANGE` tag of an HLS media playlist (RFC 8216 §4.3.2.7): a dated
// stretch of the stream (an ad break, a programme, an SCTE-35 signal) with its attributes
// typed as the RFC writes them, for `AVPlayerItemMetadataCollector`.
//
// Concurrency: a value and a pure parser; made on the HLS loader's thread.
import Foundation

/// An `EXT-X-DATERANGE`; see the file comment.
struct HLSDateRange: Equatable, Sendable {
    /// A typed attribute value: a quoted string, a hexadecimal sequence, or a number.
    enum Value: Equatable, Sendable {
        case string(String)
        case data(Data)
        case number(Double)
    }

    /// `ID`: ranges with the same ID are one range (a later tag updates it).
    let id: String
    /// `CLASS`, when given.
    let classLabel: String?
    /// `START-DATE`.
    let startDate: Date
    /// `END-DATE`, or `START-DATE` plus `DURATION`; nil while open-ended (a range with
    /// `END-ON-NEXT` gets the start of the next range of its class, `closingEndOnNext`).
    var endDate: Date?
    /// Every attribute but `START-DATE` and `END-DATE`, in the tag's order.
    let attributes: [(name: String, value: Value)]

    static func == (lhs: HLSDateRange, rhs: HLSDateRange) -> Bool {
        lhs.id == rhs.id && lhs.classLabel == rhs.classLabel && lhs.startDate == rhs.startDate
            && lhs.endDate == rhs.endDate && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    /// The tag's attribute list (after `#EXT-X-DATERANGE:`); nil without an `ID` or a
    /// readable `START-DATE`.
    init?(tag text: Substring) {
        let all: [(name: String, value: Value)] = HLSPlaylist.attributeList(text).map {
            ($0.name, Self.value($0.value, quoted: $0.quoted))
        }
        func string(_ name: String) -> String? {
            if case .string(let value)? = all.first(where: { $0.name == name })?.value { return value }
            return nil
        }
        func number(_ name: String) -> Double? {
            if case .number(let value)? = all.first(where: { $0.name == name })?.value { return value }
            return nil
        }
        guard let id = string("ID"), let start = string("START-DATE").flatMap(ProgramDateMap.parseDate) else {
            return nil
        }
        self.id = id
        classLabel = string("CLASS")
        startDate = start
        endDate = string("END-DATE").flatMap(ProgramDateMap.parseDate) ?? number("DURATION").map { start + $0 }
        attributes = all.filter { $0.name != "START-DATE" && $0.name != "END-DATE" }
    }

    /// `ranges` with every open-ended `END-ON-NEXT=YES` range ended where the next range of
    /// the same `CLASS` starts (RFC 8216 §4.3.2.7.1), when one does.
    static func closingEndOnNext(_ ranges: [HLSDateRange]) -> [HLSDateRange] {
        ranges.map { range in
            guard range.endDate == nil, range.attributes.contains(where: { $0.name == "END-ON-NEXT" && $0.value == .string("YES") })
            else { return range }
            var closed = range
            closed.endDate = ranges.filter { $0.classLabel == range.classLabel && $0.startDate > range.startDate }
                .map(\.startDate).min()
            return closed
        }
    }

    /// A quoted value as a string; `0x…` as bytes; else a number, or the text itself.
    private static func value(_ raw: Substring, quoted: Bool) -> Value {
        if quoted { return .string(String(raw)) }
        if raw.hasPrefix("0x") || raw.hasPrefix("0X") {
            let digits = Array(raw.dropFirst(2))
            var bytes = Data()
            var index = 0
            while index + 1 < digits.count, let byte = UInt8(String(digits[index...index + 1]), radix: 16) {
                bytes.append(byte)
                index += 2
            }
            if index == digits.count { return .data(bytes) }
        }
        return Double(raw).map(Value.number) ?? .string(String(raw))
    }
}
