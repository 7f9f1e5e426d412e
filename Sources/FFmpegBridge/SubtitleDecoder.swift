// Playhead: decodes one subtitle stream's packets into SubtitleEvents (avcodec_decode_subtitle2).
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: a `SubtitleDecoder` belongs to the thread that feeds it packets (the demux
// thread for embedded streams, a background queue for sidecar files). Create it from the
// demuxer on that thread; init copies what it needs and never touches the demuxer again.

/// A subtitle decoder for one stream: text codecs come out as ASS event lines, bitmap codecs
/// as RGBA pictures. Owns its `AVCodecContext` (through `CodecContext`).
package final class SubtitleDecoder: @unchecked Sendable {
    /// owned by the decoding thread
    private let codec: CodecContext
    /// The stream this decoder decodes.
    package let streamIndex: Int
    /// The ASS script header FFmpeg made for the stream (styles, PlayResX/Y); nil when none.
    package let assHeader: String?
    /// True for ASS/SSA streams, whose header carries their own styles and script size; the
    /// other text codecs get FFmpeg's default header and the player's own look.
    package let isStyled: Bool
    /// The fonts attached to the container (for styled subtitles that name them).
    package let fonts: [EmbeddedFont]
    /// The canvas size bitmaps are placed on, from the codec (0 when it does not say).
    private let fallbackCanvas: (Int, Int)
    /// True for EIA-608 closed captions, decoded as they arrive (see `captionOptions`).
    package let isClosedCaptions: Bool

    /// How the caption decoder runs: FFmpeg's default holds each screen back until the next
    /// change (to know its end), which would hand a caption over only when it goes away;
    /// "real time" hands every change over at once. In FFmpeg 5.1 that mode stamps each
    /// screen with the time of the change before it, so `event(from:packet:)` takes the time
    /// of the packet that made the change instead.
    static let captionOptions = [("real_time", "1"), ("real_time_latency_msec", "0")]

    /// Opens a decoder for the subtitle stream `streamIndex` of `demuxer`.
    ///
    /// - Throws: `.unsupportedCodec(codecs:)` when this FFmpeg has no decoder for it,
    ///   `.damaged` when the stream is not a subtitle stream.
    package init(demuxer: Demuxer, streamIndex: Int) throws(MediaFailure) {
        let isCaptions =
            demuxer.stream(at: streamIndex)?.stream.pointee.codecpar.pointee.codec_id
            == AV_CODEC_ID_EIA_608
        codec = try CodecContext(
            demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_SUBTITLE,
            threadCount: 1, threadType: 0, options: isCaptions ? Self.captionOptions : [])
        self.streamIndex = streamIndex
        isClosedCaptions = isCaptions
        let context = codec.pointer.pointee
        assHeader = Self.assHeader(of: context)
        isStyled = context.codec_id == AV_CODEC_ID_ASS || context.codec_id == AV_CODEC_ID_SSA
        fonts = isStyled ? demuxer.embeddedFonts() : []
        var canvas = (Int(context.width), Int(context.height))
        if canvas.0 <= 0 || canvas.1 <= 0 {
            // The video's size is what DVD and DVB pictures are placed on.
            let video = demuxer.description.tracks.first { $0.kind == .video && $0.width > 0 }
            canvas = (video?.width ?? 0, video?.height ?? 0)
        }
        fallbackCanvas = canvas
    }

    /// Opens a caption decoder for the closed captions carried in the pictures of video
    /// stream `videoStreamIndex` (fed with `decodeCaptions(of:)`), field 1 (CC1).
    ///
    /// - Throws: `.unsupportedCodec(codecs:)` when this FFmpeg has no EIA-608 decoder.
    package init(closedCaptionsOfVideoStream videoStreamIndex: Int) throws(MediaFailure) {
        let codec = try CodecContext(
            decoderFor: AV_CODEC_ID_EIA_608, timeBase: AVRational(num: 1, den: 90_000),
            options: Self.captionOptions + [("data_field", "first")])
        self.codec = codec
        streamIndex = videoStreamIndex
        let context = codec.pointer.pointee
        assHeader = Self.assHeader(of: context)
        fallbackCanvas = (0, 0)
        isClosedCaptions = true
        isStyled = false
        fonts = []
    }

    /// The ASS header FFmpeg made for the decoder (`subtitle_header`), nil when none.
    private static func assHeader(of context: AVCodecContext) -> String? {
        guard let header = context.subtitle_header, context.subtitle_header_size > 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: header, count: Int(context.subtitle_header_size))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Decodes one packet; returns the events it completed (usually zero or one).
    package func decode(_ packet: Packet) -> [SubtitleEvent] {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let status = avcodec_decode_subtitle2(codec.pointer, &subtitle, &got, packet.pointer)
        guard status >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        return [event(from: subtitle, packet: packet)]
    }

    /// Drops decoder state; call after every seek.
    package func flush() { codec.flush() }

    private func event(from subtitle: AVSubtitle, packet: Packet) -> SubtitleEvent {
        let base: CMTime
        if isClosedCaptions {
            base = packet.pts.isNumeric ? packet.pts : packet.dts
        } else if subtitle.pts != CFFmpeg_AV_NOPTS_VALUE() {
            base = CMTime(ffmpegMicroseconds: subtitle.pts)
        } else {
            base = packet.pts.isNumeric ? packet.pts : packet.dts
        }
        let start = base + CMTime(value: Int64(subtitle.start_display_time), timescale: 1000)
        var end: CMTime?
        // UINT32_MAX means "until the next one"; 0 with no packet duration means unknown.
        if subtitle.end_display_time != UInt32.max,
            subtitle.end_display_time > subtitle.start_display_time
        {
            end = base + CMTime(value: Int64(subtitle.end_display_time), timescale: 1000)
        } else if packet.duration.isNumeric, packet.duration > .zero {
            end = base + packet.duration
        }
        var event = SubtitleEvent(start: start, end: end)
        let context = codec.pointer.pointee
        event.canvasWidth = context.width > 0 ? Int(context.width) : fallbackCanvas.0
        event.canvasHeight = context.height > 0 ? Int(context.height) : fallbackCanvas.1
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index]?.pointee else { continue }
            switch rect.type {
            case SUBTITLE_ASS:
                if let ass = rect.ass { event.assLines.append(String(cString: ass)) }
            case SUBTITLE_TEXT:
                // Plain text (rare): wrap it as an ASS event with default style.
                if let text = rect.text {
                    event.assLines.append("0,0,Default,,0,0,0,," + String(cString: text))
                }
            case SUBTITLE_BITMAP:
                if let bitmap = Self.bitmap(rect) { event.bitmaps.append(bitmap) }
            default:
                continue
            }
        }
        // Without a known canvas, make bitmaps fit: the smallest frame that holds them all.
        if !event.bitmaps.isEmpty, event.canvasWidth <= 0 || event.canvasHeight <= 0 {
            event.canvasWidth = event.bitmaps.map { $0.x + $0.width }.max() ?? 0
            event.canvasHeight = event.bitmaps.map { $0.y + $0.height }.max() ?? 0
        }
        return event
    }

    /// Converts a paletted subtitle rectangle (8-bit indices, RGBA palette) to RGBA bytes.
    private static func bitmap(_ rect: AVSubtitleRect) -> SubtitleBitmap? {
        let width = Int(rect.w)
        let height = Int(rect.h)
        guard width > 0, height > 0, width <= 16384, height <= 16384,
            let indices = rect.data.0, let paletteBytes = rect.data.1
        else { return nil }
        let stride = Int(rect.linesize.0)
        let colours = max(0, min(256, Int(rect.nb_colors)))
        // The palette is 32-bit native-endian 0xAARRGGBB words.
        let palette = UnsafeRawPointer(paletteBytes).bindMemory(to: UInt32.self, capacity: 256)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                let index = Int(indices[row * stride + column])
                guard index < colours else { continue }
                let word = palette[index]
                let offset = (row * width + column) * 4
                rgba[offset] = UInt8((word >> 16) & 0xFF)
                rgba[offset + 1] = UInt8((word >> 8) & 0xFF)
                rgba[offset + 2] = UInt8(word & 0xFF)
                rgba[offset + 3] = UInt8(word >> 24)
            }
        }
        return SubtitleBitmap(
            x: Int(rect.x), y: Int(rect.y), width: width, height: height, rgba: rgba)
    }
}
