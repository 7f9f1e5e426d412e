// Playhead: draws a player layer's newest picture with an SDL renderer.
//
// Concurrency: confined to the render thread that owns `target`. Pictures come from the
// layer's frame slot (filled on the presentation thread); uploads and conversions happen here.
// SDL's YUV conversion setting is one for the process: every renderer sets it right before it
// uploads and draws, so windows drawing on one thread never cross; two windows run on two
// threads at once could (SDL has no per-texture setting).
internal import CSDL2
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// Uploads pictures to one streaming texture and draws them where the layer's gravity says.
final class VideoRenderer {
    private let renderer: OpaquePointer
    /// owned by this object; recreated when the picture's size or format changes
    private var texture: OpaquePointer?
    private var textureFormat: UInt32 = 0
    private var textureSize = (width: 0, height: 0)
    /// How SDL turns the YUV texture into colours (the picture's matrix and range).
    private var yuvMode = YUVConversion.automatic
    /// The slot generation now in the texture (-1: none).
    private(set) var uploadedGeneration = -1
    private var hasPicture = false
    /// Reused across frames that need conversion.
    private let scaler = Scaler()

    /// A renderer drawing with `target`'s SDL renderer.
    init(target: RenderTarget) { renderer = target.renderer }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    /// True when the layer's slot holds a picture newer than the one uploaded.
    func needsUpload(for layer: AVPlayerLayer) -> Bool {
        layer.slot.latest().generation != uploadedGeneration
    }

    /// Draws `layer`'s newest picture into its frame; the area outside the picture is left as
    /// it is (the caller clears it to black first).
    /// - Parameter rotation: clockwise degrees to turn the picture; nil uses the rotation of
    ///   the layer's current item.
    func draw(_ layer: AVPlayerLayer, rotation: Int? = nil) {
        let content = layer.slot.latest()
        if content.generation != uploadedGeneration {
            uploadedGeneration = content.generation
            hasPicture = content.picture.map(upload) ?? false
        }
        guard hasPicture, let texture, let picture = content.picture else { return }
        let frame = layer.frame
        let rotation = rotation ?? layer.rotationDegrees()
        let size = VideoGeometry.displaySize(
            width: picture.width, height: picture.height, sampleAspect: picture.sampleAspect,
            rotationDegrees: rotation)
        let rect = VideoGeometry.videoRect(content: size, in: frame, gravity: layer.videoGravity)
        guard rect.width >= 1, rect.height >= 1 else { return }
        var clip = SDL_Rect(
            x: Int32(frame.minX), y: Int32(frame.minY), w: Int32(frame.width), h: Int32(frame.height))
        SDL_RenderSetClipRect(renderer, &clip)
        defer { SDL_RenderSetClipRect(renderer, nil) }
        // The mode is SDL's one setting for every YUV texture: set for this texture's draw
        // (renderers that convert in a shader read it when the draw is flushed at present).
        if textureFormat == SDL_PIXELFORMAT_IYUV.rawValue { SDL_SetYUVConversionMode(yuvMode.sdlMode) }
        let quarterTurns = ((rotation % 360) + 360) % 360 / 90
        if quarterTurns == 0 {
            var destination = Self.sdlRect(rect)
            SDL_RenderCopy(renderer, texture, nil, &destination)
        } else {
            // The texture is drawn unrotated into a box with the display size's sides swapped
            // for quarter turns, centred on the video rect, then turned about its centre.
            let swapped = quarterTurns % 2 == 1
            let width = swapped ? rect.height : rect.width
            let height = swapped ? rect.width : rect.height
            var destination = Self.sdlRect(
                CGRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height))
            SDL_RenderCopyEx(
                renderer, texture, nil, &destination, Double(quarterTurns * 90), nil, SDL_FLIP_NONE)
        }
    }

    // MARK: - Upload

    /// Puts `picture` in the texture: YUV 4:2:0 planes as they are when SDL can convert their
    /// matrix and range, anything else as RGBA.
    private func upload(_ picture: any DisplayablePicture) -> Bool {
        if picture.pixelFormatName == "yuv420p", picture.width > 0, picture.height > 0,
            let mode = Self.yuvConversion(for: picture.pictureColour)
        {
            // SDL's OpenGL renderer picks its conversion when the texture is made, the software
            // one when it is updated, others when it is drawn: set it for all three.
            SDL_SetYUVConversionMode(mode.sdlMode)
            guard let texture = texture(format: SDL_PIXELFORMAT_IYUV.rawValue, picture, yuvMode: mode)
            else { return false }
            return picture.withPlane(0) { luma, lumaStride, _ in
                picture.withPlane(1) { blue, blueStride, _ in
                    picture.withPlane(2) { red, redStride, _ in
                        guard let y = luma.baseAddress, let u = blue.baseAddress, let v = red.baseAddress
                        else { return false }
                        return SDL_UpdateYUVTexture(
                            texture, nil, y.assumingMemoryBound(to: UInt8.self), Int32(lumaStride),
                            u.assumingMemoryBound(to: UInt8.self), Int32(blueStride),
                            v.assumingMemoryBound(to: UInt8.self), Int32(redStride)) == 0
                    }
                }
            }
        }
        let rgba = picture.pixelFormatName == "rgba" ? picture : picture.convertedToRGBA(using: scaler)
        guard let rgba, rgba.width > 0, rgba.height > 0,
            let texture = texture(format: SDL_PIXELFORMAT_ABGR8888.rawValue, rgba)
        else { return false }
        return rgba.withPlane(0) { bytes, stride, _ in
            guard let base = bytes.baseAddress else { return false }
            return SDL_UpdateTexture(texture, nil, base, Int32(stride)) == 0
        }
    }

    /// The streaming texture for `picture`'s size in `format` (and YUV conversion), made anew
    /// when any changed.
    private func texture(
        format: UInt32, _ picture: any DisplayablePicture, yuvMode: YUVConversion = .automatic
    ) -> OpaquePointer? {
        if let texture, textureFormat == format,
            textureSize == (picture.width, picture.height), self.yuvMode == yuvMode
        {
            return texture
        }
        self.yuvMode = yuvMode
        if let texture { SDL_DestroyTexture(texture) }
        texture = SDL_CreateTexture(
            renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(picture.width),
            Int32(picture.height))
        textureFormat = format
        textureSize = (picture.width, picture.height)
        if let texture { SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear) }
        return texture
    }

    /// SDL's conversion for pictures of `colour`: BT.601 full range ("JPEG"), BT.601 or BT.709
    /// video range; nil for any other (converted to RGBA by swscale with its own matrix); SDL's
    /// own guess by size for a picture that states no colour.
    static func yuvConversion(for colour: PictureColour?) -> YUVConversion? {
        guard let colour else { return .automatic }
        switch (colour.matrix, colour.isFullRange) {
        case (.bt601, true): return .jpeg
        case (.bt601, false): return .bt601
        case (.bt709, false): return .bt709
        default: return nil
        }
    }

    static func sdlRect(_ rect: CGRect) -> SDL_Rect {
        let x = rect.minX.rounded(), y = rect.minY.rounded()
        return SDL_Rect(
            x: Int32(x), y: Int32(y), w: Int32((rect.maxX.rounded() - x)),
            h: Int32((rect.maxY.rounded() - y)))
    }
}

/// The conversions SDL makes of YUV textures.
enum YUVConversion: Equatable {
    /// SDL's guess by the picture's height: BT.601 up to 576 lines, BT.709 above.
    case automatic
    /// BT.601, full range.
    case jpeg
    /// BT.601, video range.
    case bt601
    /// BT.709, video range.
    case bt709

    /// SDL's value.
    var sdlMode: SDL_YUV_CONVERSION_MODE {
        switch self {
        case .automatic: return SDL_YUV_CONVERSION_AUTOMATIC
        case .jpeg: return SDL_YUV_CONVERSION_JPEG
        case .bt601: return SDL_YUV_CONVERSION_BT601
        case .bt709: return SDL_YUV_CONVERSION_BT709
        }
    }
}
