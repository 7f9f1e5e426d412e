// Playhead: the one owner of libass: keeps an ASS track in step with the selected text
// subtitle track's script and rasterises it, at a given time and pixel size, into an RGBA
// picture (the rectangles the subtitles cover) the window blends over the video.
//
// Concurrency: made on any thread (the window makes it on a background queue), then confined
// to the window's thread (fed, rendered and freed there).
// libass state (library, renderer, track) is owned by this object and freed in deinit.
internal import CASS
internal import CASSLoader
import Foundation
import FFmpegBridge
import OpenAVFoundation

/// Renders ASS/SSA with its own styles and the plain formats (SubRip, WebVTT, mov_text,
/// captions; FFmpeg hands them over as ASS events) with a header made from the user's
/// `SubtitleAppearance`, as libass draws them for mpv and FFmpeg.
final class LibassRenderer {
    /// What the last render produced, in frame pixels.
    private(set) var picture = SubtitlePicture.empty

    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private var track: UnsafeMutablePointer<ASS_Track>?
    private var cursor = SubtitleScriptCursor.empty
    /// The script as last received (the header is rebuilt from it when the look changes).
    private var script: SubtitleScript?
    private var addedFonts: Set<String> = []
    /// What the track was built with: the header's inputs.
    private var builtLook: (appearance: SubtitleAppearance, aspect: Double)?
    private var frame = (width: 0, height: 0)
    private var storage = (width: 0, height: 0)
    private var fontScale = 1.0
    /// The masks of the last render (kept for their capacity).
    private var masks: [SubtitleMask] = []
    private var needsRender = true

    /// A renderer, or nil (with the reason in `loadFailure`) when libass cannot be loaded.
    init?() {
        guard playhead_ass_load() != 0, let library = ass_library_init() else {
            Self.warnOnce()
            return nil
        }
        guard let renderer = ass_renderer_init(library) else {
            ass_library_done(library)
            Self.warnOnce()
            return nil
        }
        self.library = library
        self.renderer = renderer
        playhead_ass_quiet_messages(library)
        ass_set_extract_fonts(library, 1)
        // Fontconfig finds the fonts styles name; sans-serif when none matches.
        ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
    }

    deinit {
        if let track { ass_free_track(track) }
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// Why libass could not be loaded, printed once per process.
    private static let warning: Void = {
        let reason = String(cString: playhead_ass_load_error())
        FileHandle.standardError.write(
            Data("playhead: subtitles: libass unavailable (\(reason)); using the plain text renderer\n".utf8))
    }()
    private static func warnOnce() { _ = warning }

    /// True while a track with events is loaded.
    var hasTrack: Bool { track != nil && script != nil }

    /// Takes what changed in the item's script (nil: nothing).
    func apply(_ change: SubtitleScriptChange?) {
        switch change {
        case nil: return
        case .replace(let replacement):
            script = replacement
            cursor = replacement.cursor
            addFonts(replacement.fonts)
            builtLook = nil  // rebuilt with the header at the next render
        case .append(let dialogues, let next):
            script?.dialogues += dialogues
            cursor = next
            if let track { for dialogue in dialogues { add(dialogue, to: track) } }
        }
        needsRender = true
    }

    /// Where this renderer's copy stands, for `AVPlayerItem.subtitleScript(since:)`.
    var scriptCursor: SubtitleScriptCursor { cursor }

    /// Forgets the script (no item, or subtitles turned off).
    func clear() {
        if let track { ass_free_track(track) }
        track = nil
        script = nil
        cursor = .empty
        builtLook = nil
        picture.pieces.removeAll(keepingCapacity: true)
    }

    /// Rasterises the subtitles showing at `time` for a `width` x `height` pixel frame (the
    /// video's rectangle on screen) of a video with display aspect `aspect`; `appearance`
    /// styles plain formats and scales all; `videoSize` is the video's own pixel size (libass
    /// scales some effects by it, as VSFilter does). True when `picture` changed.
    func render(
        at time: CMTime, width: Int, height: Int, aspect: Double, videoSize: (width: Int, height: Int)?,
        appearance: SubtitleAppearance
    ) -> Bool {
        guard let script, width > 0, height > 0, time.isNumeric else {
            let had = !picture.isEmpty
            picture.pieces.removeAll(keepingCapacity: true)
            needsRender = true  // draw again once there is something to draw into
            return had
        }
        if builtLook == nil || builtLook?.appearance != appearance
            || (!script.isStyled && abs((builtLook?.aspect ?? 0) - aspect) > 0.01)
        {
            rebuild(script, appearance: appearance, aspect: aspect)
        }
        if frame != (width, height) {
            frame = (width, height)
            ass_set_frame_size(renderer, Int32(width), Int32(height))
            needsRender = true
        }
        let stored = videoSize ?? (width, height)
        if storage != stored, stored.width > 0, stored.height > 0 {
            storage = stored
            ass_set_storage_size(renderer, Int32(stored.width), Int32(stored.height))
            needsRender = true
        }
        if fontScale != appearance.scale {
            fontScale = appearance.scale
            ass_set_font_scale(renderer, max(0.1, min(10, appearance.scale)))
            needsRender = true
        }
        guard let track else { return false }
        var changed: Int32 = 0
        let milliseconds = Int64((time.seconds * 1000).rounded(.down))
        let images = ass_render_frame(renderer, track, milliseconds, &changed)
        // libass compares its images with the last frame's: unchanged (0) means the same picture.
        guard changed != 0 || needsRender else { return false }
        needsRender = false
        masks.removeAll(keepingCapacity: true)
        var next = images
        while let image = next?.pointee {
            if let bitmap = image.bitmap {
                masks.append(
                    SubtitleMask(
                        x: Int(image.dst_x), y: Int(image.dst_y), width: Int(image.w),
                        height: Int(image.h), stride: Int(image.stride),
                        bitmap: UnsafePointer(bitmap), color: image.color))
            }
            next = image.next
        }
        let wasEmpty = picture.isEmpty
        SubtitleBitmapCompositor.flatten(masks, frameWidth: width, frameHeight: height, into: &picture)
        return !(wasEmpty && picture.isEmpty)
    }

    // MARK: - Track

    private func rebuild(_ script: SubtitleScript, appearance: SubtitleAppearance, aspect: Double) {
        if let track { ass_free_track(track) }
        builtLook = (appearance, aspect)
        needsRender = true
        guard let made = ass_new_track(library) else {
            track = nil
            return
        }
        track = made
        let header =
            script.isStyled
            ? (script.header ?? PlainSubtitleHeader.text(for: appearance, aspect: aspect))
            : PlainSubtitleHeader.text(for: appearance, aspect: aspect)
        var bytes = Array(header.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                ass_process_codec_private(made, $0, Int32(buffer.count))
            }
        }
        // Playhead's cue store already drops events read twice; libass's own check would
        // also drop distinct events that reuse a ReadOrder number (some muxers do).
        ass_set_check_readorder(made, 0)
        for dialogue in script.dialogues { add(dialogue, to: made) }
    }

    private func add(_ dialogue: SubtitleDialogue, to track: UnsafeMutablePointer<ASS_Track>) {
        // Times libass cannot hold (a hostile subtitle file's) are left out.
        let bound = 1e12
        guard abs(dialogue.start.seconds) < bound, abs(dialogue.end.seconds) < bound else { return }
        let start = Int64((dialogue.start.seconds * 1000).rounded())
        let duration = max(1, Int64((dialogue.end.seconds * 1000).rounded()) - start)
        var bytes = Array(dialogue.line.utf8)
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                ass_process_chunk(track, $0, Int32(buffer.count), start, duration)
            }
        }
    }

    private func addFonts(_ fonts: [EmbeddedFont]) {
        var added = false
        for font in fonts where !addedFonts.contains(font.fileName) {
            addedFonts.insert(font.fileName)
            font.data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                ass_add_font(
                    library, font.fileName, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            }
            added = true
        }
        // Fonts handed over after the font lookup was set up need it set up again.
        if added {
            ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        }
    }
}
