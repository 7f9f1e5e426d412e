// Playhead: reads the samples of an MP4/QuickTime timed metadata track ('mebx', boxed
// metadata, as AVAssetWriter writes it) into metadata items. A sample is boxes laid end to
// end, each typed by the local ID of a key its track's sample description declares; the box
// holds the value, typed by the key's declared data type, or (as some writers do) a 'data'
// box with its own type indicator, a locale and the value.
//
// Concurrency: pure functions.
import FFmpegBridge
import Foundation

enum BoxedMetadataReader {
    /// The items of one sample, in the sample's order. Boxes for undeclared keys, and
    /// whatever follows a malformed box, are left out.
    static func items(
        _ bytes: [UInt8], keys: [UInt32: BoxedMetadataKey], time: CMTime = .invalid, duration: CMTime = .invalid
    ) -> [AVMetadataItem] {
        ISOBoxes.boxes(in: bytes[...]).compactMap { box in
            guard let key = keys[box.type] else { return nil }
            var fields = MetadataFields()
            let (space, name) = keyName(key)
            fields.keySpace = space
            fields.key = NSString(string: name)
            fields.identifier = AVMetadataIdentifier.identifier(forKey: name, keySpace: space)
            fields.commonKey = space == .quickTimeMetadata ? commonKeys[name] : nil
            let typed = dataBox(box.payload) ?? (key.wellKnownType, box.payload)
            if let type = typed.type {
                (fields.value, fields.dataType) = value(typed.bytes, wellKnownType: type)
            } else if key.dataTypeNamespace == 1, let name = String(bytes: key.dataType, encoding: .utf8) {
                // A type named by reverse DNS: text when the name says so, else bytes.
                let textual = name.contains("UTF-8") || name.contains("ISO6709")
                fields.value = textual ? NSString(string: String(decoding: typed.bytes, as: UTF8.self)) : data(typed.bytes)
                fields.dataType = name
            } else {
                fields.value = data(typed.bytes)
                fields.dataType = rawData
            }
            fields.time = time
            fields.duration = duration
            return AVMetadataItem(fields: fields)
        }
    }

    /// The key space and key string of a declared key: a reverse-DNS name for 'mdta', a
    /// four-character code for the user-data namespaces.
    static func keyName(_ key: BoxedMetadataKey) -> (AVMetadataKeySpace, String) {
        switch key.namespace {
        case "mdta": return (.quickTimeMetadata, String(decoding: key.keyValue, as: UTF8.self))
        case "udta", "uiso":
            let code = key.keyValue.count == 4 ? ISOBoxes.fourCC(ISOBoxes.readUInt32(key.keyValue[...], 0)) : ""
            return (key.namespace == "udta" ? .quickTimeUserData : .isoUserData, code)
        default: return (AVMetadataKeySpace(key.namespace), String(decoding: key.keyValue, as: UTF8.self))
        }
    }

    /// The type indicator and value of a 'data' box filling `payload`, if it is one: a type
    /// set byte (0: well-known types), a three-byte type, a four-byte locale, the value.
    private static func dataBox(_ payload: ArraySlice<UInt8>) -> (type: UInt32?, bytes: ArraySlice<UInt8>)? {
        guard payload.count >= 16, let box = ISOBoxes.boxes(in: payload).first,
            box.type == ISOBoxes.code("data"), box.payload.count >= 8,
            box.payload.endIndex == payload.endIndex
        else { return nil }
        let indicator = ISOBoxes.readUInt32(box.payload, box.payload.startIndex)
        let type: UInt32? = indicator >> 24 == 0 ? indicator & 0x00FF_FFFF : nil
        return (type, box.payload.dropFirst(8))
    }

    private static let rawData = "com.apple.metadata.datatype.raw-data"

    /// A value of a well-known type (QuickTime's numbering) and Apple's name for its type.
    /// Numbers of a size the type does not allow, and unknown types, stay bytes.
    static func value(_ bytes: ArraySlice<UInt8>, wellKnownType type: UInt32)
        -> (any NSCopying & NSObjectProtocol, String)
    {
        let prefix = "com.apple.metadata.datatype."
        switch (type, bytes.count) {
        case (1, _), (4, _):
            return (NSString(string: String(decoding: bytes, as: UTF8.self)), prefix + "UTF-8")
        case (2, _), (5, _):
            let units = stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return (NSString(string: String(decoding: units, as: UTF16.self)), prefix + "UTF-16")
        case (12, _): return (data(bytes), "com.compuserve.gif")
        case (13, _): return (data(bytes), "public.jpeg")
        case (14, _): return (data(bytes), "public.png")
        case (27, _): return (data(bytes), "com.microsoft.bmp")
        case (23, 4):
            return (NSNumber(value: Float(bitPattern: UInt32(integer(bytes)))), prefix + "float32")
        case (24, 8): return (NSNumber(value: Double(bitPattern: integer(bytes))), prefix + "float64")
        case (21, 1), (65, 1): return (NSNumber(value: Int8(truncatingIfNeeded: integer(bytes))), prefix + "int8")
        case (21, 2), (66, 2): return (NSNumber(value: Int16(truncatingIfNeeded: integer(bytes))), prefix + "int16")
        case (21, 3):
            // Three bytes, sign-extended.
            let raw = Int32(truncatingIfNeeded: integer(bytes) << 8) >> 8
            return (NSNumber(value: raw), prefix + "int32")
        case (21, 4), (67, 4): return (NSNumber(value: Int32(truncatingIfNeeded: integer(bytes))), prefix + "int32")
        case (21, 8), (74, 8): return (NSNumber(value: Int64(bitPattern: integer(bytes))), prefix + "int64")
        case (22, 1), (75, 1): return (NSNumber(value: UInt8(integer(bytes))), prefix + "uint8")
        case (22, 2), (76, 2): return (NSNumber(value: UInt16(integer(bytes))), prefix + "uint16")
        case (22, 3), (22, 4), (77, 4): return (NSNumber(value: UInt32(integer(bytes))), prefix + "uint32")
        case (22, 8), (78, 8): return (NSNumber(value: integer(bytes)), prefix + "uint64")
        default: return (data(bytes), rawData)
        }
    }

    /// Up to eight bytes as a big-endian unsigned number.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func data(_ bytes: ArraySlice<UInt8>) -> NSData {
        bytes.withUnsafeBytes { NSData(bytes: $0.baseAddress, length: $0.count) }
    }

    /// QuickTime metadata keys that map onto a common key.
    private static let commonKeys: [String: AVMetadataKey] = [
        "com.apple.quicktime.title": .commonKeyTitle, "com.apple.quicktime.artist": .commonKeyArtist,
        "com.apple.quicktime.album": .commonKeyAlbumName, "com.apple.quicktime.author": .commonKeyAuthor,
        "com.apple.quicktime.description": .commonKeyDescription,
        "com.apple.quicktime.creationdate": .commonKeyCreationDate,
        "com.apple.quicktime.copyright": .commonKeyCopyrights, "com.apple.quicktime.publisher": .commonKeyPublisher,
        "com.apple.quicktime.software": .commonKeySoftware, "com.apple.quicktime.make": .commonKeyMake,
        "com.apple.quicktime.model": .commonKeyModel, "com.apple.quicktime.genre": .commonKeyType,
        "com.apple.quicktime.location.ISO6709": .commonKeyLocation,
    ]
}
