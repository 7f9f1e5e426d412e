// Playhead: the total bytes of each stream's samples (`AVAssetTrack.totalSampleDataLength`).
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: stateless; each call opens, reads and closes its own container on the calling
// thread, blocking on I/O (call it from a background queue).

/// Adds up the sizes of every packet of every stream.
package enum SampleDataMeasure {
    /// Bytes per stream index. MP4 and QuickTime files list every sample in their index, which
    /// is summed without reading the media; other containers are read once, packet by packet
    /// (no decoding), which takes as long as reading the file.
    package static func totals(
        _ location: MediaLocation, timeout: Double, interrupt: InterruptDeadline = InterruptDeadline()
    ) throws(MediaFailure) -> [Int: Int64] {
        let container = try FormatContext(location: location, timeout: timeout, interrupt: interrupt)
        _ = container.findStreamInfo(timeout: timeout, limits: .standard)
        if let indexed = fromIndex(container) { return indexed }
        guard let packet = av_packet_alloc() else { throw .io(detail: "out of memory") }
        defer { var freeing: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&freeing) }
        var totals: [Int: Int64] = [:]
        while true {
            container.interrupt.expire(after: timeout)
            let status = av_read_frame(container.pointer, packet)
            if status < 0 {
                if container.interrupt.isAborted { throw .cancelled }
                if status == FFmpegError.exit || container.interrupt.hasFired { throw .timedOut }
                if status == FFmpegError.tryAgain { continue }
                break  // the end, or damage: what was read counts
            }
            totals[Int(packet.pointee.stream_index), default: 0] += Int64(packet.pointee.size)
            av_packet_unref(packet)
        }
        return totals
    }

    /// The sums of the index entries when the container is MP4 or QuickTime and its index
    /// holds exactly the samples its streams declare (not a fragmented file read in part).
    private static func fromIndex(_ container: FormatContext) -> [Int: Int64]? {
        let name = container.pointer.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        guard name.contains("mp4") || name.contains("mov") else { return nil }
        var totals: [Int: Int64] = [:]
        for index in 0..<container.streamCount {
            guard let stream = container.stream(at: index) else { return nil }
            let entries = avformat_index_get_entries_count(stream)
            guard entries > 0, Int64(entries) == stream.pointee.nb_frames else { return nil }
            var sum: Int64 = 0
            for entry in 0..<entries {
                guard let item = avformat_index_get_entry(stream, entry) else { return nil }
                sum += Int64(item.pointee.size)
            }
            totals[index] = sum
        }
        return totals
    }
}
