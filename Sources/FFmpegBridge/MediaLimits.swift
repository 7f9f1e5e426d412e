// Playhead: size limits that stop hostile or broken files ("decompression bombs") from making
// FFmpeg allocate gigabytes or create thousands of objects.
internal import CFFmpeg
internal import CFFmpegShims

/// The largest media Playhead agrees to demux or decode.
///
/// A 200-byte PNG can declare a 16000x16000 picture, and libavcodec would allocate 768 MB to
/// decode it; a few kilobytes of container can declare hundreds of streams or a sample rate of
/// two billion. These limits refuse such inputs with a `MediaFailure.limitExceeded` that says
/// which limit and by how much, before anything large is allocated.
///
/// The defaults admit every real format Playhead targets: 8K UHD (7680x4320) and 8192x8192
/// pictures, 64-channel audio and 768 kHz sampling.
///
/// Concurrency: a value type; read from any thread.
package struct MediaLimits: Sendable, Equatable {
    /// The widest or tallest picture, in pixels.
    package var maximumSide = 16_384
    /// The most pixels in one picture (`AVCodecContext.max_pixels`).
    package var maximumPixels = 8_192 * 8_192
    /// The most streams a container may declare.
    package var maximumStreams = 256
    /// The highest audio sample rate, in Hz.
    package var maximumSampleRate = 768_000
    /// The most audio channels in one stream.
    package var maximumChannels = 64

    /// The limits every demuxer and decoder applies unless told otherwise.
    package static let standard = MediaLimits()

    /// Creates limits with the defaults.
    package init() {}

    /// The limits for describing media without playing it: only the stream count is capped
    /// (pictures and audio formats are checked by whoever decodes them).
    package static func inspection(maximumStreams: Int) -> MediaLimits {
        var limits = MediaLimits()
        limits.checksStreamFormats = false
        limits.maximumStreams = maximumStreams
        return limits
    }

    /// False when an open container's streams are not checked against the picture and audio
    /// limits (probing still caps the pictures its decoders allocate).
    package var checksStreamFormats = true

    /// Why a picture of `width` x `height` is refused, or nil when it is within the limits.
    package func pictureViolation(width: Int, height: Int) -> MediaFailure? {
        if width > maximumSide || height > maximumSide {
            return .limitExceeded(
                "picture too large (\(width)x\(height) exceeds \(maximumSide)x\(maximumSide))")
        }
        if width * height > maximumPixels {
            return .limitExceeded(
                "picture too large (\(width)x\(height) exceeds \(maximumPixels) pixels)")
        }
        return nil
    }

    /// Why audio with `sampleRate` and `channels` is refused, or nil when it is acceptable.
    package func audioViolation(sampleRate: Int, channels: Int) -> MediaFailure? {
        if sampleRate > maximumSampleRate {
            return .limitExceeded(
                "audio sample rate too high (\(sampleRate) Hz exceeds \(maximumSampleRate) Hz)")
        }
        if channels > maximumChannels {
            return .limitExceeded(
                "too many audio channels (\(channels) exceeds \(maximumChannels))")
        }
        return nil
    }

    /// Why a container with `count` streams is refused, or nil.
    package func streamCountViolation(_ count: Int) -> MediaFailure? {
        count > maximumStreams
            ? .limitExceeded("too many streams (\(count) exceeds \(maximumStreams))") : nil
    }

    /// Checks one stream's declared codec parameters. Attached pictures (cover art) are never
    /// decoded for playback, so only their bytes matter, and they are skipped.
    func violation(of stream: UnsafeMutablePointer<AVStream>) -> MediaFailure? {
        guard (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0,
            let parameters = stream.pointee.codecpar
        else { return nil }
        switch parameters.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            return pictureViolation(
                width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        case AVMEDIA_TYPE_AUDIO:
            return audioViolation(
                sampleRate: Int(parameters.pointee.sample_rate),
                channels: Int(parameters.pointee.ch_layout.nb_channels))
        default:
            return nil
        }
    }

    /// Checks the stream count and every stream of an open container.
    func violation(of container: FormatContext) -> MediaFailure? {
        if let failure = streamCountViolation(container.streamCount) { return failure }
        guard checksStreamFormats else { return nil }
        for index in 0..<container.streamCount {
            if let stream = container.stream(at: index), let failure = violation(of: stream) {
                return failure
            }
        }
        return nil
    }
}

extension FormatContext {
    /// `findStreamInfo(timeout:)` with the decoders FFmpeg opens to probe the streams capped
    /// at `limits.maximumPixels`, so probing a picture bomb fails instead of allocating it.
    @discardableResult
    package func findStreamInfo(timeout: Double, limits: MediaLimits) -> FFmpegError? {
        let count = streamCount
        guard count > 0, count <= limits.maximumStreams else {
            return findStreamInfo(timeout: timeout)
        }
        var options = [OpaquePointer?](repeating: nil, count: count)
        defer { for index in options.indices { av_dict_free(&options[index]) } }
        for index in options.indices {
            av_dict_set_int(&options[index], "max_pixels", Int64(limits.maximumPixels), 0)
        }
        interrupt.expire(after: timeout)
        FFmpegLog.clearLastMessage()
        let status = options.withUnsafeMutableBufferPointer {
            avformat_find_stream_info(pointer, $0.baseAddress)
        }
        return status < 0 ? FFmpegError(code: status) : nil
    }
}
