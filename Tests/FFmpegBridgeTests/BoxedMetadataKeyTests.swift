// Playhead: the key tables of MP4 timed metadata ('mebx') tracks, which FFmpeg 5.1 does not
// expose: found by walking the movie box, and never trusted when the bytes are hostile.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge

@Suite struct BoxedMetadataKeyTests {
    private let expectedKeys = TimedMetadataMedia.boxedKeys.map { key in
        BoxedMetadataKey(
            localID: key.localID, namespace: "mdta", keyValue: Array(key.name.utf8), dataTypeNamespace: 0,
            dataType: BoxedMetadataBytes.be32(key.wellKnownType))
    }

    @Test func ffmpegSeesTheTrackAsADataStreamWithoutItsKeys() throws {
        let summary = try FFprobe.summary(of: try TimedMetadataMedia.quickTimeMovie())
        #expect(summary.streams.map(\.codecType) == ["video", "data"])
        #expect(summary.streams.last?.codecTag == "mebx" && summary.streams.last?.codecName == nil)
        #expect(try FFprobe.packetBytes(of: try TimedMetadataMedia.quickTimeMovie())[1] ?? 0 > 0)
    }

    @Test func theInspectorReadsTheKeysFromTheMovieBox() throws {
        let description = try MediaInspector.describe(try MediaLocation(url: try TimedMetadataMedia.quickTimeMovie()))
        let track = try #require(description.streams.first { $0.codecTag == "mebx" })
        #expect(track.kind == .data && track.trackID == 2)
        #expect(track.boxedMetadataKeys == expectedKeys)
        #expect(track.boxedMetadataKeys.map(\.wellKnownType) == [1, 1, 23])
        #expect(description.streams.first?.boxedMetadataKeys.isEmpty == true)
    }

    @Test func keysAreReadFromAnInputInMemoryToo() throws {
        let bytes = try Data(contentsOf: try TimedMetadataMedia.quickTimeMovie())
        let location = MediaLocation(memory: MemoryInput(bytes: bytes, name: "movie.mp4"))
        let description = try MediaInspector.describe(location)
        #expect(description.streams.last?.boxedMetadataKeys == expectedKeys)
    }

    @Test func theDemuxerReadsTheKeysAndStillReadsEveryPacket() throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try TimedMetadataMedia.quickTimeMovie()))
        try #require(demuxer.description.streams.count >= 2)
        #expect(demuxer.description.streams[1].boxedMetadataKeys == expectedKeys)
        var metadata: [(Double, Double, Int)] = []
        var video = 0
        while case .packet(let packet) = demuxer.readPacket() {
            if packet.streamIndex == 1 { metadata.append((packet.pts.seconds, packet.duration.seconds, packet.byteCount)) }
            else { video += 1 }
        }
        #expect(video == 40)
        #expect(metadata.map(\.0) == [0, 1, 2] && metadata.map(\.1) == [1, 1, 1])
        #expect(metadata.map(\.2) == TimedMetadataMedia.boxedSamples.map { TimedMetadataMedia.boxedSampleBytes($0).count })
    }

    @Test func aSampleDescriptionWithoutMebxOrWithBrokenKeysGivesNoKeys() {
        let good = BoxedMetadataBytes.sampleDescriptions(TimedMetadataMedia.boxedKeys)
        #expect(BoxedMetadataKey.keys(fromSampleDescriptions: good.dropFirst(8)) == expectedKeys)
        #expect(BoxedMetadataKey.keys(fromSampleDescriptions: []).isEmpty)
        let notMebx = BoxedMetadataBytes.box("stsd", [0, 0, 0, 0, 0, 0, 0, 1] + BoxedMetadataBytes.box("avc1", [1, 2, 3]))
        #expect(BoxedMetadataKey.keys(fromSampleDescriptions: notMebx.dropFirst(8)).isEmpty)
        // Reserved local IDs, and a key without its declaration, are skipped.
        let table = BoxedMetadataBytes.box(code: 0, BoxedMetadataBytes.box("keyd", Array("mdtaa.b".utf8)))
            + BoxedMetadataBytes.box(code: 7, BoxedMetadataBytes.box("dtyp", [0, 0, 0, 0, 0, 0, 0, 1]))
            + BoxedMetadataBytes.box(code: 9, BoxedMetadataBytes.box("keyd", Array("mdtaname".utf8)))
        let keys = BoxedMetadataKey.parse(table: table[...])
        #expect(keys.map(\.localID) == [9] && keys.first?.wellKnownType == nil)
    }

    @Test func boxSizesThatLieEndTheReading() {
        // A size past the end, a size smaller than a header, a 64-bit size, a size of zero.
        #expect(ISOBoxes.boxes(in: [0, 0, 0, 99, 0x61, 0x62, 0x63, 0x64, 1][...]).isEmpty)
        #expect(ISOBoxes.boxes(in: [0, 0, 0, 4, 0x61, 0x62, 0x63, 0x64][...]).isEmpty)
        let large: [UInt8] = [0, 0, 0, 1, 0x61, 0x62, 0x63, 0x64, 0, 0, 0, 0, 0, 0, 0, 17, 42]
        #expect(ISOBoxes.boxes(in: large[...]).map(\.payload) == [[42][...]])
        let huge: [UInt8] = [0, 0, 0, 1, 0x61, 0x62, 0x63, 0x64, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(ISOBoxes.boxes(in: huge[...]).isEmpty)
        #expect(ISOBoxes.boxes(in: [0, 0, 0, 0, 0x61, 0x62, 0x63, 0x64, 5, 6][...]).map(\.payload.count) == [2])
    }

    @Test func walkingDamagedMoviesNeverCrashesOrReadsOutOfBounds() throws {
        let movie = Array(try Data(contentsOf: try TimedMetadataMedia.quickTimeMovie()))
        func keys(_ bytes: [UInt8]) -> [Int32: [BoxedMetadataKey]] {
            MovieKeyTables.keys(
                read: { offset, count in
                    guard offset >= 0, offset < Int64(bytes.count) else { return nil }
                    let start = Int(offset)
                    return Array(bytes[start..<min(bytes.count, start + count)])
                }, size: Int64(bytes.count))
        }
        #expect(keys(movie) == [2: expectedKeys])
        // Cut anywhere: the keys are found whole or not at all.
        for length in stride(from: 0, to: movie.count, by: 97) {
            let found = keys(Array(movie.prefix(length)))
            #expect(found.isEmpty || found == [2: expectedKeys])
        }
        // Bytes overwritten with noise (sizes, types and counts included).
        var state: UInt64 = 0x5eed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        // The movie box comes last: aim the damage at it.
        let moov = try #require(ISOBoxes.boxes(in: movie[...]).last { $0.typeName == "moov" })
        let moovStart = moov.payload.startIndex - 8
        for _ in 0..<400 {
            var damaged = movie
            for _ in 0..<(1 + Int(next() % 8)) {
                let at = moovStart + Int(next() % UInt64(movie.count - moovStart))
                damaged[at] = UInt8(truncatingIfNeeded: next())
            }
            _ = keys(damaged)
        }
        // Pure noise, and noise after a plausible header.
        for _ in 0..<200 {
            let noise = (0..<Int(next() % 600)).map { _ in UInt8(truncatingIfNeeded: next()) }
            _ = keys(noise)
            _ = keys([0, 0, 0, 200] + Array("moov".utf8) + noise)
            _ = BoxedMetadataKey.keys(fromSampleDescriptions: noise[...])
        }
    }
}
