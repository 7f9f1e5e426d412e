// Playhead: the demux thread's routing of packets to the video queue, the selected audio track
// (through the switchboard, which keeps recent packets of the others for a switch), the
// selected subtitle track, which it decodes into the cue store, and timed metadata (ID3,
// ICY, and MP4 'mebx' tracks), which it reads into the metadata store.
//
// Concurrency: a value owned by the demux thread (like the Demuxer it makes subtitle decoders
// from). It reads the selection from `control` and writes cues and metadata groups into the
// pipeline's stores (each locks internally).
import FFmpegBridge
import Foundation

/// Decides where each packet goes and follows subtitle selection changes.
struct StreamRouter {
    /// Subtitle packets kept per unselected track, from this far behind the playhead on.
    static let backlogBehind = 1.0

    /// Audio streams that can be switched to (decodable, when audio plays at all).
    let audioStreams: Set<Int>
    /// Subtitle streams that can be selected (decodable).
    let subtitleStreams: Set<Int>
    /// Timed ID3 streams, read into the timed metadata store.
    let metadataStreams: Set<Int>
    /// MP4/QuickTime timed metadata ('mebx') streams whose keys are known, with their keys
    /// by local ID, read into the timed metadata store.
    let boxedMetadataStreams: [Int: [UInt32: BoxedMetadataKey]]
    /// The last ICY metadata packet seen (Shoutcast titles arrive inside the HTTP body).
    private var icyPacket: String?
    private var legibleVersion = -1
    private var subtitleDecoder: (any SubtitlePacketDecoding)?
    /// Subtitle streams of TTML documents, which the engine decodes itself.
    private let ttmlStreams: Set<Int>
    private var backlog: [Int: RecentPackets<Packet>] = [:]

    init(description: MediaDescription, audioStream: Int?) {
        let tracks = description.tracks.filter(\.decoderAvailable)
        audioStreams =
            audioStream == nil ? [] : Set(tracks.filter { $0.kind == .audio }.map(\.index))
        subtitleStreams = Set(tracks.filter { $0.kind == .subtitle }.map(\.index))
        ttmlStreams = Set(tracks.filter { $0.kind == .subtitle && $0.codecName == "ttml" }.map(\.index))
        metadataStreams = Set(
            description.tracks.filter { $0.kind == .data && $0.codecName == "timed_id3" }.map(\.index))
        var boxed: [Int: [UInt32: BoxedMetadataKey]] = [:]
        for track in description.tracks where track.kind == .data && !track.boxedMetadataKeys.isEmpty {
            boxed[track.index] = Dictionary(
                track.boxedMetadataKeys.map { ($0.localID, $0) }, uniquingKeysWith: { first, _ in first })
        }
        boxedMetadataStreams = boxed
    }

    /// The streams the demuxer must read: video plus every switchable track.
    func activeStreams(video: Int?, audio: Int?) -> Set<Int> {
        var streams = audioStreams.union(subtitleStreams).union(metadataStreams).union(boxedMetadataStreams.keys)
        if let video { streams.insert(video) }
        if let audio { streams.insert(audio) }
        return streams
    }

    /// Follows a change of the legible selection, if there was one. `now` is the item time.
    mutating func follow(
        _ selection: EngineSelection, demuxer: any PacketSource, pipeline: Pipeline, now: () -> CMTime
    ) {
        guard selection.legibleVersion != legibleVersion else { return }
        legibleVersion = selection.legibleVersion
        subtitleDecoder = nil
        // Subtitles off, or a file: the engine fills the store itself.
        guard let stream = selection.legible?.streamIndex else { return }
        let decoder: (any SubtitlePacketDecoding)? =
            ttmlStreams.contains(stream)
            ? TTMLPacketDecoder(streamIndex: stream, timelineStart: demuxer.timelineStart)
            : subtitleStreams.contains(stream) ? demuxer.makeSubtitleDecoder(streamIndex: stream) : nil
        pipeline.switchboard.cues.reset(
            version: legibleVersion, header: decoder?.assHeader, isStyled: decoder?.isStyled ?? false,
            fonts: decoder?.fonts ?? [])
        guard let decoder else { return }
        subtitleDecoder = decoder
        // Cues from just before the playhead up to the read position show at once.
        var kept = backlog.removeValue(forKey: stream) ?? RecentPackets(limit: 0)
        for packet in kept.removeAll() {
            pipeline.switchboard.cues.add(decoder.decode(packet), version: legibleVersion)
        }
    }

    /// Where `packet` goes: a queue to put it in, or nil when it was consumed here (subtitles,
    /// backlogs) or is not wanted.
    mutating func route(_ packet: Packet, pipeline: Pipeline, now: CMTime, generation: Int)
        -> BoundedQueue<Packet>?
    {
        let index = packet.streamIndex
        if index == pipeline.videoStream { return pipeline.videoPackets }
        if audioStreams.contains(index) || index == pipeline.audioStream {
            return pipeline.switchboard.routeAudio(packet, now: now, generation: generation)
                ? pipeline.audioPackets : nil
        }
        if metadataStreams.contains(index) {
            pipeline.switchboard.metadata.add(
                ID3TagReader.items(packet.bytes, time: packet.pts, duration: packet.duration),
                at: packet.pts, duration: packet.duration)
            return nil
        }
        if let keys = boxedMetadataStreams[index] {
            pipeline.switchboard.metadata.add(
                BoxedMetadataReader.items(packet.bytes, keys: keys, time: packet.pts, duration: packet.duration),
                at: packet.pts, duration: packet.duration)
            return nil
        }
        if let decoder = subtitleDecoder, decoder.streamIndex == index {
            pipeline.switchboard.cues.add(decoder.decode(packet), version: legibleVersion)
            return nil
        }
        if subtitleStreams.contains(index) { keep(packet, now: now) }
        return nil
    }

    /// Keeps a subtitle packet in its track's backlog, dropping those ended well before now.
    private mutating func keep(_ packet: Packet, now: CMTime) {
        let horizon = now - CMTime(seconds: Self.backlogBehind, preferredTimescale: 1000)
        backlog[packet.streamIndex, default: RecentPackets(limit: StreamSwitchboard.backlogLimit)].append(
            packet, droppingEndedBefore: horizon, end: StreamSwitchboard.end(of:))
    }

    /// Forgets backlogs and decoder state after a seek.
    mutating func seeked(_ pipeline: Pipeline) {
        backlog.removeAll()
        subtitleDecoder?.flush()
        pipeline.switchboard.clearAudioBacklog()
    }
}

extension StreamRouter {
    /// Notes the stream's current ICY metadata packet (`StreamTitle='…';`), read from the HTTP
    /// body with the packet at `time`: a new one becomes a timed metadata group there.
    mutating func noteICY(_ packet: String?, at time: CMTime, pipeline: Pipeline) {
        guard let packet, !packet.isEmpty, packet != icyPacket, time.isNumeric else { return }
        icyPacket = packet
        pipeline.switchboard.metadata.add(ICYMetadataReader.items(packet, time: time), at: time)
    }
}
