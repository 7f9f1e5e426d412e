// Playhead: the HLS loader's requests besides segments, and its hand-over of segments: AES-128
// keys (fetched once per URL), fragmented-MP4 initialisation sections (once per map, decrypted
// when a key comes before the map), variant playlists (once, or again for a live variant older
// than the segment wanted), and the chunks put in the buffer or skipped.
//
// Concurrency: every method runs on the loader thread; `deliver`, `skip` and `fail` change
// `state` under `condition`; `keys`, `initialisations` and `playlists` are the loader thread's.
import FFmpegBridge
import Foundation

extension HLSStreamLoader {
    /// `data` of `segment` decrypted when the segment has an AES-128 key (fetched once per key
    /// URL); nil, with an error-log event, when the key cannot be had or does not decrypt it.
    func decrypted(_ data: Data, of segment: HLSSegment) -> Data? {
        guard let key = segment.key else { return data }
        return decrypted(data, at: segment.url, with: key, iv: key.iv(forSequence: segment.sequence))
    }

    /// `data` fetched from `url`, decrypted with `key` (fetched once per key URL) and `iv`; nil,
    /// with an error-log event, when the key cannot be had or does not decrypt it.
    private func decrypted(_ data: Data, at url: URL, with key: HLSKey, iv: Data) -> Data? {
        guard let keyBytes = keyBytes(key) else { return nil }
        guard let plain = SegmentDecryptor.decryptAES128CBC(data, key: keyBytes, iv: iv) else {
            log.error(uri: url, failure: .refused("cannot decrypt the segment with its AES-128 key"))
            return nil
        }
        return plain
    }

    /// The bytes of AES-128 key `key`, fetched on first use; nil, with an error-log event, when
    /// they cannot be had.
    func keyBytes(_ key: HLSKey) -> Data? {
        if let known = keys[key.url] { return known }
        switch fetcher.fetch(key.url, secure: secure, limit: 1024, timeout: timeout) {
        case .success(let resource):
            keys[key.url] = resource.data
            return resource.data
        case .failure(let failure):
            log.error(uri: key.url, failure: failure)
            return nil
        }
    }

    /// The bytes of initialisation section `map` of variant `variant`, fetched on first use
    /// (and counted in the access log); nil, with an error-log event, when they cannot be had.
    func initialisation(_ map: HLSMap, variant: Int) -> Data? {
        if let bytes = initialisations[map] { return bytes }
        let result = fetcher.fetch(map.url, range: map.byteRange, secure: secure, limit: limits.segment, timeout: timeout)
        switch result {
        case .success(let resource):
            log.segmentFetched(map.url, bytes: resource.data.count, seconds: resource.seconds, mediaSeconds: 0,
                from: variants[variant], estimate: 0)
            var bytes = resource.data
            if let key = map.key, let iv = map.iv {
                // An EXT-X-KEY before the EXT-X-MAP encrypts the section as well.
                guard let plain = decrypted(bytes, at: map.url, with: key, iv: iv) else { return nil }
                bytes = plain
            }
            if initialisations.count >= 16 { initialisations = [:] }
            initialisations[map] = bytes
            return bytes
        case .failure(let failure):
            log.error(uri: map.url, failure: failure)
            initialisationFailure = failure.reason
            return nil
        }
    }

    /// The media playlist of variant `index`, fetched on first use; nil when it cannot be.
    func mediaPlaylist(_ index: Int, holding sequence: Int? = nil) -> HLSMediaPlaylist? {
        // A live variant's playlist is loaded again once it is older than the segment wanted.
        if let playlist = playlists[index],
            !isLive || sequence.map({ wanted in playlist.segments.contains { $0.sequence == wanted } }) ?? true
        {
            return playlist
        }
        while true {
            let url = playlistURL(of: index)
            let result = fetcher.fetch(url, secure: secure, limit: limits.playlist, timeout: timeout)
            guard case .success(let resource) = result, let playlist = mediaPlaylist(in: resource, variant: index),
                playlist.isEnded || isLive
            else {
                if case .failure(let failure) = result { log.error(uri: url, failure: failure) }
                if case .failure(.cancelled) = result { return nil }
                // A backup of the variant is asked next, while there is one not yet tried.
                guard failOver(index) else { return nil }
                continue
            }
            playlists[index] = playlist
            return playlist
        }
    }

    /// Variant `variant`'s media playlist in `resource` (through `playlistReader` when there is
    /// one); nil when it is not one, or is encrypted in a way the loader cannot decrypt.
    func mediaPlaylist(in resource: FetchedResource, variant: Int) -> HLSMediaPlaylist? {
        if let playlistReader {
            // On a cloned DASH location: the base location's, cloned.
            return clonedPlaylist(variant, source(of: variant)) { read in
                playlistReader(resource.data, resource.finalURL, variant, read)
            }
        }
        guard let text = String(data: resource.data, encoding: .utf8),
            case .media(let playlist)? = try? HLSPlaylist.parse(text, base: resource.finalURL, imports: playlistImports),
            !playlist.hasUnsupportedKey
        else { return nil }
        return playlist
    }

    /// Variant `variant`'s segment standing for `segment` of the timeline (by media sequence
    /// number live, by time for VOD); nil when its playlist cannot be loaded or lacks it.
    func piece(of variant: Int, for segment: HLSSegment) -> HLSSegment? {
        guard let playlist = mediaPlaylist(variant, holding: segment.sequence),
            let index = isLive
                ? playlist.segments.firstIndex(where: { $0.sequence == segment.sequence })
                : playlist.segmentIndex(at: segment.start + segment.duration / 2)
        else { return nil }
        return playlist.segments[index]
    }

    /// Where to take `segment` from when variant `choice` marks it as a gap: the nearest of
    /// the `allowed` variants below `choice`, then above it, whose segment there holds media
    /// (RFC 8216bis lets a client fetch a gap from another variant); nil when every one has a
    /// gap there or cannot be loaded.
    func gapFill(for segment: HLSSegment, choice: Int, allowed: [Int], unusable: Set<Int>) -> (Int, HLSSegment)? {
        let usable = allowed.filter { $0 != choice && !unusable.contains($0) }
        let order = usable.filter { $0 < choice }.reversed() + usable.filter { $0 > choice }
        for variant in order {
            if let piece = piece(of: variant, for: segment), !piece.isGap { return (variant, piece) }
        }
        return nil
    }

    func deliver(_ chunk: Chunk, generation: Int) {
        var chunk = chunk
        let tag = packedAudio == nil ? [] : PackedAudioTag.items(leading: chunk.data, at: chunk.start)
        chunk.timestamp = packedAudio == nil ? nil : PackedAudioTiming.timestamp(leading: chunk.data)
        condition.lock()
        if state.generation == generation, !state.closed {
            state.noteTag(tag, at: chunk.start)
            state.chunks.append(chunk)
            state.delivered = true
            state.nextSegment += 1
            state.fetchedEnd = chunk.start + chunk.duration
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Passes over `job`'s segment without bytes. What was fetched ahead does not grow, so the
    /// loader goes on to the next segment at once (a run of segments that all fail or are
    /// refused ends the stream instead of leaving the demuxer waiting for room it never uses).
    func skip(_ job: Job, because reason: String? = nil) {
        condition.lock()
        if state.generation == job.generation {
            state.nextSegment += 1
            if let reason { state.skipReason = reason }
        }
        condition.unlock()
    }

    func fail(_ failure: MediaFailure) {
        condition.lock()
        state.failure = failure
        condition.broadcast()
        condition.unlock()
    }
}
