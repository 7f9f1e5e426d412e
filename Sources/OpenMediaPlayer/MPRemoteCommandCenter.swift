// Playhead: the app's remote commands, offered to the desktop over MPRIS: the process's shared
// set, or the set of the active now-playing session.
//
// Concurrency: the commands are created once in `init` and never replaced; each guards its own
// state. Any change to a command of the published set hands the MPRIS server a new snapshot
// (`MPRISService`), and commands arriving from the bus are delivered on the main queue.
import Foundation

/// The commands the desktop can send to the app: media keys, GNOME's and KDE's media controls,
/// KDE Connect, `playerctl`. Register handlers as an iOS app does; on Linux the commands arrive
/// over MPRIS (the `org.mpris.MediaPlayer2.Player` interface on the session bus), and handlers
/// run on the main queue.
open class MPRemoteCommandCenter: @unchecked Sendable {
    private static let instance = MPRemoteCommandCenter()

    /// The process's command center: the one the desktop's commands reach unless an
    /// ``MPNowPlayingSession`` is active (then its ``MPNowPlayingSession/remoteCommandCenter``).
    open class func shared() -> MPRemoteCommandCenter { instance }

    /// Start playing (MPRIS Play, and PlayPause while paused when the toggle has no target).
    public let playCommand = MPRemoteCommand()
    /// Pause (MPRIS Pause, and PlayPause while playing when the toggle has no target).
    public let pauseCommand = MPRemoteCommand()
    /// Toggle between playing and paused (MPRIS PlayPause, the play/pause media key).
    public let togglePlayPauseCommand = MPRemoteCommand()
    /// Stop playback (MPRIS Stop).
    public let stopCommand = MPRemoteCommand()
    /// Go to the next item (MPRIS Next; CanGoNext).
    public let nextTrackCommand = MPRemoteCommand()
    /// Go to the previous item (MPRIS Previous; CanGoPrevious).
    public let previousTrackCommand = MPRemoteCommand()
    /// Jump to a position (MPRIS SetPosition, and Seek when it has a target).
    public let changePlaybackPositionCommand = MPChangePlaybackPositionCommand()
    /// Skip forward (MPRIS Seek with a positive offset when position changes have no target).
    public let skipForwardCommand = MPSkipIntervalCommand()
    /// Skip backward (MPRIS Seek with a negative offset when position changes have no target).
    public let skipBackwardCommand = MPSkipIntervalCommand()
    /// Change the playback rate (writing the MPRIS Rate property).
    public let changePlaybackRateCommand = MPChangePlaybackRateCommand()
    /// Change the repeat mode (writing the MPRIS LoopStatus property).
    public let changeRepeatModeCommand = MPChangeRepeatModeCommand()
    /// Change the shuffle mode (writing the MPRIS Shuffle property).
    public let changeShuffleModeCommand = MPChangeShuffleModeCommand()
    /// Seek forward while a button is held. Never sent on Linux: MPRIS has no held seek (a
    /// desktop's seek arrives as `skipForwardCommand` or `changePlaybackPositionCommand`).
    public let seekForwardCommand = MPRemoteCommand()
    /// Seek backward while a button is held. Never sent on Linux, as `seekForwardCommand`.
    public let seekBackwardCommand = MPRemoteCommand()
    /// Rate what plays. Never sent on Linux: MPRIS has no rating request.
    public let ratingCommand = MPRatingCommand()
    /// Like what plays. Never sent on Linux: MPRIS has no feedback request.
    public let likeCommand = MPFeedbackCommand()
    /// Dislike what plays. Never sent on Linux.
    public let dislikeCommand = MPFeedbackCommand()
    /// Bookmark what plays. Never sent on Linux.
    public let bookmarkCommand = MPFeedbackCommand()
    /// Turn a language option on (an ``MPChangeLanguageOptionCommandEvent``). Never sent on
    /// Linux: MPRIS has no languages.
    public let enableLanguageOptionCommand = MPRemoteCommand()
    /// Turn a language option off. Never sent on Linux.
    public let disableLanguageOptionCommand = MPRemoteCommand()

    /// A center of its own (an ``MPNowPlayingSession``'s); its commands reach the app only while
    /// that session is active.
    init() {
        for command in allCommands {
            command.onChange = { [weak self] in
                if let self { MPRISService.shared.commandsChanged(in: self) }
            }
        }
    }

    var allCommands: [MPRemoteCommand] {
        [
            playCommand, pauseCommand, togglePlayPauseCommand, stopCommand, nextTrackCommand,
            previousTrackCommand, changePlaybackPositionCommand, skipForwardCommand, skipBackwardCommand,
            changePlaybackRateCommand, changeRepeatModeCommand, changeShuffleModeCommand, seekForwardCommand,
            seekBackwardCommand, ratingCommand, likeCommand, dislikeCommand, bookmarkCommand,
            enableLanguageOptionCommand, disableLanguageOptionCommand,
        ]
    }

    /// What the desktop may send now, for the MPRIS server's snapshot.
    var availability: RemoteCommandAvailability {
        RemoteCommandAvailability(
            play: playCommand.isAvailable, pause: pauseCommand.isAvailable,
            togglePlayPause: togglePlayPauseCommand.isAvailable, stop: stopCommand.isAvailable,
            next: nextTrackCommand.isAvailable, previous: previousTrackCommand.isAvailable,
            changePosition: changePlaybackPositionCommand.isAvailable,
            skipForward: skipForwardCommand.isAvailable, skipBackward: skipBackwardCommand.isAvailable,
            changeRate: changePlaybackRateCommand.isAvailable,
            rates: changePlaybackRateCommand.supportedPlaybackRates.map(\.doubleValue),
            changeRepeat: changeRepeatModeCommand.isAvailable, repeatType: changeRepeatModeCommand.currentRepeatType,
            changeShuffle: changeShuffleModeCommand.isAvailable, shuffleType: changeShuffleModeCommand.currentShuffleType)
    }
}
