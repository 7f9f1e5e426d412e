// Playhead: the single owner of a libavfilter graph that changes tempo with pitch kept (atempo).
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: a `TempoFilter` belongs to the one thread that runs its `AudioConverter`.

/// An `abuffer → atempo × n → aformat → abuffersink` graph over interleaved Float32.
/// Each atempo stage stays within [0.5, 2.0] (FFmpeg skips samples above 2), so 0.25 runs as
/// 0.5 × 0.5 and 4 as 2 × 2. Owns the `AVFilterGraph` (which owns its filter contexts) and a
/// scratch `AVFrame`; frees both in `deinit`.
final class TempoFilter {
    /// owned by the converter's thread; freed (with its filters) in deinit
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    /// borrowed from `graph`
    private let source: UnsafeMutablePointer<AVFilterContext>
    /// borrowed from `graph`
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// owned by the converter's thread; freed in deinit
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The number of chained atempo instances.
    let stageCount: Int
    let sampleRate: Int
    let channels: Int
    /// owned by the converter's thread: samples pushed so far (input timestamps)
    private var samplesIn: Int64 = 0

    /// The per-stage factors for `tempo` (each within [0.5, 2.0], product = tempo).
    static func stages(for tempo: Double) -> [Double] {
        let count: Int
        if tempo > 2 {
            count = Int(log2(tempo).rounded(.up))
        } else if tempo < 0.5 {
            count = Int(log2(1 / tempo).rounded(.up))
        } else {
            count = 1
        }
        let factor = min(2, max(0.5, pow(tempo, 1 / Double(count))))
        return Array(repeating: factor, count: count)
    }

    init?(tempo: Double, sampleRate: Int, channels: Int, layoutName: String) {
        let stages = TempoFilter.stages(for: tempo)
        guard var graph = CFFmpeg_avfilter_graph_alloc() else { return nil }
        var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
        func make(_ name: String, _ label: String, _ args: String?) -> UnsafeMutablePointer<
            AVFilterContext
        >? {
            var context: UnsafeMutablePointer<AVFilterContext>? = nil
            guard let filter = CFFmpeg_avfilter_get_by_name(name),
                CFFmpeg_avfilter_graph_create_filter(&context, filter, label, args, nil, graph) >= 0
            else { return nil }
            return context
        }
        var chain: [UnsafeMutablePointer<AVFilterContext>] = []
        let bufferArgs =
            "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutName)"
        if let source = make("abuffer", "in", bufferArgs) { chain.append(source) }
        for (index, stage) in stages.enumerated() {
            if let atempo = make("atempo", "atempo_\(index)", "tempo=\(stage)") {
                chain.append(atempo)
            }
        }
        let formatArgs = "sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layoutName)"
        if let format = make("aformat", "format", formatArgs) { chain.append(format) }
        if let sink = make("abuffersink", "out", nil) { chain.append(sink) }
        var linked = chain.count == stages.count + 3
        if linked {
            for (from, to) in zip(chain, chain.dropFirst())
            where CFFmpeg_avfilter_link(from, 0, to, 0) < 0 {
                linked = false
            }
        }
        guard linked, CFFmpeg_avfilter_graph_config(graph, nil) >= 0,
            let frame = av_frame_alloc()
        else {
            CFFmpeg_avfilter_graph_free(&owned)
            return nil
        }
        graph = owned!
        self.graph = graph
        self.source = chain[0]
        self.sink = chain[chain.count - 1]
        self.frame = frame
        self.stageCount = stages.count
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit {
        var scratch: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&scratch)
        CFFmpeg_avfilter_graph_free(&graph)
    }

    /// Changes the tempo in place (atempo's "tempo" command). Returns false when `tempo` needs
    /// a different number of stages; build a new filter then.
    func setTempo(_ tempo: Double) -> Bool {
        let stages = TempoFilter.stages(for: tempo)
        guard stages.count == stageCount else { return false }
        for (index, stage) in stages.enumerated() {
            guard
                CFFmpeg_avfilter_graph_send_command(
                    graph, "atempo_\(index)", "tempo", "\(stage)", nil, 0, 0) >= 0
            else { return false }
        }
        return true
    }

    /// Pushes interleaved samples and returns whatever output is ready.
    func push(_ samples: [Float]) -> [Float] {
        let count = samples.count / channels
        guard count > 0 else { return [] }
        av_frame_unref(frame)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
        frame.pointee.sample_rate = Int32(sampleRate)
        frame.pointee.nb_samples = Int32(count)
        frame.pointee.pts = samplesIn
        guard av_frame_get_buffer(frame, 0) >= 0,
            let plane = CFFmpeg_frame_plane(frame, 0)
        else { return [] }
        samples.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(mutating: plane).copyMemory(
                from: bytes.baseAddress!, byteCount: count * channels * MemoryLayout<Float>.size)
        }
        samplesIn += Int64(count)
        // The source takes the frame's reference and leaves `frame` blank.
        guard CFFmpeg_av_buffersrc_add_frame_flags(source, frame, 0) >= 0 else { return [] }
        return pull()
    }

    /// Signals end of input and returns the rest of the output; the filter is spent afterwards.
    func drain() -> [Float] {
        guard CFFmpeg_av_buffersrc_add_frame_flags(source, nil, 0) >= 0 else { return [] }
        return pull()
    }

    private func pull() -> [Float] {
        var output: [Float] = []
        while CFFmpeg_av_buffersink_get_frame(sink, frame) >= 0 {
            let count = Int(frame.pointee.nb_samples) * channels
            if count > 0, let plane = CFFmpeg_frame_plane(frame, 0) {
                plane.withMemoryRebound(to: Float.self, capacity: count) { floats in
                    output.append(contentsOf: UnsafeBufferPointer(start: floats, count: count))
                }
            }
            av_frame_unref(frame)
        }
        return output
    }
}
