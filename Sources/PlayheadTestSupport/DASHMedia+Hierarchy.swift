// Playhead: the on-demand DASH presentation (`indexed/`) with its segment indexes made a
// hierarchy, as packagers that write one index per group of subsegments do: each file's
// `sidx` names two further `sidx` boxes (reference_type 1), each placed before the
// subsegments it indexes. FFmpeg writes one flat index, so the files are rewritten here: the
// media bytes are the same, moved behind the new boxes (fragments count their data from their
// own `moof`, so moving them changes nothing inside them).
//
// Concurrency: files made at most once per machine under FixtureCache's lock.
import Foundation

extension DASHMedia {
    /// `hierarchy/manifest.mpd`: `indexed/manifest.mpd` (see `makeIndexed`) over copies of its
    /// three files whose `sidx` is a two-level hierarchy (see the file comment).
    public static func hierarchicalFolder() throws -> URL {
        let indexed = try folder().appendingPathComponent("indexed")
        return try FixtureCache.file(named: "dash-hierarchical-v1") { folder in
            let directory = folder.appendingPathComponent("hierarchy")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var manifest = try String(contentsOf: indexed.appendingPathComponent("manifest.mpd"), encoding: .utf8)
            for name in ["low", "high", "audio"] {
                let flat = try Data(contentsOf: indexed.appendingPathComponent("\(name).mp4"))
                let (rewritten, old, new) = try hierarchical(flat)
                try rewritten.write(to: directory.appendingPathComponent("\(name).mp4"))
                let before = "<BaseURL>\(name).mp4</BaseURL><SegmentBase indexRange=\"\(old.lowerBound)-\(old.upperBound - 1)\">"
                guard manifest.contains(before) else { throw TestSupportError("no SegmentBase for \(name).mp4") }
                manifest = manifest.replacingOccurrences(
                    of: before, with: "<BaseURL>\(name).mp4</BaseURL><SegmentBase indexRange=\"\(new.lowerBound)-\(new.upperBound - 1)\">")
            }
            try manifest.write(to: directory.appendingPathComponent("manifest.mpd"), atomically: true, encoding: .utf8)
        }
    }

    /// `file` with its flat `sidx` replaced by a top box naming two boxes, each before its
    /// half of the subsegments; the old and new index ranges.
    static func hierarchical(_ file: Data) throws -> (Data, old: Range<Int>, new: Range<Int>) {
        let bytes = [UInt8](file)
        func number(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
        // The flat index among the top-level boxes.
        var offset = 0
        var found: Range<Int>?
        while offset + 8 <= bytes.count, found == nil {
            let size = number(offset, 4)
            guard size >= 8 else { break }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == "sidx" { found = offset..<(offset + size) }
            offset += size
        }
        guard let box = found else { throw TestSupportError("no sidx") }
        let version = bytes[box.lowerBound + 8]
        var at = box.lowerBound + 12
        let referenceID = number(at, 4), timescale = number(at + 4, 4)
        at += 8
        let wide = version == 0 ? 4 : 8
        let earliest = number(at, wide), firstOffset = number(at + wide, wide)
        at += 2 * wide + 2
        let count = number(at, 2)
        at += 2
        let references = (0..<count).map { index in
            (size: number(at + 12 * index, 4), duration: number(at + 12 * index + 4, 4), sap: number(at + 12 * index + 8, 4))
        }
        guard count >= 2, references.allSatisfy({ $0.size >> 31 == 0 }) else { throw TestSupportError("not a flat index") }
        let media = box.upperBound + firstOffset
        let half = count / 2
        let groups = [Array(references[..<half]), Array(references[half...])]

        func sidx(earliest: Int, entries: [(size: Int, duration: Int, sap: Int)]) -> [UInt8] {
            var out: [UInt8] = []
            func put(_ value: Int, _ width: Int) { for shift in stride(from: 8 * (width - 1), through: 0, by: -8) { out.append(UInt8((value >> shift) & 0xFF)) } }
            put(32 + 12 * entries.count + 8, 4)
            out += Array("sidx".utf8)
            put(1 << 24, 4)  // version 1, no flags
            put(referenceID, 4)
            put(timescale, 4)
            put(earliest, 8)
            put(0, 8)  // first offset: the subsegments (or the first index) follow
            put(entries.count, 4)  // reserved, reference count
            for entry in entries {
                put(entry.size, 4)
                put(entry.duration, 4)
                put(entry.sap, 4)
            }
            return out
        }
        let firstDuration = groups[0].reduce(0) { $0 + $1.duration }
        let lower = [sidx(earliest: earliest, entries: groups[0]), sidx(earliest: earliest + firstDuration, entries: groups[1])]
        let spans = groups.map { $0.reduce(0) { $0 + $1.size } }
        let top = sidx(
            earliest: earliest,
            entries: (0..<2).map { index in
                (size: (lower[index].count + spans[index]) | (1 << 31), duration: groups[index].reduce(0) { $0 + $1.duration },
                 sap: groups[index][0].sap)
            })
        var out = Array(bytes[..<box.lowerBound]) + top
        out += lower[0] + bytes[media..<(media + spans[0])]
        out += lower[1] + bytes[(media + spans[0])..<(media + spans[0] + spans[1])]
        out += bytes[(media + spans[0] + spans[1])...]
        return (Data(out), box, box.lowerBound..<(box.lowerBound + top.count))
    }
}
