// Playhead: still pictures of an HLS stream from its I-frame playlist (HLSIFrameVariant.swift),
// as Apple's players take scrubbing thumbnails: the keyframe a request allows is one byte
// range of a media segment (plus the initialisation section: an `EXT-X-MAP`, for MPEG-TS the
// PAT and PMT), fetched alone and decoded alone, where decoding the frame otherwise means a
// whole segment of the variant (and, for a time between keyframes, every frame up to it).
// The picture's time is the keyframe's place on the playlist, which is the item timeline.
// Only an I-frame playlist that is there to read, clear or under AES-128 keys (a keyframe's
// range of a segment encrypted whole is decrypted from the block before it:
// HLSEncryptedRange.swift), and lists keyframes is used, for requests that allow a keyframe;
// anything else (no I-frame playlist, SAMPLE-AES or a DRM system's keys, a failed request)
// leaves the request to the demuxer's path. The safety rules of the loader hold:
// never a `file:` URL from a remote playlist, no https to http downgrade, size limits and a
// deadline on every request.
//
// Concurrency: owned by the image generator's work queue (ImageGenerationQueue.swift), like
// its FrameGrabber; the fetcher blocks that queue only, never the main queue.
import FFmpegBridge
import Foundation

/// The keyframes of an HLS stream's I-frame playlist, decoded one at a time.
final class HLSIFramePictures {
    /// What a request came to.
    enum Outcome {
        /// The keyframe's picture and its time on the item timeline.
        case picture(VideoFrame, time: CMTime)
        /// No keyframe lies within the request's tolerance (or its bytes could not be had):
        /// the request is for the demuxer's path.
        case elsewhere
    }

    /// The most bytes a keyframe's range (or initialisation section) may have.
    static let maximumRangeBytes = 16 << 20

    private let fetcher: HTTPFetcher
    private let secure: Bool
    private let timeout: Double
    /// The keyframes, in time order.
    private let keyframes: [HLSSegment]
    /// The last initialisation section fetched, by where it was read.
    private var map: (section: HLSMap, bytes: Data)?
    /// The extension that tells the demuxer the container (`ts`, `mp4`...).
    private let containerHint: String
    /// The AES-128 keys asked for so far, by URL (nil: the request failed, not made again).
    private var keys: [URL: Data?] = [:]

    /// The I-frame playlist of the stream at `location` best suited to pictures at most
    /// `maximum` pixels wide and high, read within `timeout` seconds per request; nil when
    /// the stream is not an HLS multivariant playlist with a usable one.
    init?(location: MediaLocation, maximum: (width: Int, height: Int)?, timeout: Double) {
        // An HLS URL, or one whose name does not say (an API path): asked for, and read on
        // only when it starts as a playlist (StreamedOpen+Sniffing.swift).
        guard location.isNetwork, let url = URL(string: location.ffmpegURL),
            url.path.lowercased().hasSuffix(".m3u8")
                || !(StreamedOpen.mediaFileExtensions.contains(url.pathExtension.lowercased())
                    || url.path.lowercased().hasSuffix(".mpd"))
        else { return nil }
        let network = location.network
        let fetcher = HTTPFetcher(headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        self.fetcher = fetcher
        secure = location.requiresTLS
        self.timeout = timeout
        func playlist(_ url: URL, imports: [String: String] = [:]) -> HLSPlaylist? {
            guard case .success(let resource) = fetcher.fetch(
                    url, secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout,
                    firstBytes: StreamedOpen.startsLikeManifest),
                let text = String(data: resource.data, encoding: .utf8)
            else { return nil }
            return try? HLSPlaylist.parse(text, base: resource.finalURL, imports: imports)
        }
        guard case .multivariant(let master)? = playlist(url) else {
            fetcher.close()
            return nil
        }
        // On the pathway the stream starts on, when content steering lists several.
        let pathway = master.steering?.pathway ?? master.variants.first?.pathway
        guard let chosen = HLSIFrameVariant.best(of: master.iFrameVariants, on: pathway, forAtMost: maximum),
            case .media(let list)? = playlist(chosen.url, imports: master.definitions),
            list.isIFramesOnly, !list.hasUnsupportedKey, list.drmSystem == nil
        else {
            fetcher.close()
            return nil
        }
        keyframes = list.segments.filter { !$0.isGap && $0.byteRange != nil }
        guard !keyframes.isEmpty, HLSEncryptedRange.canDecryptRanges(of: keyframes) else {
            fetcher.close()
            return nil
        }
        let name = keyframes[0].url.pathExtension.lowercased()
        containerHint = name.isEmpty ? "ts" : name
    }

    deinit { fetcher.close() }

    /// The keyframe to show for `target`: the last at or before it when it lies within
    /// `toleranceBefore`, else the next when within `toleranceAfter`.
    func picture(at target: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) -> Outcome {
        let seconds = target.seconds
        let before = keyframes.last { $0.start <= seconds + 1e-6 }
        let after = keyframes.first { $0.start > seconds + 1e-6 }
        let candidate: HLSSegment?
        if let before, Self.within(seconds - before.start, toleranceBefore) {
            candidate = before
        } else if let after, Self.within(after.start - seconds, toleranceAfter) {
            candidate = after
        } else {
            candidate = nil
        }
        guard let keyframe = candidate, let frame = decode(keyframe) else { return .elsewhere }
        return .picture(frame, time: CMTime(seconds: keyframe.start, preferredTimescale: 90_000))
    }

    /// Whether `distance` seconds is allowed by `tolerance` (infinite: any).
    private static func within(_ distance: Double, _ tolerance: CMTime) -> Bool {
        tolerance.isPositiveInfinity || (tolerance.isNumeric && distance <= tolerance.seconds + 1e-6)
    }

    /// The picture of `keyframe`: its initialisation section and range, decoded.
    private func decode(_ keyframe: HLSSegment) -> VideoFrame? {
        var bytes = Data()
        if let section = keyframe.map {
            if map?.section != section {
                guard let fetched = fetch(section.url, range: section.byteRange, key: section.key, iv: section.iv)
                else { return nil }
                map = (section, fetched)
            }
            bytes += map?.bytes ?? Data()
        }
        let iv = keyframe.key?.iv(forSequence: keyframe.sequence)
        guard let range = fetch(keyframe.url, range: keyframe.byteRange, key: keyframe.key, iv: iv) else { return nil }
        bytes += range
        let input = MemoryInput(bytes: bytes, name: "keyframe.\(containerHint)")
        guard let grabber = try? FrameGrabber(location: MediaLocation(memory: input), timeout: timeout, threadCount: nil)
        else { return nil }
        return grabber.frame(at: .zero, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// The clear bytes of `range` of `url` (all of it when nil), decrypted with `key` and `iv`
    /// when given (a range as one inside a segment encrypted whole).
    private func fetch(_ url: URL, range: Range<Int>?, key: HLSKey? = nil, iv: Data? = nil) -> Data? {
        let asked = key == nil ? range : range.map(HLSEncryptedRange.cipherRange)
        guard case .success(let resource) = fetcher.fetch(
            url, range: asked, secure: secure, limit: Self.maximumRangeBytes, timeout: timeout)
        else { return nil }
        guard let key, let iv else { return resource.data }
        if keys[key.url] == nil {
            guard case .success(let fetched) = fetcher.fetch(key.url, secure: secure, limit: 1024, timeout: timeout) else {
                keys[key.url] = .some(nil)
                return nil
            }
            keys[key.url] = fetched.data
        }
        guard let keyBytes = keys[key.url] ?? nil else { return nil }
        guard let range else { return SegmentDecryptor.decryptAES128CBC(resource.data, key: keyBytes, iv: iv) }
        return HLSEncryptedRange.plain(range, from: resource.data, key: keyBytes, iv: iv).flatMap {
            HLSEncryptedRange.looksLikeMedia($0) ? $0 : nil
        }
    }
}
