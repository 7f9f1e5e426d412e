// Playhead: reads one AVStream into a StreamDescription.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// Turns FFmpeg stream structures into `StreamDescription` values.
///
/// Concurrency: pure functions over a stream the caller owns; call on the inspecting thread.
enum StreamDescriber {
    static func describe(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> StreamDescription {
        let st = stream.pointee
        let parameters = st.codecpar.pointee
        let codecID = parameters.codec_id
        let tags = MediaTagReader.tags(of: st.metadata)
        let language = tags.first { $0.key == "language" }?.value
        var matrix = [Int32](repeating: 0, count: 9)
        let hasMatrix = CFFmpeg_stream_display_matrix(stream, &matrix) != 0
        // An MP4 track of TTML documents ('stpp', or ISMV's 'dfxp'), which FFmpeg 5.1 demuxes
        // as data with no codec: a subtitle track Playhead decodes itself (TTMLPacketDecoder).
        let isTTML = parameters.codec_type == AVMEDIA_TYPE_DATA && codecID == AV_CODEC_ID_NONE
            && ["stpp", "dfxp"].contains(fourCC(parameters.codec_tag))

        var description = StreamDescription(
            index: index,
            trackID: st.id,
            kind: isTTML ? .subtitle : kind(of: parameters.codec_type),
            codecName: isTTML ? "ttml" : codecName(codecID, tag: parameters.codec_tag),
            codecLongName: avcodec_descriptor_get(codecID).flatMap { $0.pointee.long_name }.map {
                String(cString: $0)
            },
            profileName: avcodec_profile_name(codecID, parameters.profile).map { String(cString: $0) },
            codecTag: fourCC(parameters.codec_tag),
            decoderAvailable: isTTML || avcodec_find_decoder(codecID) != nil,
            timeBase: CMTime(tickOf: st.time_base),
            startTime: CMTime(ffmpegTicks: st.start_time, timeBase: st.time_base),
            duration: CMTime(ffmpegTicks: st.duration, timeBase: st.time_base),
            width: Int(parameters.width),
            height: Int(parameters.height),
            sampleAspect: sampleAspect(st.sample_aspect_ratio, parameters.sample_aspect_ratio),
            pixelFormat: parameters.codec_type == AVMEDIA_TYPE_VIDEO
                ? av_get_pix_fmt_name(AVPixelFormat(parameters.format)).map { String(cString: $0) } : nil,
            averageFrameRate: frameRate(st),
            sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            channelLayout: channelLayoutName(stream),
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            frameCount: st.nb_frames > 0 ? Int(st.nb_frames) : nil,
            language: language.flatMap { $0.isEmpty || $0 == "und" ? nil : $0 },
            title: tags.first { $0.key == "title" }?.value,
            isDefault: (st.disposition & AV_DISPOSITION_DEFAULT) != 0,
            isForced: (st.disposition & AV_DISPOSITION_FORCED) != 0,
            isHearingImpaired: (st.disposition & AV_DISPOSITION_HEARING_IMPAIRED) != 0,
            isAttachedPicture: (st.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0,
            isEncrypted: CFFmpeg_stream_is_encrypted(stream) != 0,
            displayMatrix: hasMatrix ? matrix : nil,
            tags: tags)
        description.isHighDynamicRange =
            parameters.codec_type == AVMEDIA_TYPE_VIDEO
            && (parameters.color_trc == AVCOL_TRC_SMPTE2084 || parameters.color_trc == AVCOL_TRC_ARIB_STD_B67)
        if parameters.codec_type == AVMEDIA_TYPE_VIDEO {
            let stated = StatedColour(
                range: parameters.color_range, space: parameters.color_space,
                primaries: parameters.color_primaries, transfer: parameters.color_trc)
            description.statedColour = stated.isEmpty ? nil : stated
        }
        return description
    }

    /// Keeps container track IDs when they are positive and unique, else uses index + 1.
    static func assignTrackIDs(_ streams: [StreamDescription]) -> [StreamDescription] {
        let ids = streams.map(\.trackID)
        let usable = !ids.contains { $0 <= 0 } && Set(ids).count == ids.count
        return streams.map { stream in
            var stream = stream
            if !usable { stream.trackID = Int32(stream.index + 1) }
            return stream
        }
    }

    /// The cover art carried by an attached-picture stream.
    static func artwork(of stream: UnsafeMutablePointer<AVStream>) -> Artwork? {
        let st = stream.pointee
        guard (st.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0,
            let data = st.attached_pic.data, st.attached_pic.size > 0
        else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(st.attached_pic.size)))
        return Artwork(data: bytes, mimeType: mimeType(of: st.codecpar.pointee.codec_id))
    }

    private static func kind(of type: CFFmpeg.AVMediaType) -> StreamKind {
        switch type {
        case AVMEDIA_TYPE_VIDEO: return .video
        case AVMEDIA_TYPE_AUDIO: return .audio
        case AVMEDIA_TYPE_SUBTITLE: return .subtitle
        case AVMEDIA_TYPE_DATA: return .data
        case AVMEDIA_TYPE_ATTACHMENT: return .attachment
        default: return .unknown
        }
    }

    /// FFmpeg's short name for `codecID`. For a codec FFmpeg does not know (its name would be
    /// "none") this is the container's four-character code, such as "plhd", so messages name
    /// what the file holds; "unknown" when the container stored no printable code either.
    static func codecName(_ codecID: AVCodecID, tag: UInt32) -> String {
        guard codecID == AV_CODEC_ID_NONE else { return String(cString: avcodec_get_name(codecID)) }
        return fourCC(tag)?.trimmingCharacters(in: .whitespaces).nonEmpty ?? "unknown"
    }

    private static func frameRate(_ st: AVStream) -> Double? {
        for rate in [st.avg_frame_rate, st.r_frame_rate] where rate.num > 0 && rate.den > 0 {
            return av_q2d(rate)
        }
        return nil
    }

    private static func sampleAspect(_ stream: AVRational, _ codec: AVRational) -> SampleAspect? {
        let ratio = stream.num > 0 && stream.den > 0 ? stream : codec
        guard ratio.num > 0, ratio.den > 0 else { return nil }
        return SampleAspect(Int(ratio.num), Int(ratio.den))
    }

    private static func channelLayoutName(_ stream: UnsafeMutablePointer<AVStream>) -> String? {
        guard stream.pointee.codecpar.pointee.ch_layout.nb_channels > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let written = av_channel_layout_describe(
            &stream.pointee.codecpar.pointee.ch_layout, &buffer, buffer.count)
        guard written > 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func fourCC(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        let bytes = (0..<4).map { UInt8((tag >> (8 * UInt32($0))) & 0xFF) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func mimeType(of codec: AVCodecID) -> String {
        switch codec {
        case AV_CODEC_ID_MJPEG: return "image/jpeg"
        case AV_CODEC_ID_PNG: return "image/png"
        case AV_CODEC_ID_BMP: return "image/bmp"
        case AV_CODEC_ID_GIF: return "image/gif"
        case AV_CODEC_ID_WEBP: return "image/webp"
        default: return "application/octet-stream"
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
