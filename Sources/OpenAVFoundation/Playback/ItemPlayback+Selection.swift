// Playhead: the engine side of media selection: which audio stream plays, which subtitles
// are decoded, and loading subtitle files; the subtitle thread, which also delivers timed
// metadata.
//
// Concurrency: `select...` commands come from any thread (the item forwards them); they are
// posted to the coordinator, which changes the selection and wakes threads. The demux thread
// carries out the switch (StreamRouter); for an audio track read on demand the caller also
// nudges the loaders and the packet queues (both lock internally, never wait) so the demux
// thread comes round at once, and parks the playing track's input when its server stalls it
// (the switchboard's lock, then the loader's), which ends the demux thread's read of it. Subtitle files are read on a global queue into the pipeline's
// cue store, an HLS WebVTT rendition on a `playhead.vtt` thread of its own that owns its
// reader and ends when the selection changes or the item stops; captions in the pictures come
// from the video thread through the caption backlog, which `loadLegible` (in the
// coordinator's section) starts or stops feeding the store.
// The subtitle thread alone reads the cue and metadata stores for delivery and owns its
// `MetadataDelivery`; it reports through `report`, never touching the item.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// The audio stream to open: the selected one when it can be decoded, else FFmpeg's best.
    func preferredAudioStream(_ demuxer: Demuxer) -> Int? {
        let wanted = coordinator.read { $0.selection.audioStream }
        if let wanted,
            demuxer.description.tracks.contains(where: {
                $0.index == wanted && $0.kind == .audio && $0.decoderAvailable
            })
        {
            return wanted
        }
        return demuxer.bestStream(of: .audio)
    }

    /// Decoders for the audio tracks that may be selected later (open work, before the threads
    /// start); tracks whose decoder cannot open are left out and cannot be switched to.
    func openSwitchableAudioDecoders(_ demuxer: Demuxer, _ streams: Set<Int>) -> [Int: AudioDecoder]
    {
        var decoders: [Int: AudioDecoder] = [:]
        for index in streams {
            decoders[index] = try? AudioDecoder(demuxer: demuxer, streamIndex: index)
        }
        return decoders
    }

    /// Plays the audio stream `streamIndex` from now on (spliced in at the playhead). An HLS
    /// audio rendition starts loading when the demux thread next comes round, which may be
    /// waiting at the read frontier for the next segment (the loaders fetch it at once) or for
    /// room in a full packet queue (paused, its packet goes in over the limit), so the new
    /// sound is ready even before play resumes. A playing rendition whose server stalls its
    /// next segment is left once its reader has waited a second for it (not read again), so
    /// the switch does not wait for the stalled request.
    func selectAudio(streamIndex: Int) {
        post(.selectAudio(streamIndex))
        guard let pipeline, pipeline.switchboard.isOnDemand(streamIndex) else { return }
        // A track stalled on its server is not waited for.
        pipeline.switchboard.leaveAudioWhenStarved(for: streamIndex)
        streamLoader.withLock { $0 }?.fetchNextSegmentNow()
        pipeline.audioPackets.admitWaitingProducers()
        pipeline.videoPackets.admitWaitingProducers()
    }

    /// Shows subtitles from `source` (nil: none) from now on.
    func selectLegible(_ source: MediaOptionSource?) {
        post(.selectLegible(source))
    }

    /// Applies the legible selection made before the pipeline existed.
    func applyInitialLegibleSelection(_ pipeline: Pipeline) {
        let (source, version) = coordinator.read { ($0.selection.legible, $0.selection.legibleVersion) }
        loadLegible(source, version: version, into: pipeline)
    }

    /// Empties the cue store for `version` and reads a subtitle file in the background, or
    /// starts the caption backlog feeding it (captions in the video's pictures). For an
    /// embedded track the demux thread resets the store (with the track's styles) and decodes
    /// its packets as they arrive.
    func loadLegible(_ source: MediaOptionSource?, version: Int, into pipeline: Pipeline) {
        let store = pipeline.switchboard.cues
        let captions = pipeline.switchboard.captions
        if source?.streamIndex != nil {
            captions.feed(version: nil)
            return
        }
        store.reset(version: version, header: nil)
        // Captions in the pictures: the screens the video thread decoded, then each new one.
        guard case .sidecar(let url) = source else {
            var isCaptions = false
            if case .closedCaptions = source { isCaptions = true }
            captions.feed(version: isCaptions ? version : nil)
            return
        }
        captions.feed(version: nil)
        let timeout = asset.inspection.limits.timeout
        let knownPlaylist = streamLoader.withLock { $0?.subtitlePlaylists[url.absoluteString] }
        // (An HLS master's subtitle renditions are playlists, whatever their URLs end in.)
        let isHLSRendition = pipeline.description.formatName == "hls"
            && pipeline.description.subtitleRenditions.contains { $0.url == url.absoluteString }
        if url.pathExtension.lowercased() == "m3u8" || knownPlaylist != nil || isHLSRendition {
            let backups = pipeline.description.subtitleRenditions.first { $0.url == url.absoluteString }?.backupURLs
                .compactMap(URL.init(string:)) ?? []
            loadSubtitleRendition(
                url, backups: backups, knownPlaylist: knownPlaylist, version: version,
                origin: pipeline.description.timestampOrigin, into: store)
            return
        }
        // A rendition a remote stream names keeps to the stream's rules; a file the app gave
        // is read as given.
        let location = try? asset.inspection.location.get()
        let named = pipeline.description.subtitleRenditions.contains { $0.url == url.absoluteString }
        let rules = named && (location?.isNetwork ?? true)
            ? SubtitleFileLoading.StreamRules(
                network: location?.network ?? NetworkOptions(), secure: location?.requiresTLS ?? true)
            : nil
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(MediaFailure) {
                let contents = try SubtitleFileLoading.read(url, timeout: timeout, stream: rules)
                store.setHeader(contents.assHeader, isStyled: contents.isStyled, version: version)
                store.add(contents.events, version: version)
            } catch {
                // An unreadable subtitle file shows nothing; playback goes on.
            }
        }
    }

    /// Reads an HLS WebVTT rendition (or a DASH text set of segments, whose playlist is
    /// `knownPlaylist`) segment by segment on a thread of its own, following a live playlist
    /// for as long as the rendition stays selected and the item plays; `backups`: its copies
    /// on other servers, read when it fails.
    private func loadSubtitleRendition(
        _ url: URL, backups: [URL], knownPlaylist: KnownSubtitleSegments?, version: Int, origin: Double,
        into store: SubtitleCueStore
    ) {
        let location = try? asset.inspection.location.get()
        let network = location?.network ?? NetworkOptions()
        let remote = location?.isNetwork ?? true, secure = location?.requiresTLS ?? true
        let timeout = asset.inspection.limits.timeout
        let (log, offsets, imports) = streamLoader.withLock { ($0?.log, $0?.timelineOffsets, $0?.playlistImports) }
        store.setHeader(nil, version: version)
        NamedThread.start("vtt") { [self] in
            let reader = HLSSubtitleReader(
                playlist: url, network: network, timeout: timeout, origin: origin, remote: remote, secure: secure,
                log: log, timelineOffsets: offsets, imports: imports ?? [:], knownPlaylist: knownPlaylist, backups: backups)
            let clock = environment.hostClock
            reader.run(
                deliver: { store.add($0, version: version) },
                isWanted: { !self.isStopped && self.coordinator.read { $0.selection.legibleVersion } == version },
                playhead: {
                    let time = self.coordinator.read { $0.itemTime(atHost: clock.now) }
                    return time.isNumeric ? time.seconds : nil
                })
        }
    }

    /// The subtitle thread: reports the cues showing whenever they change, at their times, and
    /// the timed metadata groups as playback reaches them.
    func runSubtitles(_ pipeline: Pipeline) {
        let store = pipeline.switchboard.cues
        let clock = environment.hostClock
        var shown: [AVSubtitleCue] = []
        var metadata = MetadataDelivery(store: pipeline.switchboard.metadata)
        while !isStopped {
            let now = clock.now
            let (rate, generation, time) = coordinator.read { ($0.rate, $0.generation, $0.itemTime(atHost: now)) }
            // Held back until the item's tracks are out (`reportOpened`), so a group at the very
            // start names its track too.
            if openedReported.load(ordering: .acquiring),
                let (groups, flushed) = metadata.due(at: time, generation: generation)
            {
                report(.timedMetadata(groups, flushed: flushed))
            }
            let active = store.cues(at: time)
            if active != shown {
                shown = active
                // Reported at the cue edge that made the change (the thread may wake a little
                // after it), as Apple reports the cue's own time.
                report(.legible(active, time: store.lastChange(atOrBefore: time) ?? time))
            }
            // Paused, nothing is due: seeks, new cues, rate changes and stop wake the thread.
            var wait = rate > 0 ? 0.25 : .infinity
            if rate > 0, let next = [store.nextChange(after: time), metadata.nextStart(after: time)].compactMap({ $0 }).min() {
                wait = min(wait, max(0.001, (next - time).seconds / rate))
            }
            sleep(until: wait.isFinite ? now + wait : .infinity, on: store.changed)
        }
    }
}
