// Playhead: what a remote command's handler receives and returns (Apple's MediaPlayer names).
//
// Concurrency: events are immutable once made (on the main queue, just before delivery).
import Foundation

/// What a command handler tells the sender: whether the command was carried out, and if not,
/// why. A status other than `.success` is sent back to the desktop as a D-Bus error.
public enum MPRemoteCommandHandlerStatus: Int, Sendable {
    /// The command was carried out.
    case success = 0
    /// The content the command asks for (a next track, say) does not exist.
    case noSuchContent = 100
    /// Nothing is playing that the command could act on.
    case noActionableNowPlayingItem = 110
    /// The device the command needs is not available.
    case deviceNotFound = 120
    /// The command could not be carried out for another reason.
    case commandFailed = 200
}

/// One delivery of a remote command to a handler (a media key, the desktop's media controls,
/// `playerctl`): the command it is for and when it arrived.
open class MPRemoteCommandEvent: @unchecked Sendable {
    /// The command this event was sent for.
    public let command: MPRemoteCommand
    /// When the request arrived, in seconds since the system booted (a monotonic clock).
    public let timestamp: TimeInterval

    init(command: MPRemoteCommand) {
        self.command = command
        timestamp = ProcessInfo.processInfo.systemUptime
    }
}

/// An event asking playback to jump to a position in the current item.
open class MPChangePlaybackPositionCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The position to jump to, in seconds from the item's start.
    public let positionTime: TimeInterval

    init(command: MPRemoteCommand, positionTime: TimeInterval) {
        self.positionTime = positionTime
        super.init(command: command)
    }
}

/// An event asking playback to skip forward or backward by an interval.
open class MPSkipIntervalCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// How far to skip, in seconds (always positive; the command says which direction).
    public let interval: TimeInterval

    init(command: MPRemoteCommand, interval: TimeInterval) {
        self.interval = interval
        super.init(command: command)
    }
}

/// An event asking playback to change its rate.
open class MPChangePlaybackRateCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The rate asked for (1 is normal speed).
    public let playbackRate: Float

    init(command: MPRemoteCommand, playbackRate: Float) {
        self.playbackRate = playbackRate
        super.init(command: command)
    }
}

/// An event asking for another repeat mode.
open class MPChangeRepeatModeCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The repeat mode asked for.
    public let repeatType: MPRepeatType
    /// Whether the mode should be kept between playback sessions (always false from the
    /// desktop, which has no such notion).
    public let preservesRepeatMode: Bool

    init(command: MPRemoteCommand, repeatType: MPRepeatType, preservesRepeatMode: Bool = false) {
        self.repeatType = repeatType
        self.preservesRepeatMode = preservesRepeatMode
        super.init(command: command)
    }
}

/// An event asking for another shuffle mode.
open class MPChangeShuffleModeCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The shuffle mode asked for (`.items` when the desktop turns shuffling on).
    public let shuffleType: MPShuffleType
    /// Whether the mode should be kept between playback sessions (always false from the
    /// desktop).
    public let preservesShuffleMode: Bool

    init(command: MPRemoteCommand, shuffleType: MPShuffleType, preservesShuffleMode: Bool = false) {
        self.shuffleType = shuffleType
        self.preservesShuffleMode = preservesShuffleMode
        super.init(command: command)
    }
}

/// Whether a held seek button starts or ends seeking.
public enum MPSeekCommandEventType: UInt, Sendable {
    /// The button went down: seek on until it comes up.
    case beginSeeking = 0
    /// The button came up.
    case endSeeking = 1
}

/// An event of a held seek button (never sent on Linux: MPRIS has no held seek).
open class MPSeekCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// Whether seeking begins or ends.
    public let type: MPSeekCommandEventType

    init(command: MPRemoteCommand, type: MPSeekCommandEventType) {
        self.type = type
        super.init(command: command)
    }
}

/// An event giving feedback (never sent on Linux).
open class MPFeedbackCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// True when the feedback is taken back (an unlike).
    public let isNegative: Bool

    init(command: MPRemoteCommand, isNegative: Bool) {
        self.isNegative = isNegative
        super.init(command: command)
    }
}

/// An event rating what plays (never sent on Linux).
open class MPRatingCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    /// The rating, within the command's range.
    public let rating: Float

    init(command: MPRemoteCommand, rating: Float) {
        self.rating = rating
        super.init(command: command)
    }
}
