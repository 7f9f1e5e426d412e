// Playhead: an input read together with its companions (the audio renditions of an HLS stream,
// each streamed by a loader of its own). Each companion is read by a demuxer of its own,
// opened with the main container; its streams join the main description, numbered after the
// main container's, named by the rendition (title, language, default). Packets are merged in
// decode-time order, one read ahead per source, so the consumer sees one interleaved stream
// as from a single container. Every demuxer maps a timeline onto item time with the anchor
// recorded first in the inputs' shared `TimelineOffsets` table, so the renditions' packets
// keep the time relation the playlist gave them. A seek restarts every source at the target.
// A companion none of whose streams plays is parked: not read and fetching nothing, until it
// is wanted again and starts over at the playhead.
//
// Concurrency: like the rest of `Demuxer`, demux-thread only. The companions' demuxers share
// the main one's `InterruptDeadline`, so `abort()` stops a read blocked in any of them.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// The companions of a demuxer's input and their packets waiting to be merged in.
struct CompanionState {
    /// One demuxer per companion, in the input's order.
    let demuxers: [Demuxer]
    /// The main index of each companion's first stream.
    let bases: [Int]
    /// Per source (0: the main container, then each companion): the next packet read, waiting
    /// for its turn.
    var pending: [Packet?]
    /// Per source: true once it reached its end (until the next seek).
    var ended: [Bool]
    /// Per companion: true while parked (not read, its loader fetching nothing) until a stream
    /// of it is wanted again.
    var parked: [Bool]
}

extension Demuxer {
    /// Opens a demuxer per companion of `input` and joins their streams to `main` (the main
    /// container's description).
    ///
    /// - Throws: the failure of a companion that cannot be opened (the stream is then not
    ///   playable as its playlist describes it).
    static func openCompanions(
        of input: any StreamingInput, location: MediaLocation, after main: MediaDescription, timeout: Double,
        interrupt: InterruptDeadline, limits: MediaLimits
    ) throws(MediaFailure) -> (description: MediaDescription, state: CompanionState) {
        var description = main
        var demuxers: [Demuxer] = []
        var bases: [Int] = []
        var trackIDs = Set(main.streams.map(\.trackID))
        for companion in input.companions {
            let demuxer = try Demuxer(
                location: location.streamed(through: companion), timeout: timeout, interrupt: interrupt, limits: limits)
            let base = description.streams.count
            demuxer.streamIndexBase = base
            for var stream in demuxer.description.streams {
                stream.index += base
                // Track IDs stay unique across the sources (each container numbers its own).
                while trackIDs.contains(stream.trackID) { stream.trackID += 1 }
                trackIDs.insert(stream.trackID)
                if let rendition = companion.rendition, stream.kind == .audio {
                    stream.title = rendition.name
                    stream.language = rendition.language ?? stream.language
                    stream.isDefault = rendition.isDefault
                }
                description.streams.append(stream)
            }
            demuxers.append(demuxer)
            bases.append(base)
        }
        if let failure = limits.streamCountViolation(description.streams.count) { throw failure }
        let sources = demuxers.count + 1
        return (
            description,
            CompanionState(
                demuxers: demuxers, bases: bases, pending: Array(repeating: nil, count: sources),
                ended: Array(repeating: false, count: sources), parked: Array(repeating: false, count: demuxers.count))
        )
    }

    /// The next packet of the main container or a companion, whichever decodes first.
    func readMerged() -> DemuxResult {
        guard var state = companions else { return readPacket(readingWith: readNextFrame) }
        defer { companions = state }
        for source in state.pending.indices where state.pending[source] == nil && !state.ended[source] {
            let demuxer = source == 0 ? nil : state.demuxers[source - 1]
            // A source none of whose streams is wanted is not read.
            if let demuxer, demuxer.activeStreams?.isEmpty == true { continue }
            if demuxer == nil, activeStreams?.isEmpty == true { continue }
            switch demuxer?.readPacket() ?? readPacket(readingWith: readNextFrame) {
            case .packet(let packet): state.pending[source] = packet
            case .endOfFile: state.ended[source] = true
            case .failure(let failure): return .failure(failure)
            }
        }
        let waiting = state.pending.indices.filter { state.pending[$0] != nil }
        guard let next = waiting.min(by: { Self.mergeTime(state.pending[$0]!) < Self.mergeTime(state.pending[$1]!) })
        else { return .endOfFile }
        defer { state.pending[next] = nil }
        return .packet(state.pending[next]!)
    }

    /// The time packets are merged by: decode time, else presentation time; a packet with
    /// neither goes first.
    private static func mergeTime(_ packet: Packet) -> Double {
        if packet.dts.isNumeric { return packet.dts.seconds }
        if packet.pts.isNumeric { return packet.pts.seconds }
        return -.infinity
    }

    /// Passes each companion its share of `indices` (main indices). A companion none of whose
    /// streams is wanted stops loading for good: its loader fetches nothing more, and it is
    /// not read, even if a later call wants it again.
    func setCompanionsActiveStreams(_ indices: Set<Int>) {
        guard let companions else { return }
        for (demuxer, base) in zip(companions.demuxers, companions.bases) {
            let own = base..<(base + demuxer.container.streamCount)
            let wanted = Set(indices.filter { own.contains($0) }.map { $0 - base })
            if wanted.isEmpty || demuxer.activeStreams?.isEmpty == true {
                demuxer.setActiveStreams([])
                demuxer.streamingInput?.close()
            } else {
                demuxer.setActiveStreams(wanted)
            }
        }
    }

    /// The companions' inputs by the main index of each of their streams (none without
    /// companions).
    package var companionInputs: [Int: any StreamingInput] {
        guard let companions else { return [:] }
        var inputs: [Int: any StreamingInput] = [:]
        for (demuxer, base) in zip(companions.demuxers, companions.bases) {
            guard let input = demuxer.streamingInput else { continue }
            for index in base..<(base + demuxer.container.streamCount) { inputs[index] = input }
        }
        return inputs
    }

    /// Loads only the companions that hold a stream of `wanted` (main indices): the others are
    /// parked (not read; their loaders stop fetching and drop what they fetched ahead), and a
    /// parked one that holds a wanted stream starts again at the segment holding `time` (its
    /// packets from there come before the main container's, which has read further). An input
    /// parked by another thread (the audio thread, when it switched away from it) counts as
    /// parked. A companion stopped for good (`setActiveStreams`) stays stopped. Returns true
    /// when one started again; one whose restart failed (its loader has no segment there)
    /// stays parked.
    @discardableResult
    package func loadCompanions(holding wanted: Set<Int>, from time: CMTime) -> Bool {
        guard var state = companions else { return false }
        defer { companions = state }
        var resumed = false
        for (index, (demuxer, base)) in zip(state.demuxers, state.bases).enumerated() {
            let own = base..<(base + demuxer.container.streamCount)
            let isWanted = wanted.contains { own.contains($0) }
            let source = index + 1
            if isWanted, state.parked[index] || demuxer.streamingInput?.isParked == true {
                demuxer.setActiveStreams(Set(0..<demuxer.container.streamCount))
                (state.pending[source], state.ended[source]) = (nil, false)
                guard demuxer.seek(to: time, earliest: .negativeInfinity, latest: .positiveInfinity) else {
                    state.parked[index] = true
                    demuxer.setActiveStreams([])
                    demuxer.streamingInput?.park()
                    continue
                }
                state.parked[index] = false
                resumed = true
            } else if !isWanted, !state.parked[index], demuxer.activeStreams?.isEmpty != true {
                state.parked[index] = true
                demuxer.setActiveStreams([])
                demuxer.streamingInput?.park()
                (state.pending[source], state.ended[source]) = (nil, false)
            }
        }
        return resumed
    }

    /// Stops every companion's loader until the next seek restarts it, and forgets the packets
    /// read ahead (a step of backward play, which plays no sound: its audio renditions fetch
    /// nothing).
    func parkCompanions() {
        guard var state = companions else { return }
        for demuxer in state.demuxers where demuxer.activeStreams?.isEmpty != true {
            demuxer.streamingInput?.park()
        }
        state.pending = Array(repeating: nil, count: state.pending.count)
        state.ended = Array(repeating: false, count: state.ended.count)
        companions = state
    }

    /// Restarts every companion at `target` (after the main container's seek) and forgets the
    /// packets read ahead.
    func seekCompanions(to target: CMTime) {
        guard var state = companions else { return }
        for demuxer in state.demuxers where demuxer.activeStreams?.isEmpty != true {
            _ = demuxer.seek(to: target, earliest: .negativeInfinity, latest: .positiveInfinity)
        }
        state.pending = Array(repeating: nil, count: state.pending.count)
        state.ended = Array(repeating: false, count: state.ended.count)
        companions = state
    }

    /// The stream at main index `index` and the container that holds it (a companion's for
    /// the indices after the main container's); nil when there is none.
    func stream(at index: Int) -> (container: FormatContext, stream: UnsafeMutablePointer<AVStream>)? {
        if index < container.streamCount {
            return container.stream(at: index).map { (container, $0) }
        }
        guard let companions else { return nil }
        for (demuxer, base) in zip(companions.demuxers, companions.bases).reversed() where index >= base {
            return demuxer.stream(at: index - base)
        }
        return nil
    }

    /// The companion stream of `kind` to play when the main container has none: the default
    /// rendition's, else the first.
    func bestCompanionStream(of kind: StreamKind) -> Int? {
        guard let first = companions?.bases.first else { return nil }
        let candidates = description.streams.filter { $0.index >= first && $0.kind == kind && !$0.isAttachedPicture }
        return candidates.first(where: \.isDefault)?.index ?? candidates.first?.index
    }
}
