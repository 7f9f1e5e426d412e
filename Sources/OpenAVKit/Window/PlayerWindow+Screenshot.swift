// Playhead: the player window's screenshot key: Shift+S writes the picture on screen as a PNG
// (see WindowScreenshot) and shows where it went.
//
// Concurrency: window thread; the file is written in the background and the note comes back
// on the main queue, which the window's thread drains.
internal import CSDL2
import Foundation
import OpenAVFoundation

extension PlayerWindow {
    /// True for Shift+S.
    func isScreenshotKey(_ key: SDL_Keysym) -> Bool {
        Int(key.sym) == Int(SDLK_s.rawValue) && (Int(key.mod) & Int(KMOD_SHIFT.rawValue)) != 0
    }

    /// Writes the picture on screen beside the media (or in Pictures) and notes the file name.
    func takeScreenshot() {
        let media = (player.currentItem?.asset as? AVURLAsset)?.url
        let selection = UncheckedBox(mediaSelection)
        let started = WindowScreenshot.take(
            playerLayer.slot.latest().picture, media: media, at: player.currentTime()
        ) { outcome in
            selection.value.note(outcome.message)
            if case .failed(let reason) = outcome {
                FileHandle.standardError.write(Data("playhead: screenshot: \(reason)\n".utf8))
            }
        }
        if !started { mediaSelection.note("Screenshot: no picture") }
        needsRedraw = true
    }
}
