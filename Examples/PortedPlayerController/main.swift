// Playhead example: plays one file through VideoPlayerController and prints its callbacks.
//
// Usage: PortedPlayerController [--seconds N] [--start SECONDS] MEDIA
//
// Exits 0 at the end of the item (or when the --seconds limit is reached), 1 when the item
// fails, 2 on a usage error.
import Foundation

#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// The "view": prints what a player screen would show.
@MainActor
final class ConsolePlayerView: VideoPlayerControllerDelegate {
    func videoPlayerController(
        _ controller: VideoPlayerController, didLoadAssetWithDuration duration: TimeInterval,
        trackCount: Int
    ) {
        print("asset loaded: \(trackCount) tracks, \(Int(duration).timeString)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeItemStatus status: AVPlayerItem.Status
    ) {
        switch status {
        case .unknown: print("item status: unknown")
        case .readyToPlay: print("item status: readyToPlay")
        case .failed: print("item status: failed")
        @unknown default: print("item status: \(status.rawValue)")
        }
    }

    func videoPlayerControllerReadyToPlay(_ controller: VideoPlayerController) {
        print("ready to play")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateDuration duration: TimeInterval,
        isValid: Bool
    ) {
        guard isValid else {
            print("duration: unknown")
            return
        }
        print("duration: \(Int(duration).timeString) (\(String(format: "%.3f", duration)) s)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateCurrentTime time: CMTime, duration: CMTime
    ) {
        print("time: \(time.timeString) / \(duration.timeString)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didReachPercentage percentage: Int, at time: CMTime
    ) {
        print("boundary: \(percentage)% at \(String(format: "%.2f", time.seconds)) s")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateBufferProgress progress: Float
    ) {
        print("buffer progress: \(Int((progress * 100).rounded()))%")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeBufferingState state: BufferingState
    ) {
        print("buffering: \(state)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeBufferFlag name: String, value: Bool
    ) {
        print("\(name): \(value)")
    }

    func videoPlayerController(_ controller: VideoPlayerController, didChangeRate rate: Float) {
        print("rate: \(rate)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController,
        didChangeTimeControlStatus status: AVPlayer.TimeControlStatus,
        reason: AVPlayer.WaitingReason?
    ) {
        switch status {
        case .paused: print("timeControlStatus: paused")
        case .playing: print("timeControlStatus: playing")
        case .waitingToPlayAtSpecifiedRate:
            print("timeControlStatus: waiting (\(reason?.rawValue ?? "no reason"))")
        @unknown default: print("timeControlStatus: \(status.rawValue)")
        }
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didSeekToTime time: CMTime, finished: Bool
    ) {
        print("seek to \(time.timeString) finished: \(finished)")
    }

    func videoPlayerControllerPlaybackStalled(_ controller: VideoPlayerController) {
        print("playback stalled")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeStatus status: PlaybackState
    ) {
        print("playback state: \(status)")
    }

    func videoPlayerController(
        _ controller: VideoPlayerController, didCompletedPlayToEndWithError error: Error?
    ) {
        controller.destroy()
        if let error {
            let nsError = error as NSError
            FileHandle.standardError.write(
                Data(
                    "error: \(nsError.localizedDescription) (\(nsError.domain) \(nsError.code))\n"
                        .utf8))
            finish(status: 1)
        } else if controller.playbackState == .failed {
            FileHandle.standardError.write(Data("error: the media cannot be played\n".utf8))
            finish(status: 1)
        } else {
            print("played to end")
            finish(status: 0)
        }
    }

    /// Exits once the main queue has delivered what is already queued.
    func finish(status: Int32) {
        DispatchQueue.main.async { exit(status) }
    }
}

/// Prints usage and exits 2.
func usage(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(
            """
            PortedPlayerController: \(message)
            Usage: PortedPlayerController [--seconds N] [--start SECONDS] MEDIA

            """.utf8))
    exit(2)
}

var path: String?
var secondsLimit: Double?
var startTime: Double = 0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else {
            usage("--seconds needs a positive number")
        }
        secondsLimit = value
    case "--start":
        guard let value = arguments.popFirst().flatMap(Double.init), value >= 0 else {
            usage("--start needs a number of seconds")
        }
        startTime = value
    default:
        guard path == nil, !argument.hasPrefix("--") else { usage("unexpected '\(argument)'") }
        path = argument
    }
}
guard let path else { usage("missing MEDIA") }

let url: URL
if let remote = URL(string: path), remote.scheme != nil, !remote.isFileURL {
    url = remote
} else {
    url = URL(fileURLWithPath: path)
}

let view = ConsolePlayerView()
let controller = VideoPlayerController()
controller.delegate = view
// Requested before anything loaded: the controller performs it once the item is ready.
controller.seek(toTime: CMTime(seconds: startTime, preferredTimescale: 600))
controller.load(url: url)

if let secondsLimit {
    DispatchQueue.main.asyncAfter(deadline: .now() + secondsLimit) {
        print("time limit reached at \(controller.currentTime.timeString)")
        controller.destroy()
        view.finish(status: 0)
    }
}

// A command-line program must keep the main queue running: every callback above arrives there.
RunLoop.main.run()
