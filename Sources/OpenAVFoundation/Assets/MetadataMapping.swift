// Playhead: maps container tags onto AVMetadataItems with common keys.
import FFmpegBridge
import Foundation

/// Turns FFmpeg's container tags and cover art into metadata items.
///
/// Concurrency: pure functions.
enum MetadataMapping {
    /// FFmpeg tag names (lowercased) and the common key each one means.
    static let commonKeys: [String: AVMetadataKey] = [
        "title": .commonKeyTitle, "artist": .commonKeyArtist, "album_artist": .commonKeyAuthor,
        "author": .commonKeyAuthor, "album": .commonKeyAlbumName, "composer": .commonKeyCreator,
        "comment": .commonKeyDescription, "description": .commonKeyDescription,
        "synopsis": .commonKeyDescription, "genre": .commonKeyType,
        "date": .commonKeyCreationDate, "creation_time": .commonKeyCreationDate,
        "copyright": .commonKeyCopyrights, "publisher": .commonKeyPublisher,
        "encoder": .commonKeySoftware, "encoded_by": .commonKeySoftware,
        "language": .commonKeyLanguage, "location": .commonKeyLocation, "make": .commonKeyMake,
        "model": .commonKeyModel,
    ]

    /// One item per tag (the first of several tags with one common key keeps it), then one
    /// artwork item per embedded picture.
    static func items(tags: [MediaTag], artwork: [Artwork]) -> [AVMetadataItem] {
        var usedCommonKeys: Set<AVMetadataKey> = []
        var items: [AVMetadataItem] = tags.map { tag in
            var commonKey = commonKeys[tag.key]
            if let key = commonKey {
                if usedCommonKeys.contains(key) { commonKey = nil } else { usedCommonKeys.insert(key) }
            }
            return AVMetadataItem(
                key: tag.key, keySpace: .playheadContainer, commonKey: commonKey,
                value: NSString(string: tag.value), dataType: "com.apple.metadata.datatype.UTF-8")
        }
        items += artwork.map { picture in
            AVMetadataItem(
                key: "artwork", keySpace: .playheadContainer, commonKey: .commonKeyArtwork,
                value: NSData(bytes: picture.data, length: picture.data.count),
                dataType: picture.mimeType)
        }
        return items
    }
}
