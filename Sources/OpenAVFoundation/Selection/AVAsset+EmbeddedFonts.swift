// Playhead: the fonts a container carries as attachments (Matroska), listed for `probe`.
// Concurrency: reads the asset's loaded contents (immutable once loaded); any thread.
import FFmpegBridge
import Foundation

/// One font attached to the container.
package struct AttachedFontDescription: Sendable, Equatable {
    /// The attachment's file name.
    package var fileName: String
    /// Its MIME type, when the container gives one.
    package var mimeType: String?
}

extension AVAsset {
    /// Loads the asset and returns the font attachments of its container, in stream order.
    package func loadAttachedFonts() async throws -> [AttachedFontDescription] {
        _ = try await load(.tracks)
        return try loadedContents().description.streams.compactMap { stream in
            guard stream.kind == .attachment else { return nil }
            let name = stream.tags.first { $0.key == "filename" }?.value ?? "attachment-\(stream.index)"
            let mime = stream.tags.first { $0.key == "mimetype" }?.value
            return EmbeddedFont.isFont(fileName: name, mimeType: mime)
                ? AttachedFontDescription(fileName: name, mimeType: mime) : nil
        }
    }
}
