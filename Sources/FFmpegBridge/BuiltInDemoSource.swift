// Playhead: the built-in demo input: a libavfilter graph (a moving test picture with a title,
// and a tone) opened through libavdevice's "lavfi" input format, so no file is needed.
//
// Concurrency: `MediaLocation.builtInDemo` and `DeclaredFacts` are values. `DeviceInputFormat`
// loads libavdevice at most once (a lazily initialised static, thread-safe) and only reads
// FFmpeg's format table afterwards. `FormatContext.apply` runs on the thread opening the
// context, before anyone else sees it.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// Facts an internal input declares about itself because its format cannot state them.
package struct DeclaredFacts: Sendable, Equatable {
    /// The length of the input in seconds.
    package var duration: Double
    /// Container metadata, by FFmpeg key ("title").
    package var metadata: [String: String]
}

extension MediaLocation {
    /// The built-in demo's title (its metadata title, hence the window's).
    package static let builtInDemoTitle = "Playhead demo"
    /// How long the built-in demo plays, in seconds.
    package static let builtInDemoDuration = 30.0

    /// The built-in demo: a 1280×720, 30 fps test pattern (a sweeping line and moving
    /// squares, a running clock) with the title drawn on it, and a 440 Hz tone that beeps
    /// once a second, synthesised by libavfilter as it plays.
    ///
    /// Only Playhead's own code creates this location; `MediaLocation(url:)` never yields a
    /// lavfi input, so no user-supplied URL or playlist entry can reach a filter graph.
    package static var builtInDemo: MediaLocation {
        let seconds = Int(builtInDemoDuration)
        let picture = [
            "testsrc2=size=1280x720:rate=30:duration=\(seconds)",
            "drawtext=font=DejaVu Sans:text=\(builtInDemoTitle):fontsize=72:fontcolor=white"
                + ":box=1:boxcolor=black@0.55:boxborderw=18:x=(w-text_w)/2:y=h*0.62",
            "format=yuv420p",
        ].joined(separator: ",")
        let tone =
            "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=\(seconds),volume=0.3"
        return MediaLocation(
            lavfiGraph: "\(picture)[out0];\(tone)[out1]",
            declared: DeclaredFacts(
                duration: builtInDemoDuration, metadata: ["title": builtInDemoTitle]))
    }

    /// A location that opens `graph` with the lavfi input format, reading no file or URL
    /// (`protocol_whitelist` stays empty).
    private init(lavfiGraph graph: String, declared: DeclaredFacts) {
        ffmpegURL = graph
        path = nil
        allowedProtocols = ""
        inputFormat = "lavfi"
        self.declared = declared
        memory = nil
        requiresTLS = false
    }
}

/// Finds libavdevice's input formats (only "lavfi" is used), loading libavdevice on first use.
///
/// libavdevice is not linked: it drags in about two dozen device libraries (X11 capture,
/// FireWire, JACK, OpenAL, …) that every `playhead` start would otherwise pay for. It is
/// loaded with `dlopen` when the demo first plays; its major version always equals
/// libavformat's, which is already loaded.
enum DeviceInputFormat {
    /// True once libavdevice's formats are registered with libavformat.
    private static let registered: Bool = {
        let major = avformat_version() >> 16
        guard let library = dlopen("libavdevice.so.\(major)", RTLD_NOW | RTLD_LOCAL),
            let symbol = dlsym(library, "avdevice_register_all")
        else { return false }
        typealias RegisterAll = @convention(c) () -> Void
        unsafeBitCast(symbol, to: RegisterAll.self)()
        return true
    }()

    /// The input format `name`.
    ///
    /// - Throws: `.io` when libavdevice (part of FFmpeg's runtime libraries) is missing or
    ///   lacks the format.
    static func find(_ name: String) throws(MediaFailure) -> UnsafePointer<AVInputFormat> {
        guard registered else {
            throw .io(
                detail: "the built-in demo needs FFmpeg's libavdevice, which is not installed")
        }
        guard let format = av_find_input_format(name) else {
            throw .io(detail: "this FFmpeg has no '\(name)' input format")
        }
        return format
    }
}

extension FormatContext {
    /// Records what an internal input declared: its metadata now; its duration on the
    /// context and, for streams that have none, on each stream (so `avformat_find_stream_info`
    /// keeps it and the item gets a length and a slider).
    func apply(_ declared: DeclaredFacts) {
        for (key, value) in declared.metadata {
            av_dict_set(&pointer.pointee.metadata, key, value, 0)
        }
        let microseconds = Int64(declared.duration * 1_000_000)
        pointer.pointee.duration = microseconds
        for index in 0..<streamCount {
            guard let stream = stream(at: index),
                stream.pointee.duration == CFFmpeg_AV_NOPTS_VALUE()
            else { continue }
            stream.pointee.duration = av_rescale_q(
                microseconds, CFFmpeg_AV_TIME_BASE_Q(), stream.pointee.time_base)
        }
    }
}
