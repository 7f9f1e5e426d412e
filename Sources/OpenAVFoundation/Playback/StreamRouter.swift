// Playhead: the demux thread's routing of packets to the selected audio and subtitle tracks,
// with a short backlog of the other tracks so a switch can start at the playhead.
//
// Concurrency: a value owned by the demux thread (like the Demuxer it uses to make decoders).
// It reads the selection from `control`, offers audio decoders through the pipeline's
// switchboard and writes subtitle cues into its cue store.
import FFmpegBridge
import Foundation

/// Decides where each packet goes and carries out track switches.
struct StreamRouter {
    /// Packets kept per unselected track, from a little before the playhead to the read position.
    static let backlogBehind = 1.0

    /// The audio stream whose packets go to the audio queue.
    private(set) var routedAudio: Int?
    /// Audio streams that can be switched to (decodable).
    let audioStreams: Set<Int>
    /// Subtitle streams that can be selected (decodable).
    let subtitleStreams: Set<Int>
    private var legibleVersion = -1
    private var subtitleDecoder: SubtitleDecoder?
    private var backlog: [Int: [Packet]] = [:]

    init(description: MediaDescription, audioStream: Int?) {
        routedAudio = audioStream
        let tracks = description.tracks.filter(\.decoderAvailable)
        audioStreams = audioStream == nil ? [] : Set(tracks.filter { $0.kind == .audio }.map(\.index))
        subtitleStreams = Set(tracks.filter { $0.kind == .subtitle }.map(\.index))
    }

    /// The streams the demuxer must read: video plus every switchable track.
    func activeStreams(video: Int?) -> Set<Int> {
        var streams = audioStreams.union(subtitleStreams)
        if let video { streams.insert(video) }
        if let routedAudio { streams.insert(routedAudio) }
        return streams
    }

    /// Applies a selection change, if there was one. `now` is the item time.
    mutating func follow(
        _ selection: EngineSelection, demuxer: Demuxer, pipeline: Pipeline, generation: Int,
        now: () -> CMTime
    ) {
        if let wanted = selection.audioStream, wanted != routedAudio, audioStreams.contains(wanted) {
            switchAudio(to: wanted, demuxer: demuxer, pipeline: pipeline, generation: generation, now: now())
        }
        if selection.legibleVersion != legibleVersion {
            legibleVersion = selection.legibleVersion
            switchLegible(to: selection.legible?.streamIndex, demuxer: demuxer, pipeline: pipeline, now: now())
        }
    }

    private mutating func switchAudio(
        to wanted: Int, demuxer: Demuxer, pipeline: Pipeline, generation: Int, now: CMTime
    ) {
        guard let decoder = try? AudioDecoder(demuxer: demuxer, streamIndex: wanted) else { return }
        pipeline.switchboard.offerAudioDecoder(decoder)
        let previous = routedAudio
        routedAudio = wanted
        // The new track's packets from just before the playhead on, so its audio can be
        // spliced in where the ring's audio ends.
        let earliest = now - CMTime(seconds: Self.backlogBehind / 2, preferredTimescale: 1000)
        for packet in backlog.removeValue(forKey: wanted) ?? [] where Self.end(of: packet) >= earliest {
            _ = pipeline.audioPackets.put(
                packet, cost: packet.byteCount, duration: packet.duration, generation: generation)
        }
        if let previous { backlog[previous] = [] }
    }

    private mutating func switchLegible(to stream: Int?, demuxer: Demuxer, pipeline: Pipeline, now: CMTime) {
        subtitleDecoder = nil
        guard let stream else { return }  // subtitles off or a file: the engine fills the store
        let decoder = subtitleStreams.contains(stream) ? try? SubtitleDecoder(demuxer: demuxer, streamIndex: stream) : nil
        pipeline.switchboard.cues.reset(version: legibleVersion, header: decoder?.assHeader)
        guard let decoder else { return }
        subtitleDecoder = decoder
        for packet in backlog.removeValue(forKey: stream) ?? [] {
            pipeline.switchboard.cues.add(decoder.decode(packet), version: legibleVersion)
        }
    }

    /// Where `packet` goes: a queue to put it in, or nil when it was consumed here (subtitles,
    /// backlog) or is not wanted.
    mutating func route(_ packet: Packet, pipeline: Pipeline, now: CMTime) -> BoundedQueue<Packet>? {
        let index = packet.streamIndex
        if index == pipeline.videoStream { return pipeline.videoPackets }
        if index == routedAudio { return pipeline.audioPackets }
        if let decoder = subtitleDecoder, decoder.streamIndex == index {
            pipeline.switchboard.cues.add(decoder.decode(packet), version: legibleVersion)
            return nil
        }
        if audioStreams.contains(index) || subtitleStreams.contains(index) {
            keep(packet, now: now)
        }
        return nil
    }

    /// Keeps `packet` in its track's backlog, dropping what is well behind the playhead.
    private mutating func keep(_ packet: Packet, now: CMTime) {
        var packets = backlog[packet.streamIndex] ?? []
        let horizon = now - CMTime(seconds: Self.backlogBehind, preferredTimescale: 1000)
        // Subtitle packets may last long: keep them until they end.
        if let stale = packets.firstIndex(where: { Self.end(of: $0) >= horizon }), stale > 0 {
            packets.removeFirst(stale)
        } else if let last = packets.last, Self.end(of: last) < horizon {
            packets.removeAll()
        }
        if packets.count < 4_000 { packets.append(packet) }
        backlog[packet.streamIndex] = packets
    }

    /// Forgets the backlog and decoder state after a seek.
    mutating func seeked() {
        backlog.removeAll()
        subtitleDecoder?.flush()
    }

    private static func end(of packet: Packet) -> CMTime {
        let start = packet.pts.isNumeric ? packet.pts : packet.dts
        guard start.isNumeric else { return .positiveInfinity }
        return packet.duration.isNumeric ? start + packet.duration : start
    }
}
