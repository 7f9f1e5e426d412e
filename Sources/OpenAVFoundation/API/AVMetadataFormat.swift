// Playhead: metadata formats: which formats an asset's tags come in, and the tags of one.
//
// Concurrency: values and pure functions; the asset members block or await like the asset's
// other loaded properties.
import Foundation

/// A metadata format (ID3, iTunes, QuickTime, ...), identified by Apple's format strings.
public struct AVMetadataFormat: RawRepresentable, Hashable, Sendable {
    /// The format's identifier.
    public let rawValue: String
    /// The format with this identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The format with this identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// ID3 tags (MP3 files, ID3 in MPEG-TS and HLS).
    public static let id3Metadata = AVMetadataFormat("org.id3")
    /// iTunes-style atoms in MP4 and M4A (`ilst`).
    public static let iTunesMetadata = AVMetadataFormat("com.apple.itunes")
    /// QuickTime metadata (`mdta` keys).
    public static let quickTimeMetadata = AVMetadataFormat("com.apple.quicktime.mdta")
    /// QuickTime user data (`udta`).
    public static let quickTimeUserData = AVMetadataFormat("com.apple.quicktime.udta")
    /// ISO base media user data.
    public static let isoUserData = AVMetadataFormat("org.mp4ra")
    /// HLS session and date-range metadata.
    public static let hlsMetadata = AVMetadataFormat("com.apple.quicktime.HLS")
    /// Tags of a container Apple has no format for (Matroska, Ogg, FLAC, AVI, ...), as FFmpeg
    /// reports them. Playhead's own; items carry the `playheadContainer` key space.
    public static let playheadContainer = AVMetadataFormat("org.ffmpeg.metadata")

    /// The format a container's tags come in, from FFmpeg's demuxer name.
    static func format(ofContainer name: String) -> AVMetadataFormat {
        let names = Set(name.split(separator: ",").map(String.init))
        if names.contains("mp4") || names.contains("m4a") { return .iTunesMetadata }
        if names.contains("mp3") || names.contains("mpegts") || names.contains("hls") || names.contains("aac") {
            return .id3Metadata
        }
        return .playheadContainer
    }
}

extension AVAsset {
    /// The formats the asset's metadata comes in: the container's, when it has tags, and
    /// `.hlsMetadata` for an HLS stream's session data; empty otherwise. Blocks until loaded.
    public var availableMetadataFormats: [AVMetadataFormat] {
        contentsWaiting(for: "availableMetadataFormats")?.availableMetadataFormats ?? []
    }

    /// The asset's metadata in `format`: every tag when `format` is the container's, the
    /// session data for `.hlsMetadata`, else none. Blocks until loaded.
    public func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] {
        contentsWaiting(for: "metadata")?.metadata(in: format) ?? []
    }

    /// The asset's metadata in `format`, loading it first.
    public func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] {
        _ = try await load(.availableMetadataFormats, .metadata)
        return metadata(forFormat: format)
    }
}

extension AssetContents {
    /// The container's metadata format, when it has any tags, and `.hlsMetadata` when the
    /// stream has session data.
    var availableMetadataFormats: [AVMetadataFormat] {
        (containerMetadata.isEmpty ? [] : [AVMetadataFormat.format(ofContainer: containerFormat.name)])
            + (sessionMetadata.isEmpty ? [] : [.hlsMetadata])
    }

    /// The items of `format` (see `AVAsset.metadata(forFormat:)`).
    func metadata(in format: AVMetadataFormat) -> [AVMetadataItem] {
        var items: [AVMetadataItem] = []
        if !containerMetadata.isEmpty, format == AVMetadataFormat.format(ofContainer: containerFormat.name) {
            items += containerMetadata
        }
        if format == .hlsMetadata { items += sessionMetadata }
        return items
    }
}
