// Playhead: the loadable properties of assets and tracks, for `load(_:)`.
import Foundation

extension AVPartialAsyncProperty where Root: AVAsset {
    /// The asset's duration (`.indefinite` for live or unknown).
    public static var duration: AVAsyncProperty<Root, CMTime> {
        AVAsyncProperty(key: "duration") { try $0.loadedContents().duration }
    }
    /// Every track of the asset.
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> {
        AVAsyncProperty(key: "tracks") { try $0.loadedContents().tracks }
    }
    /// Whether some audio or video track can be decoded.
    public static var isPlayable: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "playable") { asset in
            if case .failure(.protectedContent)? = asset.inspection.result { return false }
            return try asset.loadedContents().isPlayable
        }
    }
    /// Whether some track is encrypted, or the stream's keys come from a DRM system (true
    /// where other properties fail to load with `AVError.contentIsProtected`).
    public static var hasProtectedContent: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "hasProtectedContent") { asset in
            if case .failure(.protectedContent)? = asset.inspection.result { return true }
            return try asset.loadedContents().hasProtectedContent
        }
    }
    /// Metadata with common keys.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(key: "commonMetadata") { try $0.loadedContents().commonMetadata }
    }
    /// Every metadata tag of the container.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(key: "metadata") { try $0.loadedContents().metadata }
    }
    /// The formats the asset's metadata comes in.
    public static var availableMetadataFormats: AVAsyncProperty<Root, [AVMetadataFormat]> {
        AVAsyncProperty(key: "availableMetadataFormats") { try $0.loadedContents().availableMetadataFormats }
    }
    /// The movie-level transform.
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        AVAsyncProperty(key: "preferredTransform") { _ = try $0.loadedContents(); return .identity }
    }
    /// The natural playback rate.
    public static var preferredRate: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(key: "preferredRate") { _ = try $0.loadedContents(); return 1 }
    }
    /// The natural volume.
    public static var preferredVolume: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(key: "preferredVolume") { _ = try $0.loadedContents(); return 1 }
    }
    /// Whether duration and timing are exact rather than estimated.
    public static var providesPreciseDurationAndTiming: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "providesPreciseDurationAndTiming") {
            try $0.loadedContents().providesPreciseDurationAndTiming
        }
    }
    /// The container format FFmpeg read. A Playhead addition.
    public static var containerFormat: AVAsyncProperty<Root, AVAssetContainerFormat> {
        AVAsyncProperty(key: "containerFormat") { try $0.loadedContents().containerFormat }
    }
}

extension AVPartialAsyncProperty where Root: AVAssetTrack {
    /// The picture size before the preferred transform.
    public static var naturalSize: AVAsyncProperty<Root, CGSize> {
        AVAsyncProperty(key: "naturalSize") { $0.naturalSize }
    }
    /// How to turn the picture for display.
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        AVAsyncProperty(key: "preferredTransform") { $0.preferredTransform }
    }
    /// Frames per second as stated by the container.
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(key: "nominalFrameRate") { $0.nominalFrameRate }
    }
    /// Bits per second.
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> {
        AVAsyncProperty(key: "estimatedDataRate") { $0.estimatedDataRate }
    }
    /// What the samples are: codec, picture size or audio layout.
    public static var formatDescriptions: AVAsyncProperty<Root, [CMFormatDescription]> {
        AVAsyncProperty(key: "formatDescriptions") { $0.sampleFormats }
    }
    /// The track's edits in timeline order.
    public static var segments: AVAsyncProperty<Root, [AVAssetTrackSegment]> {
        AVAsyncProperty(key: "segments") { $0.segments }
    }
    /// The shortest time a frame is shown (video).
    public static var minFrameDuration: AVAsyncProperty<Root, CMTime> {
        AVAsyncProperty(key: "minFrameDuration") { $0.minFrameDuration }
    }
    /// The track's extent on the asset timeline.
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> {
        AVAsyncProperty(key: "timeRange") { $0.timeRange }
    }
    /// The stored language code.
    public static var languageCode: AVAsyncProperty<Root, String?> {
        AVAsyncProperty(key: "languageCode") { $0.languageCode }
    }
    /// The language as a BCP 47 tag.
    public static var extendedLanguageTag: AVAsyncProperty<Root, String?> {
        AVAsyncProperty(key: "extendedLanguageTag") { $0.extendedLanguageTag }
    }
    /// Whether the codec can be decoded here.
    public static var isPlayable: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "playable") { $0.isPlayable }
    }
    /// Whether the codec can be decoded here (as `isPlayable`).
    public static var isDecodable: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "decodable") { $0.isDecodable }
    }
    /// The track's characteristics (visual, audible, legible, forced, HDR).
    public static var mediaCharacteristics: AVAsyncProperty<Root, [AVMediaCharacteristic]> {
        AVAsyncProperty(key: "mediaCharacteristics") { $0.mediaCharacteristics }
    }
    /// Whether the track is enabled.
    public static var isEnabled: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "enabled") { $0.isEnabled }
    }
    /// The units per second of the track's timestamps.
    public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> {
        AVAsyncProperty(key: "naturalTimeScale") { $0.naturalTimeScale }
    }
    /// The track's metadata.
    public static var metadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(key: "metadata") { $0.metadata }
    }
    /// The track's metadata with common keys.
    public static var commonMetadata: AVAsyncProperty<Root, [AVMetadataItem]> {
        AVAsyncProperty(key: "commonMetadata") { $0.commonMetadata }
    }
}

extension AVPartialAsyncProperty where Root: AVMetadataItem {
    /// The item's value.
    public static var value: AVAsyncProperty<Root, (any NSCopying & NSObjectProtocol)?> {
        AVAsyncProperty(key: "value") { $0.value }
    }
    /// Attributes beside the value.
    public static var extraAttributes: AVAsyncProperty<Root, [AVMetadataExtraAttributeKey: Any]?> {
        AVAsyncProperty(key: "extraAttributes") { $0.extraAttributes }
    }
    /// The value as a string.
    public static var stringValue: AVAsyncProperty<Root, String?> {
        AVAsyncProperty(key: "stringValue") { $0.stringValue }
    }
    /// The value as a number.
    public static var numberValue: AVAsyncProperty<Root, NSNumber?> {
        AVAsyncProperty(key: "numberValue") { $0.numberValue }
    }
    /// The value as a date.
    public static var dateValue: AVAsyncProperty<Root, Date?> {
        AVAsyncProperty(key: "dateValue") { $0.dateValue }
    }
    /// The value as data.
    public static var dataValue: AVAsyncProperty<Root, Data?> {
        AVAsyncProperty(key: "dataValue") { $0.dataValue }
    }
}
