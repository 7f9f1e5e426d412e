// Playhead: the single owner of a SwsContext (pixel format and size conversion).
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: a `Scaler` belongs to one thread (the thread that converts frames, usually the
// video output or a thumbnail worker). Frames it reads are immutable; frames it returns are new.

/// Converts pictures between pixel formats and sizes with libswscale, honouring each picture's
/// colour: its YCbCr matrix and range turn into RGB as the stream states (swscale alone would
/// read every picture as BT.601 and video range unless its format names full range), and a
/// YCbCr target gets the range its format names. Keeps one `SwsContext`, reused while the
/// source (format, size, colour) and the target stay the same.
package final class Scaler: @unchecked Sendable {
    /// owned by the converting thread; freed in deinit
    private var context: OpaquePointer?
    /// What `context` converts (nil without a context).
    private var made: Conversion?
    /// Conversions this scaler has made (for tests of caching).
    package private(set) var conversionCount = 0

    /// Creates a scaler; the SwsContext is made on first use.
    package init() {}

    deinit { sws_freeContext(context) }

    /// `frame` converted to `pixelFormat` at `width`×`height`, with the same timing.
    ///
    /// - Returns: `frame` itself when format, size and range already match; nil when swscale
    ///   fails.
    package func convert(
        _ frame: VideoFrame, to pixelFormat: VideoPixelFormat, width: Int, height: Int
    ) -> VideoFrame? {
        let source = frame.pointer
        let target = pixelFormat.ffmpegValue
        if source.pointee.format == target.rawValue, frame.width == width, frame.height == height,
            !pixelFormat.isYCbCr || frame.colour.isFullRange == pixelFormat.isFullRange
        {
            return frame
        }
        guard width > 0, height > 0, frame.width > 0, frame.height > 0 else { return nil }
        let wanted = Conversion(
            width: frame.width, height: frame.height, format: source.pointee.format,
            colour: frame.colour, targetWidth: width, targetHeight: height, target: target.rawValue,
            targetIsYCbCr: pixelFormat.isYCbCr, targetFullRange: pixelFormat.isFullRange)
        if made != wanted {
            sws_freeContext(context)
            context = Self.makeContext(wanted)
            made = context == nil ? nil : wanted
        }
        guard let context, let output = av_frame_alloc() else { return nil }
        defer {
            var owned: UnsafeMutablePointer<AVFrame>? = output
            av_frame_free(&owned)
        }
        output.pointee.format = target.rawValue
        output.pointee.width = Int32(width)
        output.pointee.height = Int32(height)
        guard av_frame_get_buffer(output, 0) >= 0, sws_scale_frame(context, output, source) >= 0,
            av_frame_copy_props(output, source) >= 0
        else { return nil }
        output.pointee.color_range = pixelFormat.isFullRange || !pixelFormat.isYCbCr ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        // The matrix the output's samples are in, stated (an untagged source's guess is made by
        // the source's size, not the output's; RGB and grey become YCbCr with BT.601's).
        output.pointee.colorspace =
            !pixelFormat.isYCbCr
            ? AVCOL_SPC_RGB : (frame.colour.isYCbCr ? frame.colour.matrix : .bt601).ffmpegColorspace
        conversionCount += 1
        // VideoFrame moves the reference out; the defer frees the emptied shell.
        return VideoFrame(movingFrom: output, timeBase: frame.timeBase, frameRate: frame.frameRate)
    }

    /// What a context converts: the source's format, size and colour and the target's.
    private struct Conversion: Equatable {
        var width, height: Int
        var format: Int32
        var colour: PictureColour
        var targetWidth, targetHeight: Int
        var target: Int32
        var targetIsYCbCr, targetFullRange: Bool
    }

    /// A context for `wanted`: its ranges set before it is initialised (swscale picks its
    /// unscaled shortcuts, which copy samples as they are, only when the ranges match) and,
    /// for an RGB target, the source's matrix set after.
    private static func makeContext(_ wanted: Conversion) -> OpaquePointer? {
        guard let made = sws_alloc_context() else { return nil }
        let raw = UnsafeMutableRawPointer(made)
        let settings: [(String, Int64)] = [
            ("srcw", Int64(wanted.width)), ("srch", Int64(wanted.height)), ("src_format", Int64(wanted.format)),
            ("dstw", Int64(wanted.targetWidth)), ("dsth", Int64(wanted.targetHeight)), ("dst_format", Int64(wanted.target)),
            ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", wanted.colour.isFullRange ? 1 : 0),
            ("dst_range", wanted.targetFullRange ? 1 : 0),
        ]
        for (name, value) in settings where av_opt_set_int(raw, name, value, 0) < 0 {
            sws_freeContext(made)
            return nil
        }
        guard sws_init_context(made, nil, nil) >= 0 else {
            sws_freeContext(made)
            return nil
        }
        if !wanted.targetIsYCbCr, wanted.colour.isYCbCr {
            // YCbCr to RGB: the source's own matrix (a YCbCr target keeps the source's samples'
            // matrix, so nothing is set there: swscale refuses differing YCbCr matrices; an RGB,
            // palette or grey source keeps swscale's own tables and ranges).
            let matrix = sws_getCoefficients(wanted.colour.matrix.swscaleColorspace)
            let standard = sws_getCoefficients(SWS_CS_DEFAULT)
            guard
                sws_setColorspaceDetails(
                    made, matrix, wanted.colour.isFullRange ? 1 : 0, standard, 0, 0, 1 << 16, 1 << 16) >= 0
            else {
                sws_freeContext(made)
                return nil
            }
        }
        return made
    }
}
