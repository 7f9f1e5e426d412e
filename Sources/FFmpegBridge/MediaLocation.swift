// Playhead: turns a URL into what FFmpeg opens, with the protocols it may use.
import Foundation

/// Where media lives and how FFmpeg should reach it.
package struct MediaLocation: Sendable, Equatable {
    /// The string handed to `avformat_open_input`.
    package let ffmpegURL: String
    /// The file system path for local files, nil otherwise.
    package let path: String?
    /// FFmpeg protocols this input may use (the `protocol_whitelist` option). Nested opens
    /// (HLS and DASH segments, keys, playlists) are held to the same list.
    package let allowedProtocols: String
    /// The FFmpeg input format to open with instead of probing; nil for files and URLs. Only
    /// internal inputs (the built-in demo's "lavfi") set it: no URL can.
    package let inputFormat: String?
    /// What an internal input cannot state itself (the demo's duration and title).
    package let declared: DeclaredFacts?
    /// Bytes read from memory through a custom AVIOContext instead of `ffmpegURL`.
    package let memory: MemoryInput?
    /// Bytes a streaming loader fetches (Playhead's HLS loader), read through a custom
    /// AVIOContext instead of `ffmpegURL`; nil when libavformat reads the URL itself.
    package private(set) var streaming: (any StreamingInput)?

    /// True for http and https inputs.
    package var isNetwork: Bool { path == nil && memory == nil && inputFormat == nil }
    /// True for https inputs, which may never fall back to plain http.
    package let requiresTLS: Bool
    /// Headers, user agent and reconnection for network inputs (unused for files).
    package var network = NetworkOptions()

    /// Input held in memory (the fuzzer's): FFmpeg reads `input` and may open no protocol;
    /// `input.name` is only a hint for format probing.
    package init(memory input: MemoryInput) {
        path = nil
        ffmpegURL = input.name
        allowedProtocols = "none"
        memory = input
        requiresTLS = false
        inputFormat = nil
        declared = nil
    }

    /// Two locations are equal when they name the same URL and share the same memory input.
    package static func == (lhs: MediaLocation, rhs: MediaLocation) -> Bool {
        lhs.ffmpegURL == rhs.ffmpegURL && lhs.path == rhs.path
            && lhs.allowedProtocols == rhs.allowedProtocols && lhs.memory === rhs.memory
            && lhs.inputFormat == rhs.inputFormat && lhs.declared == rhs.declared
            && lhs.requiresTLS == rhs.requiresTLS && lhs.network == rhs.network
            && lhs.streaming === rhs.streaming
    }

    /// This network location read through `input` (which fetches it) instead of by libavformat.
    package func streamed(through input: any StreamingInput) -> MediaLocation {
        var location = self
        location.streaming = input
        return location
    }

    /// The location for `url`, or a failure for schemes Playhead does not read.
    package init(url: URL, network: NetworkOptions = NetworkOptions()) throws(MediaFailure) {
        inputFormat = nil
        declared = nil
        memory = nil
        let scheme = url.scheme?.lowercased() ?? "file"
        self.network = network
        requiresTLS = scheme == "https"
        switch scheme {
        case "file":
            path = url.path
            // The explicit "file:" prefix stops FFmpeg from reading "a:b.mp4" as protocol "a".
            ffmpegURL = "file:" + url.path
            allowedProtocols = "file,crypto,data"
        case "http", "https":
            path = nil
            ffmpegURL = url.absoluteString
            // An https input leaves "http" out, so no segment, key or nested playlist it names
            // can travel unencrypted (the https-to-http downgrade).
            allowedProtocols = scheme == "https" ? "https,tls,tcp,crypto,data" : "http,https,tls,tcp,crypto,data"
        default:
            throw .unsupportedScheme(scheme)
        }
    }

    /// Checks a local path before FFmpeg sees it, so the common mistakes get exact reasons.
    package func checkLocalFile() throws(MediaFailure) {
        if let memory, memory.bytes.isEmpty { throw .emptyFile }
        guard let path else { return }
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case EACCES: throw .permissionDenied
            default: throw .fileNotFound
            }
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw .isDirectory }
        // Opening a pipe or socket can block forever before FFmpeg's interrupt applies.
        if type == S_IFIFO || type == S_IFSOCK { throw .io(detail: "not a regular file (a pipe or socket)") }
        if (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 { throw .emptyFile }
        if access(path, R_OK) != 0 { throw .permissionDenied }
    }
}
