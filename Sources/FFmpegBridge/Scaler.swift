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
        if source.pointee.format == target.rawValue, frame.width == width, frame.height == height {
            return frame
        }
        guard width > 0, height > 0, frame.width > 0, frame.height > 0 else { return nil }
        context = sws_getCachedContext(
            context, Int32(frame.width), Int32(frame.height), AVPixelFormat(source.pointee.format),
            Int32(width), Int32(height), target, Int32(SWS_BILINEAR), nil, nil, nil)
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
        conversionCount += 1
        // VideoFrame moves the reference out; the defer frees the emptied shell.
        return VideoFrame(movingFrom: output, timeBase: frame.timeBase, frameRate: frame.frameRate)
    }
}
