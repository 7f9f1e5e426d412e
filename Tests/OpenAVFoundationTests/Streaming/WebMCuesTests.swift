// Playhead: the Cues of a WebM file as a DASH `SegmentBase` index: FFmpeg's WebM DASH files
// (a cluster at each second's keyframe, the Cues after the clusters) read into one
// subsegment per cluster, and broken or hostile bytes refused without a crash.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct WebMCuesTests {
    /// The 320x180 file of the indexed fixture, and its initialisation and index ranges as the
    /// manifest names them.
    private func file() throws -> (bytes: Data, initialisation: Range<Int>, index: Range<Int>) {
        let folder = try DASHWebMMedia.indexedFolder().appendingPathComponent("cues")
        let text = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let manifest = try #require(DASHManifest.parse(Data(text.utf8), base: URL(string: "https://media.example/cues/manifest.mpd")!))
        let index = try #require(manifest.variants.last?.index)
        #expect(index.isWebM && index.url.lastPathComponent == "video-1.webm")
        return (try Data(contentsOf: folder.appendingPathComponent("video-1.webm")), index.initialisation, index.indexRange)
    }

    @Test func eachCuedClusterIsASubsegmentUpToTheCues() throws {
        let (bytes, initialisation, index) = try file()
        let cues = try #require(
            WebMCues(initialisation: bytes.subdata(in: initialisation), cues: bytes.subdata(in: index), cuesOffset: index.lowerBound))
        let references = cues.references
        #expect(references.count == Int(DASHWebMMedia.duration), "a cluster a second: \(references.count)")
        #expect(references.map { ($0.start * 1000).rounded() } == (0..<12).map { Double($0 * 1000) }, "\(references.map(\.start))")
        #expect(zip(references, references.dropFirst()).allSatisfy { $0.bytes.upperBound == $1.bytes.lowerBound })
        #expect(references.first.map { $0.bytes.lowerBound >= initialisation.upperBound } == true)
        #expect(references.last?.bytes.upperBound == index.lowerBound, "the last runs to the Cues")
        let total = references.reduce(0) { $0 + $1.duration }
        #expect(abs(total - DASHWebMMedia.duration) < 0.05, "\(total)")
        // Each subsegment starts with a cluster (its ID).
        for reference in references {
            #expect([UInt8](bytes.subdata(in: reference.bytes.lowerBound..<(reference.bytes.lowerBound + 4))) == [0x1F, 0x43, 0xB6, 0x75])
        }
        // Through the manifest: segments on the file's own times, each behind the section.
        let playlist = try #require(DASHManifest.indexedPlaylist(
            DASHManifest.IndexedFile(url: URL(string: "https://media.example/v.webm")!, indexRange: index,
                                     initialisation: initialisation, isWebM: true),
            sidx: bytes.subdata(in: index), initialisation: bytes.subdata(in: initialisation)))
        #expect(playlist.segments.count == 12 && playlist.segments.allSatisfy { $0.map?.byteRange == initialisation })
        #expect(playlist.segments.map(\.byteRange) == references.map(\.bytes))
    }

    @Test func brokenOrHostileBytesAreRefused() throws {
        let (bytes, initialisation, index) = try file()
        let head = bytes.subdata(in: initialisation), cues = bytes.subdata(in: index)
        #expect(WebMCues(initialisation: head, cues: cues.prefix(3), cuesOffset: index.lowerBound) == nil, "cut short")
        #expect(WebMCues(initialisation: Data(head.prefix(10)), cues: cues, cuesOffset: index.lowerBound) == nil, "no Segment")
        #expect(WebMCues(initialisation: head, cues: head, cuesOffset: index.lowerBound) == nil, "not Cues")
        #expect(WebMCues(initialisation: Data(), cues: Data(), cuesOffset: 0) == nil)
        // A sidx where Cues are expected, zeros, and every truncation of the Cues: no crash.
        #expect(WebMCues(initialisation: head, cues: Data(count: 64), cuesOffset: index.lowerBound) == nil)
        for length in stride(from: 0, to: cues.count, by: 7) {
            _ = WebMCues(initialisation: head, cues: cues.prefix(length), cuesOffset: index.lowerBound)
        }
        // Cues of unknown size (all ones), read over what follows: no crash.
        var lying = [UInt8](cues)
        lying[4] = 0x01  // an eight-byte size
        for position in 5..<12 { lying[position] = 0xFF }
        _ = WebMCues(initialisation: head, cues: Data(lying), cuesOffset: index.lowerBound)
        // Without Info's Duration (turned into a Void element of the same length) the last
        // subsegment's length is unknown: refused.
        var noDuration = [UInt8](head)
        let info = try #require(noDuration.indices.dropLast(3).first { Array(noDuration[$0..<($0 + 4)]) == [0x15, 0x49, 0xA9, 0x66] })
        let duration = try #require(noDuration.indices.dropLast().first { $0 > info && noDuration[$0] == 0x44 && noDuration[$0 + 1] == 0x89 })
        noDuration[duration] = 0xEC
        #expect(WebMCues(initialisation: head, cues: cues, cuesOffset: index.lowerBound) != nil)
        #expect(WebMCues(initialisation: Data(noDuration), cues: cues, cuesOffset: index.lowerBound) == nil)
        // A Duration of infinity (an eight-byte float) is refused too.
        var endless = [UInt8](head)
        try #require(endless[duration + 2] == 0x88, "FFmpeg writes Duration as an eight-byte float")
        endless.replaceSubrange((duration + 3)..<(duration + 11), with: [0x7F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(WebMCues(initialisation: Data(endless), cues: cues, cuesOffset: index.lowerBound) == nil)
    }
}
