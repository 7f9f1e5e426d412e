// Playhead: builds a ProbeSummary from OpenAVFoundation's public asset API.
import Foundation
import OpenAVFoundation

/// The real `probe` back end: loads an `AVURLAsset` and summarises it.
public enum AssetProbeLoader {
    /// Loads `input` (a path or URL) and describes it.
    ///
    /// - Throws: the asset's loading error, whose description is the reason to print.
    public static func summary(of input: String) async throws -> ProbeSummary {
        let asset = AVURLAsset(url: InputURL.from(input))
        let (duration, tracks, playable, metadata, format, isProtected) = try await asset.load(
            .duration, .tracks, .isPlayable, .commonMetadata, .containerFormat, .hasProtectedContent)
        let chapters = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: [])
        var summary = ProbeSummary(
            input: input,
            durationSeconds: duration.isNumeric ? duration.seconds : nil,
            isPlayable: playable,
            format: format.name,
            formatDescription: format.formatDescription,
            bitRate: format.bitRate,
            tracks: tracks.map(track),
            metadata: metadata.compactMap(entry),
            hasProtectedContent: isProtected)
        if let legible = try await asset.loadMediaSelectionGroup(for: .legible) {
            summary.captions = legible.options.filter { $0.mediaType == .closedCaption }.map {
                ProbeSummary.Caption(
                    name: $0.displayName(with: Locale(identifier: "en")), codec: $0.codecName,
                    streamIndex: $0.streamIndex, inVideo: $0.isCarriedInVideo,
                    language: $0.extendedLanguageTag)
            }
        }
        summary.fonts = try await asset.loadAttachedFonts().map {
            ProbeSummary.Font(fileName: $0.fileName, mimeType: $0.mimeType)
        }
        summary.variants = try await asset.load(.variants).map { variant in
            let codes = (variant.videoAttributes?.codecTypes ?? []) + (variant.audioAttributes?.formatIDs ?? [])
            return ProbeSummary.Variant(
                peakBitRate: variant.peakBitRate.map { Int($0) }, averageBitRate: variant.averageBitRate.map { Int($0) },
                width: variant.videoAttributes.map { Int($0.presentationSize.width) }.flatMap { $0 > 0 ? $0 : nil },
                height: variant.videoAttributes.map { Int($0.presentationSize.height) }.flatMap { $0 > 0 ? $0 : nil },
                codecs: codes.map { fourCharacters($0.uint32Value) },
                frameRate: variant.videoAttributes?.nominalFrameRate, videoRange: variant.videoAttributes?.videoRange.rawValue,
                layouts: (variant.videoAttributes?.videoLayoutAttributes ?? []).map(Self.layoutName))
        }
        summary.chapters = chapters.map { group in
            ProbeSummary.Chapter(
                title: group.items.first { $0.commonKey == .commonKeyTitle }?.stringValue ?? "",
                start: group.timeRange.start.seconds, end: group.timeRange.end.seconds)
        }
        return summary
    }

    /// A variant's layout as probe prints it: "stereo rectangular", "mono equirectangular".
    static func layoutName(_ layout: AVAssetVariant.VideoAttributes.LayoutAttributes) -> String {
        let views = layout.stereoViewComponents == [.leftEye, .rightEye] ? "stereo" : "mono"
        let surface: String
        switch layout.projectionType {
        case .rectangular: surface = "rectangular"
        case .equirectangular: surface = "equirectangular"
        case .halfEquirectangular: surface = "half-equirectangular"
        case .fisheye: surface = "fisheye"
        case .parametricImmersive: surface = "parametric immersive"
        }
        return "\(views) \(surface)"
    }

    /// A four-character code as its text ("avc1", "aac ").
    static func fourCharacters(_ code: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }, as: UTF8.self)
    }

    static func track(_ track: AVAssetTrack) -> ProbeSummary.Track {
        let isVideo = track.mediaType == .video, isAudio = track.mediaType == .audio
        let size = track.naturalSize
        var result = ProbeSummary.Track(
            id: Int(track.trackID),
            mediaType: mediaTypeName(track.mediaType),
            codec: track.codec,
            codecDescription: track.codecDescription,
            profile: track.codecProfile,
            width: isVideo && size.width > 0 ? Int(size.width) : nil,
            height: isVideo && size.height > 0 ? Int(size.height) : nil,
            frameRate: isVideo && track.nominalFrameRate > 0 ? Double(track.nominalFrameRate) : nil,
            sampleRate: isAudio && track.sampleRate > 0 ? Int(track.sampleRate) : nil,
            channels: isAudio && track.channelCount > 0 ? track.channelCount : nil,
            channelLayout: isAudio ? track.channelLayoutName : nil,
            language: track.languageCode,
            rotation: isVideo ? track.rotationDegrees : nil,
            bitRate: track.estimatedDataRate > 0 ? Int(track.estimatedDataRate) : nil,
            title: track.title,
            isDefault: track.isDefault, isForced: track.isForced)
        result.colour = colour(of: track)
        return result
    }

    /// The colour a video track's format description states, by Core Video's names.
    static func colour(of track: AVAssetTrack) -> [String: String] {
        guard track.mediaType == .video, let format = track.formatDescriptions.first as? CMFormatDescription else {
            return [:]
        }
        let keys = [
            ("matrix", kCMFormatDescriptionExtension_YCbCrMatrix),
            ("primaries", kCMFormatDescriptionExtension_ColorPrimaries),
            ("transfer", kCMFormatDescriptionExtension_TransferFunction),
        ]
        var colour: [String: String] = [:]
        for (name, key) in keys {
            if let value = CMFormatDescriptionGetExtension(format, extensionKey: key) { colour[name] = value }
        }
        return colour
    }

    static func mediaTypeName(_ type: AVMediaType) -> String {
        switch type {
        case .video: return "video"
        case .audio: return "audio"
        case .subtitle, .text, .closedCaption: return "subtitle"
        default: return "data"
        }
    }

    /// One metadata line, keyed by the container's own tag name (`title`, `artist`, `album`,
    /// `comment`, ...) as the probe output documents, not by the common key (`albumName`,
    /// `description`); cover art is `artwork`.
    static func entry(_ item: AVMetadataItem) -> ProbeSummary.MetadataEntry? {
        guard let key = (item.key as? NSString).map({ $0 as String }) ?? item.commonKey?.rawValue
        else { return nil }
        if let text = item.stringValue { return .init(key: key, value: text) }
        if let data = item.dataValue {
            return .init(key: key, value: "\(item.dataType ?? "data"), \(data.count) bytes")
        }
        return nil
    }
}
