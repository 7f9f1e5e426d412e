// Playhead: steps of backward play and fast forward served from an HLS stream's I-frame
// playlist (`EXT-X-I-FRAME-STREAM-INF`), as AVPlayer plays HLS backward and fast. A restart
// for one keyframe (`restart(at:keyframe:)`, which the demuxer makes for a step) fetches that
// keyframe's byte range alone behind its initialisation section, hands it to the demuxer as a
// section of its own, and fetches nothing more until the next restart. The segment path would
// fetch the whole segment of the variant playing, read on ahead of it, and show only the
// segment's first keyframe. The I-frame playlist read is the one for the playing variant's
// size (`HLSIFrameVariant.best`) on its pathway, once, as soon as the rate turns negative or
// above `EngineState.keyframeFastForwardRate` (a restart waits for it a moment). Under an
// AES-128 key, a keyframe's range (and its tables') lies inside a segment encrypted whole:
// it is fetched from the block before it and decrypted there (HLSEncryptedRange.swift). One
// that cannot be read, has a key Playhead cannot use (SAMPLE-AES, a DRM system's), or lists a
// keyframe without an initialisation section (an MPEG-TS range alone has no tables) leaves
// the steps to the segment path. The restart announces the keyframe's place on the playlist as its
// section's start (the demuxer may anchor a timeline on it).
//
// Concurrency: `HLSKeyframeSource` is the loader thread's alone; the keyframe times the demux
// thread's restarts read are copied into `state` under `condition`. `loadKeyframes` and
// `serveKeyframe` run on the loader thread and hand what they found over under `condition`.
import FFmpegBridge
import Foundation

/// The I-frame playlists of a stream and the keyframes of the one read (loader thread only).
final class HLSKeyframeSource: @unchecked Sendable {
    /// The multivariant playlist's I-frame playlists.
    let variants: [HLSIFrameVariant]
    /// The keyframes of the playlist read, in time order: nil until read, empty when none is
    /// usable.
    var keyframes: [HLSSegment]?
    /// The initialisation sections read as ranges inside segments encrypted whole (kept apart
    /// from the loader's sections: a media playlist's keyed range is a section of its own).
    var encryptedSections: [HLSMap: Data] = [:]

    init(variants: [HLSIFrameVariant]) { self.variants = variants }
}

extension HLSStreamLoader {
    /// Reads the I-frame playlist for `variant` (once) and publishes its keyframe times to the
    /// restarts (`state.keyframeStarts`; empty when there is none to use).
    func loadKeyframes(for variant: Int) {
        guard keyframeSource.keyframes == nil else { return }
        let playing = variants[variant]
        let size = (playing.width ?? 0, playing.height ?? 0)
        var found: [HLSSegment] = []
        if let chosen = HLSIFrameVariant.best(of: keyframeSource.variants, on: playing.pathway, forAtMost: size) {
            switch fetcher.fetch(chosen.url, secure: secure, limit: limits.playlist, timeout: timeout) {
            case .success(let resource):
                if let text = String(data: resource.data, encoding: .utf8),
                    case .media(let list)? = try? HLSPlaylist.parse(text, base: resource.finalURL, imports: playlistImports),
                    list.isIFramesOnly, !list.hasUnsupportedKey, list.drmSystem == nil
                {
                    found = list.segments.filter { !$0.isGap }
                    // An MPEG-TS range needs the tables its initialisation section holds; an
                    // encrypted range, what decrypts it (HLSEncryptedRange.swift).
                    if found.contains(where: { $0.map == nil }) || !HLSEncryptedRange.canDecryptRanges(of: found) { found = [] }
                }
            case .failure(let failure):
                log.error(uri: chosen.url, failure: failure)
            }
        }
        keyframeSource.keyframes = found
        condition.lock()
        state.keyframeStarts = found.map(\.start)
        state.keyframeTimelines = found.map(\.discontinuitySequence)
        condition.broadcast()
        condition.unlock()
    }

    /// Serves keyframe `index` (of the I-frame playlist read), which the restart `job` follows
    /// announced, with variant `variant` playing: fetched and delivered as a section of its own
    /// (numbered from `sections`), after which the loader fetches nothing until the next
    /// restart. False when the keyframe could not be fetched: the segment path serves the
    /// restart.
    func serveKeyframe(_ index: Int, for job: Job, variant: Int, sections: inout Int) -> Bool {
        guard let keyframes = keyframeSource.keyframes, keyframes.indices.contains(index) else { return false }
        let keyframe = keyframes[index]
        guard let map = keyframe.map, let header = keyframeInitialisation(map, variant: variant) else { return false }
        // (Inside a segment encrypted whole, from the block before the range.)
        let encryptedRange = keyframe.key == nil ? nil : keyframe.byteRange
        let result = fetcher.fetch(
            keyframe.url, range: encryptedRange.map(HLSEncryptedRange.cipherRange) ?? keyframe.byteRange, secure: secure,
            limit: limits.segment, timeout: timeout
        ) { _, _ in self.isCurrent(job.generation) ? nil : .cancelled }
        let resource: FetchedResource
        switch result {
        case .success(let fetched):
            resource = fetched
        case .failure(.cancelled):
            return true
        case .failure(let failure):
            log.error(uri: keyframe.url, failure: failure)
            return false
        }
        log.renditionSegmentFetched(keyframe.url, bytes: resource.data.count, seconds: resource.seconds)
        let clear: Data?
        if let encryptedRange, let key = keyframe.key {
            clear = rangeDecrypted(
                resource.data, range: encryptedRange, at: keyframe.url, key: key,
                iv: key.iv(forSequence: keyframe.sequence))
        } else {
            clear = decrypted(resource.data, of: keyframe)
        }
        guard let bytes = clear else { return false }
        condition.lock()
        sections += 1
        if state.generation == job.generation, !state.closed {
            state.chunks.append(
                Chunk(
                    data: header + bytes, start: keyframe.start, duration: keyframe.duration, variant: variant,
                    section: sections, timeline: keyframe.discontinuitySequence))
            state.delivered = true
            state.keyframeServed = true
            state.fetchedEnd = keyframe.start + keyframe.duration
            condition.broadcast()
        }
        condition.unlock()
        return true
    }
}

extension HLSStreamLoader {
    /// The initialisation section of an I-frame playlist's keyframes: a byte range under a
    /// key lies inside a segment encrypted whole (fetched once, kept with the others).
    private func keyframeInitialisation(_ map: HLSMap, variant: Int) -> Data? {
        guard let key = map.key, let range = map.byteRange, let iv = map.iv else { return initialisation(map, variant: variant) }
        if let bytes = keyframeSource.encryptedSections[map] { return bytes }
        let result = fetcher.fetch(
            map.url, range: HLSEncryptedRange.cipherRange(for: range), secure: secure, limit: limits.segment,
            timeout: timeout)
        guard case .success(let resource) = result else {
            if case .failure(let failure) = result { log.error(uri: map.url, failure: failure) }
            return nil
        }
        log.renditionSegmentFetched(map.url, bytes: resource.data.count, seconds: resource.seconds)
        guard let bytes = rangeDecrypted(resource.data, range: range, at: map.url, key: key, iv: iv) else { return nil }
        if keyframeSource.encryptedSections.count >= 16 { keyframeSource.encryptedSections = [:] }
        keyframeSource.encryptedSections[map] = bytes
        return bytes
    }

    /// The clear bytes of `range` of the segment at `url` encrypted whole with `key`, from
    /// `fetched` (its cipher range); nil, with an error-log event, when they cannot be had or
    /// do not look like media (a wrong key or IV): the segment path serves the step.
    private func rangeDecrypted(_ fetched: Data, range: Range<Int>, at url: URL, key: HLSKey, iv: Data) -> Data? {
        guard let keyBytes = keyBytes(key) else { return nil }
        guard let clear = HLSEncryptedRange.plain(range, from: fetched, key: keyBytes, iv: iv),
            HLSEncryptedRange.looksLikeMedia(clear)
        else {
            log.error(uri: url, failure: .refused("cannot decrypt the keyframe with its AES-128 key"))
            return nil
        }
        return clear
    }
}

extension HLSStreamLoader.State {
    /// Within this many seconds after a keyframe's (or segment's) place, a step with no step
    /// of its kind before it to go by takes the one before: the picture it steps down from
    /// may be that keyframe, shown a little past its place (the steps before came from the
    /// packets the engine kept, or from forward play).
    static let firstStepMargin = 0.2
    /// How far a keyframe's picture may show before its place on the playlist (rounded
    /// durations) and still be taken as that keyframe by a forward step.
    static let keyframePlaceTolerance = 0.05

    /// The keyframe of the I-frame playlist (read: `keyframeStarts` holds its places) a
    /// restart for one keyframe `step` from `seconds` takes, as an index.
    ///
    /// Forward (`.after`): the first keyframe placed after `seconds`, or the last one. Backward
    /// (`.atOrBefore`): the keyframe at or before it, unless the picture stepped down from is
    /// likely that keyframe, then the one before. The item time a keyframe shows at can lie a
    /// little past its place on the playlist (the timeline is anchored on the earliest packet
    /// of any stream), so a step just below that picture comes to the same keyframe: the one
    /// the last step came to (from above, or forward), or, with no last step, one within
    /// `firstStepMargin` of `seconds`.
    func keyframeIndex(_ step: KeyframeStep, from seconds: Double) -> Int {
        let starts = keyframeStarts ?? [0]
        // (Forward: a keyframe whose picture shows a hair before its place is still the one up.)
        if step == .after { return starts.firstIndex { $0 > seconds + Self.keyframePlaceTolerance } ?? max(starts.count - 1, 0) }
        let index = starts.lastIndex { $0 <= seconds + 1e-6 } ?? 0
        return steppedBack(index, asked: seconds, iFrames: true, places: starts)
    }

    /// Notes the keyframe (`iFrames`) or segment a restart for one keyframe `step` from
    /// `seconds` came to as the last step. A forward step's is noted as asked from above
    /// everything: its picture is up, and a step back from anywhere at or after it goes below.
    mutating func noteStep(_ index: Int, _ step: KeyframeStep, asked seconds: Double, iFrames: Bool) {
        lastStep = (index, step == .after ? .infinity : seconds, iFrames)
    }

    /// The segment a restart for one keyframe `step` from `seconds` reads when no I-frame
    /// playlist serves it, noted as the last step. Forward: the segment after `index` (the one
    /// holding `seconds`), or `index` when it is the last. Backward: `index`, or the one
    /// before by the rule of `keyframeIndex(_:from:)` (a segment's picture is its first
    /// keyframe, which shows a little past the segment's start).
    mutating func stepSegment(_ step: KeyframeStep, from index: Int, asked seconds: Double) -> Int {
        let stepped = step == .after
            ? min(index + 1, timeline.segments.count - 1)
            : steppedBack(index, asked: seconds, iFrames: false, places: timeline.segments.map(\.start))
        noteStep(stepped, step, asked: seconds, iFrames: false)
        return stepped
    }

    /// `index` (into `places`, of keyframes or segments), or the one before when the picture
    /// stepped down from is likely the one at `index` (see `keyframeIndex(_:from:)`).
    private func steppedBack(_ index: Int, asked: Double, iFrames: Bool, places: [Double]) -> Int {
        guard index > 0 else { return index }
        if let last = lastStep, last.iFrames == iFrames {
            return asked < last.asked && index >= last.index ? last.index - 1 : index
        }
        return places.indices.contains(index) && asked - places[index] < Self.firstStepMargin ? index - 1 : index
    }
}
