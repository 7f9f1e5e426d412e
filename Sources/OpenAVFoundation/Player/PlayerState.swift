// Playhead: the mutable state behind an AVPlayer's properties.
//
// Concurrency: lives in `AVPlayer.state` (a lock). Published fields change only on the main
// queue; any thread may read.
import Dispatch
import Foundation

/// Everything an `AVPlayer` reports and tracks, in one value.
struct PlayerState {
    var status: AVPlayer.Status = .unknown
    var error: (any Error)?
    var currentItem: AVPlayerItem?
    var engine: ItemPlayback?
    var machine = PlaybackStateMachine()
    var defaultRate: Float = 1
    /// The rate a sound server's request to pause interrupted, and the item then current (nil:
    /// none, or the app set the rate since): its request to resume brings the rate back if
    /// that item is still current.
    var interruptedRate: InterruptedRate?
    var backgroundPolicy: AVPlayerAudiovisualBackgroundPlaybackPolicy = .automatic
    var preventsDisplaySleep = true
    var volume: Float = 1
    var isMuted = false
    /// The audio device asked for (`AVPlayer.audioOutputDeviceUniqueID`).
    var audioOutputDeviceUniqueID: String?
    /// The user's audio delay in seconds (`AVPlayer.audioDelay`).
    var audioDelay: TimeInterval = 0
    var actionAtItemEnd: AVPlayer.ActionAtItemEnd = .pause
    /// Completion handlers of prerolls still in progress (`preroll(atRate:)`).
    var prerolls: [@Sendable (Bool) -> Void] = []
    /// Selection criteria set with `setMediaSelectionCriteria(_:forMediaCharacteristic:)`.
    var selectionCriteria: [AVMediaCharacteristic: AVPlayerMediaSelectionCriteria] = [:]
    /// Whether automatic selections follow `selectionCriteria`.
    var appliesMediaSelectionCriteriaAutomatically = true
    /// Whether automatic selection shows the subtitle track the container flags as default
    /// (`AVPlayer.showsFlaggedDefaultSubtitles`).
    var showsFlaggedDefaultSubtitles = false
    var timeObservers: [TimeObserver] = []
    /// The item time when time observers were last evaluated.
    var lastObservedTime: CMTime = .invalid

    var timeControlStatus: AVPlayer.TimeControlStatus {
        switch machine.timeControl {
        case .paused: return .paused
        case .waiting: return .waitingToPlayAtSpecifiedRate
        case .playing: return .playing
        }
    }

    var reasonForWaitingToPlay: AVPlayer.WaitingReason? {
        switch machine.waitReason {
        case .toMinimizeStalls?: return .toMinimizeStalls
        case .evaluatingBufferingRate?: return .evaluatingBufferingRate
        case .noItemToPlay?: return .noItemToPlay
        case nil: return nil
        }
    }

    static func machineAction(_ action: AVPlayer.ActionAtItemEnd) -> PlaybackStateMachine.ActionAtEnd {
        switch action {
        case .advance: return .advance
        case .pause: return .pause
        case .none: return .none
        }
    }
}

/// A registered periodic or boundary time observer.
final class TimeObserver: @unchecked Sendable {
    enum Kind {
        case periodic(interval: CMTime, block: @Sendable (CMTime) -> Void)
        case boundary(times: [CMTime], block: @Sendable () -> Void)
    }

    let kind: Kind
    let queue: DispatchQueue
    /// protected by the owning player's state lock
    var isRemoved = false

    init(kind: Kind, queue: DispatchQueue) {
        self.kind = kind
        self.queue = queue
    }
}

/// The rate a sound server's request to pause interrupted, and the item it interrupted (held
/// weakly: an item let go of is never the current one again).
struct InterruptedRate {
    let rate: Float
    weak var item: AVPlayerItem?
    /// The player's `defaultRate` when the interruption began: one the app sets meanwhile (a
    /// speed chosen while the call plays) is the rate play resumes at.
    var defaultRate: Float = 1
}
