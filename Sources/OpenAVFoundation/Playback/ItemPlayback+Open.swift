// Playhead: opening an item: demuxer, decoders, audio output, then the threads.
//
// Concurrency: `open()` runs once on a global queue (files) or a thread of its own (network
// media, whose open may block until the time-out). It creates the FFmpeg objects and hands
// each to the thread that will own it; nothing here touches them afterwards. `stop()` may
// abort its blocking I/O at any time through `interrupt`.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Opens the media; reports `.opened` (after the item's keys load) or `.failed`.
    func open() {
        let location: MediaLocation
        switch asset.inspection.location {
        case .success(let found): location = found
        case .failure(let failure): return report(.failed(failure, duringPlayback: false))
        }
        let demuxer: Demuxer
        var programDates: ProgramDateMap?
        if let opened = asset.inspection.takeOpenedMedia() {
            // The app loaded the asset's keys first: play from that open instead of opening
            // (and, over the network, fetching playlists and first segments) a second time.
            adoptInterrupt(opened.interrupt)
            if let failure = opened.demuxer.limitViolation(.standard) {
                return report(.failed(failure, duringPlayback: false))
            }
            demuxer = opened.demuxer
            programDates = opened.programDates
        } else {
            do throws(MediaFailure) {
                // `interrupt` is aborted by stop(), so a release never waits for a slow server.
                // (The session data's documents serve the asset's metadata: read only when this
                // open's description is the one the asset will take.)
                // The item's caps pick the start variant (its first segments obey them too).
                let open = try StreamedOpen.demuxer(
                    for: location, timeout: asset.inspection.limits.timeout, interrupt: interrupt,
                    readsSessionDocuments: !asset.inspection.hasStarted, caps: variantCaps)
                demuxer = open.demuxer
                programDates = open.programDates
            } catch {
                return report(.failed(error, duringPlayback: false))
            }
            asset.inspection.offer(demuxer.description)
        }
        guard !isStopped else { return }

        let description = demuxer.description
        var videoStream = environment.decodesVideo ? demuxer.bestStream(of: .video) : nil
        var audioStream = preferredAudioStream(demuxer)
        if let variant = VariantChoice.choose(
            among: description.streams, measuredBitRate: demuxer.measuredBitRate,
            peakBitRate: variantCaps.peakBitRate)
        {
            if environment.decodesVideo, let index = variant.videoStream { videoStream = index }
            // The variant's own audio, unless the app selected an audio option itself.
            let selected = coordinator.read { $0.selection.audioStream }
            if selected == nil, let index = variant.audioStream { audioStream = index }
            post(.variantChosen(bitRate: variant.bitRate))
        }
        var videoDecoder: VideoDecoder?
        var audioDecoder: AudioDecoder?
        var unsupported: [String] = []
        if let index = videoStream {
            do throws(MediaFailure) { videoDecoder = try VideoDecoder(demuxer: demuxer, streamIndex: index) } catch {
                unsupported.append(description.streams[index].codecName)
                videoStream = nil
            }
        }
        // Without an audio output the audio is not decoded, unless it is all there is: then it
        // still drives the clock, silently, so the item plays for its length.
        let silentAudio = environment.makeAudioOutput == nil
        let hasVideoTrack = demuxer.bestStream(of: .video) != nil
        if silentAudio && hasVideoTrack { audioStream = nil }
        if let index = audioStream {
            do throws(MediaFailure) { audioDecoder = try AudioDecoder(demuxer: demuxer, streamIndex: index) } catch {
                unsupported.append(description.streams[index].codecName)
                audioStream = nil
            }
        }
        guard videoStream != nil || audioStream != nil else {
            let hasAV = description.tracks.contains { $0.kind == .audio || $0.kind == .video }
            let failure: MediaFailure =
                unsupported.isEmpty && !hasAV ? .noAudioOrVideo : .unsupportedCodec(codecs: unsupported)
            return report(.failed(failure, duringPlayback: false))
        }
        let router = StreamRouter(description: description, audioStream: audioStream)
        demuxer.setActiveStreams(router.activeStreams(video: videoStream, audio: audioStream))
        // HLS audio renditions other than the one playing load only once selected (before the
        // loaders are activated and would fetch ahead).
        if let audioStream { demuxer.loadCompanions(holding: [audioStream], from: .zero) }
        adoptStreamLoader(of: demuxer)
        // A stream libavformat reads: the date ranges its media playlist had at open.
        if streamLoader.withLock({ $0 == nil }), let ranges = programDates?.dateRanges, !ranges.isEmpty {
            report(.dateRanges(ranges))
        }
        let otherAudio = openSwitchableAudioDecoders(demuxer, router.audioStreams.subtracting([audioStream].compactMap { $0 }))

        guard
            let pipeline = launch(
                WorkerParts(
                    description: description, source: demuxer,
                    video: videoStream.flatMap { index in videoDecoder.map { (index, $0) } },
                    audio: audioDecoder, otherAudio: otherAudio),
                silentAudio: silentAudio, isNetwork: location.isNetwork)
        else { return }
        let opened = openedMedia(
            description, videoStream: pipeline.videoStream, audioStream: pipeline.audioStream, dates: programDates)
        let keys = settings.automaticallyLoadedKeys
        asset.loadValuesAsynchronously(forKeys: keys) { [self] in
            for key in keys {
                var error: NSError?
                if asset.statusOfValue(forKey: key, error: &error) == .failed {
                    // A key the engine itself could open cannot fail for media reasons; report
                    // it as the loading error it is.
                    return report(.failed(.io(detail: error?.localizedDescription ?? key), duringPlayback: false))
                }
            }
            reportOpened(opened, pipeline: pipeline)
            updateAudioOutput()
        }
    }

    private func openedMedia(
        _ description: MediaDescription, videoStream: Int?, audioStream: Int?, dates: ProgramDateMap?
    ) -> OpenedMedia
    {
        let assetTracks = (try? asset.loadedContents().tracks) ?? []
        let tracks = assetTracks.map { track in
            let index = description.streams.first { $0.trackID == track.trackID }?.index
            return AVPlayerItemTrack(
                assetTrack: track, isEnabled: index != nil && (index == videoStream || index == audioStream))
        }
        var size = CGSize.zero
        if let videoStream, let track = assetTracks.first(where: {
            $0.trackID == description.streams[videoStream].trackID
        }) {
            let turned = track.rotationDegrees % 180 != 0
            size = turned
                ? CGSize(width: track.naturalSize.height, height: track.naturalSize.width) : track.naturalSize
        }
        var seekable = description.duration.isNumeric
            ? [CMTimeRange(start: .zero, duration: description.duration)] : []
        var duration = description.duration
        var liveOffset: CMTime?
        // A live HLS stream has no length; what can be sought is its window.
        if let loader = streamLoader.withLock({ $0 }), let window = loader.liveWindow {
            duration = .indefinite
            seekable = [Self.timeRange(window)]
            liveOffset = loader.recommendedLiveOffset.map { CMTime(seconds: $0, preferredTimescale: 1000) }
        }
        return OpenedMedia(
            duration: duration, presentationSize: size, tracks: tracks,
            seekableRanges: seekable, streamingLog: streamLoader.withLock { $0 }?.log, programDates: dates,
            recommendedLiveOffset: liveOffset,
            playlistStart: streamLoader.withLock { $0 }?.startTarget(
                duration: description.duration.isNumeric ? description.duration.seconds : nil))
    }

    /// `window` (seconds) as a time range.
    static func timeRange(_ window: ClosedRange<Double>) -> CMTimeRange {
        CMTimeRange(
            start: CMTime(seconds: window.lowerBound, preferredTimescale: 1000),
            end: CMTime(seconds: window.upperBound, preferredTimescale: 1000))
    }

    /// The item's variant limits and start rule as they are now.
    private var variantCaps: VariantAdaptation.Caps { settings.currentVariantCaps() }

    /// Takes over Playhead's HLS loader when it streams `demuxer`'s input: the full buffer
    /// ahead, the item's caps, and its log entries sent up as notifications.
    private func adoptStreamLoader(of demuxer: Demuxer) {
        guard let loader = demuxer.streamingInput as? HLSStreamLoader else { return }
        streamLoader.withLock { $0 = loader }
        loader.log.setNewEntryHandler { [weak self] entry in self?.report(.streamingLogEntry(entry)) }
        loader.setDateRangeHandler { [weak self] ranges in self?.report(.dateRanges(ranges)) }
        if loader.isLive {
            loader.setWindowHandler { [weak self, weak loader] window, dates in
                let offset = CMTime(seconds: loader?.recommendedLiveOffset ?? 0, preferredTimescale: 1000)
                self?.report(.liveWindow(Self.timeRange(window), recommendedOffset: offset, dates: dates))
            }
        }
        loader.activate(
            caps: variantCaps,
            bufferAhead: settings.preferredForwardBuffer > 0 ? settings.preferredForwardBuffer : nil,
            playhead: { [weak self] in self.map { $0.currentTime().seconds }.flatMap { $0.isFinite ? $0 : nil } },
            playbackRate: { [weak self] in self?.coordinator.read { $0.rate != 0 ? $0.rate : $0.upcomingRate } ?? 1 })
        // Caps the app set while the loader was being taken over reached it before `activate`
        // replaced them: read them again.
        loader.setCaps(variantCaps)
        if let bandwidth = loader.playingBandwidth ?? loader.variants.first?.bandwidth, bandwidth > 0 {
            post(.variantChosen(bitRate: bandwidth))
        }
    }
}
