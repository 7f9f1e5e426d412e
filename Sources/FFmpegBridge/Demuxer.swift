// Playhead: an open container read packet by packet (the demux thread's view of a file).
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

// Concurrency: a `Demuxer` belongs to one thread, the demux thread. Every method and property
// must be called from that thread (or, before that thread starts, from the thread that created
// it). The only exception is `interrupt.abort()`, which any thread may call to make a blocked
// `readPacket()` or `seek` return promptly. Decoders are created from the demuxer on the demux
// thread (or before it starts) and copy what they need, so they never touch it again.

/// What one `Demuxer.readPacket()` call produced.
package enum DemuxResult: Sendable {
    /// The next packet of an active stream.
    case packet(Packet)
    /// The container has no more packets (until the next seek).
    case endOfFile
    /// Reading stopped: `.cancelled`, `.timedOut`, `.io` or `.damaged`.
    case failure(MediaFailure)
}

/// Reads packets from a container. Owns the `FormatContext` (and through it the
/// `AVFormatContext`) and a scratch packet that it moves into each `Packet` it returns.
package final class Demuxer: @unchecked Sendable {
    /// owned by the demux thread; replaced when a synthesised input restarts (see
    /// Demuxer+Restart.swift)
    var container: FormatContext
    /// owned by the demux thread; freed in deinit
    private let scratch: UnsafeMutablePointer<AVPacket>
    /// owned by the demux thread: streams `readPacket()` returns (nil = all)
    var activeStreams: Set<Int>?
    /// owned by the demux thread: packets the caption scan read at open, returned before
    /// reading on (`ClosedCaptionScan`); freed on a seek and in deinit
    var heldPackets: [UnsafeMutablePointer<AVPacket>] = []
    /// Seconds a single blocking read or seek may take before it fails with `.timedOut`.
    package let timeout: Double
    /// True for http(s) inputs.
    package let isNetwork: Bool
    /// For network inputs, the throughput seen while opening and probing (all bytes read,
    /// nested playlists and segments included, over the time the opening thread spent waiting
    /// for them, so a busy CPU does not lower it), in bits per second.
    package let measuredBitRate: Double?
    /// What the container holds, read once at open (a live stream's length indefinite).
    package let description: MediaDescription
    /// True when the container's header described it fully and the open skipped FFmpeg's
    /// stream-info probe (`HeaderStreamInfo`).
    package let describedFromHeader: Bool
    /// How far the container's timestamps start after zero (MPEG-TS and program streams,
    /// MP3 encoder delay), in AV_TIME_BASE units; 0 for containers that start at or before
    /// zero. Packets are shifted back by it so the item timeline starts at zero, as the
    /// asset's duration and track time ranges assume; seeks add it back.
    /// For a streamed input, the offset of the section being read (see Demuxer+Sections.swift).
    var timelineOffset: Int64
    /// owned by the demux thread: how a streamed input's sections map onto the item timeline;
    /// nil for other inputs.
    var sections: SectionState?
    /// owned by the demux thread: the demuxers of the input's companions (HLS audio
    /// renditions) and their packets waiting to be merged in; nil without companions.
    var companions: CompanionState?
    /// For a companion's demuxer: added to its stream indices, so they follow the main
    /// container's (set once by the main demuxer as it opens it).
    var streamIndexBase = 0
    /// owned by the demux thread: how a synthesised input (the built-in demo) seeks; nil for
    /// files and URLs.
    var restart: RestartState?
    /// A streamed input (Playhead's HLS loader) and what to open again on a seek; nil otherwise.
    let streamed: MediaLocation?
    /// owned by the demux thread: a kick cut a read short since the last seek, and the input
    /// must be made ready to read again before the next one (Demuxer+NetworkFailure.swift).
    var readWasCut = false
    /// owned by the demux thread: byte seeks go straight to the protocol until the next packet.
    var seeksDirectly = false
    /// The loader that streams the input, when one does.
    package var streamingInput: (any StreamingInput)? { streamed?.streaming }

    /// Opens `location` and reads its stream information.
    ///
    /// - Parameters:
    ///   - location: the file or URL to open.
    ///   - timeout: seconds each blocking phase (open, stream info, one read) may take.
    ///   - interrupt: abort it from any thread to stop blocking I/O now.
    ///   - limits: the largest pictures, stream count and audio format accepted.
    /// - Throws: the same classified `MediaFailure`s as `MediaInspector.describe`,
    ///   `.notMediaFile` for a container with no streams, and `.limitExceeded` for a container
    ///   that declares more than `limits` allows.
    package init(
        location: MediaLocation, timeout: Double = 15,
        interrupt: InterruptDeadline = InterruptDeadline(), limits: MediaLimits = .standard
    ) throws(MediaFailure) {
        // Only the time spent waiting for bytes: decoding during the probe and waiting for a
        // core on a busy machine say nothing about the connection.
        let transfer = location.isNetwork ? TransferStopwatch() : nil
        let container = try FormatContext(
            location: location, timeout: timeout, interrupt: interrupt)
        if let failure = limits.streamCountViolation(container.streamCount) { throw failure }
        // A local MP4 whose header says everything needs no probe (see HeaderStreamInfo).
        let headerSuffices = HeaderStreamInfo.suffices(for: container, location: location)
        if !headerSuffices, let error = container.findStreamInfo(timeout: timeout, limits: limits) {
            if let failure = container.inputRefusalFailure ?? location.streaming?.failure { throw failure }
            if interrupt.isAborted { throw .cancelled }
            if container.streamCount == 0 {
                throw error.code == FFmpegError.exit ? .timedOut : .damaged(detail: error.detail)
            }
        }
        if interrupt.isAborted { throw .cancelled }
        guard container.streamCount > 0 else { throw .notMediaFile }
        if let failure = limits.violation(of: container) { throw failure }
        guard let scratch = av_packet_alloc() else { throw .io(detail: "out of memory") }
        self.container = container
        self.scratch = scratch
        self.timeout = timeout
        self.isNetwork = location.isNetwork
        self.describedFromHeader = headerSuffices
        let openBytes = location.isNetwork ? Double(interrupt.inputBytesRead) : 0
        let waitedSeconds = max(transfer?.elapsedWaiting ?? 0, 0.001)
        self.measuredBitRate = openBytes > 0 ? openBytes * 8 / waitedSeconds : nil
        let scan = ClosedCaptionScan.scan(
            container, timeout: timeout,
            firstPacketsOf: headerSuffices ? HeaderStreamInfo.streamsNeedingAPacket(container) : [])
        if headerSuffices { HeaderStreamInfo.complete(container, packets: scan.held) }
        heldPackets = scan.held
        var description = MediaInspector.describe(container, timeout: timeout)
        for index in scan.captioned where description.streams.indices.contains(index) {
            description.streams[index].hasClosedCaptions = true
        }
        for index in ClosedCaptionScan.encryptedStreams(in: scan.held) where description.streams.indices.contains(index) {
            description.streams[index].isEncrypted = true
        }
        if let input = location.streaming {
            if input.duration == nil { Self.forgetLength(of: &description) }
            description.formatName = input.formatName
            description.formatLongName = av_find_input_format(input.formatName)
                .flatMap { $0.pointee.long_name }.map { String(cString: $0) } ?? input.formatName
            // Read from the playlist by the loader (libavformat's own HLS reader is not in use).
            let declared = input.declaredRenditions
            description.subtitleRenditions = declared.subtitles
            description.variants = input.declaredVariants
            description.hlsCaptions = declared.captions
            description.sessionData = declared.sessionData
            // The sound the variants carry themselves, when the playlist names it renditions:
            // they name the streams, and the one marked DEFAULT=YES plays.
            let carried = input.carriedRenditions
            let audio = description.streams.indices.filter {
                description.streams[$0].kind == .audio && !description.streams[$0].isAttachedPicture
            }
            if !carried.isEmpty { for index in audio { description.streams[index].isDefault = false } }
            let pairs = CompanionRendition.pairing(carried, withStreamLanguages: audio.map { description.streams[$0].language })
            for (rendition, slot) in zip(carried, pairs) {
                guard let slot else { continue }
                let index = audio[slot]
                description.streams[index].title = rendition.name
                description.streams[index].language = rendition.language ?? description.streams[index].language
                description.streams[index].isDefault = rendition.isDefault
            }
        }
        let start = container.pointer.pointee.start_time
        var offset = start == CFFmpeg_AV_NOPTS_VALUE() || start < 0 ? 0 : start
        if location.inputFormat != nil { restart = RestartState(location: location) }
        streamed = location.streaming == nil ? nil : location
        if let input = location.streaming {
            var state = Self.sectionState(container, opening: input.openingSection, startOffset: offset)
            if let exact = input.openingSection.knownOffset { state.offsets[input.openingSection.timeline] = exact }
            // A companion (an HLS audio rendition) shares the main container's anchor (but
            // packed audio, which counts from zero).
            if !input.openingSection.timesFromZero, let known = input.timelineOffsets?.offset(of: input.openingSection.timeline) {
                state.offsets[input.openingSection.timeline] = known
            }
            // The first section starts at its place on the playlist's timeline (a live stream
            // opens near its window's end).
            offset = state.offsets[input.openingSection.timeline] ?? offset
            // Packed audio's first segment goes where its timestamp places it (the video's
            // clock may put its sound after the first picture), once its first packet came.
            if input.openingSection.timesFromZero { state.announcedPackedStart = input.openingSection.start }
            sections = state
            if !input.openingSection.timesFromZero { input.timelineOffsets?.record(state.offsets) }
        }
        timelineOffset = offset
        description.timestampOrigin = Double(offset) / 1_000_000
        if let input = location.streaming, !input.companions.isEmpty {
            do throws(MediaFailure) {
                let opened = try Self.openCompanions(
                    of: input, location: location, after: description, timeout: timeout, interrupt: interrupt,
                    limits: limits)
                description = opened.description
                companions = opened.state
            } catch {
                // Not a whole demuxer yet: what deinit would free is freed here.
                for packet in scan.held {
                    var owned: UnsafeMutablePointer<AVPacket>? = packet
                    av_packet_free(&owned)
                }
                var owned: UnsafeMutablePointer<AVPacket>? = scratch
                av_packet_free(&owned)
                throw error
            }
        }
        self.description = description
    }

    /// A live stream has no length. What libavformat made of the first segments it read (a
    /// fragmented-MP4 container states the length of the fragments seen so far) is not one:
    /// taken as the length, it capped the buffered range and the seeks of live playback there.
    private static func forgetLength(of description: inout MediaDescription) {
        description.duration = .indefinite
        description.durationIsEstimated = false
        for index in description.streams.indices { description.streams[index].duration = .invalid }
    }

    /// Why the open container is refused under `limits` (a demuxer opened for inspection,
    /// before it is played), or nil.
    package func limitViolation(_ limits: MediaLimits) -> MediaFailure? {
        limits.violation(of: container)
    }

    /// The container's start time on the item timeline's scale (zero when it needs no shift).
    package var timelineStart: CMTime { CMTime(ffmpegMicroseconds: timelineOffset) }

    /// Moves `packet`'s timestamps onto the item timeline.
    private func shiftToItemTimeline(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        guard timelineOffset != 0 else { return }
        let shift = av_rescale_q(timelineOffset, CFFmpeg_AV_TIME_BASE_Q(), timeBase)
        let none = CFFmpeg_AV_NOPTS_VALUE()
        if packet.pointee.pts != none { packet.pointee.pts -= shift }
        if packet.pointee.dts != none { packet.pointee.dts -= shift }
    }

    deinit {
        dropHeldPackets()
        var packet: UnsafeMutablePointer<AVPacket>? = scratch
        av_packet_free(&packet)
        streamed?.streaming?.close()
    }

    /// The last Shoutcast/Icecast metadata packet read with the body (`StreamTitle='…';`);
    /// nil for files and servers that send none.
    package var icyMetadataPacket: String? { isNetwork ? container.icyMetadataPacket : nil }

    /// The switch that makes blocking reads give up; `abort()` it from any thread.
    package var interrupt: InterruptDeadline { container.interrupt }

    /// The index of the stream FFmpeg considers best of `kind` (av_find_best_stream),
    /// never an attached picture; nil when there is none.
    package func bestStream(of kind: StreamKind) -> Int? {
        let type: CFFmpeg.AVMediaType
        switch kind {
        case .video: type = AVMEDIA_TYPE_VIDEO
        case .audio: type = AVMEDIA_TYPE_AUDIO
        case .subtitle: type = AVMEDIA_TYPE_SUBTITLE
        case .data: type = AVMEDIA_TYPE_DATA
        case .attachment: type = AVMEDIA_TYPE_ATTACHMENT
        case .unknown: return nil
        }
        // An HLS stream's audio renditions: the one the playlist marks DEFAULT=YES plays.
        if kind == .audio, companions != nil || streamed?.streaming?.carriedRenditions.isEmpty == false,
            let flagged = description.streams.first(where: { $0.kind == .audio && $0.isDefault && !$0.isAttachedPicture })
        {
            return flagged.index
        }
        let best = av_find_best_stream(container.pointer, type, -1, -1, nil, 0)
        if best >= 0, !isAttachedPicture(Int(best)) { return Int(best) }
        // FFmpeg may prefer cover art when it is the only "video"; look for a real track.
        let own = (0..<container.streamCount).first { index in
            container.stream(at: index)?.pointee.codecpar.pointee.codec_type == type
                && !isAttachedPicture(index)
        }
        return own ?? bestCompanionStream(of: kind)
    }

    /// Makes `readPacket()` return only packets of `indices`; the container skips the rest
    /// (AVDISCARD_ALL) so they cost no I/O where the format allows it.
    package func setActiveStreams(_ indices: Set<Int>) {
        setCompanionsActiveStreams(indices)
        let indices = indices.filter { $0 < container.streamCount }
        activeStreams = indices
        for index in 0..<container.streamCount {
            container.stream(at: index)?.pointee.discard =
                indices.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Reads the next packet of an active stream.
    ///
    /// Blocks for at most `timeout` seconds of I/O. Transient `EAGAIN` results are retried
    /// within that same time (a source that keeps saying "try again" times out); a run of
    /// unreadable packets is skipped before giving up as `.damaged`.
    package func readPacket() -> DemuxResult {
        companions == nil ? readPacket(readingWith: readNextFrame) : readMerged()
    }

    /// How long one read may block: `timeout`, or longer for a streamed input whose loader
    /// tries a stalled request again (its own deadlines bound the wait; a read that gave up
    /// first would fail the item while the retry was under way).
    var readTimeout: Double { max(timeout, streamed?.streaming?.longestWait ?? 0) }

    /// True for an audio or video stream.
    static func isAudioOrVideo(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        let type = stream.pointee.codecpar.pointee.codec_type
        return type == AVMEDIA_TYPE_AUDIO || type == AVMEDIA_TYPE_VIDEO
    }

    /// `av_read_frame` into the scratch packet.
    func readNextFrame() -> Int32 {
        takeHeldPacket(into: scratch) ? 0 : av_read_frame(container.pointer, scratch)
    }

    /// `readPacket()` with `readFrame` standing in for `av_read_frame` (tests drive the retry
    /// rules with it).
    func readPacket(readingWith readFrame: () -> Int32) -> DemuxResult {
        var invalidRun = 0
        // One deadline for the whole read: armed again only after a packet arrived (and was
        // skipped), never by a retry, so retries cannot postpone it forever.
        var armed = false
        while true {
            if !armed {
                container.interrupt.expire(after: readTimeout)
                armed = true
            }
            let status = readFrame()
            if container.interrupt.kickCutRead { readWasCut = true }
            // A read a kick cut short may have produced a packet from part of its bytes (MPEG-TS
            // hands out the PES it was assembling when its input fails): dropped, and the
            // read reported as interrupted; the engine reopens the input just before its run's
            // last packets.
            if status >= 0, container.interrupt.kickCutRead {
                av_packet_unref(scratch)
                return .failure(.timedOut)
            }
            if status >= 0 {
                let index = Int(scratch.pointee.stream_index)
                if sections != nil { applySection(to: scratch) }
                if let activeStreams, !activeStreams.contains(index) {
                    av_packet_unref(scratch)
                    armed = false
                    continue
                }
                guard let stream = container.stream(at: index) else {
                    av_packet_unref(scratch)
                    return .failure(.io(detail: "packet for an unknown stream"))
                }
                // An encrypted sample (no key): decoding it would give noise or nothing.
                if CFFmpeg_packet_is_encrypted(scratch) != 0, Self.isAudioOrVideo(stream) {
                    av_packet_unref(scratch)
                    return .failure(.protectedContent)
                }
                shiftToItemTimeline(scratch, timeBase: stream.pointee.time_base)
                if sections != nil {
                    placePackedSection(scratch, stream: stream)
                    fillMissingAudioTimestamps(scratch, stream: stream)
                    markPastSectionEnd(scratch, timeBase: stream.pointee.time_base)
                }
                scratch.pointee.stream_index += Int32(streamIndexBase)
                if restart != nil, skipsBeforeSeekTarget(scratch, timeBase: stream.pointee.time_base) {
                    av_packet_unref(scratch)
                    armed = false
                    continue
                }
                if seeksDirectly { endDirectSeeks() }
                guard let packet = Packet(movingFrom: scratch, timeBase: stream.pointee.time_base)
                else {
                    av_packet_unref(scratch)
                    return .failure(.io(detail: "out of memory"))
                }
                return .packet(packet)
            }
            if let failure = container.inputRefusalFailure ?? streamed?.streaming?.failure { return .failure(failure) }
            if container.interrupt.isAborted { return .failure(.cancelled) }
            if status == FFmpegError.exit || container.interrupt.hasFired {
                return .failure(.timedOut)
            }
            if status == FFmpegError.tryAgain {
                usleep(1_000)
                continue
            }
            // A dropped connection (after libavformat gave up reconnecting) looks like an
            // early end to most demuxers; over the network it is an error, not the end.
            if let failure = networkReadFailure(status) { return .failure(failure) }
            if status == FFmpegError.endOfFile || avio_feof(container.pointer.pointee.pb) != 0 {
                // A streamed input goes on with its next section, read by a fresh container.
                if streamed != nil, openNextSection() {
                    armed = false
                    continue
                }
                return .endOfFile
            }
            if let io = container.pointer.pointee.pb, io.pointee.error < 0 {
                return .failure(.io(detail: FFmpegError(code: io.pointee.error).description))
            }
            invalidRun += 1
            if invalidRun > 64 {
                return .failure(.damaged(detail: FFmpegError(code: status).description))
            }
        }
    }

    private func isAttachedPicture(_ index: Int) -> Bool {
        guard let stream = container.stream(at: index) else { return false }
        return (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0
    }
}
