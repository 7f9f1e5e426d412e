// Playhead: what changes hands when the selected audio or subtitle track changes mid-play.
//
// Concurrency: shared by an item's threads through its Pipeline. `audio` (a lock) holds the
// decoders of the audio tracks not playing (made by the open work, then owned by whichever
// thread took them out: the audio thread) and the recent packets of those tracks (appended by
// the demux thread, taken by the audio thread on a switch). Deciding where an audio packet
// goes and switching happen under the same lock, so no packet of the new track is lost in
// between. A track read on demand (an HLS audio rendition, loaded only while it plays) is
// switched to once its packets reach the audio already written; until then the old track
// plays on. The cue and metadata stores and the caption backlog lock internally.
import FFmpegBridge
import Foundation
import Synchronization

/// What the engine plays out of the asset's selection groups.
struct EngineSelection: Sendable {
    /// The selected audio stream; nil before opening decides (then the best stream).
    var audioStream: Int?
    /// The selected legible source; nil means subtitles off.
    var legible: MediaOptionSource?
    /// Bumped on every legible change, so stale cue writes are recognised.
    var legibleVersion = 0
}

/// Hand-over points between the demux thread and the audio and subtitle consumers.
final class StreamSwitchboard: Sendable {
    /// Packets kept per audio track not playing, from this far behind the playhead on.
    static let backlogBehind = 1.0
    /// The most packets kept per track not playing.
    static let backlogLimit = 4_000

    struct AudioRouting: @unchecked Sendable {
        /// The audio stream whose packets go to the audio queue.
        var routed: Int?
        /// Recent packets of the other switchable tracks, with the generation they were read in.
        var backlog: [Int: RecentPackets<(packet: Packet, generation: Int)>] = [:]
        /// Ready decoders of the other switchable tracks.
        var decoders: [Int: any AudioDecoding] = [:]
        /// Tracks whose packets are read only while they play or are about to (an HLS
        /// stream's audio renditions), with the input each comes from: a switch to one waits
        /// for its packets, and a switch away from one parks its input at once.
        var onDemand: [Int: any StreamingInput] = [:]
    }

    private let audio = Locked(AudioRouting())
    /// The cues of the selected legible option.
    let cues = SubtitleCueStore()
    /// Timed metadata read so far; shares the cue store's wake-up (one thread delivers both).
    let metadata: TimedMetadataStore

    /// Closed caption screens decoded from the video's pictures, fed to `cues` when selected.
    let captions: CaptionBacklog

    init() {
        metadata = TimedMetadataStore(changed: cues.changed)
        captions = CaptionBacklog(store: cues)
    }

    /// Sets the playing audio stream and the decoders of the others (open work, before the
    /// threads start).
    /// `onDemand` are the tracks read only while wanted (see `AudioRouting.onDemand`).
    func installAudio(playing: Int?, others: [Int: any AudioDecoding], onDemand: [Int: any StreamingInput] = [:]) {
        audio.withLock { $0 = AudioRouting(routed: playing, backlog: [:], decoders: others, onDemand: onDemand) }
    }

    /// True when `stream` is read only while it plays or is about to (an HLS audio rendition).
    func isOnDemand(_ stream: Int) -> Bool { audio.withLock { $0.onDemand[stream] != nil } }

    /// The audio stream whose packets go to the audio queue (the one the audio thread plays).
    var routedAudio: Int? { audio.withLock { $0.routed } }

    /// True when a switch to `stream` may happen now: its packets reach `through` (the end of
    /// the audio already written), so the new track takes over without a hole. A track read
    /// all along always may; one read on demand (started when it was selected) waits until
    /// its first packets came in.
    func canSwitchAudio(to stream: Int, through: CMTime) -> Bool {
        audio.withLock { routing in
            guard routing.onDemand[stream] != nil else { return true }
            guard let last = routing.backlog[stream]?.entries.last else { return false }
            return !through.isNumeric || Self.end(of: last.packet) >= through
        }
    }

    /// True when the audio packet `packet` goes to the audio queue; otherwise it is kept in its
    /// track's backlog (packets ending well before `now` are dropped). Demux thread.
    func routeAudio(_ packet: Packet, now: CMTime, generation: Int) -> Bool {
        audio.withLock { routing in
            if packet.streamIndex == routing.routed { return true }
            guard routing.decoders[packet.streamIndex] != nil else { return false }
            let horizon = now - CMTime(seconds: Self.backlogBehind, preferredTimescale: 1000)
            // Appended in place: the dictionary's storage is mutated, never copied per packet.
            routing.backlog[packet.streamIndex, default: RecentPackets(limit: Self.backlogLimit)].append(
                (packet, generation), droppingEndedBefore: horizon, end: { Self.end(of: $0.packet) })
            return false
        }
    }

    /// Routes `stream` to the audio queue from now on and returns its decoder with its packets
    /// of `generation` ending at or after `earliest`; `current` is kept for a later switch back.
    /// The input of a track read on demand that is left stops loading at once, parked under
    /// the lock with the routing change, so the demux thread sees both or neither (it may be
    /// waiting for queue room, and catches up later). Nil when the stream has no decoder.
    /// Audio thread.
    func switchAudio(to stream: Int, from current: any AudioDecoding, earliest: CMTime, generation: Int)
        -> (decoder: any AudioDecoding, backlog: [Packet])?
    {
        audio.withLock { routing -> (decoder: any AudioDecoding, backlog: [Packet])? in
            guard let next = routing.decoders.removeValue(forKey: stream) else { return nil }
            routing.decoders[current.streamIndex] = current
            routing.routed = stream
            var kept = routing.backlog.removeValue(forKey: stream) ?? RecentPackets(limit: Self.backlogLimit)
            let backlog = kept.removeAll()
                .filter { $0.generation == generation && Self.end(of: $0.packet) >= earliest }.map(
                    \.packet)
            routing.backlog[current.streamIndex] = nil
            let leftInput = routing.onDemand[current.streamIndex]
            // An input holding the new track too (never so for HLS renditions) keeps loading.
            let shared = leftInput.map { input in routing.onDemand[stream].map { $0 === input } ?? false } ?? false
            // (The loader's lock is taken inside this one, never the other way round.)
            if !shared { leftInput?.park() }
            return (next, backlog)
        }
    }

    /// A switch to `stream` was asked: the input of the playing track, read on demand, is
    /// left (parked, its reader's read ending) once it starves (its reader has waited a while
    /// for bytes its server has not sent), so the demux thread, which reads the sources in
    /// decode order, is not held up by it and the new track loads now rather than when the
    /// old one's request gives up. The old track plays out what it has; the switch lands once
    /// the new one's packets come. A switch back to the playing track calls that off. Any
    /// thread.
    func leaveAudioWhenStarved(for stream: Int) {
        audio.withLock { routing in
            guard let routed = routing.routed, let left = routing.onDemand[routed] else { return }
            let staying = routed == stream || routing.onDemand[stream] === left
            // (The loader's lock is taken inside this one, never the other way round.)
            left.leaveWhenStarved(!staying)
        }
    }

    /// True when the input of the playing track, read on demand, is parked: it was left
    /// starving (`leaveAudioWhenStarved`) for another track, which has not taken over yet.
    var routedInputIsParked: Bool {
        audio.withLock { routing in routing.routed.flatMap { routing.onDemand[$0] }?.isParked ?? false }
    }

    /// Forgets every kept packet (after a seek). Demux thread.
    func clearAudioBacklog() {
        audio.withLock { $0.backlog.removeAll() }
    }

    /// Streams whose packets the switchboard routes (the playing track and the switchable ones).
    var audioStreams: Set<Int> {
        audio.withLock { routing in
            var streams = Set(routing.decoders.keys)
            if let routed = routing.routed { streams.insert(routed) }
            return streams
        }
    }

    static func end(of packet: Packet) -> CMTime {
        let start = packet.pts.isNumeric ? packet.pts : packet.dts
        guard start.isNumeric else { return .positiveInfinity }
        return packet.duration.isNumeric ? start + packet.duration : start
    }
}
