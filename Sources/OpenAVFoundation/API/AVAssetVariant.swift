// Playhead: AVAssetVariant, the variants an adaptive stream offers (an HLS multivariant
// playlist's variants, a DASH manifest's video Representations) as its playlist or manifest
// states them: bit rates, picture size, frame rate, video range, stereo and projection
// layouts, codecs, and the channels of the audio renditions each plays with.
//
// Concurrency: immutable objects made when the asset loads; shared freely.
import FFmpegBridge
import Foundation

/// One variant of an adaptive stream, as the stream declares it.
///
/// ```swift
/// let variants = try await asset.load(.variants)
/// let sizes = variants.compactMap { $0.videoAttributes?.presentationSize }
/// ```
///
/// - Important: Immutable; thread-safe.
open class AVAssetVariant: NSObject, @unchecked Sendable {
    /// The video a variant carries, as declared.
    open class VideoAttributes: NSObject, @unchecked Sendable {
        /// The picture size (`RESOLUTION`, a Representation's `width` and `height`);
        /// `.zero` when not stated.
        public let presentationSize: CGSize
        /// The video codecs, as four-character codes such as `kCMVideoCodecType_H264`.
        public let codecTypes: [NSNumber]
        /// Frames per second (`FRAME-RATE`, a Representation's `frameRate`); nil when not stated.
        public let nominalFrameRate: Double?
        /// The video's dynamic range (`VIDEO-RANGE`, a Representation's transfer
        /// characteristics); `.sdr` when not stated, as the HLS specification reads it.
        public let videoRange: AVVideoRange
        /// The ways the video may be viewed, most preferred first (HLS `REQ-VIDEO-LAYOUT`): a
        /// stereo variant lists a layout with both eyes' views, a 360° one an equirectangular
        /// projection. A variant that states none is flat, rectangular video: one such layout.
        public let videoLayoutAttributes: [LayoutAttributes]

        /// One way a variant's video may be viewed.
        open class LayoutAttributes: NSObject, @unchecked Sendable {
            /// The eyes the pictures carry a view for: both for stereo video, none for flat.
            public let stereoViewComponents: CMStereoViewComponents
            /// The surface the pictures are projected on.
            public let projectionType: CMProjectionType

            init(_ layout: StreamVideoLayout) {
                stereoViewComponents = layout.isStereo ? [.leftEye, .rightEye] : []
                switch layout.projection {
                case .rectilinear: projectionType = .rectangular
                case .equirectangular: projectionType = .equirectangular
                case .halfEquirectangular: projectionType = .halfEquirectangular
                case .parametricImmersive: projectionType = .parametricImmersive
                }
                super.init()
            }
        }

        init(
            presentationSize: CGSize, codecTypes: [NSNumber], nominalFrameRate: Double?, videoRange: AVVideoRange,
            layouts: [StreamVideoLayout]
        ) {
            self.presentationSize = presentationSize
            self.codecTypes = codecTypes
            self.nominalFrameRate = nominalFrameRate
            self.videoRange = videoRange
            videoLayoutAttributes = (layouts.isEmpty ? [StreamVideoLayout()] : layouts).map(LayoutAttributes.init)
            super.init()
        }
    }

    /// The audio a variant carries, as declared.
    open class AudioAttributes: NSObject, @unchecked Sendable {
        /// What one audio rendition the variant plays with declares about its channels.
        open class RenditionSpecificAttributes: NSObject, @unchecked Sendable {
            /// How many channels play at once (HLS `CHANNELS`' count, a DASH audio set's
            /// channel configuration).
            public let channelCount: Int
            /// Made for headphones (HLS `CHANNELS` naming `BINAURAL`).
            public let isBinaural: Bool
            /// Spatial audio meant to surround the listener (`IMMERSIVE`).
            public let isImmersive: Bool
            /// Mixed down from a rendition of more channels (`DOWNMIX`).
            public let isDownmix: Bool

            init(_ rendition: StreamAudioRendition) {
                channelCount = rendition.channelCount
                isBinaural = rendition.isBinaural
                isImmersive = rendition.isImmersive
                isDownmix = rendition.isDownmix
                super.init()
            }
        }

        /// The audio formats, as four-character codes such as `kAudioFormatMPEG4AAC`.
        public let formatIDs: [NSNumber]
        private let renditions: [StreamAudioRendition]

        init(formatIDs: [NSNumber], renditions: [StreamAudioRendition]) {
            self.formatIDs = formatIDs
            self.renditions = renditions
            super.init()
        }

        /// The channels of the audio rendition `mediaSelectionOption` names (an option of the
        /// asset's audible group, matched by its rendition's name), as this variant's
        /// playlist or manifest declares them; nil when the option is not one of the variant's
        /// renditions or its channels are not stated.
        open func renditionSpecificAttributes(for mediaSelectionOption: AVMediaSelectionOption)
            -> RenditionSpecificAttributes?
        {
            guard mediaSelectionOption.mediaType == .audio,
                let name = mediaSelectionOption.sourceName ?? mediaSelectionOption.title,
                let rendition = renditions.first(where: { $0.name == name })
            else { return nil }
            return RenditionSpecificAttributes(rendition)
        }
    }

    /// The peak bit rate, bits per second.
    public let peakBitRate: Double?
    /// The average bit rate, bits per second, when stated.
    public let averageBitRate: Double?
    /// The video, when the variant states a size or a video codec.
    public let videoAttributes: VideoAttributes?
    /// The audio, when the variant states an audio codec.
    public let audioAttributes: AudioAttributes?

    init(_ variant: StreamVariant) {
        peakBitRate = variant.peakBitRate > 0 ? Double(variant.peakBitRate) : nil
        averageBitRate = variant.averageBitRate.map(Double.init)
        let codecs = (variant.codecs ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let video = codecs.compactMap(Self.videoCodec).map { NSNumber(value: $0) }
        let audio = codecs.compactMap(Self.audioFormat).map { NSNumber(value: $0) }
        let size = CGSize(width: variant.width ?? 0, height: variant.height ?? 0)
        videoAttributes = video.isEmpty && size == .zero && variant.frameRate == nil
            ? nil
            : VideoAttributes(
                presentationSize: size, codecTypes: video, nominalFrameRate: variant.frameRate,
                videoRange: variant.videoRange.map(AVVideoRange.init(rawValue:)) ?? .sdr, layouts: variant.videoLayouts)
        audioAttributes =
            audio.isEmpty && variant.audioRenditions.isEmpty
            ? nil : AudioAttributes(formatIDs: audio, renditions: variant.audioRenditions)
        super.init()
    }

    /// The video codec type of an RFC 6381 codecs entry ("avc1.64001e"), when it is video
    /// (also WebM's plain "vp9", as WebM DASH manifests often write it).
    static func videoCodec(_ entry: String) -> FourCharCode? {
        switch entry.prefix(while: { $0 != "." }) {
        case "avc1", "avc3": return kCMVideoCodecType_H264
        case "hvc1", "hev1": return kCMVideoCodecType_HEVC
        case "vp09", "vp9": return kCMVideoCodecType_VP9
        case "av01": return kCMVideoCodecType_AV1
        case "mp4v": return kCMVideoCodecType_MPEG4Video
        default: return nil
        }
    }

    /// The audio format of an RFC 6381 codecs entry ("mp4a.40.2"), when it is audio.
    static func audioFormat(_ entry: String) -> AudioFormatID? {
        switch entry.prefix(while: { $0 != "." }) {
        case "mp4a": return entry.hasSuffix(".34") || entry == "mp4a.6B" || entry == "mp4a.69" ? kAudioFormatMPEGLayer3 : kAudioFormatMPEG4AAC
        case "ac-3": return kAudioFormatAC3
        case "ec-3": return kAudioFormatEnhancedAC3
        case "opus", "Opus": return kAudioFormatOpus
        case "fLaC", "flac": return kAudioFormatFLAC
        case "alac": return kAudioFormatAppleLossless
        default: return nil
        }
    }
}

/// The dynamic range of a variant's video: its transfer function, as HLS's `VIDEO-RANGE` names it.
public struct AVVideoRange: RawRepresentable, Hashable, Sendable {
    /// The name, such as `"PQ"`.
    public let rawValue: String

    /// The range called `rawValue` ("SDR", "HLG", "PQ").
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Standard dynamic range (BT.709 and the other SDR transfers).
    public static let sdr = AVVideoRange(rawValue: "SDR")
    /// Hybrid log-gamma (ARIB STD-B67) high dynamic range.
    public static let hlg = AVVideoRange(rawValue: "HLG")
    /// Perceptual quantizer (SMPTE ST 2084) high dynamic range, as HDR10 and Dolby Vision use.
    public static let pq = AVVideoRange(rawValue: "PQ")
}

extension AVPartialAsyncProperty where Root: AVURLAsset {
    /// The variants of an adaptive stream Playhead's loader streams (HLS or DASH), lowest
    /// peak bit rate first; empty for other assets.
    public static var variants: AVAsyncProperty<Root, [AVAssetVariant]> {
        AVAsyncProperty(key: "variants") { try $0.loadedContents().description.variants.map(AVAssetVariant.init) }
    }
}

extension AVURLAsset {
    /// The variants (see `load(.variants)`). Blocks until loaded; empty when loading failed.
    @available(*, deprecated, message: "Use load(.variants) instead")
    public var variants: [AVAssetVariant] {
        contentsWaiting(for: "variants")?.description.variants.map(AVAssetVariant.init) ?? []
    }
}
