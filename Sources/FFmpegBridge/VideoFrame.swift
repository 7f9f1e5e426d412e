// Playhead: the single owner of one decoded picture (an AVFrame reference).
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: a `VideoFrame` is immutable after creation: the decode thread creates it and
// it may then be read from any thread (the video output, tests). Its pixel buffers are
// reference-counted by FFmpeg and nobody writes to them once the decoder has returned them.

/// Pixel formats Playhead converts pictures to.
package enum VideoPixelFormat: String, Sendable, CaseIterable {
    /// 8-bit planar Y, U, V with 2×2 chroma subsampling, video range (Y 16-235: Core Video's
    /// 420YpCbCr8Planar).
    case yuv420p
    /// As `yuv420p`, full range (Y 0-255: Core Video's 420YpCbCr8PlanarFullRange).
    case yuv420pFullRange
    /// 8-bit packed red, green, blue, alpha.
    case rgba
    /// 8-bit packed blue, green, red, alpha (Core Video's 32BGRA).
    case bgra
    /// 8-bit Y plane and interleaved Cb/Cr plane with 2×2 chroma subsampling, video range
    /// (Y 16-235: Core Video's 420YpCbCr8BiPlanarVideoRange).
    case nv12
    /// As `nv12`, full range (Y 0-255: Core Video's 420YpCbCr8BiPlanarFullRange).
    case nv12FullRange

    var ffmpegValue: AVPixelFormat {
        switch self {
        case .yuv420p, .yuv420pFullRange: return AV_PIX_FMT_YUV420P
        case .rgba: return AV_PIX_FMT_RGBA
        case .bgra: return AV_PIX_FMT_BGRA
        case .nv12, .nv12FullRange: return AV_PIX_FMT_NV12
        }
    }

    /// True when the format's luma and chroma span the full 0-255 range.
    var isFullRange: Bool { self == .nv12FullRange || self == .yuv420pFullRange }

    /// True for the YCbCr formats (whose range the format names); false for RGB.
    package var isYCbCr: Bool { self != .rgba && self != .bgra }
}

/// One decoded picture with its timing. Owns an `AVFrame` reference and frees it in `deinit`.
package final class VideoFrame: @unchecked Sendable {
    /// owned by this frame; never mutated after init; freed in deinit
    let pointer: UnsafeMutablePointer<AVFrame>
    /// The stream time base `pts` is expressed in.
    let timeBase: AVRational
    /// The stream's frame rate (0/1 when unknown), for converted copies.
    let frameRate: AVRational

    /// When the picture is shown: the best-effort timestamp in the stream's time base;
    /// `.invalid` when the decoder could not tell.
    package let pts: CMTime
    /// How long the picture is shown: the packet duration, else one frame at the stream's
    /// frame rate; `.invalid` when neither is known.
    package let duration: CMTime
    /// Picture width in pixels.
    package let width: Int
    /// Picture height in pixels.
    package let height: Int
    /// FFmpeg's name for the pixel format, e.g. "yuv420p".
    package let pixelFormatName: String
    /// The sample (pixel) aspect ratio, when the stream states one.
    package let sampleAspect: SampleAspect?
    /// True for a keyframe (an intra picture).
    package let isKeyframe: Bool
    /// The number of planes in the pixel format (3 for yuv420p, 1 for rgba).
    package let planeCount: Int
    /// How the samples become colours: matrix, range, primaries and transfer.
    package let colour: PictureColour

    /// Takes over the reference in `source` (av_frame_move_ref), leaving `source` blank.
    init?(
        movingFrom source: UnsafeMutablePointer<AVFrame>, timeBase: AVRational,
        frameRate: AVRational
    ) {
        guard let frame = av_frame_alloc() else { return nil }
        av_frame_move_ref(frame, source)
        pointer = frame
        self.timeBase = timeBase
        self.frameRate = frameRate
        let value = frame.pointee
        pts = CMTime(ffmpegTicks: value.best_effort_timestamp, timeBase: timeBase)
        if value.pkt_duration > 0 {
            duration = CMTime(ffmpegTicks: value.pkt_duration, timeBase: timeBase)
        } else if frameRate.num > 0, frameRate.den > 0 {
            duration = CMTime(value: Int64(frameRate.den), timescale: frameRate.num)
        } else {
            duration = .invalid
        }
        width = Int(value.width)
        height = Int(value.height)
        let format = AVPixelFormat(value.format)
        pixelFormatName = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "none"
        let aspect = value.sample_aspect_ratio
        sampleAspect =
            aspect.num > 0 && aspect.den > 0 ? SampleAspect(Int(aspect.num), Int(aspect.den)) : nil
        isKeyframe = value.key_frame != 0
        planeCount = max(0, Int(av_pix_fmt_count_planes(format)))
        colour = PictureColour(UnsafePointer(frame))
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Lends plane `index`'s bytes to `body`.
    ///
    /// - Parameters:
    ///   - index: the plane, `0..<planeCount`.
    ///   - body: receives the bytes (the last row ends at its visible width), the stride
    ///     between rows and the number of rows. The buffer is valid only inside `body`.
    /// - Returns: what `body` returns.
    package func withPlane<R>(
        _ index: Int, _ body: (UnsafeRawBufferPointer, _ bytesPerRow: Int, _ rows: Int) throws -> R
    ) rethrows -> R {
        precondition(index >= 0 && index < planeCount, "plane \(index) out of 0..<\(planeCount)")
        let format = AVPixelFormat(pointer.pointee.format)
        let stride = Int(CFFmpeg_frame_linesize(pointer, Int32(index)))
        var rows = height
        if index == 1 || index == 2, let descriptor = av_pix_fmt_desc_get(format) {
            let shift = Int(descriptor.pointee.log2_chroma_h)
            rows = -((-height) >> shift)
        }
        let rowBytes = Int(av_image_get_linesize(format, Int32(width), Int32(index)))
        guard let start = CFFmpeg_frame_plane(pointer, Int32(index)), rows > 0, stride > 0 else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0), stride, 0)
        }
        let count = stride * (rows - 1) + rowBytes
        return try body(UnsafeRawBufferPointer(start: start, count: count), stride, rows)
    }

    /// The picture's pixels with every row packed tightly (alignment 1), planes one after
    /// another: byte for byte what `ffmpeg -f rawvideo -pix_fmt <pixelFormatName>` writes.
    package func packedBytes() -> [UInt8] {
        let size = av_image_get_buffer_size(
            AVPixelFormat(pointer.pointee.format), Int32(width), Int32(height), 1)
        guard size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            CFFmpeg_frame_copy_packed(pointer, buffer.baseAddress, size)
        }
        return written < 0 ? [] : bytes
    }

    /// FNV-1a (64-bit) over `packedBytes()`: a cheap fingerprint to compare pictures.
    package func checksum() -> UInt64 { VideoFrame.fnv1a64(packedBytes()) }

    /// FNV-1a (64-bit) of `bytes`.
    package static func fnv1a64<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// This picture converted to `pixelFormat` at `width`×`height` (nil keeps the size),
    /// keeping its timing.
    ///
    /// - Parameters:
    ///   - pixelFormat: the format wanted.
    ///   - width: output width, or nil for the frame's width.
    ///   - height: output height, or nil for the frame's height.
    ///   - scaler: the scaler to use; pass one you keep to reuse its context across frames.
    /// - Returns: the converted frame, `self` when nothing changes, nil when swscale fails.
    package func converted(
        to pixelFormat: VideoPixelFormat, width: Int? = nil, height: Int? = nil,
        using scaler: Scaler = Scaler()
    ) -> VideoFrame? {
        scaler.convert(
            self, to: pixelFormat, width: width ?? self.width, height: height ?? self.height)
    }
}
