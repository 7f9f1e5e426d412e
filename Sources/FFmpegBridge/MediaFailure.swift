// Playhead: why an input could not be opened or played, in words a person can act on.
import Foundation

/// A classified failure to open, inspect or decode an input. `reason` is one short line
/// suitable for `playhead: <input>: <reason>`.
package enum MediaFailure: Error, Sendable, Equatable {
    /// Nothing exists at the path.
    case fileNotFound
    /// The file exists but cannot be read by this user.
    case permissionDenied
    /// The path names a directory.
    case isDirectory
    /// The file has no bytes.
    case emptyFile
    /// No demuxer recognised the bytes.
    case notMediaFile
    /// The format was recognised but the file is damaged or cut short.
    case damaged(detail: String)
    /// The container holds no audio or video stream at all.
    case noAudioOrVideo
    /// The container has audio or video, but this build has no decoder for any of it.
    case unsupportedCodec(codecs: [String])
    /// Opening or reading took longer than the allowed time.
    case timedOut
    /// The operation was cancelled by its owner.
    case cancelled
    /// The URL's scheme is not one Playhead reads.
    case unsupportedScheme(String)
    /// Some other I/O failure, with FFmpeg's text.
    case io(detail: String)
    /// The input declares more than `MediaLimits` allows (a picture, stream count, sample rate
    /// or channel count); the text says which limit, e.g. "picture too large (40000x40000
    /// exceeds 16384x16384)".
    case limitExceeded(String)
    /// The media is encrypted (Common Encryption, DRM) and no key is at hand: its samples
    /// cannot be decoded.
    case protectedContent

    /// One line saying what is wrong.
    package var reason: String {
        switch self {
        case .fileNotFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "is a directory, not a media file"
        case .emptyFile: return "empty file"
        case .notMediaFile: return "not a media file (no known format recognised)"
        case .damaged(let detail):
            return detail.isEmpty
                ? "damaged or truncated media file" : "damaged or truncated media file: \(detail)"
        case .noAudioOrVideo: return "no decodable stream (no audio or video track)"
        case .unsupportedCodec(let codecs):
            let list = codecs.isEmpty ? "unknown" : codecs.joined(separator: ", ")
            return "unsupported codec: \(list) (no decoder available)"
        case .timedOut: return "timed out while opening"
        case .cancelled: return "cancelled"
        case .unsupportedScheme(let scheme): return "unsupported URL scheme '\(scheme)'"
        case .io(let detail): return detail.isEmpty ? "input/output error" : detail
        case .limitExceeded(let detail): return detail
        case .protectedContent: return "protected content (encrypted media; DRM is not supported)"
        }
    }
}

extension MediaFailure: LocalizedError {
    /// The one-line `reason`, so a `MediaFailure` that reaches a catch-all handler (which prints
    /// `localizedDescription`) still says what is wrong instead of "MediaFailure error 4".
    package var errorDescription: String? { reason }
}
