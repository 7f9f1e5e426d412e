// Playhead example: plays one file in a player window whose built-in controls are replaced by
// `MinimalControls`, and prints what the window tells its delegate.
//
// Usage: CustomControls MEDIA
//
// Exits 0 when the window closes, 1 when no window can open, 2 on a usage error.
import Foundation
import OpenAVFoundation
import OpenAVKit

/// Prints the window's events (they arrive on the main queue).
final class PrintingHost: PlayerWindowDelegate {
    func playerWindowIsReadyToPlay(_ window: PlayerWindow) { print("ready to play") }
    func playerWindow(_ window: PlayerWindow, didPlayToEndWithError error: (any Error)?) {
        print(error.map { "stopped: \($0.localizedDescription)" } ?? "played to the end")
    }
    func playerWindow(_ window: PlayerWindow, playbackStatusDidChange status: PlaybackState.Status)
    {
        print("status:", status)
    }
    func playerWindow(_ window: PlayerWindow, didChangeFullscreen isFullscreen: Bool) {
        print(isFullscreen ? "fullscreen" : "windowed")
    }
    func playerWindowDidRequestPlaylist(_ window: PlayerWindow) { print("playlist requested (p)") }
    func playerWindowDidRequestClose(_ window: PlayerWindow) { print("closing") }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: CustomControls MEDIA\n".utf8))
    exit(2)
}

PlayheadAudio.useSystemAudioDevice()
let player = AVPlayer(url: URL(fileURLWithPath: path))
let window: PlayerWindow
do {
    window = try PlayerWindow(player: player)
} catch {
    FileHandle.standardError.write(Data("CustomControls: \(error)\n".utf8))
    exit(1)
}
let host = PrintingHost()
window.delegate = host
window.controlsOverlay = MinimalControls()
player.play()
window.run()  // on the main thread: returns when the window closes (q, Esc-q, close box)
