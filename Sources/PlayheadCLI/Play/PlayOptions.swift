// Playhead: the options of `playhead play`, parsed and checked.
import OpenAVFoundation

/// What `playhead play` was asked to do.
public struct PlayOptions: Sendable, Equatable {
    /// The inputs, played one after another.
    public var inputs: [String]
    /// Never open a window (`--headless`; implied by `--untimed`).
    public var headless = false
    /// Open the window fullscreen.
    public var fullscreen = false
    /// How the video fits the window.
    public var gravity: AVLayerVideoGravity = .resizeAspect
    /// Play no audio.
    public var noAudio = false
    /// The sound server's sink to play on (`--audio-device`); nil: the default sink.
    public var audioDevice: String?
    /// Seconds the sound plays after the picture (`--audio-delay`; negative: picture after sound).
    public var audioDelay: Double = 0
    /// Present frames as fast as they decode.
    public var untimed = false
    /// Stop each item after this many presented frames.
    public var frameLimit: Int?
    /// Start each item at this time, in seconds.
    public var start: Double?
    /// The playback rate.
    public var rate: Float = 1
    /// The volume, 0 to 1.
    public var volume: Float = 1
    /// Start muted.
    public var muted = false
    /// Print a JSON report at the end.
    public var reportJSON = false
    /// Which audio language and subtitles to play (`--audio-lang`, `--sub-lang`, `--sub`, `--no-sub`).
    public var selection = PlaySelection()
    /// When and how the window draws subtitles (`--sub-delay`, `--sub-font`, `--sub-scale`).
    public var subtitleStyle = PlaySubtitleStyle()
    /// Play the input (or the whole queue of inputs) again and again until stopped.
    public var loop = false
    /// Open the first input paused, on its first picture (`--pause`).
    public var startsPaused = false
    /// Pause while the window is minimised or hidden, and resume when it is back
    /// (`--pause-minimized`); by default playback goes on, as desktop players do.
    public var pausesWhenMinimized = false
    /// Offer playback to the desktop's media controls and media keys over MPRIS (off with
    /// `--no-mpris`).
    public var mediaControls = true
    /// Start each input where it was left (`--resume`), and remember where it stops.
    public var resume = false
    /// Let the screensaver and display sleep run while video plays (`--allow-screensaver`).
    public var allowsScreensaver = false

    /// Options for `inputs` with every default.
    public init(inputs: [String]) { self.inputs = inputs }

    static let headlessOption = CommandOption.flag(
        "headless", help: "Play without a window (the default when there is no display).")
    static let fullscreenOption = CommandOption.flag("fullscreen", help: "Open the window fullscreen.")
    static let gravityOption = CommandOption.value(
        "gravity", valueName: "MODE",
        help: "How video fits the window: aspect (default, letterboxed), fill (cropped) or resize.")
    static let noAudioOption = CommandOption.flag("no-audio", help: "Do not decode or play audio.")
    static let audioDeviceOption = CommandOption.value(
        "audio-device", valueName: "SINK",
        help: "Play on the sound server's sink SINK (names: pactl list short sinks).")
    static let audioDelayOption = CommandOption.value(
        "audio-delay", valueName: "S",
        help: "Play the sound S seconds after the picture; negative holds the picture back (Bluetooth).")
    static let untimedOption = CommandOption.flag(
        "untimed", help: "Present frames as fast as decoding allows, without waiting on the clock.")
    static let framesOption = CommandOption.value(
        "frames", valueName: "N", help: "Stop each input after N presented video frames.")
    static let startOption = CommandOption.value(
        "start", valueName: "S", help: "Start playing at S seconds (exact seek).")
    static let rateOption = CommandOption.value(
        "rate", valueName: "R",
        help: "Playback rate from 0.25 to 16, pitch kept (faster than 4, only keyframes show, silently where the file indexes them).")
    static let volumeOption = CommandOption.value("volume", valueName: "V", help: "Volume from 0 to 1.")
    static let muteOption = CommandOption.flag("mute", help: "Start muted.")
    static let pauseOption = CommandOption.flag(
        "pause", help: "Open the first input paused on its first picture (space plays).")
    static let loopOption = CommandOption.flag(
        "loop", help: "Loop the input (or the list of inputs) until stopped, without a gap.")
    static let pauseMinimizedOption = CommandOption.flag(
        "pause-minimized", help: "Pause while the window is minimised or hidden; resume when it is back.")
    static let noMPRISOption = CommandOption.flag(
        "no-mpris", help: "Do not offer playback to media keys and the desktop's media controls (MPRIS).")
    static let resumeOption = CommandOption.flag(
        "resume", help: "Start each input where it was left (remembered in ~/.local/state/playhead).")
    static let allowScreensaverOption = CommandOption.flag(
        "allow-screensaver", help: "Let the screensaver and display sleep run while video plays.")
    static let reportOption = CommandOption.value(
        "report", valueName: "FORMAT", help: "Print a report when playback ends; FORMAT is json.")

    /// Every option, in help order.
    static let all = [
        headlessOption, fullscreenOption, gravityOption, noAudioOption, audioDeviceOption, audioDelayOption, untimedOption, framesOption, startOption, resumeOption, rateOption,
        volumeOption, muteOption, pauseOption, loopOption, pauseMinimizedOption, noMPRISOption,
        allowScreensaverOption, reportOption,
    ] + PlaySelection.options + PlaySubtitleStyle.options

    /// Reads and checks the options from parsed arguments.
    static func from(_ arguments: ParsedArguments, inputs: [String]) throws(UsageError) -> PlayOptions {
        var options = PlayOptions(inputs: inputs)
        options.noAudio = arguments.flag(noAudioOption.name)
        options.audioDevice = arguments.value(audioDeviceOption.name)
        options.untimed = arguments.flag(untimedOption.name)
        // Untimed runs present frames as fast as they decode: a check, not something to watch.
        options.headless = arguments.flag(headlessOption.name) || options.untimed
        options.fullscreen = arguments.flag(fullscreenOption.name)
        if let gravity = arguments.value(gravityOption.name) {
            let modes: [String: AVLayerVideoGravity] = [
                "aspect": .resizeAspect, "fill": .resizeAspectFill, "resize": .resize,
            ]
            guard let mode = modes[gravity] else {
                throw UsageError(.invalidValue(option: "--gravity", value: gravity, expected: "aspect, fill or resize"))
            }
            options.gravity = mode
        }
        options.muted = arguments.flag(muteOption.name)
        options.startsPaused = arguments.flag(pauseOption.name)
        options.loop = arguments.flag(loopOption.name)
        options.mediaControls = !arguments.flag(noMPRISOption.name)
        options.pausesWhenMinimized = arguments.flag(pauseMinimizedOption.name)
        options.allowsScreensaver = arguments.flag(allowScreensaverOption.name)
        options.resume = arguments.flag(resumeOption.name)
        if let frames = try arguments.value(framesOption.name, as: Int.self, expected: "a positive whole number") {
            guard frames > 0 else { throw invalid(framesOption, frames, "a positive whole number") }
            options.frameLimit = frames
        }
        if let start = try arguments.value(startOption.name, as: Double.self, expected: "a number of seconds") {
            guard start >= 0, start.isFinite else { throw invalid(startOption, start, "a number of seconds") }
            options.start = start
        }
        if let rate = try arguments.value(rateOption.name, as: Double.self, expected: "a rate from 0.25 to 16") {
            guard (0.25...16).contains(rate) else { throw invalid(rateOption, rate, "a rate from 0.25 to 16") }
            options.rate = Float(rate)
        }
        if let delay = try arguments.value(audioDelayOption.name, as: Double.self, expected: "seconds from -5 to 5") {
            guard (-5...5).contains(delay) else { throw invalid(audioDelayOption, delay, "seconds from -5 to 5") }
            options.audioDelay = delay
        }
        if let volume = try arguments.value(volumeOption.name, as: Double.self, expected: "a volume from 0 to 1") {
            guard (0...1).contains(volume) else { throw invalid(volumeOption, volume, "a volume from 0 to 1") }
            options.volume = Float(volume)
        }
        if let format = arguments.value(reportOption.name) {
            guard format == "json" else {
                throw UsageError(.invalidValue(option: "--report", value: format, expected: "json"))
            }
            options.reportJSON = true
        }
        options.selection = try PlaySelection.from(arguments)
        options.subtitleStyle = try PlaySubtitleStyle.from(arguments)
        return options
    }

    private static func invalid(_ option: CommandOption, _ value: Any, _ expected: String) -> UsageError {
        UsageError(.invalidValue(option: option.longSpelling, value: "\(value)", expected: expected))
    }
}
