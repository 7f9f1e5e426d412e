// Playhead: what the MPRIS server answers to each method call, decided from the call and the
// current snapshot. The bus thread sends the answer; commands go on to the main queue.
//
// Concurrency: pure functions of their arguments; called on the MPRIS server's bus thread.
import Foundation

/// The answer to one method call.
enum MPRISOutcome: Equatable {
    /// Reply at once with these values (none: an empty reply).
    case reply([DBusValue])
    /// Reply with the same values, each wrapped in a variant (Properties.Get).
    case variantReply(DBusValue)
    /// Reply with a D-Bus error.
    case error(name: String, message: String)
    /// Run a command on the main queue; reply with its handler's status.
    case deliver(RemoteRequest)
}

/// D-Bus error names the server replies with.
enum MPRISErrors {
    static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    static let failed = "org.freedesktop.DBus.Error.Failed"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    static let readOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"

    /// The error for a command the app has not enabled or has no handler for.
    static func disabled(_ name: String) -> MPRISOutcome {
        .error(name: notSupported, message: "the player does not offer \(name) now")
    }

    /// The error for a handler that did not succeed, or nil for `.success`.
    static func failure(_ status: MPRemoteCommandHandlerStatus) -> (name: String, message: String)? {
        switch status {
        case .success: return nil
        case .noSuchContent: return (failed, "no such content")
        case .noActionableNowPlayingItem: return (failed, "nothing is playing")
        case .deviceNotFound: return (failed, "the device was not found")
        case .commandFailed: return (failed, "the command failed")
        }
    }
}

/// Decides the outcome of method calls on `/org/mpris/MediaPlayer2`.
enum MPRISMethodRouter {
    static func route(
        interface: String?, member: String, arguments: DBusArguments, snapshot: NowPlayingSnapshot,
        identity: MPRISIdentity, now: TimeInterval
    ) -> MPRISOutcome {
        switch (interface, member) {
        case (MPRISNames.introspectable, "Introspect"), (nil, "Introspect"):
            return .reply([.string(MPRISIntrospection.xml)])
        case (MPRISNames.peer, "Ping"), (nil, "Ping"):
            return .reply([])
        case (MPRISNames.properties, "Get"), (nil, "Get"):
            return get(arguments, snapshot, identity, now)
        case (MPRISNames.properties, "GetAll"), (nil, "GetAll"):
            guard let name = arguments.string(0) else { return invalid("GetAll takes an interface name") }
            if name == MPRISNames.properties || name == MPRISNames.introspectable { return .reply([.dictionary([])]) }
            guard let all = MPRISProperties.all(name, snapshot, identity, now: now) else {
                return .error(name: MPRISErrors.unknownInterface, message: "no interface \(name)")
            }
            return .reply([.dictionary(all)])
        case (MPRISNames.properties, "Set"), (nil, "Set"):
            return set(arguments, snapshot)
        case (MPRISNames.root, "Raise"), (MPRISNames.root, "Quit"):
            return .error(name: MPRISErrors.notSupported, message: "\(member) is not supported (CanRaise and CanQuit are false)")
        case (MPRISNames.player, _), (nil, _):
            return player(member, arguments, snapshot, now)
        default:
            return .error(name: MPRISErrors.unknownMethod, message: "no method \(member) on \(interface ?? "-")")
        }
    }

    private static func player(_ member: String, _ arguments: DBusArguments, _ snapshot: NowPlayingSnapshot, _ now: TimeInterval)
        -> MPRISOutcome
    {
        let commands = snapshot.commands
        switch member {
        case "Play": return commands.play ? .deliver(.play) : MPRISErrors.disabled("play")
        case "Pause": return commands.pause ? .deliver(.pause) : MPRISErrors.disabled("pause")
        case "PlayPause":
            if commands.togglePlayPause { return .deliver(.togglePlayPause) }
            if snapshot.playbackStatus == "Playing" {
                return commands.pause ? .deliver(.pause) : MPRISErrors.disabled("pause")
            }
            return commands.play ? .deliver(.play) : MPRISErrors.disabled("play")
        case "Stop": return commands.stop ? .deliver(.stop) : MPRISErrors.disabled("stop")
        case "Next": return commands.next ? .deliver(.next) : MPRISErrors.disabled("next track")
        case "Previous": return commands.previous ? .deliver(.previous) : MPRISErrors.disabled("previous track")
        case "Seek":
            guard let offset = arguments.int64(0) else { return invalid("Seek takes an offset in microseconds (x)") }
            return seek(by: Double(offset) / 1_000_000, snapshot, now)
        case "SetPosition":
            guard let track = arguments.string(0), let microseconds = arguments.int64(1) else {
                return invalid("SetPosition takes a track id (o) and a position in microseconds (x)")
            }
            guard commands.changePosition else { return MPRISErrors.disabled("position changes") }
            let position = Double(microseconds) / 1_000_000
            // A stale track id, or a position outside the track, is ignored (MPRIS).
            let length = snapshot.info?.duration ?? .infinity
            guard track == snapshot.trackID, position >= 0, position <= length else { return .reply([]) }
            return .deliver(.changePosition(position))
        case "OpenUri":
            return .error(name: MPRISErrors.notSupported, message: "this player does not open URIs from the bus")
        default:
            return .error(name: MPRISErrors.unknownMethod, message: "no method \(member)")
        }
    }

    /// MPRIS Seek: relative; to the position command when it has a target, else a skip.
    private static func seek(by offset: Double, _ snapshot: NowPlayingSnapshot, _ now: TimeInterval) -> MPRISOutcome {
        let commands = snapshot.commands
        if commands.changePosition {
            let target = snapshot.position(at: now) + offset
            if let length = snapshot.info?.duration, length > 0, target > length {
                // Past the end: MPRIS says act as Next.
                return commands.next ? .deliver(.next) : .reply([])
            }
            return .deliver(.changePosition(max(0, target)))
        }
        if offset > 0, commands.skipForward { return .deliver(.skipForward(offset)) }
        if offset < 0, commands.skipBackward { return .deliver(.skipBackward(-offset)) }
        if offset == 0 { return .reply([]) }
        return MPRISErrors.disabled("seeking")
    }

    private static func get(_ arguments: DBusArguments, _ snapshot: NowPlayingSnapshot, _ identity: MPRISIdentity, _ now: TimeInterval)
        -> MPRISOutcome
    {
        guard let interface = arguments.string(0), let name = arguments.string(1) else {
            return invalid("Get takes an interface name and a property name")
        }
        guard let all = MPRISProperties.all(interface, snapshot, identity, now: now) else {
            return .error(name: MPRISErrors.unknownInterface, message: "no interface \(interface)")
        }
        guard let value = all.first(where: { $0.0 == name })?.1 else {
            return .error(name: MPRISErrors.unknownProperty, message: "no property \(name) on \(interface)")
        }
        return .variantReply(value)
    }

    private static func set(_ arguments: DBusArguments, _ snapshot: NowPlayingSnapshot) -> MPRISOutcome {
        guard let interface = arguments.string(0), let name = arguments.string(1) else {
            return invalid("Set takes an interface name, a property name and a value")
        }
        guard interface == MPRISNames.player, ["Rate", "LoopStatus", "Shuffle"].contains(name) else {
            return .error(name: MPRISErrors.readOnly, message: "\(interface).\(name) cannot be set")
        }
        if name == "LoopStatus" {
            guard let text = arguments.string(2), let type = MPRISProperties.repeatType(loopStatus: text) else {
                return invalid("LoopStatus is None, Track or Playlist (s)")
            }
            return snapshot.commands.changeRepeat ? .deliver(.changeRepeat(type)) : MPRISErrors.disabled("repeat modes")
        }
        if name == "Shuffle" {
            guard let on = arguments.boolean(2) else { return invalid("Shuffle is a boolean (b)") }
            return snapshot.commands.changeShuffle
                ? .deliver(.changeShuffle(on ? .items : .off)) : MPRISErrors.disabled("shuffle modes")
        }
        guard let rate = arguments.number(2), rate.isFinite else { return invalid("Rate is a number (d)") }
        // MPRIS: a rate of 0 is a pause.
        if rate == 0 { return snapshot.commands.pause ? .deliver(.pause) : MPRISErrors.disabled("pause") }
        guard snapshot.commands.changeRate else { return MPRISErrors.disabled("rate changes") }
        guard snapshot.rateRange.contains(rate) else {
            return invalid("rate \(rate) is outside \(snapshot.rateRange.lowerBound)...\(snapshot.rateRange.upperBound)")
        }
        return .deliver(.changeRate(rate))
    }

    private static func invalid(_ message: String) -> MPRISOutcome {
        .error(name: MPRISErrors.invalidArgs, message: message)
    }
}
