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
    /// Posted when the item's access log gains an event (`accessLog()`). Object: the item.
    nonisolated public static let newAccessLogEntryNotification = NSNotification.Name(
        "AVPlayerItemNewAccessLogEntryNotification")
    /// Posted when the item's error log gains an event (`errorLog()`). Object: the item.
    nonisolated public static let newErrorLogEntryNotification = NSNotification.Name(
        "AVPlayerItemNewErrorLogEntryNotification")
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
    /// The access log gained an event. Same as `AVPlayerItem.newAccessLogEntryNotification`.
    public static let AVPlayerItemNewAccessLogEntry = AVPlayerItem.newAccessLogEntryNotification
    /// The error log gained an event. Same as `AVPlayerItem.newErrorLogEntryNotification`.
    public static let AVPlayerItemNewErrorLogEntry = AVPlayerItem.newErrorLogEntryNotification
}

/// The userInfo key of `AVPlayerItemFailedToPlayToEndTime` notifications; its value is the
/// error (`NSError`).
public let AVPlayerItemFailedToPlayToEndTimeErrorKey: String = "AVPlayerItemFailedToPlayToEndTimeErrorKey"

extension AVPlayerItem {
    /// Posts `name` for this item.
    ///
    /// On the main thread (an app's event loop, `RunLoop.main.run()`) it posts at once, so
    /// observers run there. When the main queue is drained by a worker thread instead
    /// (`dispatchMain()`, an async `main`), a post from it would wait for main-queue observers
    /// that can never run while it waits (corelibs Foundation blocks a `queue: .main` post
    /// made off the main thread); there it posts from a serial background queue, in order:
    /// `queue: .main` observers still run on the main queue, `queue: nil` observers run on
    /// that background queue (Apple also allows item notifications on any thread).
    nonisolated func post(_ name: NSNotification.Name, userInfo: [String: any Sendable]? = nil) {
        postInOrder(name, object: self, userInfo: userInfo)
    }
}

extension AVPlayer {
    /// Posts `name` for this player, as `AVPlayerItem.post(_:userInfo:)` does for items.
    nonisolated func post(_ name: NSNotification.Name, userInfo: [String: any Sendable]? = nil) {
        postInOrder(name, object: self, userInfo: userInfo)
    }
}

/// Posts `name` from `object` at once on the main thread, else in order from a background
/// queue (see `AVPlayerItem.post(_:userInfo:)` for why).
private func postInOrder(_ name: NSNotification.Name, object: AnyObject, userInfo: [String: any Sendable]?) {
    let sender = UncheckedBox(object)
    let send = { @Sendable in
        NotificationCenter.default.post(name: name, object: sender.value, userInfo: userInfo)
    }
    if Thread.isMainThread { send() } else { notificationQueue.async(execute: send) }
}

/// Posts item notifications in order when the main thread is not the poster.
private let notificationQueue = DispatchQueue(label: "playhead.notifications")

/// Carries a non-Sendable value across a queue hop whose two sides never touch it at once
/// (to the main queue, or from a worker that made it to the one thread that uses it next).
package struct UncheckedBox<Value>: @unchecked Sendable {
    /// The value carried.
    package let value: Value
    /// Boxes `value`.
    package init(_ value: Value) { self.value = value }
}
