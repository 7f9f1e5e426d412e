// Playhead: `AVPlayerItem.nowPlayingInfo`, the keys a now-playing session publishes for an item
// beside what it reads from the player (Apple's MediaPlayer adds it to AVFoundation's item).
//
// Concurrency: main actor only, as the item. The table holds each item weakly (an item that
// goes away takes its info with it); sessions that publish automatically are told of each
// change on the main actor.
import Foundation
import OpenAVFoundation

extension AVPlayerItem {
    /// Now-playing keys (`MPMediaItemProperty...`, `MPNowPlayingInfoProperty...`) for this item:
    /// an ``MPNowPlayingSession`` that publishes automatically shows them beside the position,
    /// rate and duration it reads from the player, while the item is its player's current one.
    /// Keys it reads from the player (elapsed time, rates) are the player's. Nil by default.
    public var nowPlayingInfo: [String: Any]? {
        get { ItemNowPlayingInfo.info(of: self) }
        set { ItemNowPlayingInfo.set(newValue, of: self) }
    }
}

/// The table behind ``AVPlayerItem/nowPlayingInfo`` (Swift extensions store nothing).
@MainActor
enum ItemNowPlayingInfo {
    private struct Entry {
        weak var item: AVPlayerItem?
        var info: [String: Any]
    }

    private struct Listener {
        weak var owner: AnyObject?
        let call: (AVPlayerItem) -> Void
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]
    /// Told of every change while their owners live: the sessions that publish automatically.
    private static var listeners: [Listener] = []

    static func info(of item: AVPlayerItem) -> [String: Any]? {
        guard let entry = entries[ObjectIdentifier(item)], entry.item === item else { return nil }
        return entry.info
    }

    static func set(_ info: [String: Any]?, of item: AVPlayerItem) {
        // Items gone since leave their places (an identifier may be reused).
        entries = entries.filter { $0.value.item != nil }
        entries[ObjectIdentifier(item)] = info.map { Entry(item: item, info: $0) }
        listeners.removeAll { $0.owner == nil }
        for listener in listeners { listener.call(item) }
    }

    /// Calls `listener` after each change while `owner` lives (or until ``stopListening(_:)``).
    static func listen(_ owner: AnyObject, _ listener: @escaping (AVPlayerItem) -> Void) {
        listeners.append(Listener(owner: owner, call: listener))
    }

    static func stopListening(_ owner: AnyObject) {
        listeners.removeAll { $0.owner == nil || $0.owner === owner }
    }
}
