// Playhead: reads the frames of an ID3v2 tag (the timed metadata of HLS and MPEG-TS streams)
// into metadata items, as Apple reports them: key space `org.id3`, the frame ID as key.
// Concurrency: pure functions.
//
// libavformat parses ID3 only inside its MP3 demuxer and exposes no parser for a bare tag, so
// the few dozen lines of framing are read here: a 10-byte header, then frames of a four-letter
// ID, a size and flags. Text frames become strings; every other frame keeps its bytes.
import Foundation

enum ID3TagReader {
    /// Frames whose text maps onto a common key.
    private static let commonKeys: [String: AVMetadataKey] = [
        "TIT2": .commonKeyTitle, "TPE1": .commonKeyArtist, "TALB": .commonKeyAlbumName,
        "TCOM": .commonKeyCreator, "TCON": .commonKeyType, "TPUB": .commonKeyPublisher,
        "TCOP": .commonKeyCopyrights, "TLAN": .commonKeyLanguage, "TSSE": .commonKeySoftware,
        "APIC": .commonKeyArtwork, "COMM": .commonKeyDescription,
    ]

    /// The frames of the ID3v2 tags in `bytes` (a timed ID3 packet may hold several, back to
    /// back); empty when the bytes are no ID3v2 tag. Damaged frames end the tag's reading.
    static func items(_ bytes: [UInt8], time: CMTime = .invalid, duration: CMTime = .invalid) -> [AVMetadataItem] {
        if bytes.starts(with: Self.magic) { return read(bytes, time: time, duration: duration) }
        // libavformat's MPEG-TS demuxer drops the first five bytes of every `timed_id3` payload,
        // taking them for the metadata access-unit header of ISO 13818-1, which HLS packagers
        // (Apple's, and libavformat's own muxer) do not write. What arrives then starts at the
        // tag's flags byte: put back "ID3" and a version; the frames tell 2.4 from 2.3.
        guard bytes.count >= 5, syncSafe(bytes, 1) <= bytes.count - 5 else { return [] }
        for version: UInt8 in [4, 3] {
            let items = read(Self.magic + [version, 0] + bytes, time: time, duration: duration)
            if !items.isEmpty { return items }
        }
        return []
    }

    private static let magic: [UInt8] = [0x49, 0x44, 0x33]  // "ID3"

    /// The length in bytes (header, frames and footer) of the ID3v2 tag `head` begins with,
    /// from its first 10 bytes; nil when it begins with none.
    static func tagLength(_ head: [UInt8]) -> Int? {
        guard head.count >= 10, head.starts(with: magic) else { return nil }
        return 10 + syncSafe(head, 6) + (head[5] & 0x10 != 0 ? 10 : 0)
    }

    private static func read(_ bytes: [UInt8], time: CMTime, duration: CMTime) -> [AVMetadataItem] {
        var items: [AVMetadataItem] = []
        var offset = 0
        while offset + 10 <= bytes.count, bytes[offset] == 0x49, bytes[offset + 1] == 0x44, bytes[offset + 2] == 0x33 {
            let version = bytes[offset + 3]
            let flags = bytes[offset + 5]
            let size = syncSafe(bytes, offset + 6)
            let end = min(bytes.count, offset + 10 + size)
            var cursor = offset + 10
            if flags & 0x40 != 0, cursor + 4 <= end {  // extended header
                let extended = version >= 4 ? syncSafe(bytes, cursor) : Int(bigEndian32(bytes, cursor)) + 4
                cursor += extended
            }
            while cursor + 10 <= end, bytes[cursor] != 0 {
                let id = String(decoding: bytes[cursor..<(cursor + 4)], as: UTF8.self)
                let frameSize = version >= 4 ? syncSafe(bytes, cursor + 4) : Int(bigEndian32(bytes, cursor + 4))
                let bodyStart = cursor + 10
                guard frameSize > 0, bodyStart + frameSize <= end else { break }
                let body = Array(bytes[bodyStart..<(bodyStart + frameSize)])
                items.append(item(id: id, body: body, time: time, duration: duration))
                cursor = bodyStart + frameSize
            }
            offset = end + (flags & 0x10 != 0 ? 10 : 0)  // a footer follows when flagged
        }
        return items
    }

    /// One frame as an item: text frames (T***, but for TXXX's description) as strings, the
    /// rest as data.
    private static func item(id: String, body: [UInt8], time: CMTime, duration: CMTime) -> AVMetadataItem {
        var fields = MetadataFields()
        fields.keySpace = .id3
        fields.key = NSString(string: id)
        fields.identifier = AVMetadataIdentifier.identifier(forKey: id, keySpace: .id3)
        fields.commonKey = commonKeys[id]
        fields.time = time
        fields.duration = duration
        if id.hasPrefix("T"), let encoding = body.first {
            var strings = texts(Array(body.dropFirst()), encoding: encoding)
            // A TXXX frame's description ends at the first terminator (the value after it may
            // be empty); kept beside the value, as Apple's `.info` extra attribute. A frame with
            // no terminator holds a value alone.
            if id == "TXXX", strings.count > 1 || hasTerminator(Array(body.dropFirst()), encoding: encoding) {
                fields.extraAttributes = [.info: strings.removeFirst()]
            }
            fields.value = NSString(string: strings.joined(separator: "/"))
            fields.dataType = "com.apple.metadata.datatype.UTF-8"
        } else {
            fields.value = NSData(bytes: body, length: body.count)
            fields.dataType = "com.apple.metadata.datatype.raw-data"
        }
        return AVMetadataItem(fields: fields)
    }

    /// True when `bytes` hold a string terminator of `encoding` (one zero byte, two aligned
    /// ones for UTF-16).
    static func hasTerminator(_ bytes: [UInt8], encoding: UInt8) -> Bool {
        guard encoding == 1 || encoding == 2 else { return bytes.contains(0) }
        return stride(from: 0, to: bytes.count - 1, by: 2).contains { bytes[$0] == 0 && bytes[$0 + 1] == 0 }
    }

    /// The NUL-separated strings of a text frame body in ID3's `encoding` (0 Latin-1,
    /// 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8).
    static func texts(_ bytes: [UInt8], encoding: UInt8) -> [String] {
        let wide = encoding == 1 || encoding == 2
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if wide {
                guard index + 1 < bytes.count else { break }
                if bytes[index] == 0 && bytes[index + 1] == 0 {
                    parts.append(current)
                    current = []
                } else {
                    current += [bytes[index], bytes[index + 1]]
                }
                index += 2
            } else {
                if bytes[index] == 0 { parts.append(current); current = [] } else { current.append(bytes[index]) }
                index += 1
            }
        }
        if !current.isEmpty || parts.isEmpty { parts.append(current) }
        return parts.map { decode($0, encoding: encoding) }
    }

    private static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 0: return String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
        case 1, 2:
            var units: [UInt16] = stride(from: 0, to: bytes.count - 1, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            if units.first == 0xFFFE { units = units.dropFirst().map { $0.byteSwapped } }  // little-endian BOM
            else if units.first == 0xFEFF { units.removeFirst() }
            return String(decoding: units, as: UTF16.self)
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func syncSafe(_ bytes: [UInt8], _ at: Int) -> Int {
        guard at + 4 <= bytes.count else { return 0 }
        return (0..<4).reduce(0) { $0 << 7 | Int(bytes[at + $1] & 0x7f) }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + $1]) }
    }
}

/// Reads the metadata packet of a Shoutcast/Icecast stream (`StreamTitle='…';StreamUrl='…';`)
/// into items in the `icy` key space.
///
/// Concurrency: pure functions.
enum ICYMetadataReader {
    /// The packet's fields in order, `StreamTitle` with the common key title; empty when it
    /// holds none.
    static func items(_ packet: String, time: CMTime) -> [AVMetadataItem] {
        fields(packet).map { key, value in
            var fields = MetadataFields()
            fields.keySpace = .icy
            fields.key = NSString(string: key)
            fields.identifier = AVMetadataIdentifier.identifier(forKey: key, keySpace: .icy)
            fields.commonKey = key == "StreamTitle" ? .commonKeyTitle : nil
            fields.value = NSString(string: value)
            fields.dataType = "com.apple.metadata.datatype.UTF-8"
            fields.time = time
            return AVMetadataItem(fields: fields)
        }
    }

    /// `key='value';` pairs; a value runs to the next `';` so titles may hold quotes.
    static func fields(_ packet: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var rest = Substring(packet)
        while let equals = rest.range(of: "='") {
            let key = rest[..<equals.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines.union(["\0"]))
            let valueStart = equals.upperBound
            let end = rest[valueStart...].range(of: "';")
            let value = end.map { rest[valueStart..<$0.lowerBound] } ?? rest[valueStart...].dropLast(rest.hasSuffix("'") ? 1 : 0)
            if !key.isEmpty { result.append((key, String(value))) }
            guard let end else { break }
            rest = rest[end.upperBound...]
        }
        return result
    }
}
