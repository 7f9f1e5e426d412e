// Playhead: cover art for `nowPlayingInfo`. Apple's takes a handler returning a UIImage; Linux
// has no UIImage, so here the handler returns encoded image bytes (PNG or JPEG), or the art is
// an image file already on disk. The desktop gets it as a `file://` URL (MPRIS `mpris:artUrl`).
//
// Concurrency: immutable apart from the cached file URL, which is guarded by a lock. The file
// is written by whoever first asks for the URL: the MPRIS server's thread, never the main queue.
import Foundation

/// An image shown as the item's cover art by the desktop's media controls.
///
/// Differs from Apple's: the request handler returns the image's encoded bytes (`Data` holding
/// a PNG or a JPEG) instead of a `UIImage`, or `init(contentsOf:)` names an image file. Bytes
/// are written once to `$XDG_CACHE_HOME/playhead/artwork/` (`~/.cache/...` by default), which
/// keeps at most 64 images.
public final class MPMediaItemArtwork: @unchecked Sendable {
    /// The image's size in pixels, as given when it was made.
    public let bounds: CGRect
    private let source: Source
    private let lock = NSLock()
    private var resolvedURL: URL??

    private enum Source {
        case handler(@Sendable (CGSize) -> Data)
        case file(URL)
    }

    /// Art whose encoded image (PNG or JPEG bytes) `requestHandler` returns when the desktop
    /// first needs it; `boundsSize` is the image's size and is passed to the handler.
    public init(boundsSize: CGSize, requestHandler: @escaping @Sendable (CGSize) -> Data) {
        bounds = CGRect(origin: .zero, size: boundsSize)
        source = .handler(requestHandler)
    }

    /// Art held as encoded image bytes (PNG or JPEG), for instance an asset's attached picture.
    public convenience init(imageData: Data, boundsSize: CGSize = .zero) {
        self.init(boundsSize: boundsSize) { _ in imageData }
    }

    /// Art read from an image file; the desktop is given this file's URL as it is.
    public init(contentsOf fileURL: URL, boundsSize: CGSize = .zero) {
        bounds = CGRect(origin: .zero, size: boundsSize)
        source = .file(fileURL)
    }

    /// The image's encoded bytes (what the handler returns, or the file's contents), or nil
    /// when the file cannot be read.
    public func image(at size: CGSize) -> Data? {
        switch source {
        case .handler(let handler): return handler(size)
        case .file(let url): return try? Data(contentsOf: url)
        }
    }

    /// A `file://` URL of the image (written to the cache on first use), or nil when the image
    /// is empty or cannot be written.
    var fileURL: URL? {
        lock.lock()
        defer { lock.unlock() }
        if let resolvedURL { return resolvedURL }
        let url: URL?
        switch source {
        case .file(let file): url = file
        case .handler(let handler): url = Self.cache(handler(bounds.size))
        }
        resolvedURL = .some(url)
        return url
    }

    /// The folder cover art is written to.
    static var cacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = URL(fileURLWithPath: cache)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        }
        return base.appendingPathComponent("playhead/artwork", isDirectory: true)
    }

    private static let keptImages = 64

    /// Writes `data` under its digest (once) and returns the file's URL.
    private static func cache(_ data: Data) -> URL? {
        guard !data.isEmpty else { return nil }
        let isPNG = data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        // FNV-1a over the bytes and their count: a name per image, not a security check.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digest = String(hash, radix: 16) + "-" + String(data.count, radix: 16)
        let folder = cacheDirectory
        let file = folder.appendingPathComponent("\(digest).\(isPNG ? "png" : "jpg")")
        let manager = FileManager.default
        if manager.fileExists(atPath: file.path) { return file }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            return nil
        }
        pruneCache(folder, keeping: file)
        return file
    }

    /// Removes the oldest images beyond `keptImages`.
    private static func pruneCache(_ folder: URL, keeping newest: URL) {
        let manager = FileManager.default
        guard let files = try? manager.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return }
        guard files.count > keptImages else { return }
        let dated = files.map { file in
            (file, (try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast)
        }
        for (file, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(files.count - keptImages) where file != newest {
            try? manager.removeItem(at: file)
        }
    }
}
