// Playhead: fonts a container carries as attachments (Matroska's fonts for styled subtitles).
// Concurrency: `EmbeddedFont` is an immutable Sendable value; `Demuxer.embeddedFonts()` reads
// the container's streams and belongs to the thread that owns the demuxer.
internal import CFFmpeg
import Foundation

/// A font file attached to the container, handed to the subtitle renderer so styles that
/// name it draw with it even when the system does not have it.
package struct EmbeddedFont: Sendable, Equatable {
    /// The attachment's file name ("Kaiti.ttf").
    package var fileName: String
    /// The MIME type the container gives, when it gives one.
    package var mimeType: String?
    /// The font file's bytes.
    package var data: Data

    package init(fileName: String, mimeType: String?, data: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.data = data
    }

    /// The most bytes of fonts taken from one container (a hostile file cannot make the
    /// renderer hold gigabytes).
    package static let totalLimit = 256 << 20

    /// True when the attachment is a font, by its MIME type or, failing that, its extension.
    package static func isFont(fileName: String, mimeType: String?) -> Bool {
        if let mime = mimeType?.lowercased(),
            mime.hasPrefix("font/") || mime.contains("truetype") || mime.contains("opentype")
                || mime.contains("font-woff") || mime == "application/vnd.ms-opentype"
        {
            return true
        }
        let name = fileName.lowercased()
        return [".ttf", ".otf", ".ttc", ".woff", ".woff2"].contains { name.hasSuffix($0) }
    }
}

extension Demuxer {
    /// The font attachments of the container, in stream order (up to `EmbeddedFont.totalLimit`
    /// bytes in all).
    package func embeddedFonts() -> [EmbeddedFont] {
        let context = container.pointer.pointee
        var fonts: [EmbeddedFont] = []
        var total = 0
        for index in 0..<Int(context.nb_streams) {
            guard let stream = context.streams[index]?.pointee,
                let parameters = stream.codecpar?.pointee,
                parameters.codec_type == AVMEDIA_TYPE_ATTACHMENT,
                let bytes = parameters.extradata, parameters.extradata_size > 0
            else { continue }
            let fileName = Self.tag("filename", in: stream.metadata) ?? "attachment-\(index)"
            let mime = Self.tag("mimetype", in: stream.metadata)
            let size = Int(parameters.extradata_size)
            guard EmbeddedFont.isFont(fileName: fileName, mimeType: mime),
                total + size <= EmbeddedFont.totalLimit
            else { continue }
            total += size
            fonts.append(
                EmbeddedFont(fileName: fileName, mimeType: mime, data: Data(bytes: bytes, count: size)))
        }
        return fonts
    }

    private static func tag(_ key: String, in dictionary: OpaquePointer?) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }
}
