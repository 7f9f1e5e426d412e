// Playhead: how many streams of each kind a media file holds.
import Foundation

/// Stream totals by kind, as a test expects them or as `ffprobe` reports them.
///
/// Cover art stored as a video stream (an *attached picture*) counts only in
/// ``attachedPictures``, never in ``video``.
public struct StreamCounts: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Video streams that carry moving pictures.
    public var video: Int
    /// Audio streams.
    public var audio: Int
    /// Subtitle streams.
    public var subtitle: Int
    /// Still images attached as cover art.
    public var attachedPictures: Int

    /// Creates a set of counts; every kind defaults to zero.
    public init(video: Int = 0, audio: Int = 0, subtitle: Int = 0, attachedPictures: Int = 0) {
        self.video = video
        self.audio = audio
        self.subtitle = subtitle
        self.attachedPictures = attachedPictures
    }

    /// A compact form such as `video 1, audio 2, subtitle 1, pictures 0`.
    public var description: String {
        "video \(video), audio \(audio), subtitle \(subtitle), pictures \(attachedPictures)"
    }
}
