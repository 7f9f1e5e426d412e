// Playhead: the mutable state behind an AVPlayerItem's properties.
//
// Concurrency: lives in `AVPlayerItem.state` (a lock). Written only on the main queue (so
// observers run there); read from any thread.
import Foundation

/// Everything an `AVPlayerItem` reports, in one value.
struct ItemState {
    var status: AVPlayerItem.Status = .unknown
    var error: (any Error)?
    var duration: CMTime = .indefinite
    var presentationSize: CGSize = .zero
    var tracks: [AVPlayerItemTrack] = []
    var loadedTimeRanges: [CMTimeRange] = []
    var seekableTimeRanges: [CMTimeRange] = []
    var buffer = PlaybackStateMachine.Buffer()
    var preferredForwardBufferDuration: TimeInterval = 0
    var preferredPeakBitRate: Double = 0
    var preferredMaximumResolution = CGSize.zero
    /// Accepted, not applied (AVPlayerItem+Network.swift).
    var preferredPeakBitRateForExpensiveNetworks: Double = 0
    var startsOnFirstEligibleVariant = false
    var canUseNetworkResourcesForLiveStreamingWhilePaused = false
    /// The access and error logs of Playhead's HLS loader, once it streamed the item.
    var streamingLog: StreamingLog?
    /// The wall-clock dates of the item's HLS timeline, when its playlist has them.
    var programDates: ProgramDateMap?
    /// True when a live item's time fell out of the window while the player was paused: it
    /// resumes at the window's start (else at the live edge).
    var fellBehindLiveWindowWhilePaused = false
    /// `configuredTimeOffsetFromLive` and `recommendedTimeOffsetFromLive`.
    var configuredLiveOffset: CMTime = .invalid
    var recommendedLiveOffset: CMTime = .invalid
    /// `automaticallyPreservesTimeOffsetFromLive`.
    var preservesLiveOffset = false
    /// When a player first started opening the item (monotonic seconds), and the seconds from
    /// then until it was ready to play (the access log's `startupTime`).
    var openStartedAt: Double?
    var startupSeconds: Double?
    /// Stalls while the item played: how many, their seconds so far, and when the one going
    /// on began (monotonic seconds).
    var stallCount = 0
    var stallSeconds = 0.0
    var stallBegan: Double?
    var forwardPlaybackEndTime: CMTime = .invalid
    var reversePlaybackEndTime: CMTime = .invalid
    var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm = .timeDomain
    /// The playback running this item, while it is a player's current item.
    var engine: ItemPlayback?
    /// The engine a queue prepares for the item while it waits to be current (its stream may
    /// be open and its loader fetching already).
    var waitingEngine: WeakReference<ItemPlayback>?
    /// The time reported when no engine runs (before playback, after removal).
    var lastTime: CMTime = .zero
    /// Outputs attached with `add(_:)`.
    var outputs: [AVPlayerItemOutput] = []
    /// Collectors attached with `add(_:)`, and the HLS date ranges loaded so far (by first
    /// appearance; a later tag with the same ID replaces its range).
    var mediaDataCollectors: [AVPlayerItemMediaDataCollector] = []
    var dateRanges: [HLSDateRange] = []
    /// What the item's last engine did, kept when the item stops being current.
    var lastStatistics = PlaybackStatistics()
    /// The player the item belongs to (an item belongs to one player at a time).
    weak var player: AVPlayer?
    /// The seek whose completion handler has not run yet: the one place a pending seek lives,
    /// whether the item is current, prerolling in a queue, or not playing yet.
    var pendingSeek: SeekRequest?
    /// True once `pendingSeek` was handed to an engine of the item (current or prerolling);
    /// false while it waits for one.
    var pendingSeekIsRunning = false
    /// True once a seek was asked of the item (by the app, or by Playhead moving it to a start
    /// point): an `EXT-X-START` no longer applies when it opens.
    var hasBeenSought = false
    /// Options chosen with `select(_:in:)`, by group characteristic (absent: automatic).
    var mediaSelection: [AVMediaCharacteristic: MediaOptionSource?] = [:]
    /// What automatic selection last gave the engine, by group characteristic.
    var automaticSelection: [AVMediaCharacteristic: MediaOptionSource?] = [:]
    /// The items of the timed metadata group that applies now (`timedMetadata`).
    var timedMetadata: [AVMetadataItem]?
    /// The item's timebase, made when it first joins a player.
    var timebase: ItemTimebase?
    /// The app's subtitle styling (`textStyleRules`) and the look it works out to.
    var textStyleRules: [AVTextStyleRule]?
    var subtitleAppearance = SubtitleAppearance()
}

/// One seek request, as the player tracks it until its completion handler runs.
struct SeekRequest: Sendable {
    /// Identifies the request; a newer request supersedes older ones.
    let id: Int
    let target: CMTime
    let toleranceBefore: CMTime
    let toleranceAfter: CMTime
    let completion: (@Sendable (Bool) -> Void)?

    /// True when the request asks for the exact time (both tolerances zero).
    var isExact: Bool { toleranceBefore == .zero && toleranceAfter == .zero }
}
