// Playhead: how big a player window opens: the video's aspect, at most 1280×720 and at most
// 90 % of the screen's usable area (so the title bar never pushes the control bar off the
// bottom edge), and at least 640 wide where the screen allows. Pure arithmetic, any thread.
import Foundation

/// The size a player window takes for a video, on a screen.
enum WindowFit {
    /// The largest share of the usable area a window opens at (mpv and VLC shrink to fit too).
    static let screenShare = 0.9
    /// The largest size a window opens at, and the narrowest it shrinks a small video to.
    static let largest = CGSize(width: 1280, height: 720)
    static let narrowest = 640.0

    /// The window size (points) for a picture of `video` size on a screen whose usable area is
    /// `usable` (nil: not known, only `largest` bounds it).
    static func size(for video: CGSize, usable: CGSize?) -> CGSize {
        guard video.width > 0, video.height > 0 else { return largest }
        var box = largest
        if let usable, usable.width > 0, usable.height > 0 {
            box.width = min(box.width, (usable.width * screenShare).rounded(.down))
            box.height = min(box.height, (usable.height * screenShare).rounded(.down))
        }
        var scale = min(box.width / video.width, box.height / video.height, 1)
        // A small video is shown larger, as long as that still fits the box.
        if video.width * scale < narrowest {
            scale = min(narrowest / video.width, box.width / video.width, box.height / video.height)
        }
        return CGSize(width: (video.width * scale).rounded(), height: (video.height * scale).rounded())
    }
}
