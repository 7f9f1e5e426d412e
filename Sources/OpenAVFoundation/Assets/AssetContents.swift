// Playhead: the public objects made once from an asset's inspection.
import FFmpegBridge
import Foundation

/// What a loaded asset hands out, built once so repeated reads return the same objects.
///
/// Concurrency: immutable after construction; shared freely.
struct AssetContents: @unchecked Sendable {
    let description: MediaDescription
    let duration: CMTime
    let tracks: [AVAssetTrack]
    let commonMetadata: [AVMetadataItem]
    let metadata: [AVMetadataItem]
    /// The container's tags, and an HLS stream's session data (`metadata` is both).
    let containerMetadata: [AVMetadataItem]
    let sessionMetadata: [AVMetadataItem]
    let containerFormat: AVAssetContainerFormat
    let chapterGroups: [AVTimedMetadataGroup]
    let chapterLocales: [Locale]
    let selectionGroups: [AVMediaSelectionGroup]

    init(description: MediaDescription, asset: AVAsset) {
        self.description = description
        duration = description.duration
        tracks = description.tracks.map {
            AVAssetTrack(
                stream: $0, assetStart: description.startTime, assetDuration: description.duration,
                asset: asset)
        }
        containerMetadata = MetadataMapping.items(tags: description.tags, artwork: description.artwork)
        sessionMetadata = HLSSessionDataItems.items(description.sessionData)
        metadata = containerMetadata + sessionMetadata
        commonMetadata = metadata.filter { $0.commonKey != nil }
        containerFormat = AVAssetContainerFormat(
            name: description.formatName, formatDescription: description.formatLongName,
            bitRate: description.bitRate)
        chapterGroups = ChapterGroups.make(description.chapters, duration: description.duration)
        chapterLocales = ChapterGroups.locales(description.chapters)
        selectionGroups = SelectionGroups.make(
            description,
            sidecars: SidecarSubtitles.find(
                for: asset.sourceURL, neighbours: description.neighbourFileNames, settings: asset.sidecarSettings))
    }

    /// Encrypted media is not playable here: Playhead has no DRM (an item of it fails with
    /// `AVError.contentIsProtected`).
    var isPlayable: Bool { description.hasDecodableTrack && !hasProtectedContent }
    var hasProtectedContent: Bool { description.streams.contains(where: \.isEncrypted) }
    var providesPreciseDurationAndTiming: Bool {
        duration.isNumeric && !description.durationIsEstimated
    }
}

/// The container an asset was read from, as FFmpeg names it.
///
/// - Note: A Playhead addition; Apple exposes no such property.
public struct AVAssetContainerFormat: Sendable, Equatable {
    /// FFmpeg's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm".
    public let name: String
    /// A readable name, e.g. "QuickTime / MOV".
    public let formatDescription: String
    /// The overall bit rate in bits per second, when known.
    public let bitRate: Int?
}
