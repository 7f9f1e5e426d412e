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
// keyframe (a switch between fragmented-MP4 variants of different sizes).
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
}

extension Demuxer {
    /// The section state of a streamed input opened on `container`, whose first section is
    /// `opening` and whose timestamps start at `startOffset` (AV_TIME_BASE units).
    static func sectionState(_ container: FormatContext, opening: StreamingSection, startOffset: Int64) -> SectionState {
        let start = Int64((opening.start * 1_000_000).rounded())
        return SectionState(offsets: [opening.timeline: startOffset - start], extradata: extradata(of: container))
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
            let offset = state.offsets[section.timeline] ?? anchorOffset(section)
            state.offsets[section.timeline] = offset
            timelineOffset = offset
            sections = state
            location.streaming?.timelineOffsets?.record(state.offsets)
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
