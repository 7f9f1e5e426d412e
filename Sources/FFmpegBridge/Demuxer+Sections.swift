// Playhead: a streamed input (Playhead's HLS loader) read section by section. Each section (the
// stream's start, the bytes after a restart, an HLS discontinuity, a new fragmented-MP4
// initialisation section) is read by a fresh container over the same input, with the same
// streams. Item time stays the playlist's: sections of one timeline (discontinuity sequence)
// share the mapping from container time, and a timeline met for the first time is anchored
// at the section's playlist start by its earliest presentation time (read ahead from the first
// packets of each stream, which are then held and returned in order), as the opening
// container's start time anchors the first timeline at zero. When the new container's codec
// configuration (`avcC`, `esds`...) differs from what the decoder was last given, the first
// packet of that stream carries it as new-extradata side data, so the decoder follows at that
// keyframe (a switch between fragmented-MP4 variants of different sizes). Audio packets that
// come without timestamps (libavformat's MPEG-TS reader over an input that cannot seek leaves
// them out for the frames after the first of a PES) get the end of the stream's previous one.
// Packed audio (raw AAC, MP3, AC-3 segments, no timestamps) is the exception: every
// container counts from zero at its section's start (where the input says the segment's ID3
// timestamp places it, once its first packet came: `placePackedSection`). A section that ends (a DASH Period
// followed by another) has its packets presented from its end on flagged `AV_PKT_FLAG_DISCARD`: decoded, since later ones may refer to them, but
// their frames are dropped by libavcodec.
//
// Concurrency: like the rest of `Demuxer`, demux-thread only.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// How a streamed input's sections map onto the item timeline.
struct SectionState {
    /// Container time minus item time, in AV_TIME_BASE units, per timeline seen.
    var offsets: [Int: Int64]
    /// Per stream, the codec configuration the decoder was last given.
    var extradata: [Int: [UInt8]]
    /// Per stream, a new configuration to hand over with its next packet.
    var announce: [Int: [UInt8]] = [:]
    /// Per audio stream, where its last packet ended (item timeline, in that stream's time
    /// base): the time of a following packet that came without one.
    var audioEnds: [Int: (value: Int64, timeBase: AVRational)] = [:]
    /// Per audio stream, its frame size and sample rate as the opening container probed them:
    /// a section's fresh container (after a seek or a restart) is not probed and does not
    /// know them, and its untimed packets need them for their durations.
    var audioFrames: [Int: (size: Int32, rate: Int32)] = [:]
    /// Where the section being read stops, item time in AV_TIME_BASE units, when it does.
    var end: Int64?
    /// Packed audio: the start the section being read was announced with (seconds), until its
    /// first packet asks the input where its timestamp places it.
    var announcedPackedStart: Double?
}

extension Demuxer {
    /// The section state of a streamed input opened on `container`, whose first section is
    /// `opening` and whose timestamps start at `startOffset` (AV_TIME_BASE units).
    static func sectionState(_ container: FormatContext, opening: StreamingSection, startOffset: Int64) -> SectionState {
        let start = Int64((opening.start * 1_000_000).rounded())
        var state = SectionState(offsets: [opening.timeline: startOffset - start], extradata: extradata(of: container))
        state.end = opening.end.map { Int64(($0 * 1_000_000).rounded()) }
        for index in 0..<container.streamCount {
            guard let parameters = container.stream(at: index)?.pointee.codecpar?.pointee,
                parameters.codec_type == AVMEDIA_TYPE_AUDIO, parameters.frame_size > 0, parameters.sample_rate > 0
            else { continue }
            state.audioFrames[index] = (parameters.frame_size, parameters.sample_rate)
        }
        return state
    }

    /// The codec configuration of each of `container`'s streams.
    static func extradata(of container: FormatContext) -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        for index in 0..<container.streamCount {
            guard let parameters = container.stream(at: index)?.pointee.codecpar,
                let bytes = parameters.pointee.extradata, parameters.pointee.extradata_size > 0
            else { continue }
            result[index] = Array(UnsafeBufferPointer(start: bytes, count: Int(parameters.pointee.extradata_size)))
        }
        return result
    }

    /// Moves to the input's next section, read by a fresh container; false at the stream's end
    /// or when the fresh container does not open with the same streams.
    func openNextSection() -> Bool {
        guard let input = streamed?.streaming, let section = input.nextSection() else { return false }
        return openSection(section)
    }

    /// Reads `section` (the input's bytes from now on) with a fresh container that takes over
    /// the streams' discard settings; false when it does not open with at least the same streams.
    func openSection(_ section: StreamingSection) -> Bool {
        guard let location = streamed, var state = sections else { return false }
        do throws(MediaFailure) {
            let reopened = try FormatContext(location: location, timeout: timeout, interrupt: interrupt)
            guard reopened.streamCount >= container.streamCount else { return false }
            for index in 0..<reopened.streamCount {
                reopened.stream(at: index)?.pointee.discard =
                    container.stream(at: index)?.pointee.discard ?? AVDISCARD_ALL
            }
            for (index, bytes) in Self.extradata(of: reopened) where state.extradata[index] != bytes {
                state.extradata[index] = bytes
                state.announce[index] = bytes
            }
            container = reopened
            // A timeline the main container or a companion anchored already keeps that anchor;
            // packed audio counts from zero in every container.
            let offset =
                section.timesFromZero
                ? section.knownOffset ?? 0
                : state.offsets[section.timeline] ?? location.streaming?.timelineOffsets?.offset(of: section.timeline)
                    ?? section.knownOffset ?? anchorOffset(section)
            state.offsets[section.timeline] = offset
            state.end = section.end.map { Int64(($0 * 1_000_000).rounded()) }
            // Packed audio's fresh container leaves its frames untimed: they run on from the
            // section's start.
            if section.timesFromZero {
                for index in 0..<reopened.streamCount
                where reopened.stream(at: index)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                    state.audioEnds[index] = (Int64((section.start * 1_000_000).rounded()), CFFmpeg_AV_TIME_BASE_Q())
                }
            }
            timelineOffset = offset
            state.announcedPackedStart = section.timesFromZero ? section.start : nil
            sections = state
            // (Packed audio's anchors are its own containers', no other input's.)
            if !section.timesFromZero { location.streaming?.timelineOffsets?.record(state.offsets) }
            return true
        } catch {
            return false
        }
    }

    /// The offset that puts `section`'s earliest presentation time at its playlist start: read
    /// from the first packets of the fresh container (one of each stream, played or not, at
    /// most 64 packets),
    /// which are held to be returned before reading on.
    private func anchorOffset(_ section: StreamingSection) -> Int64 {
        let start = Int64((section.start * 1_000_000).rounded())
        let none = CFFmpeg_AV_NOPTS_VALUE()
        var earliest: Int64?
        var seen = Set<Int>()
        var held: [UnsafeMutablePointer<AVPacket>] = []
        // Every stream counts, those not played included (their packets are dropped later).
        let discards = (0..<container.streamCount).map { container.stream(at: $0)?.pointee.discard ?? AVDISCARD_ALL }
        for index in 0..<container.streamCount { container.stream(at: index)?.pointee.discard = AVDISCARD_DEFAULT }
        defer {
            for (index, discard) in discards.enumerated() { container.stream(at: index)?.pointee.discard = discard }
        }
        container.interrupt.expire(after: timeout)
        while held.count < 64, seen.count < container.streamCount, let packet = av_packet_alloc() {
            guard av_read_frame(container.pointer, packet) >= 0 else {
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                break
            }
            held.append(packet)
            let index = Int(packet.pointee.stream_index)
            seen.insert(index)
            if let stream = container.stream(at: index), packet.pointee.pts != none {
                let time = av_rescale_q(packet.pointee.pts, stream.pointee.time_base, CFFmpeg_AV_TIME_BASE_Q())
                earliest = min(earliest ?? time, time)
            }
        }
        heldPackets += held
        return (earliest ?? start) - start
    }

    /// Packed audio: moves the section being read, and `packet` (its first, on the item
    /// timeline), to where the input says its timestamp places it, when that is not where the
    /// section was announced (a restart's section is announced before its segment came).
    func placePackedSection(_ packet: UnsafeMutablePointer<AVPacket>, stream: UnsafeMutablePointer<AVStream>) {
        // (Every packet passes here: nothing is copied unless a section waits to be placed.)
        guard let announced = sections?.announcedPackedStart else { return }
        sections?.announcedPackedStart = nil
        guard let placed = streamed?.streaming?.readingSectionStart else { return }
        let delta = Int64(((placed - announced) * 1_000_000).rounded())
        guard delta != 0 else { return }
        timelineOffset -= delta
        for (index, end) in sections?.audioEnds ?? [:] {
            sections?.audioEnds[index] = (end.value + av_rescale_q(delta, CFFmpeg_AV_TIME_BASE_Q(), end.timeBase), end.timeBase)
        }
        let none = CFFmpeg_AV_NOPTS_VALUE()
        let shift = av_rescale_q(delta, CFFmpeg_AV_TIME_BASE_Q(), stream.pointee.time_base)
        if packet.pointee.pts != none { packet.pointee.pts += shift }
        if packet.pointee.dts != none { packet.pointee.dts += shift }
    }

    /// Gives an audio packet that came without timestamps the end of the stream's previous
    /// one (item timeline). Over an input that cannot seek, libavformat's MPEG-TS reader
    /// leaves out the timestamps of the audio frames after the first of a PES packet at the
    /// start of a stream, which it fills in for a file.
    func fillMissingAudioTimestamps(_ packet: UnsafeMutablePointer<AVPacket>, stream: UnsafeMutablePointer<AVStream>) {
        guard sections != nil, stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { return }
        let none = CFFmpeg_AV_NOPTS_VALUE()
        let index = Int(packet.pointee.stream_index)
        let timeBase = stream.pointee.time_base
        if packet.pointee.pts == none, packet.pointee.dts == none, let end = sections?.audioEnds[index] {
            let value = av_rescale_q(end.value, end.timeBase, timeBase)
            packet.pointee.pts = value
            packet.pointee.dts = value
        }
        // Such packets come without a duration too: one frame of the codec's size (as the
        // opening container knew it when this section's container does not).
        let parameters = stream.pointee.codecpar.pointee
        if parameters.frame_size > 0, parameters.sample_rate > 0 {
            sections?.audioFrames[index] = (parameters.frame_size, parameters.sample_rate)
        }
        var duration = packet.pointee.duration
        if duration <= 0, let frames = sections?.audioFrames[index] {
            duration = av_rescale_q(Int64(frames.size), AVRational(num: 1, den: frames.rate), timeBase)
            packet.pointee.duration = duration
        }
        let start = packet.pointee.dts != none ? packet.pointee.dts : packet.pointee.pts
        sections?.audioEnds[index] = start != none && duration > 0 ? (start + duration, timeBase) : nil
    }

    /// Marks `packet` (on the item timeline) to be decoded but not shown when it is presented at
    /// or after the end of its section (half a millisecond of rounding allowed): a DASH Period's
    /// last segment may hold media past the Period's end, where the next Period's plays.
    func markPastSectionEnd(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        guard let end = sections?.end, packet.pointee.pts != CFFmpeg_AV_NOPTS_VALUE() else { return }
        let presented = av_rescale_q(packet.pointee.pts, timeBase, CFFmpeg_AV_TIME_BASE_Q())
        if presented >= end - 500 { packet.pointee.flags |= AV_PKT_FLAG_DISCARD }
    }

    /// Attaches a changed codec configuration to the stream's first packet after a change.
    func applySection(to packet: UnsafeMutablePointer<AVPacket>) {
        guard var state = sections, !state.announce.isEmpty else { return }
        let index = Int(packet.pointee.stream_index)
        if let bytes = state.announce.removeValue(forKey: index),
            let side = av_packet_new_side_data(packet, AV_PKT_DATA_NEW_EXTRADATA, bytes.count)
        {
            bytes.withUnsafeBufferPointer { side.update(from: $0.baseAddress!, count: bytes.count) }
        }
        sections = state
    }
}
