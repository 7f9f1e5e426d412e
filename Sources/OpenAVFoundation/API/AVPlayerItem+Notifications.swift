// Playhead: the notifications an AVPlayerItem posts.
import Foundation

extension AVPlayerItem {
    /// Posted when the item plays to its end (or `forwardPlaybackEndTime`). Object: the item.
    nonisolated public static let didPlayToEndTimeNotification = NSNotification.Name(
        "AVPlayerItemDidPlayToEndTimeNotification")
    /// Posted when the item fails after playback started. Object: the item; userInfo holds the
    /// error under `AVPlayerItemFailedToPlayToEndTimeErrorKey`.
    nonisolated public static let failedToPlayToEndTimeNotification = NSNotification.Name(
        "AVPlayerItemFailedToPlayToEndTimeNotification")
    /// Posted when playback stalls because media did not arrive in time. Object: the item.
    nonisolated public static let playbackStalledNotification = NSNotification.Name(
        "AVPlayerItemPlaybackStalledNotification")
    /// Posted when the item's time jumps (a seek, or a jump not caused by normal playback).
    /// Object: the item.
    nonisolated public static let timeJumpedNotification = NSNotification.Name(
        "AVPlayerItemTimeJumpedNotification")
}

extension NSNotification.Name {
    /// The item played to its end. Same as `AVPlayerItem.didPlayToEndTimeNotification`.
    public static let AVPlayerItemDidPlayToEndTime = AVPlayerItem.didPlayToEndTimeNotification
    /// The item failed during playback. Same as `AVPlayerItem.failedToPlayToEndTimeNotification`.
    public static let AVPlayerItemFailedToPlayToEndTime =
        AVPlayerItem.failedToPlayToEndTimeNotification
    /// Playback stalled. Same as `AVPlayerItem.playbackStalledNotification`.
    public static let AVPlayerItemPlaybackStalled = AVPlayerItem.playbackStalledNotification
    /// The item's time jumped. Same as `AVPlayerItem.timeJumpedNotification`.
    public static let AVPlayerItemTimeJumped = AVPlayerItem.timeJumpedNotification
}

/// The userInfo key of `AVPlayerItemFailedToPlayToEndTime` notifications; its value is the
/// error (`NSError`).
public let AVPlayerItemFailedToPlayToEndTimeErrorKey: String = "AVPlayerItemFailedToPlayToEndTimeErrorKey"

extension AVPlayerItem {
    /// Posts `name` for this item from the main queue (never synchronously from engine
    /// threads: a background post to a main-queue observer would block on Linux).
    nonisolated func post(_ name: NSNotification.Name, userInfo: [String: any Sendable]? = nil) {
        let item = UncheckedBox(self)
        MainQueue.perform {
            NotificationCenter.default.post(name: name, object: item.value, userInfo: userInfo)
        }
    }
}

/// Carries a non-Sendable reference to the main queue.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
