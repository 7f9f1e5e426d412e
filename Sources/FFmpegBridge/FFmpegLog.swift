// Playhead: routes FFmpeg's log through Playhead so it stays quiet and errors keep their detail.
internal import CFFmpeg
internal import CFFmpegShims

/// FFmpeg log routing. By default FFmpeg prints nothing; the last warning or error logged on
/// each thread is kept so failures can say what FFmpeg saw ("moov atom not found").
///
/// Concurrency: the capture callback is C code that FFmpeg calls on whichever thread logs; it
/// writes only that thread's own buffer. `install` may be called from any thread.
package enum FFmpegLog {
    /// How much of FFmpeg's log reaches stderr.
    package enum Verbosity: Sendable {
        /// Nothing (the default).
        case quiet
        /// Errors only.
        case errors
        /// Errors and warnings.
        case warnings
        /// Everything down to debug output.
        case debug

        var level: Int32 {
            switch self {
            case .quiet: return AV_LOG_QUIET
            case .errors: return AV_LOG_ERROR
            case .warnings: return AV_LOG_WARNING
            case .debug: return AV_LOG_DEBUG
            }
        }
    }

    private static let installedOnce: Void = {
        CFFmpeg_install_log_capture(AV_LOG_QUIET)
    }()

    /// Installs the capture callback once; later calls do nothing.
    package static func installIfNeeded() { _ = installedOnce }

    /// Sets how much FFmpeg prints to stderr (installing the capture if needed).
    package static func setVerbosity(_ verbosity: Verbosity) {
        installIfNeeded()
        CFFmpeg_install_log_capture(verbosity.level)
    }

    /// The last warning or error FFmpeg logged on the calling thread.
    package static var lastMessage: String {
        guard let text = CFFmpeg_last_log_message() else { return "" }
        return String(cString: text)
    }

    /// Every warning or error logged on the calling thread since the last clear.
    package static var recentMessages: [String] {
        guard let text = CFFmpeg_recent_log_messages() else { return [] }
        return String(cString: text).split(separator: "\n").map(String.init)
    }

    /// Forgets the calling thread's last message (call before an operation whose log matters).
    package static func clearLastMessage() { CFFmpeg_clear_last_log_message() }
}
