// Playhead: the remote commands beyond play and seek: repeat and shuffle modes (MPRIS
// LoopStatus and Shuffle), and the commands Apple's remotes send that a Linux desktop has no
// request for (seek while held, rating, like, dislike, bookmark), offered so code written for
// iOS compiles and registers its handlers as it did.
//
// Concurrency: each command guards its own values with a lock of its own, as its targets are
// guarded (MPRemoteCommand.swift); a change of a mode tells the command center (the other
// settings are not shown to the desktop).
import Foundation

/// How the player repeats: nothing, the current item, or the whole list.
public enum MPRepeatType: Int, Sendable {
    /// Plays on to the end of the list and stops (MPRIS LoopStatus "None").
    case off = 0
    /// Plays the current item again and again ("Track").
    case one = 1
    /// Starts the list again after its last item ("Playlist").
    case all = 2
}

/// How the player orders what it plays: as listed, or shuffled by item or by collection.
public enum MPShuffleType: Int, Sendable {
    /// In the list's order (MPRIS Shuffle false).
    case off = 0
    /// Items in a random order (MPRIS Shuffle true).
    case items = 1
    /// Collections (albums) in a random order, each in its own order (MPRIS Shuffle true).
    case collections = 2
}

/// A value guarded by its own lock, for the commands' settings.
final class GuardedSetting<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var current: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    /// Changes the value in place, under the lock once.
    func modify(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
}

/// The command that changes the repeat mode (the desktop writing MPRIS LoopStatus, as
/// `playerctl loop Track` does). While it has a target the desktop sees `currentRepeatType`.
open class MPChangeRepeatModeCommand: MPRemoteCommand, @unchecked Sendable {
    private let type = GuardedSetting(MPRepeatType.off)

    /// The repeat mode the player is in, as the desktop shows it. A handler that returns
    /// `.success` leaves it at the mode asked for; the app may also set it itself.
    open var currentRepeatType: MPRepeatType {
        get { type.current }
        set {
            type.current = newValue
            onChange?()
        }
    }
}

/// The command that changes the shuffle mode (the desktop writing MPRIS Shuffle, as
/// `playerctl shuffle On` does). While it has a target the desktop sees `currentShuffleType`.
open class MPChangeShuffleModeCommand: MPRemoteCommand, @unchecked Sendable {
    private let type = GuardedSetting(MPShuffleType.off)

    /// The shuffle mode the player is in; the desktop sees on or off. A handler that returns
    /// `.success` leaves it at the mode asked for; the app may also set it itself.
    open var currentShuffleType: MPShuffleType {
        get { type.current }
        set {
            type.current = newValue
            onChange?()
        }
    }
}

/// A command that gives feedback on what plays: like, dislike, bookmark. No Linux desktop
/// sends one (MPRIS has no such request); its settings are kept as given.
open class MPFeedbackCommand: MPRemoteCommand, @unchecked Sendable {
    private let settings = GuardedSetting((active: false, title: "", shortTitle: ""))

    /// Whether the feedback is given now (a filled heart).
    open var isActive: Bool {
        get { settings.current.active }
        set { settings.modify { $0.active = newValue } }
    }

    /// The command's name as a remote would show it.
    open var localizedTitle: String {
        get { settings.current.title }
        set { settings.modify { $0.title = newValue } }
    }

    /// A shorter name, where room is short.
    open var localizedShortTitle: String {
        get { settings.current.shortTitle }
        set { settings.modify { $0.shortTitle = newValue } }
    }
}

/// The command that rates what plays, between two ratings. No Linux desktop sends one (MPRIS
/// has no such request); its range is kept as given.
open class MPRatingCommand: MPRemoteCommand, @unchecked Sendable {
    private let range = GuardedSetting((minimum: Float(0), maximum: Float(0)))

    /// The lowest rating.
    open var minimumRating: Float {
        get { range.current.minimum }
        set { range.modify { $0.minimum = newValue } }
    }

    /// The highest rating.
    open var maximumRating: Float {
        get { range.current.maximum }
        set { range.modify { $0.maximum = newValue } }
    }
}
