// Playhead: the adaptive ladder served as a live HLS stream whose playlists grow one segment at
// a time, as a live encoder's would: `live/master.m3u8` lists `live/<name>/index.m3u8` for each
// variant, a sliding window over the ladder's one-second MPEG-TS segments (served from
// `ladder/<name>/seg<N>.ts` beside them), or over the fragmented-MP4 ladder's `seg<N>.m4s`;
// optionally with a WebVTT subtitle rendition and a French audio rendition growing alike, or
// with every variant listed twice, the second time as a backup on `backup/<name>/index.m3u8`
// (RFC 8216's redundant streams) whose primary can be taken down.
//
// Concurrency: `publish(through:)`, `end()`, `takePrimaryDown()` and the timer's ticks change
// the server's rules under `lock` (which guards `published` and `primaryDown`); any thread may
// call them; `grow` and `stop` belong to the test's thread.
import Foundation

/// A live stream over an `AdaptiveMedia` ladder on `server`; see the file comment.
public final class LiveLadder: @unchecked Sendable {
    /// How many segments each playlist lists.
    public let window: Int
    private let server: LoopbackHTTPServer
    /// Segments published so far (the last one listed is `count - 1`), and whether the
    /// playlists carry `EXT-X-ENDLIST`.
    private let lock = NSLock()
    private var published = (count: 0, ended: false)
    /// True once the primary variant playlists answer 404 (guarded by `lock`).
    private var primaryDown = false
    /// True when every variant is listed again as a backup on `backup/<name>/index.m3u8`.
    private let backups: Bool
    private var timer: DispatchSourceTimer?

    /// True for the fragmented-MP4 ladder (``AdaptiveMedia/fragmentedFolder()``: `low` and
    /// `mid`, six segments, each playlist naming its `init.mp4` with `EXT-X-MAP`).
    public let fragmented: Bool
    /// The media timestamp the subtitle rendition's cues are mapped onto; nil: no rendition.
    private let subtitleOrigin: Double?
    /// How many segments the French audio rendition has (0: no audio renditions).
    private let frenchSegments: Int
    /// Lines each variant playlist carries after its media sequence, given the segments
    /// published (date ranges, say).
    private let mediaLines: @Sendable (Int) -> [String]
    private var variants: [(name: String, width: Int, height: Int, bandwidth: Int)] {
        fragmented ? Array(AdaptiveMedia.variants.prefix(2)) : AdaptiveMedia.variants
    }
    private var total: Int { Int(fragmented ? AdaptiveMedia.fragmentedDuration : AdaptiveMedia.duration) }

    /// Serves the master playlist and the variant playlists listing the first `published`
    /// segments (the last `window` of them), from the MPEG-TS ladder (``AdaptiveMedia/folder()``)
    /// or with `fragmented` the fragmented-MP4 one; `server` serves that ladder's folder.
    ///
    /// With `subtitleOrigin` (the media's first timestamp, seconds), the master playlist adds an
    /// English WebVTT rendition, `live/subs/index.m3u8`, whose window follows the variants':
    /// segment N (`live/subs/seg<N>.vtt`) holds the cue "cue N" from N + 0.2 to N + 0.8 s,
    /// written in time from zero and mapped onto the media by `X-TIMESTAMP-MAP`.
    ///
    /// With `frenchAudio` (``AdaptiveMedia/frenchAudioFolder()``), the master playlist names an
    /// audio group: "English" (LANGUAGE "en", no URI: the variants' own sound) and "Français"
    /// (LANGUAGE "fr", `live/fr/index.m3u8`, whose window follows the variants' over the
    /// folder's segments, served as `live/fr/seg<N>.ts`); `frenchIsDefault` makes the French
    /// one DEFAULT=YES instead of the English. `masterLines` go into the master playlist
    /// before its variants (an `EXT-X-START`, say); `mediaLines(published)` go into every
    /// variant playlist after its media sequence (`EXT-X-DATERANGE` tags, say). With `backups`,
    /// each variant is listed a second time with the same attributes and the URI
    /// `backup/<name>/index.m3u8`, which serves the same playlist (see ``takePrimaryDown()``).
    public init(
        server: LoopbackHTTPServer, window: Int = 4, published: Int, fragmented: Bool = false,
        subtitleOrigin: Double? = nil, frenchAudio: URL? = nil, frenchIsDefault: Bool = false,
        masterLines: [String] = [], backups: Bool = false,
        mediaLines: @escaping @Sendable (Int) -> [String] = { _ in [] }
    ) {
        self.server = server
        self.backups = backups
        self.mediaLines = mediaLines
        self.window = window
        self.fragmented = fragmented
        self.subtitleOrigin = subtitleOrigin
        let variants = fragmented ? Array(AdaptiveMedia.variants.prefix(2)) : AdaptiveMedia.variants
        let rendition = "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"subs/index.m3u8\""
        var audio: [String] = []
        var frenchSegments = 0
        if let frenchAudio {
            let english = frenchIsDefault ? "" : ",DEFAULT=YES"
            let french = frenchIsDefault ? ",DEFAULT=YES" : ""
            audio = [
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\"\(english),AUTOSELECT=YES",
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"Français\",LANGUAGE=\"fr\"\(french),AUTOSELECT=YES,URI=\"fr/index.m3u8\"",
            ]
            while let bytes = FileManager.default.contents(
                atPath: frenchAudio.appendingPathComponent("fr/seg\(frenchSegments).ts").path)
            {
                server.setRule(.content(bytes, contentType: "video/mp2t"), for: "/live/fr/seg\(frenchSegments).ts")
                frenchSegments += 1
            }
        }
        self.frenchSegments = frenchSegments
        let master = ["#EXTM3U"] + masterLines + (subtitleOrigin == nil ? [] : [rendition]) + audio + variants.flatMap { variant in
            let attributes = "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height)"
                + (subtitleOrigin == nil ? "" : ",SUBTITLES=\"subs\"") + (audio.isEmpty ? "" : ",AUDIO=\"aud\"")
            return [attributes, "\(variant.name)/index.m3u8"]
                + (backups ? [attributes, "../backup/\(variant.name)/index.m3u8"] : [])
        }
        if let subtitleOrigin {
            let ticks = Int64((subtitleOrigin * 90_000).rounded())
            for index in 0..<total {
                let cue = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:\(ticks),LOCAL:00:00:00.000", "",
                    String(format: "00:00:%02d.200 --> 00:00:%02d.800", index, index), "cue \(index)", ""]
                server.setRule(
                    .content(Data(cue.joined(separator: "\n").utf8), contentType: "text/vtt"),
                    for: "/live/subs/seg\(index).vtt")
            }
        }
        server.setRule(
            .content(Data((master.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
            for: "/live/master.m3u8")
        publish(through: published)
    }

    /// The number of segments published so far.
    public var count: Int { lock.withLock { published.count } }

    /// Lists segments up to `count - 1` (at most the ladder's last).
    public func publish(through count: Int) {
        lock.withLock {
            published.count = min(max(count, 1), total)
            serve(published)
        }
    }

    /// Adds `EXT-X-ENDLIST`: the stream ends after the segments listed.
    public func end() {
        lock.withLock {
            published.ended = true
            serve(published)
        }
    }

    /// Publishes one more segment every `interval` seconds; with `ending`, the end comes after
    /// the ladder's last segment.
    public func grow(every interval: Double, ending: Bool) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let count = self.count
            if count < self.total {
                self.publish(through: count + 1)
            } else if ending {
                self.end()
            }
        }
        self.timer = timer
        timer.resume()
    }

    /// Makes every primary variant playlist answer 404 from now on (its server went down); the
    /// backups go on growing.
    public func takePrimaryDown() {
        lock.withLock {
            primaryDown = true
            serve(published)
        }
    }

    /// Stops growing.
    public func stop() {
        timer?.cancel()
        timer = nil
    }

    deinit { timer?.cancel() }

    private func serve(_ state: (count: Int, ended: Bool)) {
        let first = max(0, state.count - window)
        for variant in variants {
            var lines = ["#EXTM3U", "#EXT-X-VERSION:\(fragmented ? 7 : 3)", "#EXT-X-TARGETDURATION:1",
                "#EXT-X-MEDIA-SEQUENCE:\(first)"] + mediaLines(state.count)
            if fragmented { lines.append("#EXT-X-MAP:URI=\"../../ladder/\(variant.name)/init.mp4\"") }
            for index in first..<state.count {
                lines += ["#EXTINF:1.000000,", "../../ladder/\(variant.name)/seg\(index).\(fragmented ? "m4s" : "ts")"]
            }
            if state.ended { lines.append("#EXT-X-ENDLIST") }
            let playlist = LoopbackHTTPServer.Rule.content(
                Data((lines.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl")
            server.setRule(primaryDown ? .notFound : playlist, for: "/live/\(variant.name)/index.m3u8")
            if backups { server.setRule(playlist, for: "/backup/\(variant.name)/index.m3u8") }
        }
        if frenchSegments > 0 {
            var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
            for index in first..<min(state.count, frenchSegments) { lines += ["#EXTINF:1.000000,", "seg\(index).ts"] }
            if state.ended { lines.append("#EXT-X-ENDLIST") }
            server.setRule(
                .content(Data((lines.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
                for: "/live/fr/index.m3u8")
        }
        guard subtitleOrigin != nil else { return }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        for index in first..<state.count { lines += ["#EXTINF:1.000000,", "seg\(index).vtt"] }
        if state.ended { lines.append("#EXT-X-ENDLIST") }
        server.setRule(
            .content(Data((lines.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
            for: "/live/subs/index.m3u8")
    }
}
