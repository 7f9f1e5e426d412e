// Playhead: writes MPEG-TS files that carry a timed ID3 stream, as broadcast and HLS encoders
// do (the stream of `AVPlayerItemMetadataOutput`'s ID3 groups). The ffmpeg CLI can copy such
// a stream but cannot create one, so tests make their fixtures with libavformat's own muxer.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: stateless; each call opens, uses and frees its own contexts on the calling thread.

/// One ID3 tag to place on the timeline.
package struct TimedTag: Sendable {
    /// Where the tag applies, in seconds from the start of the media.
    package var seconds: Double
    /// The whole tag: "ID3" header and frames.
    package var bytes: [UInt8]

    package init(seconds: Double, bytes: [UInt8]) {
        self.seconds = seconds
        self.bytes = bytes
    }
}

/// Remuxes media into MPEG-TS with an added timed ID3 stream (libavformat's `mpegts` muxer).
package enum TimedMetadataMuxer {
    /// Copies every stream of the file at `input` into an MPEG-TS file at `output` and adds a
    /// `timed_id3` stream carrying `tags` at their times: seconds from `origin` on the input's
    /// clock, by default the input's own start (as players show time; MPEG-TS clocks rarely
    /// start at zero). Segments of one stream pass the first segment's start.
    package static func writeTransportStream(
        copying input: String, adding tags: [TimedTag], to output: String, origin: Double? = nil
    ) throws(MediaFailure) {
        var source: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&source, input, nil, nil) >= 0, let source else {
            throw .io(detail: "cannot open \(input)")
        }
        defer { var closing: UnsafeMutablePointer<AVFormatContext>? = source; avformat_close_input(&closing) }
        guard avformat_find_stream_info(source, nil) >= 0 else { throw .damaged(detail: "no stream info") }
        var target: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&target, nil, "mpegts", output) >= 0, let target else {
            throw .io(detail: "cannot make an MPEG-TS muxer")
        }
        defer {
            avio_closep(&target.pointee.pb)
            avformat_free_context(target)
        }
        let count = Int(source.pointee.nb_streams)
        for index in 0..<count {
            guard let inStream = source.pointee.streams[index], let outStream = avformat_new_stream(target, nil),
                avcodec_parameters_copy(outStream.pointee.codecpar, inStream.pointee.codecpar) >= 0
            else { throw .io(detail: "cannot copy stream \(index)") }
            outStream.pointee.codecpar.pointee.codec_tag = 0
            outStream.pointee.time_base = inStream.pointee.time_base
        }
        guard let id3 = avformat_new_stream(target, nil) else { throw .io(detail: "cannot add the ID3 stream") }
        id3.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_DATA
        id3.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_TIMED_ID3
        id3.pointee.time_base = AVRational(num: 1, den: 90_000)
        guard avio_open(&target.pointee.pb, output, AVIO_FLAG_WRITE) >= 0 else { throw .io(detail: "cannot write \(output)") }
        guard avformat_write_header(target, nil) >= 0 else { throw .io(detail: "the muxer refused the streams") }
        let id3Index = Int32(count)
        let id3Base = target.pointee.streams[Int(id3Index)]!.pointee.time_base
        let start = source.pointee.start_time
        let origin = origin ?? (start == CFFmpeg_AV_NOPTS_VALUE() ? 0 : Double(start) / Double(AV_TIME_BASE))

        guard let packet = av_packet_alloc() else { throw .io(detail: "out of memory") }
        defer { var freeing: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&freeing) }
        var pending = tags.sorted { $0.seconds < $1.seconds }[...]
        func writeTags(through seconds: Double) throws(MediaFailure) {
            while let tag = pending.first, tag.seconds <= seconds {
                pending.removeFirst()
                guard let tagPacket = av_packet_alloc() else { throw .io(detail: "out of memory") }
                var freeing: UnsafeMutablePointer<AVPacket>? = tagPacket
                defer { av_packet_free(&freeing) }
                guard av_new_packet(tagPacket, Int32(tag.bytes.count)) >= 0 else { throw .io(detail: "out of memory") }
                tag.bytes.withUnsafeBufferPointer { tagPacket.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
                let ticks = Int64(((origin + tag.seconds) * Double(id3Base.den) / Double(id3Base.num)).rounded())
                tagPacket.pointee.pts = ticks
                tagPacket.pointee.dts = ticks
                tagPacket.pointee.stream_index = id3Index
                guard av_interleaved_write_frame(target, tagPacket) >= 0 else { throw .io(detail: "cannot write a tag") }
            }
        }
        while av_read_frame(source, packet) >= 0 {
            let index = Int(packet.pointee.stream_index)
            let inBase = source.pointee.streams[index]!.pointee.time_base
            let outBase = target.pointee.streams[index]!.pointee.time_base
            let time = packet.pointee.dts != CFFmpeg_AV_NOPTS_VALUE() ? packet.pointee.dts : packet.pointee.pts
            if time != CFFmpeg_AV_NOPTS_VALUE() {
                try writeTags(through: Double(time) * Double(inBase.num) / Double(inBase.den) - origin)
            }
            av_packet_rescale_ts(packet, inBase, outBase)
            packet.pointee.pos = -1
            guard av_interleaved_write_frame(target, packet) >= 0 else { throw .io(detail: "cannot write a packet") }
        }
        try writeTags(through: .infinity)
        guard av_write_trailer(target) >= 0 else { throw .io(detail: "cannot finish \(output)") }
        _ = packet
    }

    /// The start of the media at `path` on its own clock, in seconds (nil when unknown).
    package static func startTime(of path: String) throws(MediaFailure) -> Double? {
        var source: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&source, path, nil, nil) >= 0, let source else { throw .io(detail: "cannot open \(path)") }
        defer { var closing: UnsafeMutablePointer<AVFormatContext>? = source; avformat_close_input(&closing) }
        guard avformat_find_stream_info(source, nil) >= 0 else { throw .damaged(detail: "no stream info") }
        let start = source.pointee.start_time
        return start == CFFmpeg_AV_NOPTS_VALUE() ? nil : Double(start) / Double(AV_TIME_BASE)
    }
}
