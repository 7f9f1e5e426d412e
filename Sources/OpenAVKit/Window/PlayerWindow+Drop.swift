// Playhead: files and URLs dropped on the player window (XDND on X11, through SDL's drop
// events): collected from SDL_DROPBEGIN to SDL_DROPCOMPLETE and reported to the delegate as one
// `PlayerWindowDrop`, with Shift (held at the drop) meaning "add to the queue". The app
// decides what to play; `playhead play` replaces what plays or appends.
//
// Concurrency: window thread; the delegate hears the drop on the main queue.
internal import CSDL2
import Foundation

/// Files or URLs dropped on a player window.
public struct PlayerWindowDrop: Sendable, Equatable {
    /// What was dropped, in order: file URLs for files, else the URLs given as text.
    public var urls: [URL]
    /// Shift was held at the drop: add these to what plays rather than replace it.
    public var appends: Bool

    /// A drop of `urls`; `appends` when Shift was held.
    public init(urls: [URL], appends: Bool) {
        self.urls = urls
        self.appends = appends
    }

    /// The URLs in dropped text: one per line, a URL with a scheme (`https://…`, `file://…`)
    /// or an absolute path; other lines (and `#` comments of a text/uri-list) are skipped.
    public static func urls(inText text: String) -> [URL] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let entry = line.trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix("/") { return URL(fileURLWithPath: entry) }
            guard !entry.hasPrefix("#"), let url = URL(string: entry), let scheme = url.scheme,
                !scheme.isEmpty,
                url.isFileURL || url.host != nil
            else { return nil }
            return url
        }
    }
}

extension PlayerWindow {
    /// Collects one drop's items; reports them when SDL says the drop is complete.
    func handleDrop(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_DROPBEGIN:
            droppedURLs = []
        case SDL_DROPFILE, SDL_DROPTEXT:
            guard let pointer = event.drop.file else { return }
            let text = String(cString: pointer)
            SDL_free(pointer)
            if SDL_EventType(event.type) == SDL_DROPFILE {
                droppedURLs.append(URL(fileURLWithPath: text))
            } else {
                droppedURLs += PlayerWindowDrop.urls(inText: text)
            }
        case SDL_DROPCOMPLETE:
            let urls = droppedURLs
            droppedURLs = []
            guard !urls.isEmpty else { return }
            let shift = (Int(SDL_GetModState().rawValue) & Int(KMOD_SHIFT.rawValue)) != 0
            events.note(.dropped(PlayerWindowDrop(urls: urls, appends: shift)))
        default:
            break
        }
    }
}
