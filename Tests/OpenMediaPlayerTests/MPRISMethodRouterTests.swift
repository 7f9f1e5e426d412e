// Playhead: what the MPRIS server answers, decided from a call and a snapshot (no bus).
import Foundation
import Testing

@testable import OpenMediaPlayer

@Suite struct MPRISMethodRouterTests {
    static func snapshot(
        playing: Bool = true, elapsed: Double = 10, rate: Double = 1, duration: Double = 60,
        commands: RemoteCommandAvailability = .init(play: true, pause: true, next: true, changePosition: true),
        setAt: TimeInterval = 100
    ) -> NowPlayingSnapshot {
        var info = NowPlayingInfo()
        info.title = "T"
        info.duration = duration
        info.elapsed = elapsed
        info.rate = playing ? rate : 0
        info.setAt = setAt
        return NowPlayingSnapshot(info: info, state: playing ? .playing : .paused, commands: commands, trackNumber: 3)
    }

    static func route(
        _ member: String, _ values: [DBusValue?] = [], interface: String = MPRISNames.player,
        _ snapshot: NowPlayingSnapshot = snapshot(), now: TimeInterval = 101.5
    ) -> MPRISOutcome {
        MPRISMethodRouter.route(
            interface: interface, member: member, arguments: DBusArguments(values: values), snapshot: snapshot,
            identity: .playhead, now: now)
    }

    @Test func thePositionRunsOnAtTheRateWhilePlayingAndStandsWhilePaused() {
        #expect(Self.snapshot(rate: 2).position(at: 101.5) == 13)
        #expect(Self.snapshot(playing: false).position(at: 150) == 10)
        #expect(Self.snapshot(duration: 11).position(at: 200) == 11)
    }

    @Test func commandsWithATargetAreDeliveredAndOthersRefused() {
        #expect(Self.route("Play") == .deliver(.play))
        #expect(Self.route("Next") == .deliver(.next))
        guard case .error(let name, _) = Self.route("Previous") else {
            Issue.record("Previous without a target was not refused")
            return
        }
        #expect(name == "org.freedesktop.DBus.Error.NotSupported")
        // PlayPause without a toggle target pauses a playing item, plays a paused one.
        #expect(Self.route("PlayPause") == .deliver(.pause))
        #expect(Self.route("PlayPause", [], Self.snapshot(playing: false)) == .deliver(.play))
    }

    @Test func seekIsRelativeAndPastTheEndActsAsNext() {
        // 10 s set at uptime 100, playing at 1: 11.5 s at 101.5; +2 s → 13.5 s.
        #expect(Self.route("Seek", [.int64(2_000_000)]) == .deliver(.changePosition(13.5)))
        #expect(Self.route("Seek", [.int64(-60_000_000)]) == .deliver(.changePosition(0)))
        #expect(Self.route("Seek", [.int64(120_000_000)]) == .deliver(.next))
        // Without a position command, a skip command takes it.
        let skips = RemoteCommandAvailability(play: true, skipForward: true)
        #expect(Self.route("Seek", [.int64(15_000_000)], Self.snapshot(commands: skips)) == .deliver(.skipForward(15)))
    }

    @Test func setPositionIgnoresAStaleTrackAndAPositionOutsideTheTrack() {
        let track = Self.snapshot().trackID
        #expect(Self.route("SetPosition", [.objectPath(track), .int64(5_000_000)]) == .deliver(.changePosition(5)))
        #expect(Self.route("SetPosition", [.objectPath("/org/mpris/MediaPlayer2/playhead/track/1"), .int64(5_000_000)]) == .reply([]))
        #expect(Self.route("SetPosition", [.objectPath(track), .int64(61_000_000)]) == .reply([]))
    }

    @Test func settingTheRateChangesItWithinRangeAndZeroPauses() {
        var commands = RemoteCommandAvailability(play: true, pause: true, changeRate: true)
        commands.rates = [0.5, 1, 2]
        let snapshot = Self.snapshot(commands: commands)
        let set = { (rate: Double) in
            Self.route("Set", [.string(MPRISNames.player), .string("Rate"), .double(rate)], interface: MPRISNames.properties, snapshot)
        }
        #expect(set(2) == .deliver(.changeRate(2)))
        #expect(set(0) == .deliver(.pause))
        guard case .error(let name, _) = set(3) else {
            Issue.record("a rate above MaximumRate was accepted")
            return
        }
        #expect(name == "org.freedesktop.DBus.Error.InvalidArgs")
    }

    @Test func loopStatusAndShuffleAreOfferedAndSetOnlyWhileHandled() {
        let set = { (name: String, value: DBusValue, snapshot: NowPlayingSnapshot) in
            Self.route("Set", [.string(MPRISNames.player), .string(name), value], interface: MPRISNames.properties, snapshot)
        }
        let get = { (name: String, snapshot: NowPlayingSnapshot) in
            Self.route("Get", [.string(MPRISNames.player), .string(name)], interface: MPRISNames.properties, snapshot)
        }
        var commands = RemoteCommandAvailability(play: true, changeRepeat: true, repeatType: .all, changeShuffle: true)
        let handled = Self.snapshot(commands: commands)
        #expect(get("LoopStatus", handled) == .variantReply(.string("Playlist")))
        #expect(get("Shuffle", handled) == .variantReply(.boolean(false)))
        #expect(set("LoopStatus", .string("Track"), handled) == .deliver(.changeRepeat(.one)))
        #expect(set("LoopStatus", .string("None"), handled) == .deliver(.changeRepeat(.off)))
        #expect(set("Shuffle", .boolean(true), handled) == .deliver(.changeShuffle(.items)))
        #expect(set("Shuffle", .boolean(false), handled) == .deliver(.changeShuffle(.off)))
        guard case .error(let invalid, _) = set("LoopStatus", .string("Sometimes"), handled),
            case .error(let notBoolean, _) = set("Shuffle", .string("On"), handled)
        else {
            Issue.record("a value MPRIS does not define was accepted")
            return
        }
        #expect(invalid == MPRISErrors.invalidArgs && notBoolean == MPRISErrors.invalidArgs)
        // Without a handler neither is offered, and setting one is refused.
        commands.changeRepeat = false
        commands.changeShuffle = false
        let unhandled = Self.snapshot(commands: commands)
        guard case .error(let missing, _) = get("LoopStatus", unhandled),
            case .error(let refused, _) = set("Shuffle", .boolean(true), unhandled)
        else {
            Issue.record("an unhandled mode was offered or accepted")
            return
        }
        #expect(missing == MPRISErrors.unknownProperty && refused == MPRISErrors.notSupported)
        #expect(MPRISIntrospection.xml.contains(#"<property name="LoopStatus" type="s" access="readwrite"/>"#))
    }

    @Test func theAlbumsDetailsAreMetadataAndALiveStreamHasNoLength() {
        let info = NowPlayingInfo(dictionary: [
            MPMediaItemPropertyTitle: "Song", MPMediaItemPropertyPlaybackDuration: 200.0,
            MPMediaItemPropertyAlbumArtist: "Various", MPMediaItemPropertyGenre: "Jazz",
            MPMediaItemPropertyComposer: "Someone", MPMediaItemPropertyAlbumTrackNumber: 7,
            MPMediaItemPropertyDiscNumber: NSNumber(value: 2), MPMediaItemPropertyComments: "Live take",
            MPMediaItemPropertyLyrics: "La la", MPMediaItemPropertyReleaseDate: Date(timeIntervalSince1970: 86_400),
            MPNowPlayingInfoPropertyMediaType: MPNowPlayingInfoMediaType.audio.rawValue,
        ])
        let metadata = MPRISProperties.metadata(NowPlayingSnapshot(info: info))
        let value = { (key: String) in metadata.first { $0.0 == key }?.1 }
        #expect(value("mpris:length") == .int64(200_000_000))
        #expect(value("xesam:albumArtist") == .stringArray(["Various"]) && value("xesam:genre") == .stringArray(["Jazz"]))
        #expect(value("xesam:composer") == .stringArray(["Someone"]) && value("xesam:comment") == .stringArray(["Live take"]))
        #expect(value("xesam:trackNumber") == .int32(7) && value("xesam:discNumber") == .int32(2))
        #expect(value("xesam:trackNumber")?.signature == "i")
        #expect(value("xesam:asText") == .string("La la") && value("xesam:contentCreated") == .string("1970-01-02T00:00:00Z"))
        let live = NowPlayingInfo(dictionary: [
            MPMediaItemPropertyTitle: "Radio", MPMediaItemPropertyPlaybackDuration: 3600.0,
            MPNowPlayingInfoPropertyIsLiveStream: true,
        ])
        #expect(!MPRISProperties.metadata(NowPlayingSnapshot(info: live)).contains { $0.0 == "mpris:length" })
    }

    @Test func playsRatingLastPlayAndTempoAreMetadataAndOutOfRangeNumbersAreDropped() {
        let info = NowPlayingInfo(dictionary: [
            MPMediaItemPropertyTitle: "Song", MPMediaItemPropertyPlayCount: 12, MPMediaItemPropertyRating: NSNumber(value: 4),
            MPMediaItemPropertyLastPlayedDate: Date(timeIntervalSince1970: 86_400 * 2), MPMediaItemPropertyBeatsPerMinute: 120.0,
            // A count that fits no integer is left out, not a crash.
            MPMediaItemPropertyAlbumTrackNumber: 1e300, MPNowPlayingInfoPropertyPlaybackQueueIndex: -Double.greatestFiniteMagnitude,
            MPMediaItemPropertyIsExplicit: true, MPNowPlayingInfoPropertyServiceIdentifier: "example",
        ])
        let metadata = MPRISProperties.metadata(NowPlayingSnapshot(info: info))
        let value = { (key: String) in metadata.first { $0.0 == key }?.1 }
        #expect(value("xesam:useCount") == .int32(12))
        #expect(value("xesam:userRating") == .double(0.8), "four stars of five")
        #expect(value("xesam:lastUsed") == .string("1970-01-03T00:00:00Z"))
        #expect(value("xesam:audioBPM") == .int32(120))
        #expect(value("xesam:trackNumber") == nil && info.queueIndex == nil)
        let rated = { (stars: Double) in NowPlayingInfo(dictionary: [MPMediaItemPropertyRating: stars]).rating }
        #expect(rated(9) == 1 && rated(-1) == 0)
    }

    @Test func getReadsOnePropertyAndGetAllTheInterface() {
        let get = Self.route(
            "Get", [.string(MPRISNames.player), .string("PlaybackStatus")], interface: MPRISNames.properties)
        #expect(get == .variantReply(.string("Playing")))
        let identity = Self.route("Get", [.string(MPRISNames.root), .string("Identity")], interface: MPRISNames.properties)
        #expect(identity == .variantReply(.string("Playhead")))
        guard case .reply(let values) = Self.route("GetAll", [.string(MPRISNames.player)], interface: MPRISNames.properties),
            case .dictionary(let properties) = values.first
        else {
            Issue.record("GetAll did not answer a dictionary")
            return
        }
        #expect(properties.first { $0.0 == "Position" }?.1 == .int64(11_500_000))
        #expect(properties.first { $0.0 == "CanGoPrevious" }?.1 == .boolean(false))
    }

    @Test func onlyAJumpAwayFromTheRunningPositionIsASeek() {
        let before = Self.snapshot(elapsed: 10, setAt: 100)
        var steady = before
        steady.info?.elapsed = 12.1
        steady.info?.setAt = 102
        #expect(MPRISServer.seekedPosition(from: before, to: steady) == nil)
        var jumped = before
        jumped.info?.elapsed = 40
        jumped.info?.setAt = 102
        #expect(MPRISServer.seekedPosition(from: before, to: jumped) == 40)
        var nextTrack = jumped
        nextTrack.trackNumber += 1
        #expect(MPRISServer.seekedPosition(from: before, to: nextTrack) == nil)
    }
}
