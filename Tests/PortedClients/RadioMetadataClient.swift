// Playhead: a client written the way internet-radio and HLS wrappers are: it shows the title the
// stream announces (timed ID3 through AVPlayerItemMetadataOutput, Shoutcast titles through the
// older timedMetadata observation), prerolls before a scheduled start, prefers a subtitle
// language, and reads codec facts from the tracks' format descriptions. Ported as
// docs/porting.md says: only the import changes. Type-checked in the Swift 5 and Swift 6
// language modes by scripts/check-ported-clients.sh.
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

extension AVPlayer {
    /// Starts playback once the current item is prerolled, as schedulers do.
    func startWhenPrerolled(completion: @escaping @Sendable (Bool) -> Void) {
        preroll(atRate: 1) { [weak self] finished in
            if finished { DispatchQueue.main.async { self?.play() } }
            completion(finished)
        }
    }

    /// Starts every player of a video wall at the same item time on the same host-clock tick.
    static func startTogether(_ players: [AVPlayer], at itemTime: CMTime, after delay: Double = 0.5) {
        let hostTime = CMTimeAdd(CMClockGetTime(CMClockGetHostTimeClock()), CMTime(seconds: delay, preferredTimescale: 1_000_000_000))
        for player in players {
            player.automaticallyWaitsToMinimizeStalling = false
            player.setRate(1, time: itemTime, atHostTime: hostTime)
        }
    }

    /// Shows subtitles in the user's language by default.
    func preferSubtitles(in language: String) {
        let criteria = AVPlayerMediaSelectionCriteria(
            preferredLanguages: [language], preferredMediaCharacteristics: [.legible])
        setMediaSelectionCriteria(criteria, forMediaCharacteristic: .legible)
        appliesMediaSelectionCriteriaAutomatically = true
    }
}

/// The wrapper: a nonisolated class that is its own metadata delegate.
final class RadioMetadataClient: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
    let player = AVPlayer()
    private let output = AVPlayerItemMetadataOutput(identifiers: nil)
    private var observation: NSKeyValueObservation?
    private(set) var nowPlaying: String?
    private(set) var codecs: [String] = []

    func play(_ url: URL) {
        let item = AVPlayerItem(url: url)
        output.setDelegate(self, queue: DispatchQueue.main)
        item.add(output)
        observation = item.observe(\.timedMetadata, options: [.new]) { [weak self] item, _ in
            let title = item.timedMetadata?.first { $0.commonKey == .commonKeyTitle }?.stringValue
            DispatchQueue.main.async { self?.nowPlaying = title }
        }
        player.replaceCurrentItem(with: item)
        player.preferSubtitles(in: Locale.current.identifier)
        player.startWhenPrerolled { finished in
            if !finished { NSLog("preroll interrupted") }
        }
        Task { [weak self] in
            let tracks = (try? await item.asset.load(.tracks)) ?? []
            var names: [String] = []
            for track in tracks {
                for description in (try? await track.load(.formatDescriptions)) ?? [] {
                    let subType = CMFormatDescriptionGetMediaSubType(description)
                    if let basic = CMAudioFormatDescriptionGetStreamBasicDescription(description)?.pointee {
                        names.append("\(subType) \(basic.mSampleRate) Hz")
                    } else {
                        let size = CMVideoFormatDescriptionGetDimensions(description)
                        names.append("\(subType) \(size.width)x\(size.height)")
                    }
                }
            }
            let found = names
            DispatchQueue.main.async { self?.codecs = found }
        }
    }

    func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?
    ) {
        let items = groups.last?.items ?? []
        let title = AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .id3MetadataTitleDescription).first
            ?? AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .icyMetadataStreamTitle).first
        nowPlaying = title?.stringValue
    }

    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {
        nowPlaying = nil
    }

    /// The now-playing title as an item an app hands on (to a queue view, say).
    var nowPlayingItem: AVMetadataItem {
        let item = AVMutableMetadataItem()
        item.identifier = .commonIdentifierTitle
        item.value = (nowPlaying ?? "") as NSString
        item.extendedLanguageTag = "und"
        return item.copy() as! AVMetadataItem
    }

    func stop() {
        player.cancelPendingPrerolls()
        observation?.invalidate()
        player.replaceCurrentItem(with: nil)
    }
}
