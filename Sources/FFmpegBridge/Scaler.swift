// Playhead: the single owner of a SwsContext (pixel format and size conversion).
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: a `Scaler` belongs to one thread (the thread that converts frames, usually the
// video output or a thumbnail worker). Frames it reads are immutable; frames it returns are new.

/// Converts pictures between pixel formats and sizes with libswscale. Keeps one `SwsContext`,
/// reused while the source format and size and the target stay the same.
package final class Scaler: @unchecked Sendable {
    /// owned by the converting thread; freed in deinit
    private var context: OpaquePointer?
    /// What `context` converts when it was made with chosen ranges (else nil: a cached one).
    private var ranged: RangedContext?
    /// Conversions this scaler has made (for tests of caching).
    package private(set) var conversionCount = 0

    /// Creates a scaler; the SwsContext is made on first use.
    package init() {}

    deinit { sws_freeContext(context) }

    /// `frame` converted to `pixelFormat` at `width`×`height`, with the same timing.
    ///
    /// - Returns: `frame` itself when format and size already match; nil when swscale fails.
    package func convert(
        _ frame: VideoFrame, to pixelFormat: VideoPixelFormat, width: Int, height: Int
    ) -> VideoFrame? {
        let source = frame.pointer
        let target = pixelFormat.ffmpegValue
        let sourceFullRange = source.pointee.color_range == AVCOL_RANGE_JPEG
        if source.pointee.format == target.rawValue, frame.width == width, frame.height == height,
            sourceFullRange == pixelFormat.isFullRange || !Self.choosesRange(target)
        {
            return frame
        }
        guard width > 0, height > 0, frame.width > 0, frame.height > 0 else { return nil }
        if Self.choosesRange(target) {
            // The ranges must be known when the context is made: swscale picks its unscaled
            // shortcuts (which copy samples as they are) only when they match.
            let wanted = RangedContext(
                width: frame.width, height: frame.height, format: source.pointee.format, targetWidth: width,
                targetHeight: height, target: target.rawValue, sourceFullRange: sourceFullRange,
                targetFullRange: pixelFormat.isFullRange)
            if ranged != wanted {
                sws_freeContext(context)
                context = Self.makeContext(wanted)
                ranged = context == nil ? nil : wanted
            }
        } else {
            if ranged != nil {
                sws_freeContext(context)
                context = nil
                ranged = nil
            }
            context = sws_getCachedContext(
                context, Int32(frame.width), Int32(frame.height), AVPixelFormat(source.pointee.format),
                Int32(width), Int32(height), target, Int32(SWS_BILINEAR), nil, nil, nil)
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
        if Self.choosesRange(target) {
            output.pointee.color_range = pixelFormat.isFullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        }
        conversionCount += 1
        // VideoFrame moves the reference out; the defer frees the emptied shell.
        return VideoFrame(movingFrom: output, timeBase: frame.timeBase, frameRate: frame.frameRate)
    }

    /// True for the formats whose range the target names (Core Video's bi-planar video and
    /// full range); planar 4:2:0 keeps the source's, and RGB is full.
    private static func choosesRange(_ format: AVPixelFormat) -> Bool { format == AV_PIX_FMT_NV12 }

    /// What a context made with chosen ranges converts (`context` when `ranged` is set).
    private struct RangedContext: Equatable {
        var width, height: Int
        var format: Int32
        var targetWidth, targetHeight: Int
        var target: Int32
        var sourceFullRange, targetFullRange: Bool
    }

    /// A context for `wanted`, its ranges set before it is initialised.
    private static func makeContext(_ wanted: RangedContext) -> OpaquePointer? {
        guard let made = sws_alloc_context() else { return nil }
        let raw = UnsafeMutableRawPointer(made)
        let settings: [(String, Int64)] = [
            ("srcw", Int64(wanted.width)), ("srch", Int64(wanted.height)), ("src_format", Int64(wanted.format)),
            ("dstw", Int64(wanted.targetWidth)), ("dsth", Int64(wanted.targetHeight)), ("dst_format", Int64(wanted.target)),
            ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", wanted.sourceFullRange ? 1 : 0),
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
        return made
    }
}
