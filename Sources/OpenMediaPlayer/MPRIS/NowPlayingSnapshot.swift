// Playhead: the state the MPRIS server answers from: an immutable value built when the app
// changes what is playing or which commands it handles, and handed to the bus thread.

import Foundation

/// Which remote commands the desktop may send now (enabled, with a target).
struct RemoteCommandAvailability: Sendable, Equatable {
    var play = false
    var pause = false
    var togglePlayPause = false
    var stop = false
    var next = false
    var previous = false
    var changePosition = false
    var skipForward = false
    var skipBackward = false
    var changeRate = false
    /// The rates the app supports (empty: only the current one).
    var rates: [Double] = []
    /// The repeat mode may be changed (MPRIS LoopStatus is offered), and what it is.
    var changeRepeat = false
    var repeatType = MPRepeatType.off
    /// The shuffle mode may be changed (MPRIS Shuffle is offered), and what it is.
    var changeShuffle = false
    var shuffleType = MPShuffleType.off
}

/// Everything the desktop may read: what plays, how, and what can be asked.
struct NowPlayingSnapshot: Sendable {
    var info: NowPlayingInfo?
    var state: MPNowPlayingPlaybackState = .unknown
    var commands = RemoteCommandAvailability()
    /// Counts the items published so far; part of the MPRIS track id.
    var trackNumber = 0

    /// MPRIS PlaybackStatus: "Playing", "Paused" or "Stopped".
    var playbackStatus: String {
        switch state {
        case .playing: return "Playing"
        case .paused, .interrupted: return "Paused"
        case .stopped: return "Stopped"
        case .unknown:
            guard let info else { return "Stopped" }
            return (info.rate ?? 0) > 0 ? "Playing" : "Paused"
        }
    }

    /// The object path naming the current item (MPRIS `mpris:trackid`).
    var trackID: String {
        info == nil ? "/org/mpris/MediaPlayer2/TrackList/NoTrack" : "/org/mpris/MediaPlayer2/playhead/track/\(trackNumber)"
    }

    /// The rate while playing (MPRIS Rate, never 0).
    var rate: Double {
        if let rate = info?.rate, rate > 0 { return rate }
        if let rate = info?.defaultRate, rate > 0 { return rate }
        return 1
    }

    /// The lowest and highest rate the desktop may ask for.
    var rateRange: ClosedRange<Double> {
        let supported = commands.changeRate ? commands.rates.filter { $0 > 0 } : []
        guard let low = supported.min(), let high = supported.max() else { return rate...rate }
        return min(low, rate)...max(high, rate)
    }

    /// The position in seconds at uptime `now`: the elapsed time as set, run on while playing
    /// at the rate given with it (1 when none was given; 0 while, say, buffering), within the
    /// item's length.
    func position(at now: TimeInterval) -> Double {
        guard let info else { return 0 }
        var position = info.elapsed
        if playbackStatus == "Playing" {
            position += max(0, info.rate ?? 1) * max(0, now - info.setAt)
        }
        if let duration = info.duration, duration > 0 { position = min(position, duration) }
        return max(0, position)
    }

    /// Microseconds, as MPRIS counts time.
    static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64((seconds * 1_000_000).rounded())
    }
}
