// Playhead: a client written the way open-source podcast and audiobook players are (the chapter
// list read with the async chapter API in the listener's language, with chapter artwork;
// "previous chapter" that first restarts the chapter; a speed menu that keeps voices at pitch
// through audioTimePitchAlgorithm and defaultRate; a sleep timer that stops at the end of the
// chapter through forwardPlaybackEndTime; the episode's title, show, cover art and ReplayGain
// from its iTunes or ID3 tags; the pre-iOS 15 synchronous chapter path older apps still ship),
// ported as docs/porting.md says: only the import changes. The AVAudioSession setup is left out
// (Linux has none). It must type-check with no errors in the Swift 5 and Swift 6 language
// modes (scripts/check-ported-clients.sh, run by `make test`).
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// One chapter as the episode screen lists it.
struct EpisodeChapter {
    let title: String
    let timeRange: CMTimeRange
    let artwork: Data?
}

extension AVAsset {
    /// Chapter titles and start times the pre-iOS 15 way: key-value loading, then the
    /// synchronous getters, on the loading queue.
    func legacyChapterMarks(completion: @escaping @Sendable ([(title: String, start: Double)]) -> Void) {
        loadValuesAsynchronously(forKeys: ["availableChapterLocales"]) { [self] in
            var error: NSError?
            guard statusOfValue(forKey: "availableChapterLocales", error: &error) == .loaded else { return completion([]) }
            let groups = availableChapterLocales.first.map {
                chapterMetadataGroups(withTitleLocale: $0, containingItemsWithCommonKeys: nil)
            } ?? chapterMetadataGroups(bestMatchingPreferredLanguages: Locale.preferredLanguages)
            completion(groups.map { group in
                let title = group.items.first { $0.commonKey == .commonKeyTitle }?.stringValue ?? ""
                return (title: title, start: CMTimeGetSeconds(group.timeRange.start))
            })
        }
    }
}

/// The episode player of a podcast app: one episode at a time, its chapters and its speed.
@MainActor
final class PodcastEpisodePlayer {
    let player = AVPlayer()
    var onChapterChange: ((EpisodeChapter?) -> Void)?
    private(set) var chapters: [EpisodeChapter] = []
    private(set) var currentChapterIndex: Int?
    private(set) var episodeTitle: String?
    private(set) var showName: String?
    private(set) var coverArt: Data?
    private(set) var formatLabel = ""
    private(set) var speed: Float = 1
    private(set) var sleepsAtChapterEnd = false
    private var timeObserver: Any?
    private var endToken: NSObjectProtocol?
    private var statusObservation: NSKeyValueObservation?

    init() {
        timeObserver = player.addPeriodicTimeObserver(
            forInterval: CMTimeMakeWithSeconds(0.5, preferredTimescale: 1000), queue: .main
        ) { [weak self] time in
            MainActor.assumeIsolated { self?.updateChapter(at: time) }
        }
    }

    /// Opens an episode (a download or a feed enclosure) and resumes where the listener left it.
    func load(_ url: URL, resumeAt seconds: Double = 0) async throws {
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        let item = AVPlayerItem(
            asset: asset, automaticallyLoadedAssetKeys: [.duration, .commonMetadata, .availableChapterLocales])
        item.audioTimePitchAlgorithm = .timeDomain
        statusObservation = item.observe(\.status, options: [.new]) { item, _ in
            guard item.status == .readyToPlay, seconds > 0, item.currentTime() == .zero else { return }
            item.seek(to: CMTimeMakeWithSeconds(seconds, preferredTimescale: 600), completionHandler: nil)
        }
        endToken = NotificationCenter.default.addObserver(
            forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main
        ) { [weak self] _ in MainActor.assumeIsolated { self?.itemDidReachEnd() } }
        player.replaceCurrentItem(with: item)
        player.defaultRate = speed
        try await readTags(of: asset)
        chapters = try await loadChapters(of: asset)
        updateChapter(at: player.currentTime())
        if let audio = try await asset.loadTracks(withMediaCharacteristic: .audible).first {
            let (descriptions, bitsPerSecond) = try await audio.load(.formatDescriptions, .estimatedDataRate)
            let sampleRate = descriptions.first?.audioStreamBasicDescription?.mSampleRate ?? 0
            formatLabel = "\(Int(sampleRate)) Hz · \(Int(bitsPerSecond / 1000)) kbit/s"
        }
    }

    /// Titles in the listener's language: the exact locale when the file has it (audiobooks
    /// ship several chapter tracks), else the best match among the preferred languages.
    private func loadChapters(of asset: AVAsset) async throws -> [EpisodeChapter] {
        let locales = try await asset.load(.availableChapterLocales)
        guard !locales.isEmpty else { return [] }
        let titleLocale = locales.first { $0.languageCode == Locale.current.languageCode }
        let groups: [AVTimedMetadataGroup]
        if let titleLocale {
            groups = try await asset.loadChapterMetadataGroups(
                withTitleLocale: titleLocale, containingItemsWithCommonKeys: [.commonKeyArtwork])
        } else {
            groups = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: Locale.preferredLanguages)
        }
        var result: [EpisodeChapter] = []
        for (index, group) in groups.enumerated() {
            let titles = AVMetadataItem.metadataItems(from: group.items, filteredByIdentifier: .commonIdentifierTitle)
            let inLocale = titleLocale.map { AVMetadataItem.metadataItems(from: titles, with: $0) } ?? []
            let title = try await (inLocale.first ?? titles.first)?.load(.stringValue) ?? "Chapter \(index + 1)"
            let artwork = try await group.items.first { $0.commonKey == .commonKeyArtwork }?.load(.dataValue)
            result.append(EpisodeChapter(title: title, timeRange: group.timeRange, artwork: artwork))
        }
        return result
    }

    /// The episode screen's header: title, show, cover, and loudness from the tags.
    private func readTags(of asset: AVAsset) async throws {
        let common = try await asset.load(.commonMetadata)
        let titles = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle)
        let localized = AVMetadataItem.metadataItems(
            from: titles, filteredAndSortedAccordingToPreferredLanguages: Locale.preferredLanguages)
        episodeTitle = try await (localized.first ?? titles.first)?.load(.stringValue)
        showName = try await AVMetadataItem.metadataItems(
            from: common, withKey: AVMetadataKey.commonKeyAlbumName, keySpace: .common
        ).first?.load(.stringValue)
        var tagged: [AVMetadataItem] = []
        for format in try await asset.load(.availableMetadataFormats) {
            tagged += try await asset.loadMetadata(for: format)
        }
        // iTunes 'covr' in M4A/M4B audiobooks, an ID3 APIC frame in MP3 episodes.
        let cover = AVMetadataItem.metadataItems(from: tagged, filteredByIdentifier: .iTunesMetadataCoverArt).first
            ?? AVMetadataItem.metadataItems(from: tagged, filteredByIdentifier: .id3MetadataAttachedPicture).first
            ?? common.first { $0.commonKey == .commonKeyArtwork }
        coverArt = try await cover?.load(.dataValue)
        // ReplayGain lives in ID3 TXXX frames, named by the frame's description.
        for text in AVMetadataItem.metadataItems(from: tagged, filteredByIdentifier: .id3MetadataUserText) {
            let (value, attributes) = try await text.load(.stringValue, .extraAttributes)
            guard (attributes?[.info] as? String)?.uppercased() == "REPLAYGAIN_TRACK_GAIN",
                let decibels = value.flatMap({ Double($0.replacingOccurrences(of: " dB", with: "")) })
            else { continue }
            player.volume = Float(min(1, pow(10, decibels / 20)))
        }
    }

    private func updateChapter(at time: CMTime) {
        let index = chapters.firstIndex { CMTimeRangeContainsTime($0.timeRange, time: time) }
        guard index != currentChapterIndex else { return }
        currentChapterIndex = index
        onChapterChange?(index.map { chapters[$0] })
    }

    func skipToChapter(at index: Int) {
        guard chapters.indices.contains(index) else { return }
        // Landing late is fine; early would replay the end of the previous chapter.
        player.seek(to: chapters[index].timeRange.start, toleranceBefore: .zero, toleranceAfter: CMTime(value: 1, timescale: 2))
    }

    func nextChapter() { skipToChapter(at: (currentChapterIndex ?? -1) + 1) }
    /// Restarts the chapter, or goes to the previous one within its first three seconds.
    func previousChapter() {
        guard let index = currentChapterIndex else { return }
        let into = CMTimeSubtract(player.currentTime(), chapters[index].timeRange.start)
        skipToChapter(at: CMTimeCompare(into, CMTime(value: 3, timescale: 1)) > 0 ? index : max(index - 1, 0))
    }

    /// The back-15 and forward-30 buttons, kept inside the episode.
    func jump(by seconds: Double) {
        guard let item = player.currentItem, item.duration.isNumeric else { return }
        let target = CMTimeAdd(player.currentTime(), CMTimeMakeWithSeconds(seconds, preferredTimescale: 600))
        player.seek(to: CMTimeClampToRange(target, range: CMTimeRange(start: .zero, duration: item.duration)))
    }

    /// The speed menu: time-domain stretching keeps speech at pitch (varispeed would not).
    func setSpeed(_ newSpeed: Float) {
        guard let item = player.currentItem,
            newSpeed <= 1 || item.canPlayFastForward, newSpeed >= 1 || item.canPlaySlowForward
        else { return }
        item.audioTimePitchAlgorithm = newSpeed > 2 ? .spectral : .timeDomain
        player.defaultRate = newSpeed  // what play() and the lock screen resume at
        if player.timeControlStatus != .paused { player.rate = newSpeed }
        speed = newSpeed
    }

    /// The sleep timer's "end of chapter" ("end of episode" without chapters).
    func sleepAtEndOfChapter(_ enabled: Bool) {
        guard let item = player.currentItem else { return }
        sleepsAtChapterEnd = enabled
        let chapterEnd = currentChapterIndex.map { CMTimeRangeGetEnd(chapters[$0].timeRange) }
        item.forwardPlaybackEndTime = enabled ? (chapterEnd ?? .invalid) : .invalid
    }

    private func itemDidReachEnd() {
        guard let item = player.currentItem else { return }
        if sleepsAtChapterEnd {
            item.forwardPlaybackEndTime = .invalid  // so the next play goes on with the next chapter
            sleepsAtChapterEnd = false
        } else {
            player.seek(to: .zero)  // played: rewind for the next listen
        }
    }

    func tearDown() {
        if let timeObserver { player.removeTimeObserver(timeObserver) }
        if let endToken { NotificationCenter.default.removeObserver(endToken) }
        (timeObserver, endToken) = (nil, nil)
        statusObservation?.invalidate()
        player.replaceCurrentItem(with: nil)
    }
}
