// Playhead: an HLS subtitle rendition (a WebVTT media playlist) read segment by segment. Each
// segment's cues are decoded by FFmpeg's WebVTT reader and placed on the item timeline by the
// segment's `X-TIMESTAMP-MAP` (RFC 8216 §3.5). Segments in fragmented MP4 (IMSC1 TTML or
// WebVTT boxes, `FragmentedTextTrack`, with their `EXT-X-MAP`) are timed on the media's own
// timeline, as the media's timestamps are. Segments (and initialisation sections) under an
// AES-128 `EXT-X-KEY` are decrypted with it, the key fetched once. A DASH text AdaptationSet of such segments is read
// the same way from the playlist its manifest gave (`KnownSubtitleSegments`; a live manifest
// is read again for each reload). A live playlist is reloaded as it grows (at its target
// duration, half that while it has not changed), until the rendition is no longer wanted. After an `EXT-X-DISCONTINUITY` the timestamps start again: a segment's timeline
// (discontinuity sequence) is placed where Playhead's loader's demuxer anchored the media's
// timeline of the same number (`TimelineOffsets`); a live segment of a timeline the demuxer
// has not reached yet waits for a later reload. An ended playlist read before the demuxer got
// there anchors each later timeline at its first mapped segment's playlist start, as the
// demuxer does with its earliest timestamp.
//
// Concurrency: `run` blocks the background thread it is called on (network and decoding) and
// owns all the reader's state; it returns when the playlist ended or `isWanted` said no. Cues
// are handed to `deliver` on that thread.
import FFmpegBridge
import Foundation

/// Reads one WebVTT media playlist into timed subtitle events; see the file comment.
final class HLSSubtitleReader {
    /// The most segments read from one playlist, and the most bytes in one WebVTT segment
    /// and in one fragmented MP4 one (a whole film's text may be one subsegment).
    static let maximumSegments = 20_000
    static let maximumSegmentBytes = 1 << 20
    static let maximumFragmentedSegmentBytes = 16 << 20

    /// The playlist read: the rendition's, or the backup copy it failed over to.
    private var playlistURL: URL
    /// Copies of the playlist on other servers (a backup stream's subtitle group), not tried
    /// yet, in order: when the playlist or a segment cannot be read, the next is.
    private var backups: [URL]
    private let network: NetworkOptions
    private let timeout: Double
    /// The media's timestamp at item time zero, seconds.
    private let origin: Double
    private let secure: Bool
    private var fetcher: HTTPFetcher?
    /// Sequence numbers of the segments read so far.
    private var read: Set<Int> = []
    /// Per discontinuity sequence after an ended playlist's first, its first mapped segment's
    /// map and playlist start.
    private var anchors: [Int: (map: WebVTTTimestampMap, start: Double)] = [:]
    /// Where the demuxer anchored each timeline (Playhead's loader), or nil.
    private let timelineOffsets: TimelineOffsets?
    /// The multivariant playlist's variables the rendition's playlist may import.
    private let imports: [String: String]
    /// The segments when they are known already (a DASH text AdaptationSet's): read instead
    /// of fetching `playlistURL`.
    private var knownPlaylist: KnownSubtitleSegments?
    /// The fragmented MP4 tracks of the initialisation sections read so far (nil: the section
    /// could not be read or holds no subtitle track, not asked for again).
    private var tracks: [HLSMap: FragmentedTextTrack?] = [:]
    /// Per discontinuity sequence, the shift that puts a fragmented segment's track time on
    /// its playlist start (an ended playlist's later timelines, before the demuxer got there).
    private var trackAnchors: [Int: Double] = [:]
    /// The spans (item seconds) of an ended playlist's segments read, so a backup's copy
    /// numbered otherwise is not read twice.
    private var readSpans: [ClosedRange<Double>] = []
    /// Set when a request of the segment being read failed (not its decoding).
    private var fetchFailed = false
    /// The AES-128 keys asked for so far, by URL (one request per key; nil: it failed).
    private var keys: [URL: Data?] = [:]

    /// How a segment's mapped cue times reach item time.
    private enum Placement {
        /// Against the media timestamp at item time zero on the segment's timeline, seconds.
        case origin(Double)
        /// The timeline's first mapped segment falls on its playlist start (an ended playlist
        /// after a discontinuity, before the demuxer anchored that timeline).
        case anchoredAtPlaylistStart
    }

    /// Why the playlist is not read at all, or nil.
    private let refusal: String?
    /// The item's access and error logs, when Playhead's loader streams the item: refusals and
    /// failed requests leave an error event there.
    private let log: StreamingLog?

    /// A reader of `playlist` for media whose timestamp at item time zero is `origin` seconds.
    /// For media that came over the network (`remote`), the playlist and its segments must be
    /// http(s), and https throughout when the media was (`secure`).
    /// `timelineOffsets`: where the demuxer anchored each discontinuity sequence, when
    /// Playhead's loader streams the media. `imports`: the multivariant playlist's variables.
    /// `knownPlaylist`: the segments, when no playlist is to be fetched (DASH).
    init(
        playlist: URL, network: NetworkOptions, timeout: Double, origin: Double, remote: Bool, secure: Bool = false,
        log: StreamingLog? = nil, timelineOffsets: TimelineOffsets? = nil, imports: [String: String] = [:],
        knownPlaylist: KnownSubtitleSegments? = nil, backups: [URL] = []
    ) {
        self.knownPlaylist = knownPlaylist
        self.backups = []
        self.log = log
        self.imports = imports
        self.timelineOffsets = timelineOffsets
        playlistURL = playlist
        self.network = network
        self.timeout = timeout
        self.origin = origin
        self.secure = secure || playlist.scheme?.lowercased() == "https"
        refusal = remote ? HTTPFetcher.refusal(of: playlist, secure: secure) : nil
        // The copies keep to the rules the playlist is read with.
        let rules = self.secure
        self.backups = remote ? backups.filter { HTTPFetcher.refusal(of: $0, secure: rules) == nil } : backups
    }

    /// Reads the playlist's segments, handing each one's events to `deliver`, and follows a
    /// live playlist while `isWanted()` holds. A segment that cannot be read or decoded is
    /// tried again at the next two reloads of a live playlist, then skipped; a playlist that
    /// cannot be read ends the reading, except a live DASH manifest's, which is tried again
    /// (its set may be missing for a while: an advert Period). `playhead`: the item time
    /// playback stands at; a live DASH set's segments over before it are passed.
    func run(deliver: ([SubtitleEvent]) -> Void, isWanted: () -> Bool, playhead: () -> Double? = { nil }) {
        defer { fetcher?.close() }
        // A remote stream's rendition never reaches a local file (nor http from https).
        if let refusal {
            log?.error(uri: playlistURL, failure: .refused(refusal))
            // (A backup's copy may keep to the rules.)
            guard failOver() else { return }
        }
        var lastText: String?
        var failures: [Int: Int] = [:]
        var lastLive: HLSMediaPlaylist?
        reading: while isWanted() {
            var known: HLSMediaPlaylist?
            var isLiveDASH = false
            switch knownPlaylist {
            case .indexed(let file)?:
                // A DASH file's index, read now that the rendition is chosen.
                guard let data = fetchData(file.url, limit: network.maximumPlaylistBytes, range: file.indexRange),
                    let listed = DASHManifest.indexedPlaylist(file, sidx: data, readRange: { range in
                        self.fetchData(file.url, limit: self.network.maximumPlaylistBytes, range: range)
                    })
                else { return }
                knownPlaylist = .listed(listed)
                known = listed
            case .listed(let listed)?:
                known = listed
            case .live(let opened, let manifest, let read)?:
                // A live DASH manifest, read again each time (from where it moved to, or was
                // redirected); a reload that fails, or lists no such set, keeps the last one.
                isLiveDASH = true
                if let (data, finalURL) = fetchResource(manifest, limit: network.maximumPlaylistBytes),
                    let reloaded = read(data, finalURL)
                {
                    lastLive = reloaded
                    knownPlaylist = .live(opened, manifest: reloaded.relocation ?? finalURL, read: read)
                }
                known =
                    lastLive
                    ?? HLSMediaPlaylist(
                        targetDuration: opened.targetDuration, segments: [], isEnded: false, isEncrypted: false,
                        initialisation: nil, mediaSequence: 0)
            case nil:
                break
            }
            // (A known playlist's changes show in its last segment.)
            let text = known.map { "\($0.segments.last?.sequence ?? -1)" } ?? fetchText(playlistURL, limit: network.maximumPlaylistBytes)
            guard let text,
                case .media(let playlist)? = known.map({ HLSPlaylist.media($0) })
                    ?? (try? HLSPlaylist.parse(text, base: playlistURL, imports: imports))
            else {
                // A backup's copy is read instead, from where this one stopped.
                if failOver() { continue }
                return
            }
            let now = isLiveDASH ? playhead() : nil
            for segment in playlist.segments where !read.contains(segment.sequence) {
                guard isWanted() else { return }
                guard read.count < Self.maximumSegments else { break }
                // A backup's copy may number its segments otherwise: an ended playlist's
                // segment whose middle was read already (from the first copy) is passed.
                let middle = segment.start + segment.duration / 2
                if playlist.isEnded, readSpans.contains(where: { $0.contains(middle) }) { continue }
                // A live set starts where playback stands, not at its window's oldest segment
                // (a seek back in the window reads what it passed).
                if let now, segment.start + segment.duration < now - 1 { continue }
                // A timeline the demuxer has not reached: read at a later reload.
                guard let placement = placement(of: segment, in: playlist) else { continue }
                fetchFailed = false
                if let events = events(of: segment, placement) {
                    read.insert(segment.sequence)
                    if playlist.isEnded { readSpans.append(segment.start...(segment.start + segment.duration)) }
                    if !events.isEmpty { deliver(events) }
                } else {
                    // (An edge segment may not be there yet: tried at two more reloads.)
                    failures[segment.sequence, default: 0] += 1
                    let tries = failures[segment.sequence, default: 0]
                    // A server that will not serve it (not cues that do not decode): the rest
                    // from a backup's copy, its playlist read afresh.
                    if fetchFailed, playlist.isEnded || tries >= 3, failOver() {
                        failures[segment.sequence] = nil
                        lastText = nil
                        continue reading
                    }
                    if tries >= 3 { read.insert(segment.sequence) }
                }
            }
            if playlist.isEnded { return }
            // A live window's older segments are forgotten.
            if let first = playlist.segments.first?.sequence {
                read = read.filter { $0 >= first }
                failures = failures.filter { $0.key >= first }
            }
            let changed = text != lastText
            lastText = text
            var wait = max(0.5, changed ? playlist.targetDuration : playlist.targetDuration / 2)
            // (A live manifest is not read more often than every two seconds.)
            if isLiveDASH { wait = max(2, wait) }
            let deadline = Date(timeIntervalSinceNow: wait)
            while Date() < deadline {
                guard isWanted() else { return }
                Thread.sleep(forTimeInterval: min(0.1, max(0, deadline.timeIntervalSinceNow)))
            }
        }
    }

    /// Moves to the next backup copy of an HLS rendition's playlist; false when none is left
    /// (or the segments are known: a DASH set has no copies here).
    private func failOver() -> Bool {
        guard knownPlaylist == nil, !backups.isEmpty else { return false }
        playlistURL = backups.removeFirst()
        return true
    }

    /// How `segment` of `playlist` is placed, or nil while its timeline is not anchored yet.
    private func placement(of segment: HLSSegment, in playlist: HLSMediaPlaylist) -> Placement? {
        // A DASH segment places itself by its own media time (`fragmentedEvents`).
        if segment.mediaStart != nil { return .origin(origin) }
        if let known = timelineOffsets?.origin(of: segment.discontinuitySequence) { return .origin(known) }
        if playlist.isEnded {
            // Only an ended playlist's starts are item times; a live one's are its window's.
            let first = segment.discontinuitySequence == playlist.segments.first?.discontinuitySequence
            return first ? .origin(origin) : .anchoredAtPlaylistStart
        }
        return timelineOffsets == nil ? .origin(origin) : nil
    }

    /// The cues of `segment`, on the item timeline; nil when it could not be read.
    private func events(of segment: HLSSegment, _ placement: Placement) -> [SubtitleEvent]? {
        // (A DASH Period's whole text file may be a film's.)
        let limit = segment.map == nil && segment.mediaStart == nil ? Self.maximumSegmentBytes : Self.maximumFragmentedSegmentBytes
        guard let fetched = fetchData(segment.url, limit: limit, range: segment.byteRange),
            let data = decrypted(fetched, at: segment.url, with: segment.key, iv: segment.key?.iv(forSequence: segment.sequence))
        else { return nil }
        let bytes = [UInt8](data)
        if segment.map != nil || FragmentedTextTrack.looksLikeMP4(bytes) {
            return fragmentedEvents(bytes, of: segment, placement)
        }
        if let mediaStart = segment.mediaStart {
            return wholeFileEvents(data, of: segment, mediaStart: mediaStart)
        }
        let text = String(decoding: data, as: UTF8.self)
        let memory = MemoryInput(bytes: Data(text.utf8), name: "segment.vtt")
        guard let contents = try? SubtitleFileReader.read(MediaLocation(memory: memory), timeout: timeout) else {
            return nil
        }
        // Without a map the cue times are item times, as the whole-file reading takes them.
        let shift = WebVTTTimestampMap.parse(text).map { map in
            switch placement {
            case .origin(let origin):
                return map.offset(origin: origin)
            case .anchoredAtPlaylistStart:
                let anchor = anchors[segment.discontinuitySequence] ?? (map, segment.start)
                anchors[segment.discontinuitySequence] = anchor
                return map.offset(anchor: anchor.map, anchorStart: anchor.start)
            }
        } ?? 0
        return contents.events.moved(by: shift)
    }

    /// The cues of a DASH Period's whole WebVTT or TTML file, timed from the Period's start
    /// (less `mediaStart`), on the item timeline and cut at the Period's end; nil when the
    /// file cannot be read.
    private func wholeFileEvents(_ data: Data, of segment: HLSSegment, mediaStart: Double) -> [SubtitleEvent]? {
        let events: [SubtitleEvent]
        if TTMLDocument.looksLikeTTML(data) {
            guard let read = TTMLDocument.events(data) else { return nil }
            events = read
        } else {
            let memory = MemoryInput(bytes: data, name: "period.vtt")
            guard let contents = try? SubtitleFileReader.read(MediaLocation(memory: memory), timeout: timeout) else {
                return nil
            }
            events = contents.events
        }
        return Self.cut(events.moved(by: segment.start - mediaStart), at: segment.sectionEnd)
    }

    /// `events` that begin before `sectionEnd` (all when nil), each ended there at the latest.
    private static func cut(_ events: [SubtitleEvent], at sectionEnd: Double?) -> [SubtitleEvent] {
        guard let sectionEnd else { return events }
        let end = CMTime(seconds: sectionEnd, preferredTimescale: 90_000)
        return events.compactMap { event in
            var moved = event
            guard moved.start < end else { return nil }
            moved.end = min(moved.end ?? end, end)
            return moved
        }
    }

    /// The cues of a fragmented MP4 segment, on the item timeline; nil when its
    /// initialisation section cannot be read or holds no subtitle track.
    private func fragmentedEvents(_ bytes: [UInt8], of segment: HLSSegment, _ placement: Placement) -> [SubtitleEvent]? {
        let track: FragmentedTextTrack
        if let map = segment.map {
            if let known = tracks[map] {
                guard let known else { return nil }
                track = known
            } else {
                // (An EXT-X-KEY before the EXT-X-MAP encrypts the section too.)
                let read = fetchData(map.url, limit: Self.maximumSegmentBytes, range: map.byteRange)
                    .flatMap { decrypted($0, at: map.url, with: map.key, iv: map.iv) }
                    .flatMap { FragmentedTextTrack(initialisation: [UInt8]($0)) }
                tracks[map] = read
                guard let read else { return nil }
                track = read
            }
        } else {
            // A segment that carries its own initialisation.
            guard let read = FragmentedTextTrack(initialisation: bytes) else { return nil }
            track = read
        }
        let fileOffset = segment.byteRange?.lowerBound ?? 0
        let shift: Double
        var fallbackStart = segment.mediaStart ?? 0
        if let mediaStart = segment.mediaStart {
            // A DASH segment says where its track time falls (each Representation's own
            // presentationTimeOffset).
            shift = segment.start - mediaStart
        } else {
            switch placement {
            case .origin(let origin):
                shift = -origin
                fallbackStart = segment.start + origin
            case .anchoredAtPlaylistStart:
                let first = track.samples(in: bytes, fileOffset: fileOffset).first?.start ?? 0
                let anchor = trackAnchors[segment.discontinuitySequence] ?? (segment.start - first)
                trackAnchors[segment.discontinuitySequence] = anchor
                shift = anchor
            }
        }
        let events = track.events(in: bytes, fileOffset: fileOffset, fallbackStart: fallbackStart).moved(by: shift)
        // A DASH Period's cues stop where the next Period begins.
        return Self.cut(events, at: segment.sectionEnd)
    }

    /// `data` fetched from `url` as it is when `key` is nil, else decrypted with the AES-128
    /// key (fetched once, with the stream's rules) and `iv`; nil, with an error-log event,
    /// when the key cannot be had or does not decrypt it.
    private func decrypted(_ data: Data, at url: URL, with key: HLSKey?, iv: Data?) -> Data? {
        guard let key else { return data }
        if keys[key.url] == nil { keys[key.url] = .some(fetchData(key.url, limit: 1024)) }
        guard let keyBytes = keys[key.url] ?? nil else { return nil }
        guard let iv, let plain = SegmentDecryptor.decryptAES128CBC(data, key: keyBytes, iv: iv) else {
            log?.error(uri: url, failure: .refused("cannot decrypt the segment with its AES-128 key"))
            return nil
        }
        return plain
    }

    /// The text at `url` (see `fetchData`).
    private func fetchText(_ url: URL, limit: Int, range: Range<Int>? = nil) -> String? {
        fetchData(url, limit: limit, range: range).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes at `url` (see `fetchResource`).
    private func fetchData(_ url: URL, limit: Int, range: Range<Int>? = nil) -> Data? {
        fetchResource(url, limit: limit, range: range)?.data
    }

    /// The bytes at `url` and the URL they came from after redirects: over http(s) with the
    /// stream's safety rules (a remote playlist can reach neither `file:` nor, from https,
    /// http), or from a file when the playlist is one.
    private func fetchResource(_ url: URL, limit: Int, range: Range<Int>? = nil) -> (data: Data, url: URL)? {
        if playlistURL.isFileURL {
            guard url.isFileURL, let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            if let range { try? handle.seek(toOffset: UInt64(range.lowerBound)) }
            let count = min(limit, range?.count ?? limit)
            return (try? handle.read(upToCount: count)).map { ($0, url) }
        }
        let fetcher =
            self.fetcher
            ?? HTTPFetcher(headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        self.fetcher = fetcher
        switch fetcher.fetch(url, range: range, secure: secure, limit: limit, timeout: timeout) {
        case .success(let resource): return (resource.data, resource.finalURL)
        case .failure(let failure):
            if case .cancelled = failure {} else { fetchFailed = true }
            log?.error(uri: url, failure: failure)
            return nil
        }
    }
}
