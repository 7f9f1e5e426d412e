// Playhead: the single owner of a SwrContext (sample format, layout and rate conversion).
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: a `Resampler` belongs to the one thread that runs its `AudioConverter`.

/// Converts audio frames of any format, layout and rate to interleaved Float32 at a fixed
/// output rate and channel count. Rebuilds its `SwrContext` when the input format changes,
/// draining the old one first so no samples are lost. Frees the context in `deinit`.
final class Resampler {
    /// The input configuration a SwrContext was built for.
    private struct InputFormat: Equatable {
        var sampleFormat: Int32
        var sampleRate: Int32
        var layout: String
    }

    /// owned by the converter's thread; freed in deinit
    private var context: OpaquePointer?
    /// owned by the converter's thread
    private var input: InputFormat?
    /// owned by the converter's thread; uninitialised in deinit
    private var outputLayout = AVChannelLayout()
    let outputRate: Int
    let outputChannels: Int

    init(outputRate: Int, outputChannels: Int) {
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        av_channel_layout_default(&outputLayout, Int32(outputChannels))
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&outputLayout)
    }

    /// The output layout's name ("stereo"), as libavfilter's abuffer expects it.
    var outputLayoutName: String { Resampler.describe(outputLayout) }

    /// Converts `frame`; when its format differs from the previous frame's, the samples the
    /// old configuration still held come first. Returns nil when swresample refuses the input.
    func convert(_ frame: AudioFrame) -> [Float]? {
        var inputLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inputLayout) }
        let source = frame.pointer.pointee
        if source.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || source.ch_layout.nb_channels <= 0 {
            av_channel_layout_default(&inputLayout, max(1, source.ch_layout.nb_channels))
        } else {
            var borrowed = source.ch_layout  // shallow copy; av_channel_layout_copy deep-copies
            _ = av_channel_layout_copy(&inputLayout, &borrowed)
        }
        let format = InputFormat(
            sampleFormat: source.format, sampleRate: source.sample_rate,
            layout: Resampler.describe(inputLayout))
        var samples: [Float] = []
        if format != input {
            if context != nil { samples = drain() }
            swr_free(&context)
            input = nil
            guard source.sample_rate > 0,
                swr_alloc_set_opts2(
                    &context, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate), &inputLayout,
                    AVSampleFormat(source.format), source.sample_rate, 0, nil) >= 0,
                swr_init(context) >= 0
            else {
                swr_free(&context)
                return nil
            }
            input = format
        }
        guard let context else { return nil }
        let capacity = Int(swr_get_out_samples(context, source.nb_samples)) + 32
        samples += run(context, capacity: capacity, input: frame.pointer)
        return samples
    }

    /// Returns every sample still inside the resampler's filter (end of stream).
    func drain() -> [Float] {
        guard let context else { return [] }
        var samples: [Float] = []
        while true {
            let capacity = Int(swr_get_out_samples(context, 0)) + 32
            let tail = run(context, capacity: capacity, input: nil)
            if tail.isEmpty { break }
            samples += tail
        }
        return samples
    }

    /// Forgets all buffered input (after a seek); the next frame starts fresh.
    func reset() {
        swr_free(&context)
        input = nil
    }

    private func run(_ context: OpaquePointer, capacity: Int, input: UnsafePointer<AVFrame>?)
        -> [Float]
    {
        var output = [Float](repeating: 0, count: capacity * outputChannels)
        let written = output.withUnsafeMutableBufferPointer { buffer in
            CFFmpeg_swr_convert_to_float(context, buffer.baseAddress, Int32(capacity), input)
        }
        guard written > 0 else { return [] }
        output.removeLast(output.count - Int(written) * outputChannels)
        return output
    }

    static func describe(_ layout: AVChannelLayout) -> String {
        var copy = layout
        var buffer = [CChar](repeating: 0, count: 128)
        guard av_channel_layout_describe(&copy, &buffer, buffer.count) > 0 else { return "" }
        return String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
