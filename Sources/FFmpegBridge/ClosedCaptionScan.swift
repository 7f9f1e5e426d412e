// Playhead: finds out at open whether a video stream carries closed captions in its pictures
// (ATSC A/53 caption data in H.264/HEVC SEI or MPEG-2 user data), without decoding.
//
// Concurrency: runs on the thread opening the container, before the Demuxer exists; the
// packets it reads are handed to that Demuxer, which returns them first (demux thread only).
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// The look at the first pictures of each video stream that tells whether the stream
/// carries closed captions.
///
/// FFmpeg 5.1 reports captions in a video stream only as a property of a decoder that has
/// already decoded a picture with them (`FF_CODEC_PROPERTY_CLOSED_CAPTIONS`); the decoder
/// `avformat_find_stream_info` used is not public. Decoding pictures at open would cost
/// tens of milliseconds for large video, so instead the first `picturesPerStream` packets
/// of each H.264, HEVC and MPEG-2 stream are searched for the A/53 caption marker: the
/// "GA94" user identifier followed by user data type 3 (cc_data). Those bytes are never
/// altered by H.264/HEVC emulation prevention (no two zero bytes in them). Packets read
/// here are kept and returned by the demuxer before it reads on, so nothing is read twice;
/// most of them are already in FFmpeg's buffer from the stream-info probe.
///
/// Broadcast encoders put caption data (padding when nothing is said) into every picture, so
/// the first pictures show it. A file whose caption data starts later is not recognised.
enum ClosedCaptionScan {
    /// Pictures looked at per video stream.
    static let picturesPerStream = 8
    /// The most packets read in all (audio and other streams count too).
    static let packetLimit = 96
    /// "GA94", then cc_data's user_data_type_code 3.
    private static let marker: [UInt8] = [0x47, 0x41, 0x39, 0x34, 0x03]

    /// The video streams of `container` that may carry caption data in their pictures.
    static func candidates(_ container: FormatContext) -> Set<Int> {
        Set(
            (0..<container.streamCount).filter { index in
                guard let stream = container.stream(at: index),
                    (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0
                else { return false }
                let codec = stream.pointee.codecpar.pointee.codec_id
                return codec == AV_CODEC_ID_H264 || codec == AV_CODEC_ID_HEVC
                    || codec == AV_CODEC_ID_MPEG2VIDEO
            })
    }

    /// Reads the first packets of `container` and returns them (to be read again first) with
    /// the video streams whose pictures carry caption data. Reading goes on until each stream
    /// of `firstPacketsOf` has given one packet too (`HeaderStreamInfo` reads them), and stops
    /// at the limits, the end of the input or the first error (the demuxer meets it again when
    /// it reads on).
    static func scan(_ container: FormatContext, timeout: Double, firstPacketsOf wanted: Set<Int> = [])
        -> (held: [UnsafeMutablePointer<AVPacket>], captioned: Set<Int>)
    {
        let candidates = candidates(container)
        guard !candidates.isEmpty || !wanted.isEmpty else { return ([], []) }
        var missing = wanted
        var held: [UnsafeMutablePointer<AVPacket>] = []
        var captioned: Set<Int> = []
        var seen: [Int: Int] = [:]
        container.interrupt.expire(after: timeout)
        while held.count < packetLimit,
            !missing.isEmpty
                || candidates.contains(where: { !captioned.contains($0) && seen[$0, default: 0] < picturesPerStream })
        {
            guard let packet = av_packet_alloc() else { break }
            guard av_read_frame(container.pointer, packet) >= 0 else {
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                break
            }
            held.append(packet)
            let index = Int(packet.pointee.stream_index)
            missing.remove(index)
            guard candidates.contains(index), !captioned.contains(index) else { continue }
            seen[index, default: 0] += 1
            if let data = packet.pointee.data, packet.pointee.size > 0,
                containsMarker(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
            {
                captioned.insert(index)
            }
        }
        return (held, captioned)
    }

    /// The streams among `held` (packets the scan read) whose samples are still encrypted:
    /// Common Encryption without a `pssh` box (which is what marks the stream itself, and
    /// which FFmpeg's own CENC muxer does not write) shows only in its samples.
    static func encryptedStreams(in held: [UnsafeMutablePointer<AVPacket>]) -> Set<Int> {
        Set(held.filter { CFFmpeg_packet_is_encrypted($0) != 0 }.map { Int($0.pointee.stream_index) })
    }

    /// True when `bytes` hold the A/53 cc_data marker.
    static func containsMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= marker.count else { return false }
        let last = bytes.count - marker.count
        var index = 0
        while index <= last {
            // memchr finds the candidate "G"s; a 200 kB keyframe takes well under a millisecond.
            guard let hit = memchr(base + index, 0x47, last - index + 1) else { return false }
            index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if bytes[index + 1] == 0x41, bytes[index + 2] == 0x39, bytes[index + 3] == 0x34,
                bytes[index + 4] == 0x03
            {
                return true
            }
            index += 1
        }
        return false
    }
}

extension Demuxer {
    /// Takes the next packet the caption scan kept into `target`; false when none is left.
    func takeHeldPacket(into target: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard !heldPackets.isEmpty else { return false }
        var packet: UnsafeMutablePointer<AVPacket>? = heldPackets.removeFirst()
        av_packet_move_ref(target, packet!)
        av_packet_free(&packet)
        return true
    }

    /// Frees the packets the caption scan kept (a seek moves the read position past them).
    func dropHeldPackets() {
        for packet in heldPackets {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
        heldPackets.removeAll()
    }
}
