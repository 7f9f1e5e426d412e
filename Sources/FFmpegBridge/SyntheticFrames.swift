// Playhead: decoded frames made without media, for scripted stand-ins of the decoders (tests
// that drive the engine with no file, no demuxer and no codec).
//
// Concurrency: the frames are immutable once made, as decoded ones are.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// The time base synthetic frames are stamped in.
private let syntheticTimeBase = AVRational(num: 1, den: 90_000)

private func ticks(_ time: CMTime) -> Int64 {
    time.isNumeric ? Int64((time.seconds * 90_000).rounded()) : CFFmpeg_AV_NOPTS_VALUE()
}

extension VideoFrame {
    /// A black yuv420p picture of `width` × `height` shown at `pts` for `duration`; nil when
    /// memory runs out.
    package static func blank(pts: CMTime, duration: CMTime, width: Int = 16, height: Int = 16) -> VideoFrame? {
        guard let frame = av_frame_alloc() else { return nil }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&owned) }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        guard av_frame_get_buffer(frame, 0) >= 0 else { return nil }
        for plane in 0..<3 {
            guard let data = CFFmpeg_frame_plane(frame, Int32(plane)) else { continue }
            let rows = plane == 0 ? height : (height + 1) / 2
            let value: UInt8 = plane == 0 ? 16 : 128
            memset(UnsafeMutableRawPointer(mutating: data), Int32(value), Int(CFFmpeg_frame_linesize(frame, Int32(plane))) * rows)
        }
        frame.pointee.best_effort_timestamp = ticks(pts)
        frame.pointee.pts = ticks(pts)
        frame.pointee.pkt_duration = duration.isNumeric ? ticks(duration) : 0
        return VideoFrame(movingFrom: frame, timeBase: syntheticTimeBase, frameRate: AVRational(num: 0, den: 1))
    }
}

extension AudioFrame {
    /// `sampleCount` samples of silence per channel (planar float) starting at `pts`; nil
    /// when memory runs out.
    package static func silence(pts: CMTime, sampleCount: Int, sampleRate: Int, channels: Int) -> AudioFrame? {
        guard let frame = av_frame_alloc() else { return nil }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&owned) }
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        frame.pointee.nb_samples = Int32(sampleCount)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
        guard av_frame_get_buffer(frame, 0) >= 0 else { return nil }
        av_samples_set_silence(
            frame.pointee.extended_data, 0, Int32(sampleCount), Int32(channels), AV_SAMPLE_FMT_FLTP)
        frame.pointee.best_effort_timestamp = ticks(pts)
        frame.pointee.pts = ticks(pts)
        return AudioFrame(movingFrom: frame, timeBase: syntheticTimeBase)
    }
}

extension MediaDescription {
    /// The description of scripted media of `duration`: a video stream (index 0) of
    /// `videoSize` when given, then an audio stream of `audio` when given.
    package static func scripted(
        duration: CMTime, videoSize: (width: Int, height: Int)? = (16, 16),
        audio: (sampleRate: Int, channels: Int)? = (48_000, 2)
    ) -> MediaDescription {
        func stream(_ index: Int, _ kind: StreamKind) -> StreamDescription {
            StreamDescription(
                index: index, trackID: Int32(index + 1), kind: kind, codecName: "scripted", codecLongName: nil,
                profileName: nil, codecTag: nil, decoderAvailable: true, timeBase: CMTime(value: 1, timescale: 90_000),
                startTime: .zero, duration: duration, width: videoSize?.width ?? 0, height: videoSize?.height ?? 0,
                sampleAspect: nil, pixelFormat: kind == .video ? "yuv420p" : nil, averageFrameRate: nil,
                sampleRate: kind == .audio ? audio?.sampleRate ?? 0 : 0, channels: kind == .audio ? audio?.channels ?? 0 : 0,
                channelLayout: nil, bitRate: nil, frameCount: nil, language: nil, title: nil, isDefault: true,
                isAttachedPicture: false, isEncrypted: false, displayMatrix: nil, tags: [])
        }
        var streams: [StreamDescription] = []
        if videoSize != nil { streams.append(stream(streams.count, .video)) }
        if audio != nil { streams.append(stream(streams.count, .audio)) }
        return MediaDescription(
            formatName: "scripted", formatLongName: "scripted media", duration: duration, startTime: .zero,
            bitRate: nil, streams: streams, tags: [], artwork: [], probeScore: 100, durationIsEstimated: false)
    }
}
