// Playhead: byte edits that turn an ffmpeg-written file into one ffmpeg would refuse to write.
import Foundation

/// A post-processing step for a generated fixture.
enum FixturePatch: Sendable, CustomStringConvertible {
    /// Renames the first MP4 sample entry after the first `stsd` box, e.g. `avc1` to `plhd`.
    ///
    /// The muxer validates codec tags, so an MP4 whose video codec no decoder knows cannot be
    /// written directly; renaming the sample entry of a normal file gives one.
    case renameFirstSampleEntry(from: String, to: String)

    var description: String {
        switch self {
        case .renameFirstSampleEntry(let from, let to): return "rename-sample-entry:\(from)>\(to)"
        }
    }

    /// Edits the file at `url` in place.
    func apply(to url: URL) throws {
        switch self {
        case .renameFirstSampleEntry(let from, let to):
            var data = try Data(contentsOf: url)
            let old = Data(from.utf8)
            let new = Data(to.utf8)
            guard old.count == 4, new.count == 4,
                let stsd = data.range(of: Data("stsd".utf8)),
                let entry = data.range(of: old, in: stsd.upperBound..<data.endIndex)
            else {
                throw TestSupportError("no '\(from)' sample entry in \(url.lastPathComponent)")
            }
            data.replaceSubrange(entry, with: new)
            try data.write(to: url)
        }
    }
}
