// Playhead: opening a local MP4/QuickTime file from its header alone, without the picture
// decoding `avformat_find_stream_info` does, and filling in the little the header leaves open.
//
// Concurrency: runs on the thread opening the container, before the Demuxer exists; it
// touches only that container and the packets the open scan read.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// What an MP4/QuickTime header already says, and how the rest is found cheaply.
///
/// `avformat_find_stream_info` decodes pictures to learn what the `moov` box already holds for
/// an MP4 file (sizes, sample rates, channels, durations, frame rates from the sample tables):
/// for H.264 it decodes at least seven pictures to guess the reorder delay, which Playhead's
/// decoders work out themselves. On a 720p file that was about 17 ms of the time to the first
/// picture, with the same keyframe decoded again right after by the player's own decoder.
///
/// For a local MP4/QuickTime file whose every stream the header describes fully, with codecs
/// listed here, the open skips the stream-info probe and fills in what the probe would have
/// added from the first packet of each stream (read anyway, see `ClosedCaptionScan`):
/// H.264 profile, level and pixel format from FFmpeg's H.264 parser, HEVC's from opening its
/// decoder on the header's parameter sets, and AAC's profile, sample format and frame size
/// from decoding its first packet. The container's start time and bit rate are set as the
/// probe sets them. Anything else (other containers or codecs, fragmented or network files,
/// a stream the header leaves incomplete) is probed as before.
enum HeaderStreamInfo {
    /// The video codecs whose missing facts are found without decoding a picture.
    private static let videoCodecs: Set<UInt32> = [AV_CODEC_ID_H264.rawValue, AV_CODEC_ID_HEVC.rawValue]
    /// The codecs whose missing facts `complete` reads from the stream's first packet.
    private static let readFromAPacket: Set<UInt32> = [AV_CODEC_ID_H264.rawValue, AV_CODEC_ID_AAC.rawValue]

    /// True when `container`, opened from `location`, can skip the stream-info probe.
    static func suffices(for container: FormatContext, location: MediaLocation) -> Bool {
        guard location.path != nil, location.streaming == nil, location.inputFormat == nil,
            let format = container.pointer.pointee.iformat,
            String(cString: format.pointee.name).hasPrefix("mov,"),
            container.pointer.pointee.duration > 0, container.streamCount > 0
        else { return false }
        return (0..<container.streamCount).allSatisfy { index in
            guard let stream = container.stream(at: index), let parameters = stream.pointee.codecpar else {
                return false
            }
            let p = parameters.pointee
            if (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0 { return true }
            switch p.codec_type {
            case AVMEDIA_TYPE_VIDEO:
                return videoCodecs.contains(p.codec_id.rawValue) && p.width > 0 && p.height > 0
                    && stream.pointee.nb_frames > 0 && p.extradata_size > 0
            case AVMEDIA_TYPE_AUDIO:
                return p.codec_id == AV_CODEC_ID_AAC && p.sample_rate > 0 && p.ch_layout.nb_channels > 0
                    && stream.pointee.nb_frames > 0
            case AVMEDIA_TYPE_SUBTITLE, AVMEDIA_TYPE_DATA:
                return true
            default:
                return false
            }
        }
    }

    /// The streams whose first packet `complete` needs.
    static func streamsNeedingAPacket(_ container: FormatContext) -> Set<Int> {
        Set(
            (0..<container.streamCount).filter { index in
                guard let stream = container.stream(at: index),
                    (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0,
                    let parameters = stream.pointee.codecpar
                else { return false }
                return readFromAPacket.contains(parameters.pointee.codec_id.rawValue)
            })
    }

    /// Fills in what the skipped probe would have: per-stream codec facts from `packets` (the
    /// first packets of the input, in order), and the container's start time and bit rate.
    static func complete(_ container: FormatContext, packets: [UnsafeMutablePointer<AVPacket>]) {
        var firstPacket: [Int: UnsafeMutablePointer<AVPacket>] = [:]
        for packet in packets where firstPacket[Int(packet.pointee.stream_index)] == nil {
            firstPacket[Int(packet.pointee.stream_index)] = packet
        }
        for index in 0..<container.streamCount {
            guard let stream = container.stream(at: index), let parameters = stream.pointee.codecpar,
                (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0
            else { continue }
            switch parameters.pointee.codec_id {
            case AV_CODEC_ID_H264:
                if let packet = firstPacket[index] { parse(packet, into: parameters) }
            case AV_CODEC_ID_HEVC:
                open(parameters, decoding: nil)
            case AV_CODEC_ID_AAC:
                open(parameters, decoding: firstPacket[index])
            default:
                break
            }
        }
        setTimings(of: container)
    }

    /// Runs FFmpeg's parser for the stream's codec over `packet` (with the header's parameter
    /// sets) and keeps the profile, level and pixel format it found.
    private static func parse(_ packet: UnsafeMutablePointer<AVPacket>, into parameters: UnsafeMutablePointer<AVCodecParameters>) {
        guard let parser = av_parser_init(Int32(parameters.pointee.codec_id.rawValue)) else { return }
        defer { av_parser_close(parser) }
        var owned = avcodec_alloc_context3(nil)
        defer { avcodec_free_context(&owned) }
        guard let context = owned, avcodec_parameters_to_context(context, parameters) >= 0,
            let data = packet.pointee.data
        else { return }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize: Int32 = 0
        _ = av_parser_parse2(
            parser, context, &output, &outputSize, data, packet.pointee.size,
            packet.pointee.pts, packet.pointee.dts, packet.pointee.pos)
        if context.pointee.profile != FF_PROFILE_UNKNOWN { parameters.pointee.profile = context.pointee.profile }
        if context.pointee.level != FF_LEVEL_UNKNOWN { parameters.pointee.level = context.pointee.level }
        if parser.pointee.format >= 0 { parameters.pointee.format = parser.pointee.format }
    }

    /// Opens the stream's decoder on one thread (reading the header's parameter sets), decodes
    /// `packet` when there is one, and keeps the facts the decoder then knows.
    private static func open(_ parameters: UnsafeMutablePointer<AVCodecParameters>, decoding packet: UnsafeMutablePointer<AVPacket>?) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { return }
        var owned = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&owned) }
        guard let context = owned else { return }
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "threads", "1", 0)
        guard avcodec_parameters_to_context(context, parameters) >= 0,
            avcodec_open2(context, codec, &options) >= 0
        else { return }
        if let packet, avcodec_send_packet(context, packet) >= 0 {
            var frame = av_frame_alloc()
            if let frame { _ = avcodec_receive_frame(context, frame) }
            av_frame_free(&frame)
        }
        let c = context.pointee
        if c.profile != FF_PROFILE_UNKNOWN { parameters.pointee.profile = c.profile }
        if c.level != FF_LEVEL_UNKNOWN { parameters.pointee.level = c.level }
        switch c.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            if c.pix_fmt.rawValue >= 0 { parameters.pointee.format = c.pix_fmt.rawValue }
        case AVMEDIA_TYPE_AUDIO:
            if c.sample_fmt.rawValue >= 0 { parameters.pointee.format = c.sample_fmt.rawValue }
            if c.frame_size > 0 { parameters.pointee.frame_size = c.frame_size }
            // A decoded first packet corrects the header (implicitly signalled SBR doubles the rate).
            if packet != nil, c.sample_rate > 0 { parameters.pointee.sample_rate = c.sample_rate }
            if packet != nil, c.ch_layout.nb_channels > 0 {
                var layout = c.ch_layout
                _ = av_channel_layout_copy(&parameters.pointee.ch_layout, &layout)
            }
        default:
            break
        }
    }

    /// The container's start time (the earliest stream start) and bit rate (its size over its
    /// duration, else the streams' sum), as the probe would have set them.
    private static func setTimings(of container: FormatContext) {
        let context = container.pointer
        var start = Int64.max
        var bitRate: Int64 = 0
        for index in 0..<container.streamCount {
            guard let stream = container.stream(at: index) else { continue }
            if stream.pointee.start_time != CFFmpeg_AV_NOPTS_VALUE() {
                start = min(start, av_rescale_q(stream.pointee.start_time, stream.pointee.time_base, AVRational(num: 1, den: 1_000_000)))
            }
            bitRate += max(0, stream.pointee.codecpar?.pointee.bit_rate ?? 0)
        }
        let size = context.pointee.pb.map { avio_size($0) } ?? 0
        if size > 0, context.pointee.duration > 0 {
            bitRate = Int64(Double(size) * 8 * 1_000_000 / Double(context.pointee.duration))
        }
        if context.pointee.start_time == CFFmpeg_AV_NOPTS_VALUE(), start != .max {
            context.pointee.start_time = start
        }
        if context.pointee.bit_rate <= 0, bitRate > 0 { context.pointee.bit_rate = bitRate }
    }
}
