// Playhead: a client written the way open-source live-TV and sports players are (an HLS stream
// with a DVR window: the LIVE badge and the go-to-live button worked out from
// seekableTimeRanges and the item's live offset; the programme clock from currentDate() and
// "watch from the start" through seek(to: Date); programmes and ad breaks from EXT-X-DATERANGE
// through AVPlayerItemMetadataCollector; captions the app draws itself through
// AVPlayerItemLegibleOutput; stalls and the error log sent to a stream-health screen), ported as
// docs/porting.md says: only the import changes. The caption view and the AirPlay button are
// left out. It must type-check with no errors in the Swift 5 and Swift 6 language modes
// (scripts/check-ported-clients.sh, run by `make test`).
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// One EXT-X-DATERANGE as the schedule bar shows it: a programme or an ad break.
struct ScheduleMarker: Equatable {
    let id: String
    let kind: String?  // the CLASS attribute
    let start: Date
    let end: Date?
    let title: String?
    let spliceOut: Data?  // SCTE35-OUT

    func contains(_ date: Date) -> Bool { start <= date && date < (end ?? .distantFuture) }
}

extension AVPlayerItem {
    /// A live stream's DVR window, from the start of its first seekable range to the end of its
    /// last; nil for on-demand items.
    var dvrWindow: CMTimeRange? {
        guard CMTIME_IS_INDEFINITE(duration), let first = seekableTimeRanges.first?.timeRangeValue,
            let last = seekableTimeRanges.last?.timeRangeValue
        else { return nil }
        return CMTimeRangeFromTimeToTime(start: first.start, end: CMTimeRangeGetEnd(last))
    }
}

/// A live player's model: the player, where it is in the window, the schedule, the captions.
@MainActor
final class LiveStreamController: NSObject, AVPlayerItemMetadataCollectorPushDelegate,
    AVPlayerItemLegibleOutputPushDelegate
{
    static let adClass = "com.example.ad"
    let player = AVPlayer()
    var liveTolerance: Double = 8
    private(set) var isAtLiveEdge = false
    private(set) var secondsBehindLive: Double = 0
    private(set) var programmeDate: Date?
    private(set) var schedule: [ScheduleMarker] = []
    private(set) var captionLines: [String] = []
    private(set) var stallCount = 0
    private(set) var healthLog: [String] = []
    private let collector = AVPlayerItemMetadataCollector()
    private let captions = AVPlayerItemLegibleOutput(mediaSubtypesForNativeRepresentation: [])
    private var timeObserver: Any?
    private var tokens: [NSObjectProtocol] = []
    private var observations: [NSKeyValueObservation] = []

    init(url: URL, token: String?, allowsCellular: Bool) {
        var options: [String: Any] = [AVURLAssetAllowsCellularAccessKey: allowsCellular]
        if let token { options["AVURLAssetHTTPHeaderFieldsKey"] = ["Authorization": "Bearer \(token)"] }
        let item = AVPlayerItem(asset: AVURLAsset(url: url, options: options))
        // Everyone watching sees the goal at the same moment: a fixed distance behind the edge,
        // returned to after stalls.
        item.configuredTimeOffsetFromLive = CMTime(value: 12, timescale: 1)
        item.automaticallyPreservesTimeOffsetFromLive = true
        super.init()
        collector.setDelegate(self, queue: .main)
        item.add(collector)
        captions.suppressesPlayerRendering = true
        captions.textStylingResolution = .sourceAndRulesOnly
        captions.advanceIntervalForDelegateInvocation = 0.1
        captions.setDelegate(self, queue: .main)
        item.add(captions)
        player.replaceCurrentItem(with: item)
        startObserving(item)
    }

    private func startObserving(_ item: AVPlayerItem) {
        timeObserver = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: .main) {
            [weak self] _ in MainActor.assumeIsolated { self?.updateLiveState() }
        }
        observations.append(
            item.observe(\.recommendedTimeOffsetFromLive, options: [.new]) { [weak self] item, _ in
                self?.log("recommended offset \(CMTimeGetSeconds(item.recommendedTimeOffsetFromLive)) s")
            })
        let center = NotificationCenter.default
        tokens = [
            center.addObserver(forName: AVPlayerItem.playbackStalledNotification, object: item, queue: .main) {
                [weak self] _ in MainActor.assumeIsolated { self?.stallCount += 1 }
            },
            center.addObserver(forName: AVPlayerItem.newErrorLogEntryNotification, object: item, queue: .main) {
                [weak self] _ in MainActor.assumeIsolated { self?.errorLogDidChange() }
            },
            center.addObserver(forName: AVPlayerItem.timeJumpedNotification, object: item, queue: .main) {
                [weak self] _ in MainActor.assumeIsolated { self?.updateLiveState() }
            },
        ]
    }

    private func updateLiveState() {
        guard let item = player.currentItem, let window = item.dvrWindow else { return isAtLiveEdge = false }
        let behind = CMTimeSubtract(CMTimeRangeGetEnd(window), item.currentTime())
        secondsBehindLive = max(0, CMTimeGetSeconds(behind))
        isAtLiveEdge = secondsBehindLive <= CMTimeGetSeconds(targetOffset(of: item)) + liveTolerance
        programmeDate = item.currentDate()
    }

    private func targetOffset(of item: AVPlayerItem) -> CMTime {
        if item.configuredTimeOffsetFromLive.isNumeric { return item.configuredTimeOffsetFromLive }
        return item.recommendedTimeOffsetFromLive.isNumeric ? item.recommendedTimeOffsetFromLive : CMTimeMake(value: 18, timescale: 1)
    }

    // MARK: Buttons

    /// The LIVE button: back to the offset behind the edge, playing at once.
    func goLive() {
        guard let item = player.currentItem, let window = item.dvrWindow else { return }
        let target = CMTimeMaximum(window.start, CMTimeSubtract(CMTimeRangeGetEnd(window), targetOffset(of: item)))
        player.seek(to: target, toleranceBefore: .positiveInfinity, toleranceAfter: .zero) { [weak self] finished in
            if finished { DispatchQueue.main.async { self?.player.playImmediately(atRate: 1) } }
        }
    }

    /// "Watch from the start" of a programme on the schedule (the playlist dates its segments).
    func watchFromStart(_ programme: ScheduleMarker) {
        player.seek(to: programme.start) { [weak self] finished in
            DispatchQueue.main.async { self?.log(finished ? "restarted \(programme.title ?? programme.id)" : "restart interrupted") }
        }
    }

    /// Skips the ad break playing now, when the window already holds its end.
    func skipAdBreak() async {
        guard let item = player.currentItem, let now = item.currentDate(),
            let ad = schedule.first(where: { $0.kind == Self.adClass && $0.contains(now) }), let end = ad.end
        else { return }
        if await item.seek(to: end) { player.play() } else { log("end of \(ad.id) not in the window yet") }
    }

    // MARK: Delegates (called on the main queue)

    nonisolated func metadataCollector(
        _ metadataCollector: AVPlayerItemMetadataCollector, didCollect metadataGroups: [AVDateRangeMetadataGroup],
        indexesOfNewGroups: IndexSet, indexesOfModifiedGroups: IndexSet
    ) {
        let changed = indexesOfNewGroups.union(indexesOfModifiedGroups).map { Self.marker(from: metadataGroups[$0]) }
        MainActor.assumeIsolated { merge(changed) }
    }

    private nonisolated static func marker(from group: AVDateRangeMetadataGroup) -> ScheduleMarker {
        func attribute(_ name: String) -> AVMetadataItem? {
            guard let identifier = AVMetadataItem.identifier(forKey: name, keySpace: .hlsDateRange) else { return nil }
            return AVMetadataItem.metadataItems(from: group.items, filteredByIdentifier: identifier).first
        }
        return ScheduleMarker(
            id: group.uniqueID ?? "\(group.startDate.timeIntervalSince1970)", kind: group.classifyingLabel,
            start: group.startDate, end: group.endDate, title: attribute("X-COM-EXAMPLE-TITLE")?.stringValue,
            spliceOut: attribute("SCTE35-OUT")?.dataValue)
    }

    private func merge(_ markers: [ScheduleMarker]) {
        for marker in markers {
            if let index = schedule.firstIndex(where: { $0.id == marker.id }) { schedule[index] = marker } else { schedule.append(marker) }
        }
        schedule.sort { $0.start < $1.start }
    }

    nonisolated func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime
    ) {
        let lines = strings.flatMap { $0.string.components(separatedBy: "\n") }
        MainActor.assumeIsolated { captionLines = lines }
    }

    nonisolated func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {
        MainActor.assumeIsolated { captionLines = [] }
    }

    // MARK: Stream health

    private func errorLogDidChange() {
        guard let event = player.currentItem?.errorLog()?.events.last else { return }
        let when = event.date.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
        log("\(when) \(event.errorDomain) \(event.errorStatusCode): \(event.errorComment ?? "") [\(event.uri ?? "?")]")
    }

    /// The report a support screen uploads: the error log as W3C extended log text.
    func errorReport() -> String? {
        guard let errors = player.currentItem?.errorLog(), let data = errors.extendedLogData() else { return nil }
        return String(data: data, encoding: String.Encoding(rawValue: errors.extendedLogDataStringEncoding))
    }

    private func log(_ line: String) { healthLog.append(line) }

    func tearDown() {
        if let timeObserver { player.removeTimeObserver(timeObserver) }
        timeObserver = nil
        tokens.forEach(NotificationCenter.default.removeObserver)
        observations.removeAll()
        player.currentItem?.remove(captions)
        player.currentItem?.remove(collector)
        player.replaceCurrentItem(with: nil)
    }
}
