// Playhead: the window's screenshot key (Shift+S, as in VLC): the picture on screen, as
// decoded (no controls, no subtitles), written as a PNG beside a local media file, or in the
// user's Pictures folder (XDG) for streams and read-only folders.
//
// Concurrency: `take` runs on the window's thread and only reads the layer's current picture
// (immutable); converting, encoding and writing happen on a background queue, and the result
// comes back to `done` on the main queue (which the window's thread drains).
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// Takes screenshots of the picture a layer shows.
enum WindowScreenshot {
    /// What became of a screenshot: the file written, or why none was.
    enum Outcome: Equatable {
        case saved(URL)
        case failed(String)

        /// The window's note for it.
        var message: String {
            switch self {
            case .saved(let url): return "Screenshot: \(url.lastPathComponent)"
            case .failed(let reason): return "Screenshot failed: \(reason)"
            }
        }
    }

    /// Where a screenshot of `media` at `time` goes: `<name>-<h>-<mm>-<ss>.<ms>.png` beside a
    /// local file whose folder is writable, else in the Pictures folder of `environment`
    /// (`XDG_PICTURES_DIR`, else `~/Pictures`, else the home folder); a number is added when
    /// the name is taken.
    static func destination(
        for media: URL?, at time: CMTime, environment: [String: String] = ProcessInfo.processInfo.environment,
        fileManager: FileManager = .default
    ) -> URL {
        let seconds = time.isNumeric ? max(0, time.seconds) : 0
        let milliseconds = Int((seconds * 1000).rounded(.down))
        let stamp = String(
            format: "%d-%02d-%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
            milliseconds / 1000 % 60, milliseconds % 1000)
        let stem = media.map { $0.deletingPathExtension().lastPathComponent } ?? "playhead"
        let name = (stem.isEmpty ? "playhead" : stem) + "-" + stamp
        var folder: URL
        if let media, media.isFileURL, fileManager.isWritableFile(atPath: media.deletingLastPathComponent().path) {
            folder = media.deletingLastPathComponent()
        } else {
            folder = picturesFolder(environment: environment, fileManager: fileManager)
        }
        folder.standardize()
        var candidate = folder.appendingPathComponent(name + ".png")
        var number = 2
        while fileManager.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(name)-\(number).png")
            number += 1
        }
        return candidate
    }

    /// `XDG_PICTURES_DIR` when set to an existing folder, else `~/Pictures` when it exists,
    /// else the home folder.
    static func picturesFolder(environment: [String: String], fileManager: FileManager) -> URL {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        var isFolder: ObjCBool = false
        if let path = environment["XDG_PICTURES_DIR"], !path.isEmpty,
            fileManager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let pictures = home.appendingPathComponent("Pictures", isDirectory: true)
        if fileManager.fileExists(atPath: pictures.path, isDirectory: &isFolder), isFolder.boolValue {
            return pictures
        }
        return home
    }

    /// Writes `picture` (shown at `time` for `media`) as a PNG in the background and hands the
    /// outcome to `done` on the main queue. False (nothing started) when there is no picture.
    @discardableResult
    static func take(
        _ picture: (any DisplayablePicture)?, media: URL?, at time: CMTime,
        done: @escaping @Sendable (Outcome) -> Void
    ) -> Bool {
        guard let picture else { return false }
        let destination = destination(for: media, at: picture.presentationTime ?? time)
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = write(picture, to: destination)
            DispatchQueue.main.async { done(outcome) }
        }
        return true
    }

    /// Converts, encodes and writes `picture` to `destination` (any thread).
    static func write(_ picture: any DisplayablePicture, to destination: URL) -> Outcome {
        let rgba = picture.pixelFormatName == "rgba" ? picture : picture.convertedToRGBA(using: Scaler())
        guard let rgba else { return .failed("cannot convert the picture") }
        let bytes = rgba.withPlane(0) { plane, bytesPerRow, rows -> [UInt8] in
            var packed = [UInt8](repeating: 0, count: rgba.width * rows * 4)
            for row in 0..<rows {
                let source = plane[(row * bytesPerRow)..<(row * bytesPerRow + rgba.width * 4)]
                packed.replaceSubrange((row * rgba.width * 4)..<((row + 1) * rgba.width * 4), with: source)
            }
            return packed
        }
        do {
            let png = try ImageEncoder.encode(
                rgba: bytes, width: rgba.width, height: rgba.height, as: .png, isOpaque: true)
            try Data(png).write(to: destination, options: .withoutOverwriting)
            return .saved(destination)
        } catch {
            return .failed("\(destination.path): \(error)")
        }
    }
}
