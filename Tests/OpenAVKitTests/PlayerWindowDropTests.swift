// Playhead: the URLs a player window reads from dropped text (SDL_DROPTEXT).
import Foundation
import OpenAVKit
import Testing

@Suite struct PlayerWindowDropTests {
    @Test func droppedTextGivesURLsAndAbsolutePathsAndSkipsTheRest() {
        let text = """
            # a comment of a text/uri-list
            https://example.com/movie.mp4\r
            file:///home/me/Film%20One.mkv
            /srv/media/clip.webm
            just some words
            mailto
            """
        #expect(
            PlayerWindowDrop.urls(inText: text).map(\.absoluteString) == [
                "https://example.com/movie.mp4", "file:///home/me/Film%20One.mkv",
                "file:///srv/media/clip.webm",
            ])
        #expect(
            PlayerWindowDrop.urls(inText: "file:///home/me/Film%20One.mkv").first?.path
                == "/home/me/Film One.mkv")
    }
}
