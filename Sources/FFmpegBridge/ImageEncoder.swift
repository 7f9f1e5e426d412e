// Playhead: encodes one RGBA picture as a PNG or JPEG file's bytes with libavcodec.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: `ImageEncoder` is stateless; every call creates, uses and frees its own codec
// context, frames and packet on the calling thread, so any thread may call it at any time.

/// The still-image formats Playhead writes.
package enum ImageFileFormat: Sendable, Equatable {
    /// Lossless PNG (libavcodec's `png` encoder), keeping the alpha channel (RGB when every
    /// pixel is opaque).
    case png
    /// JPEG (libavcodec's `mjpeg` encoder); `quality` from 0 (smallest) to 1 (best).
    case jpeg(quality: Double)

    /// The format a file name's extension asks for (`.png`, `.jpg`, `.jpeg`), if any.
    package init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg(quality: 0.9)
        default: return nil
        }
    }
}

/// Turns tightly packed 8-bit RGBA pixels into the bytes of an image file.
package enum ImageEncoder {
    /// The encoded file bytes of a `width`×`height` RGBA picture.
    ///
    /// - Parameters:
    ///   - rgba: `width * height * 4` bytes, rows top to bottom, no padding.
    ///   - width: picture width in pixels (at least 1).
    ///   - height: picture height in pixels (at least 1).
    ///   - format: PNG or JPEG.
    ///   - isOpaque: true when every alpha byte is 255 (video frames): PNG then stores RGB.
    /// - Throws: `.io` when the sizes disagree or libavcodec fails.
    package static func encode(
        rgba: [UInt8], width: Int, height: Int, as format: ImageFileFormat, isOpaque: Bool = false
    ) throws(MediaFailure) -> [UInt8] {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw .io(detail: "image of \(width)x\(height) needs \(width * height * 4) bytes, got \(rgba.count)")
        }
        let source = try makeFrame(format: AV_PIX_FMT_RGBA, width: width, height: height)
        defer { free(source) }
        rgba.withUnsafeBytes { bytes in
            let plane = source.pointee.data.0!
            let rowStride = Int(source.pointee.linesize.0)
            let pixels = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<height {
                (plane + row * rowStride).update(from: pixels + row * width * 4, count: width * 4)
            }
        }
        switch format {
        case .png where isOpaque:
            // RGB: a quarter less data for the PNG compressor.
            let rgb = try convert(source, to: AV_PIX_FMT_RGB24)
            defer { free(rgb) }
            return try encode(rgb, codecID: AV_CODEC_ID_PNG, quality: nil)
        case .png:
            return try encode(source, codecID: AV_CODEC_ID_PNG, quality: nil)
        case .jpeg(let quality):
            let yuv = try convert(source, to: AV_PIX_FMT_YUVJ420P)
            defer { free(yuv) }
            return try encode(yuv, codecID: AV_CODEC_ID_MJPEG, quality: quality)
        }
    }

    /// A new frame with `source`'s picture in `format` (the caller frees it).
    private static func convert(
        _ source: UnsafeMutablePointer<AVFrame>, to format: AVPixelFormat
    ) throws(MediaFailure) -> UnsafeMutablePointer<AVFrame> {
        let (width, height) = (source.pointee.width, source.pointee.height)
        let target = try makeFrame(format: format, width: Int(width), height: Int(height))
        guard
            let scaler = sws_getContext(
                width, height, AVPixelFormat(source.pointee.format), width, height, format,
                Int32(SWS_BICUBIC | SWS_ACCURATE_RND), nil, nil, nil)
        else {
            free(target)
            throw .io(detail: "cannot convert the picture for encoding")
        }
        defer { sws_freeContext(scaler) }
        guard sws_scale_frame(scaler, target, source) >= 0 else {
            free(target)
            throw .io(detail: "cannot convert the picture for encoding")
        }
        return target
    }

    private static func makeFrame(
        format: AVPixelFormat, width: Int, height: Int
    ) throws(MediaFailure) -> UnsafeMutablePointer<AVFrame> {
        guard let frame = av_frame_alloc() else { throw .io(detail: "out of memory") }
        frame.pointee.format = format.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            free(frame)
            throw .io(detail: "out of memory")
        }
        return frame
    }

    private static func free(_ frame: UnsafeMutablePointer<AVFrame>) {
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }

    /// Sends one frame and end of stream to a fresh encoder and collects the packet bytes.
    private static func encode(
        _ frame: UnsafeMutablePointer<AVFrame>, codecID: AVCodecID, quality: Double?
    ) throws(MediaFailure) -> [UInt8] {
        let name = String(cString: avcodec_get_name(codecID))
        guard let codec = avcodec_find_encoder(codecID) else {
            throw .unsupportedCodec(codecs: [name])
        }
        guard let context = avcodec_alloc_context3(codec), let packet = av_packet_alloc() else {
            throw .io(detail: "out of memory")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            avcodec_free_context(&owned)
            av_packet_free(&ownedPacket)
        }
        context.pointee.width = frame.pointee.width
        context.pointee.height = frame.pointee.height
        context.pointee.pix_fmt = AVPixelFormat(frame.pointee.format)
        context.pointee.time_base = AVRational(num: 1, den: 25)
        if let quality {
            // mjpeg's quantiser: 2 is best, 31 worst.
            let scale = 31 - (min(max(quality, 0), 1) * 29).rounded()
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(scale) * FF_QP2LAMBDA
            context.pointee.color_range = AVCOL_RANGE_JPEG
            frame.pointee.quality = context.pointee.global_quality
        }
        guard avcodec_open2(context, codec, nil) >= 0 else {
            throw .io(detail: "cannot open the \(name) encoder")
        }
        frame.pointee.pts = 0
        guard avcodec_send_frame(context, frame) >= 0, avcodec_send_frame(context, nil) >= 0 else {
            throw .io(detail: "the \(name) encoder refused the picture")
        }
        var bytes: [UInt8] = []
        while avcodec_receive_packet(context, packet) >= 0 {
            if let data = packet.pointee.data, packet.pointee.size > 0 {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
            }
            av_packet_unref(packet)
        }
        guard !bytes.isEmpty else { throw .io(detail: "the \(name) encoder produced nothing") }
        return bytes
    }
}
