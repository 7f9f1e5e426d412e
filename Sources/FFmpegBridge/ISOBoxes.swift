// Playhead: the box framing of ISO base media (MP4) and QuickTime files, read from bytes in
// memory: a 32-bit size (or 1 and a 64-bit size, or 0 for "to the end"), then a four-byte type.
// Used for the key table of a timed metadata ('mebx') sample description and for the samples.
//
// Concurrency: pure functions over values.
import Foundation

/// One box found in a byte range: its type and its payload (the bytes after the header).
package struct ISOBox: Sendable, Equatable {
    /// The four-byte type, big-endian (`'keys'`, or a local key ID in a metadata sample).
    package var type: UInt32
    /// The bytes after the box's header.
    package var payload: ArraySlice<UInt8>
    /// The header's length: 8, or 16 with a 64-bit size (the box starts this far before its
    /// payload).
    package var headerSize = 8

    /// The type as four characters when they are printable ASCII, else its number.
    package var typeName: String { ISOBoxes.fourCC(type) }
}

/// Reads boxes out of bytes, never trusting a size: a box that claims more bytes than are
/// left ends the reading.
package enum ISOBoxes {
    /// The most boxes read at one level; anything past it is ignored.
    package static let maximumBoxes = 4096

    /// The boxes laid end to end in `bytes`, up to the first malformed one.
    package static func boxes(in bytes: ArraySlice<UInt8>) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= 8, boxes.count < maximumBoxes {
            let size32 = readUInt32(bytes, offset)
            let type = readUInt32(bytes, offset + 4)
            var header = 8
            var size: UInt64 = UInt64(size32)
            if size32 == 1 {
                guard bytes.endIndex - offset >= 16 else { break }
                size = readUInt64(bytes, offset + 8)
                header = 16
            } else if size32 == 0 {
                size = UInt64(bytes.endIndex - offset)
            }
            guard size >= UInt64(header), size <= UInt64(bytes.endIndex - offset) else { break }
            let end = offset + Int(size)
            boxes.append(ISOBox(type: type, payload: bytes[(offset + header)..<end], headerSize: header))
            offset = end
        }
        return boxes
    }

    /// The first box of `type` in `bytes`, if any.
    package static func first(_ type: String, in bytes: ArraySlice<UInt8>) -> ISOBox? {
        let code = code(type)
        return boxes(in: bytes).first { $0.type == code }
    }

    /// The big-endian number of a four-character type.
    package static func code(_ type: String) -> UInt32 {
        type.utf8.prefix(4).reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// A type as four characters when printable ASCII, else as its decimal number.
    package static func fourCC(_ type: UInt32) -> String {
        let bytes = (0..<4).map { UInt8((type >> (24 - 8 * $0)) & 0xff) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return String(type) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The big-endian 32-bit number at `offset` (the caller checks that four bytes are there).
    package static func readUInt32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { ($0 << 8) | UInt32(bytes[offset + $1]) }
    }

    /// The big-endian 64-bit number at `offset` (the caller checks that eight bytes are there).
    package static func readUInt64(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { ($0 << 8) | UInt64(bytes[offset + $1]) }
    }
}

/// One key of a timed metadata track, as its sample description declares it: the local ID
/// its samples' boxes carry, the key's namespace and name, and the declared data type.
package struct BoxedMetadataKey: Sendable, Equatable {
    /// The box type that stands for this key inside samples.
    package var localID: UInt32
    /// The key namespace, as four characters ("mdta" for reverse-DNS QuickTime keys, "udta"
    /// for user-data codes, "uiso" for ISO user data).
    package var namespace: String
    /// The key's bytes: a name such as "com.apple.quicktime.location.ISO6709" for "mdta".
    package var keyValue: [UInt8]
    /// The data type namespace from the key's 'dtyp' box (0: a well-known type number);
    /// nil when the key declares no type.
    package var dataTypeNamespace: UInt32?
    /// The data type's bytes: a four-byte well-known type number for namespace 0, else a
    /// type name.
    package var dataType: [UInt8]

    /// A key with these fields.
    package init(
        localID: UInt32, namespace: String, keyValue: [UInt8], dataTypeNamespace: UInt32? = nil,
        dataType: [UInt8] = []
    ) {
        self.localID = localID
        self.namespace = namespace
        self.keyValue = keyValue
        self.dataTypeNamespace = dataTypeNamespace
        self.dataType = dataType
    }

    /// The well-known type number the key declares (1 for UTF-8, 23 for a float, ...).
    package var wellKnownType: UInt32? {
        guard dataTypeNamespace == 0, dataType.count == 4 else { return nil }
        return ISOBoxes.readUInt32(dataType[...], 0)
    }

    /// The keys a 'stsd' box's payload declares for its first boxed metadata ('mebx')
    /// sample entry; empty when there is none or it is malformed. Keys of later 'mebx'
    /// entries are added when their local IDs are new.
    package static func keys(fromSampleDescriptions stsd: ArraySlice<UInt8>) -> [BoxedMetadataKey] {
        // A full box: version and flags, then an entry count, then the entries.
        guard stsd.count >= 8 else { return [] }
        var keys: [BoxedMetadataKey] = []
        let mebx = ISOBoxes.code("mebx")
        for entry in ISOBoxes.boxes(in: stsd.dropFirst(8)) where entry.type == mebx {
            // Six reserved bytes and a data reference index come before the entry's boxes.
            guard entry.payload.count >= 8,
                let table = ISOBoxes.first("keys", in: entry.payload.dropFirst(8))
            else { continue }
            for key in parse(table: table.payload) where !keys.contains(where: { $0.localID == key.localID }) {
                keys.append(key)
            }
        }
        return keys
    }

    /// The keys of a 'keys' table: one box per key, typed by its local ID, holding 'keyd'
    /// and optionally 'dtyp'. IDs 0 and 0xFFFFFFFF are reserved and skipped.
    static func parse(table: ArraySlice<UInt8>) -> [BoxedMetadataKey] {
        ISOBoxes.boxes(in: table).compactMap { box in
            guard box.type != 0, box.type != 0xFFFF_FFFF,
                let declaration = ISOBoxes.first("keyd", in: box.payload), declaration.payload.count >= 4
            else { return nil }
            let payload = declaration.payload
            var key = BoxedMetadataKey(
                localID: box.type,
                namespace: ISOBoxes.fourCC(ISOBoxes.readUInt32(payload, payload.startIndex)),
                keyValue: Array(payload.dropFirst(4)))
            if let type = ISOBoxes.first("dtyp", in: box.payload), type.payload.count >= 4 {
                key.dataTypeNamespace = ISOBoxes.readUInt32(type.payload, type.payload.startIndex)
                key.dataType = Array(type.payload.dropFirst(4))
            }
            return key
        }
    }
}
