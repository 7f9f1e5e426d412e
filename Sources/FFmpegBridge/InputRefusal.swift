// Playhead: why a network input was stopped by Playhead's own checks on every input it opens
// (the C shim in CFFmpegShims.c): a playlist or segment larger than its limit (FFmpeg 5.1 has
// no option for these), or an https input redirected to plain http.
//
// Concurrency: value types; the checks themselves run on the thread doing the context's I/O.
import Foundation

/// Why the byte-counting shim refused one of a network input's inputs.
package enum InputRefusal: Sendable, Equatable {
    /// An HLS or DASH playlist (top-level or nested) grew past `NetworkOptions.maximumPlaylistBytes`.
    case playlistTooLarge
    /// One segment (or key, or init section) grew past `NetworkOptions.maximumSegmentBytes`.
    case segmentTooLarge
    /// An https input (or one of its segments) was redirected to this plain-http location.
    case httpsDowngrade(location: String)

    /// The failure reported for it: "playlist larger than 4 MiB",
    /// "refused redirect from https to http (http://...)".
    func failure(_ options: NetworkOptions) -> MediaFailure {
        switch self {
        case .playlistTooLarge:
            return .limitExceeded("playlist larger than \(Self.describe(options.maximumPlaylistBytes))")
        case .segmentTooLarge:
            return .limitExceeded("segment larger than \(Self.describe(options.maximumSegmentBytes))")
        case .httpsDowngrade(let location):
            return .io(detail: "refused redirect from https to http (\(location))")
        }
    }

    /// `bytes` in the largest binary unit that divides it ("4 MiB", "64 KiB", "1000 bytes").
    static func describe(_ bytes: Int) -> String {
        if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

extension FormatContext {
    /// The failure of a network input one of whose inputs the shim refused, nil otherwise.
    package var inputRefusalFailure: MediaFailure? {
        guard let options = networkOptions, let refusal = interrupt.inputRefusal else { return nil }
        return refusal.failure(options)
    }
}

extension InputRefusal {
    /// The one-line reason reported for this refusal under `options`.
    package func reason(_ options: NetworkOptions) -> String { failure(options).reason }
}
