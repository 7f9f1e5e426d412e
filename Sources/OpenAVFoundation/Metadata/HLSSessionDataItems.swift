// Playhead: an HLS stream's `EXT-X-SESSION-DATA` as the asset's metadata (format
// `.hlsMetadata`), as AVFoundation hands it out: one item per tag, its `DATA-ID` the key (key
// space `.quickTimeMetadata`, identifiers such as "mdta/com.example.movie.title"), its
// `LANGUAGE` the extended language tag, its `VALUE` a string (UTF-8) or its `URI`'s document
// the data (JSON, or raw bytes for `FORMAT=RAW`). Apple's authoring keys
// `com.apple.hls.title` and `com.apple.hls.description` are also the common title and
// description: such an item's identifier is the common one, as every item with a common key
// is (MetadataMapping.swift). A tag whose document could not be read gives no item.
//
// Concurrency: a pure function.
import FFmpegBridge
import Foundation

enum HLSSessionDataItems {
    /// The common keys Apple's HLS authoring specification's data IDs stand for.
    static let commonKeys: [String: AVMetadataKey] = [
        "com.apple.hls.title": .commonKeyTitle, "com.apple.hls.description": .commonKeyDescription,
    ]

    /// The metadata items of `entries`, in playlist order.
    static func items(_ entries: [HLSSessionData]) -> [AVMetadataItem] {
        entries.compactMap { entry in
            let commonKey = commonKeys[entry.dataID]
            let value: any NSCopying & NSObjectProtocol
            let dataType: String
            if let text = entry.value {
                value = NSString(string: text)
                dataType = "com.apple.metadata.datatype.UTF-8"
            } else if let document = entry.contents {
                value = NSData(data: document)
                dataType = entry.isRaw ? "com.apple.metadata.datatype.raw-data" : "com.apple.metadata.datatype.JSON"
            } else {
                return nil
            }
            var fields = MetadataFields()
            fields.key = NSString(string: entry.dataID)
            fields.keySpace = .quickTimeMetadata
            fields.identifier =
                commonKey.map { AVMetadataIdentifier.identifier(forKey: $0.rawValue, keySpace: .common) }
                ?? AVMetadataIdentifier.identifier(forKey: entry.dataID, keySpace: .quickTimeMetadata)
            fields.commonKey = commonKey
            fields.value = value
            fields.dataType = dataType
            fields.extendedLanguageTag = entry.language
            return AVMetadataItem(fields: fields)
        }
    }
}
