// Playhead: Playhead's own HLS loader for multivariant streams, VOD or live, of MPEG-TS or
// fragmented MP4 (`EXT-X-MAP`) segments, clear or AES-128 encrypted (decrypted through
// FFmpegBridge's libavutil AES). It fetches the segments itself, one variant per segment chosen
// by `VariantAdaptation` from the measured throughput and the media buffered ahead, and hands
// their bytes in order to libavformat's own demuxers (through FFmpegBridge's `StreamingInput`).
// A variant switch lands on a segment boundary: an MPEG-TS demuxer reads the new variant's
// segment right after the old one's, and the decoder follows the new parameters at its first
// keyframe. The bytes come in sections, each read by a fresh container: a new section starts
// at an `EXT-X-DISCONTINUITY` (timestamps start again), at a new initialisation section, and
// at every switch between fragmented-MP4 variants; it begins with its initialisation section
// (fetched once per map and kept). A static DASH manifest is streamed by the same loader, its
// Representations' segments given as media playlists (StreamedOpen+DASH.swift). Live
// playlists and date ranges: HLSStreamLoader+Live.swift; the schedule:
// HLSStreamLoader+Scheduling.swift; the demux thread's side: HLSStreamLoader+Reading.swift;
// content steering's pathways: HLSStreamLoader+Pathways.swift; trick play's keyframes
// from I-frame playlists: HLSStreamLoader+Keyframes.swift; what an engine calls when it takes
// the stream: HLSStreamLoader+Activation.swift. Variants are chosen for the rate of play the
// engine reports (`playbackRate`; negative while playing backward).
//
// Concurrency: all mutable state is in `state` (the timeline included), guarded by `condition`
// (an NSCondition): the loader thread appends chunks, reloads live playlists and waits while
// the buffer is full; the demux thread reads chunks and waits while none is there; `restart`,
// `close` and the caps may be called from any thread. The estimator, the adaptation rule, the
// playlists, keys and initialisation sections fetched (and why the last section failed) are
// the loader thread's alone; the window and date range handlers are set under `condition` and
// called on the loader thread without it; so are the `playhead` and `playbackRate` readers
// and the steering client (its own thread; it hands rankings in through `steer`, under
// `condition`). The sources each variant has on cloned pathways and the pathways given up on
// are the loader thread's. `leading` (a leaf lock) carries the variants'
// loader's choices to the loaders of audio renditions in tiers, whose threads read it.
// Nothing here blocks on the network except the loader thread.
import FFmpegBridge
import Foundation

/// Streams a multivariant HLS playlist with adaptation; see the file comment.
final class HLSStreamLoader: StreamingInput, @unchecked Sendable {
    /// Seconds of media fetched ahead of the demuxer before the loader waits.
    static let bufferAhead = 30.0
    /// Attempts at one segment before the stream fails (network errors) or skips it (HTTP errors).
    static let attempts = 3

    let probeName: String
    /// The file extension of its segments when they are packed audio ("aac", "mp3", "ac3",
    /// "ec3": raw frames, each segment led by an ID3 tag), whose containers count time from
    /// zero at every section.
    let packedAudio: String?
    /// The FFmpeg name of the format the user's input is in: "hls", or "dash" for a DASH
    /// manifest streamed through this loader.
    let formatName: String
    /// True when the steering server's first ranking came with the open: applied before the
    /// first request, moving nothing away from a pathway that was used.
    let startsSteered: Bool
    /// The playlist's length for VOD; nil for a live playlist (even once it ends).
    let duration: Double?
    /// True when the playlist was live (no `EXT-X-ENDLIST`) when opened.
    let isLive: Bool
    let openingSection: StreamingSection
    /// The variants, ascending by bandwidth, with the media playlist of each once loaded.
    let variants: [HLSVariant]
    var playlists: [HLSMediaPlaylist?]
    /// The backup each variant failed over to, by index into its `backups` (the loader thread's).
    var backupInUse: [Int: Int] = [:]
    /// Content steering (the loader thread's; HLSStreamLoader+Pathways.swift): the sources
    /// (0 its own URI, N its backup N - 1) each variant tried since it last moved, the
    /// pathways given up on for a while after failing, and the ranking applied last.
    var triedSources: [Int: Set<Int>] = [:]
    var pathwayPenalties: [String: Date] = [:]
    var appliedPriorityVersion = 0
    /// Each variant's sources on pathways a steering server cloned, after its backups.
    var clonedSources: [Int: [ClonedSource]] = [:]
    /// The steering client, started when an engine takes the stream (guarded by `condition`;
    /// set once, by `steerBy`, before the stream is opened).
    var steering: HLSContentSteering?
    /// Where a live DASH manifest said it is read from now (`Location`; the loader thread's).
    var relocation: URL?
    /// The playlists of variants' backups already known, by variant, one per backup (a DASH
    /// manifest's copies on its other locations: DASHBaseURLs.swift); a backup without one is
    /// read from its URI.
    let knownBackupPlaylists: [Int: [HLSMediaPlaylist]]
    /// The variants' own playlists known from the start (a DASH manifest's), taken again when a
    /// variant returns to its own source (content steering).
    let knownOwnPlaylists: [Int: HLSMediaPlaylist]
    /// AES-128 keys fetched so far, by URL (the loader thread's).
    var keys: [URL: Data] = [:]
    /// Initialisation sections fetched so far (the loader thread's; a few variants' worth).
    var initialisations: [HLSMap: Data] = [:]
    /// Why the last initialisation section could not be loaded (the loader thread's).
    var initialisationFailure: String?
    let fetcher: HTTPFetcher
    let secure: Bool
    let limits: (playlist: Int, segment: Int)
    let timeout: Double
    /// The longest a restart for one keyframe waits for the loader thread to read the I-frame
    /// playlist (then the segment path serves it): `NetworkOptions.keyframePlaylistWait`.
    let keyframePlaylistWait: Double
    private let server: String
    let condition = NSCondition()
    /// Guarded by `condition`.
    var state: State
    /// The item time playing (set once on activation, under `condition`; called by the loader
    /// thread without the lock held).
    var playhead: (@Sendable () -> Double?)?
    /// The rate the media plays at (negative backward), or will when play resumes (set once on
    /// activation, under `condition`; called by the loader thread without the lock held). Nil: 1.
    var playbackRate: (@Sendable () -> Double)?
    /// Called on the loader thread with a live playlist's window and its dates (nil: not
    /// dated) after every reload (set once on activation, under `condition`).
    var windowHandler: (@Sendable (ClosedRange<Double>, ProgramDateMap?) -> Void)?
    /// Called on the loader thread with the date ranges of every live reload (set once on
    /// activation, under `condition`); `startDateRanges` are those of the playlist opened.
    var dateRangeHandler: (@Sendable ([HLSDateRange]) -> Void)?
    let startDateRanges: [HLSDateRange]
    /// The access and error logs, appended by the loader thread.
    let log: StreamingLog
    /// The subtitle and caption renditions the multivariant playlist declares.
    let declaredRenditions: DeclaredRenditions
    /// The segments of subtitle renditions known at open (a DASH manifest's segmented text
    /// AdaptationSets), by the rendition's URL.
    let subtitlePlaylists: [String: KnownSubtitleSegments]
    /// Every variant the multivariant playlist lists, ascending, when the loader adapts over
    /// fewer (audio-only variants beside video ones: HLSAudioOnlyVariants.swift); what
    /// `AVAsset.variants` offers.
    let listedVariants: [HLSVariant]?
    /// The variables of the multivariant playlist its media playlists may import
    /// (`EXT-X-DEFINE:IMPORT`), for every reload.
    let playlistImports: [String: String]
    /// Where the demuxer anchored each discontinuity sequence (the WebVTT reader places cues by
    /// it); one table for the stream and its audio renditions, which share the anchors.
    let timelineOffsets: TimelineOffsets?
    /// For the loader of an audio rendition: the rendition (nil: the variants' loader).
    let rendition: CompanionRendition?
    /// For the loader of an audio rendition in tiers: which of its variants (the rendition's
    /// versions) plays with the variants' loader's choice (AudioTiers.swift).
    let tiers: AudioTierFollowing?
    /// For the variants' loader: its latest choice, which renditions in tiers follow.
    let leading = Locked(LeadingChoice())
    /// For the variants' loader: the audio rendition the variants' own bytes carry (one
    /// listed without a URI), when the playlist names one.
    let carriedRenditions: [CompanionRendition]
    /// Where the playlists ask playback to start (`EXT-X-START`), when they do.
    let startPoint: HLSStartPoint?
    /// Reads a variant's playlist from the bytes fetched from its URL (and the URL they came
    /// from, the variant's index and which of its sources was read: 0 for its own URI, N for
    /// its backup N - 1): a live DASH manifest's, read again for every reload (DASHLive.swift);
    /// nil: an HLS media playlist.
    let playlistReader: PlaylistReader?

    /// See ``playlistReader``.
    typealias PlaylistReader = @Sendable (_ data: Data, _ url: URL, _ variant: Int, _ source: Int) -> HLSMediaPlaylist?
    /// The loaders of the audio renditions read beside the variants (set once, before the
    /// stream is opened; guarded by `condition`).
    var renditionLoaders: [HLSStreamLoader] = []
    /// The I-frame playlists backward play takes its keyframes from (HLSStreamLoader+Keyframes.swift).
    let keyframeSource: HLSKeyframeSource

    /// A loader over `multivariant`, whose variant `startVariant` (an index into its sorted
    /// variants) already has `startPlaylist` loaded (and the variants of `knownPlaylists`
    /// theirs: a DASH manifest lists every Representation's segments at once).
    init(
        variants: [HLSVariant], startVariant: Int, startPlaylist: HLSMediaPlaylist, fetcher: HTTPFetcher,
        secure: Bool, options: NetworkOptions, timeout: Double, caps: VariantAdaptation.Caps, log: StreamingLog,
        initialEstimate: Double, renditions: DeclaredRenditions = DeclaredRenditions(),
        rendition: CompanionRendition? = nil, tiers: AudioTierFollowing? = nil,
        carrying carriedRenditions: [CompanionRendition] = [], startPoint: HLSStartPoint? = nil, timelineOffsets: TimelineOffsets = TimelineOffsets(),
        knownPlaylists: [Int: HLSMediaPlaylist] = [:], knownBackupPlaylists: [Int: [HLSMediaPlaylist]] = [:],
        formatName: String = "hls", playlistImports: [String: String] = [:], playlistReader: PlaylistReader? = nil,
        iFrameVariants: [HLSIFrameVariant] = [], subtitlePlaylists: [String: KnownSubtitleSegments] = [:],
        listedVariants: [HLSVariant]? = nil, steeredBy firstRanking: HLSSteeringManifest? = nil
    ) {
        self.subtitlePlaylists = subtitlePlaylists
        self.listedVariants = listedVariants
        keyframeSource = HLSKeyframeSource(variants: iFrameVariants)
        self.knownBackupPlaylists = knownBackupPlaylists
        knownOwnPlaylists = knownPlaylists
        self.formatName = formatName
        self.playlistReader = playlistReader
        self.playlistImports = playlistImports
        startDateRanges = startPlaylist.dateRanges
        self.startPoint = startPoint
        declaredRenditions = renditions
        self.rendition = rendition
        self.tiers = tiers
        self.carriedRenditions = carriedRenditions
        self.timelineOffsets = timelineOffsets
        self.variants = variants
        playlists = Array(repeating: nil, count: variants.count)
        for (index, playlist) in knownPlaylists where playlists.indices.contains(index) { playlists[index] = playlist }
        playlists[startVariant] = startPlaylist
        isLive = !startPlaylist.isEnded
        relocation = startPlaylist.relocation
        duration = isLive ? nil : startPlaylist.duration
        let timeline = HLSLiveTimeline(startPlaylist)
        state = State(timeline: timeline)
        state.pathway = variants[startVariant].pathway
        // The first ranking (and the pathways it clones) is in place before the thread's first
        // job, which applies it before it asks for anything.
        startsSteered = firstRanking != nil
        if let firstRanking {
            state.pathwayPriority = firstRanking.priority
            state.pathwayClones = firstRanking.clones
            state.priorityVersion = 1
        }
        packedAudio = startPlaylist.packedAudioExtension
        probeName = packedAudio.map { "stream.\($0)" } ?? (startPlaylist.initialisation == nil ? "stream.ts" : "stream.mp4")
        // A live stream starts its hold-back (or three target durations) before the window's end.
        let firstIndex = isLive ? timeline.liveEdgeIndex : 0
        let first = timeline.segments.indices.contains(firstIndex) ? timeline.segments[firstIndex] : nil
        openingSection = StreamingSection(
            timeline: first?.discontinuitySequence ?? 0, start: first?.start ?? 0, mediaStart: first?.mediaStart,
            end: first?.sectionEnd, timesFromZero: packedAudio != nil)
        if isLive {
            state.nextSegment = firstIndex
            state.readPosition = first?.start ?? 0
            state.fetchedEnd = state.readPosition
            state.nextReload = Date(timeIntervalSinceNow: timeline.reloadInterval(changed: true))
        }
        self.fetcher = fetcher
        self.secure = secure
        limits = (options.maximumPlaylistBytes, options.maximumSegmentBytes)
        self.timeout = timeout
        keyframePlaylistWait = options.keyframePlaylistWait
        server = HLSStreamLoader.serverKey(variants[startVariant].url)
        state.caps = caps
        self.log = log
        let thread = Thread { [self] in run(initialEstimate: initialEstimate, startVariant: startVariant) }
        thread.name = "playhead.hls-loader"
        thread.start()
    }

    // MARK: The loader thread

    private func run(initialEstimate: Double, startVariant: Int) {
        var estimator = ThroughputEstimator(initial: initialEstimate)
        var adaptation = VariantAdaptation(
            candidates: variants.map {
                .init(bandwidth: $0.bandwidth, averageBandwidth: $0.averageBandwidth, width: $0.width, height: $0.height)
            })
        var current = startVariant
        if rendition == nil { leading.withLock { $0.variant = current } }
        var fetched = 0
        var failures = 0
        // Variants whose playlist could not be loaded are not tried again.
        var unusable = Set<Int>()
        // What the last chunk delivered was (a new generation starts a new section anyway).
        var last: (generation: Int, section: Int, variant: Int, map: HLSMap?, timeline: Int)?
        var sections = 0
        while let job = nextJob(readAhead: { full, caps in
            if let tiers { return tiers.readAhead(full: full) }
            let ahead = adaptation.readAhead(current: current, caps: caps, full: full, unusable: unusable)
            leading.withLock { $0.readAhead = ahead }
            return ahead
        }) {
            applySteeringIfChanged()
            if job.readsKeyframes {
                // (The variant the open started on may be one the caps leave out, when no
                // segment was fetched yet: the I-frames are for the one that will play.)
                let allowed = adaptation.allowed(under: job.caps)
                loadKeyframes(for: allowed.contains(current) ? current : allowed.last ?? current)
                continue
            }
            if let announced = job.keyframeRestart,
                serveKeyframe(announced, for: job, variant: current, sections: &sections)
            {
                last = nil
                continue
            }
            guard let segment = job.piece else {
                reload(variant: current)
                continue
            }
            var choice = current
            // A rendition in tiers takes the version playing with the variant chosen; before an
            // engine takes the stream (and its caps), the variants stay on the start variant.
            if let tiers {
                choice = tiers.tier(for: segment.start..<(segment.start + segment.duration), live: isLive, current: current)
            } else if fetched > 0, job.activated {
                choice = adaptation.nextIndex(
                    current: current, estimate: estimator.estimate, recentEstimate: estimator.recent,
                    latestRate: estimator.latest, buffered: job.buffered,
                    segmentDuration: segment.duration, caps: job.caps, startingUp: fetched < 4, rate: job.rate)
            } else if !adaptation.allowed(under: job.caps).contains(current) {
                choice = adaptation.allowed(under: job.caps).last { $0 < current } ?? 0
            }
            if unusable.contains(choice) { choice = current }
            if choice != current, mediaPlaylist(choice, holding: segment.sequence) == nil {
                unusable.insert(choice)
                choice = current
            }
            guard var piece = piece(of: choice, for: segment) else {
                // A live segment no variant lists any more (or yet) is passed over.
                if isLive {
                    skip(job)
                    continue
                }
                if isCurrent(job.generation) { fail(.io(detail: "no variant playlist could be loaded")) }
                continue
            }
            // A gap (EXT-X-GAP) is taken from the nearest variant that has media there; where
            // none has, nothing is requested and the engine plays across the hole.
            if piece.isGap {
                guard let fill = gapFill(for: segment, choice: choice, allowed: adaptation.allowed(under: job.caps),
                    unusable: unusable)
                else {
                    skip(job)
                    continue
                }
                (choice, piece) = fill
            }
            if choice != current, rendition == nil { log.switched(to: variants[choice], estimate: estimator.estimate) }
            current = choice
            if rendition == nil {
                leading.withLock { $0.chose(current, for: segment.start..<(segment.start + segment.duration)) }
            }
            // A fresh container reads on after a restart, a discontinuity, a new initialisation
            // section or a switch between fragmented-MP4 variants; it needs the section first.
            let startsSection =
                last.map {
                    $0.generation != job.generation || $0.timeline != segment.discontinuitySequence
                        || $0.map != piece.map || ($0.variant != choice && piece.map != nil)
                } ?? true
            var header = Data()
            if startsSection, let map = piece.map {
                guard let bytes = initialisation(map, variant: choice) else {
                    skip(job, because: "initialisation section: \(initialisationFailure ?? "could not be read")")
                    continue
                }
                header = bytes
            }
            let allowed = adaptation.allowed(under: job.caps)
            let expected = Int(adaptation.candidates[choice].plannedRate * piece.duration / 8)
            var progress = (received: 0, elapsed: 0.0)
            let result = fetcher.fetch(
                piece.url, range: piece.byteRange, secure: secure, limit: limits.segment, timeout: timeout
            ) { received, elapsed in
                progress = (received, elapsed)
                if !self.isCurrent(job.generation) { return .cancelled }
                // A rendition in tiers changes version only with the variants.
                return self.tiers == nil && adaptation.shouldAbandon(
                    index: choice, allowed: allowed, elapsed: elapsed, received: received, expected: expected,
                    buffered: job.buffered / job.rate - elapsed, segmentDuration: piece.duration) ? .abandoned : nil
            }
            switch result {
            case .success(let resource):
                failures = 0
                fetched += 1
                estimator.add(bytes: resource.data.count, seconds: resource.seconds, mediaSeconds: piece.duration)
                if rendition == nil {
                    ProcessThroughput.remember(estimator.estimate, for: server)
                    log.segmentFetched(piece.url, bytes: resource.data.count, seconds: resource.seconds, mediaSeconds: piece.duration,
                        from: variants[choice], estimate: estimator.estimate)
                } else {
                    log.renditionSegmentFetched(piece.url, bytes: resource.data.count, seconds: resource.seconds)
                }
                guard let bytes = decrypted(resource.data, of: piece) else {
                    skip(job, because: "it could not be decrypted")
                    continue
                }
                if startsSection { sections += 1 }
                last = (job.generation, sections, choice, piece.map, segment.discontinuitySequence)
                deliver(
                    Chunk(
                        data: header.isEmpty ? bytes : header + bytes, start: segment.start,
                        duration: segment.duration, variant: choice, section: sections,
                        timeline: segment.discontinuitySequence,
                        mediaStart: piece.mediaStart.map { $0 - piece.start + segment.start },
                        sectionEnd: piece.sectionEnd.map { $0 - piece.start + segment.start }),
                    generation: job.generation)
            case .failure(.cancelled):
                log.requestCancelled(bytes: progress.received, seconds: progress.elapsed)
            case .failure(.abandoned):
                // The network fell away under this transfer: plan from what it showed, at once.
                log.segmentAbandoned(uri: piece.url)
                let rate = Double(progress.received) * 8 / max(progress.elapsed, 0.001)
                estimator = ThroughputEstimator(initial: rate)
                estimator.add(bytes: progress.received, seconds: progress.elapsed)
                current = allowed.first ?? 0
                if rendition == nil {
                    log.switched(to: variants[current], estimate: rate)
                    leading.withLock { $0.variant = current }
                }
            case .failure(let failure):
                log.error(uri: piece.url, failure: failure)
                failures += 1
                var refusedByServer = false
                if case .httpStatus = failure { refusedByServer = true }
                if case .refused = failure {
                    skip(job, because: failure.reason)
                } else if refusedByServer || failures >= Self.attempts, failOver(choice) {
                    // The same segment again, from the variant's backup.
                    failures = 0
                } else if case .httpStatus = failure, failures >= Self.attempts {
                    skip(job, because: failure.reason)
                } else if failures >= Self.attempts {
                    if isCurrent(job.generation) { fail(.io(detail: "segment \(piece.url.lastPathComponent): \(failure.reason)")) }
                } else {
                    Thread.sleep(forTimeInterval: 0.2 * Double(failures))
                }
            }
        }
    }
}
