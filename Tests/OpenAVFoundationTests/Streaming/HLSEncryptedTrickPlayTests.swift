// Playhead: trick play of an HLS stream encrypted whole with AES-128, whose I-frame playlists
// name byte ranges of the encrypted segments (as a packager writes them): each step fetches
// its keyframe's range from the block before it, decrypts it there, and shows the keyframe as
// the clear stream decodes it; no whole segment is fetched.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

extension HLSTrickPlayTests {
    @Test func anEncryptedStreamStepsBackwardThroughItsKeyframesDecryptedFromTheirRanges() async throws {
        let clear = try LoopbackHTTPServer(root: try IFramePlaylistMedia.folder(duration: 24))
        defer { clear.stop() }
        let reference = await linearChecksums(of: clear.url(for: "small/index.m3u8"))
        let server = try LoopbackHTTPServer(root: try IFramePlaylistMedia.encryptedFolder(duration: 24))
        defer { server.stop() }
        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"))
        let before = server.requests.count
        player.rate = -1
        await advance(clock, by: 0.1)
        await waitUntil("the keyframe at 23 s shows") { sink.count == 1 }
        let offset = try #require(sink.last.map { millis($0.pts) - 23_000 })
        #expect((0..<100).contains(offset), "\(offset)")
        await stepDown(through: stride(from: 22, through: 18, by: -1), every: 1, offset: offset, clock, sink)
        player.pause()
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == stride(from: 23_000, through: 18_000, by: -1000).map { $0 + offset }, "every keyframe, each once: \(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        // Each keyframe's range from the 16-byte block before it through its last block.
        let segments = server.requests.dropFirst(before).filter { $0.path.hasSuffix(".ts") }
        let starts = segments.compactMap { $0.range?.dropFirst("bytes=".count).split(separator: "-").first.flatMap { Int($0) } }
        #expect(segments.count >= 6 && starts.count == segments.count, "ranges only: \(segments.map { "\($0.path) \($0.range ?? "-")" })")
        #expect(starts.allSatisfy { $0 % 16 == 0 }, "\(starts)")
        #expect(item.errorLog()?.events.isEmpty ?? true, "\(item.errorLog()?.events.map(\.errorComment) ?? [])")
    }
}

@Suite struct HLSEncryptedRangeTests {
    /// Every range of a 100-byte resource encrypted whole (the first block, across blocks, to
    /// the end before the padding) decrypts to the clear bytes from its cipher range alone.
    @Test func anyRangeDecryptsFromTheBlockBeforeIt() throws {
        let clear = Data((0..<100).map { UInt8(($0 * 37 + 11) % 256) })
        let iv = Data((0..<16).map { UInt8(200 - $0) })
        let sealed = try AES128Files.encrypted(clear, key: AdaptiveMedia.key, iv: iv)
        #expect(sealed.count == 112)
        for range in [0..<5, 3..<16, 16..<32, 17..<18, 15..<17, 40..<100, 0..<100, 99..<100, 96..<100] {
            let cipher = HLSEncryptedRange.cipherRange(for: range)
            #expect(cipher.lowerBound % 16 == 0 && cipher.upperBound % 16 == 0 && cipher.upperBound <= sealed.count)
            #expect(cipher.lowerBound == max(0, range.lowerBound / 16 * 16 - 16), "\(range): \(cipher)")
            let plain = HLSEncryptedRange.plain(range, from: sealed.subdata(in: cipher), key: AdaptiveMedia.key, iv: iv)
            #expect(plain == clear.subdata(in: range), "\(range)")
        }
        // Too little ciphertext (a server that ended early) or a wrong-sized key gives nothing.
        #expect(HLSEncryptedRange.plain(40..<100, from: sealed.subdata(in: 16..<48), key: AdaptiveMedia.key, iv: iv) == nil)
        #expect(HLSEncryptedRange.plain(0..<5, from: sealed.subdata(in: 0..<16), key: Data(count: 8), iv: iv) == nil)
        #expect(HLSEncryptedRange.plain(20..<30, from: Data(count: 10), key: AdaptiveMedia.key, iv: iv) == nil)
    }

    @Test func aRangeMustDecryptToMediaAndItsIVMustBeKnown() throws {
        var packet = Data([0x47, 0x40, 0x00, 0x10]) + Data(count: 184)
        #expect(HLSEncryptedRange.looksLikeMedia(packet + packet))
        #expect(HLSEncryptedRange.looksLikeMedia(Data([0, 0, 0, 24]) + Data("moof".utf8) + Data(count: 16)))
        packet[0] = 0x12
        #expect(!HLSEncryptedRange.looksLikeMedia(packet + packet), "garbage from a wrong key")
        #expect(!HLSEncryptedRange.looksLikeMedia(Data([0x47])))
        // Ranges in a file's first block need their key's own IV; a keyless section inside an
        // encrypted file cannot be read.
        let url = URL(string: "https://media.example/seg0.ts")!
        let stated = HLSKey(url: URL(string: "https://media.example/key")!, iv: Data(count: 16))
        let implied = HLSKey(url: URL(string: "https://media.example/key")!, iv: nil)
        func keyframe(_ key: HLSKey?, range: Range<Int>, map: HLSMap?) -> HLSSegment {
            var segment = HLSSegment(url: url, sequence: 0, start: 0, duration: 1, byteRange: range, discontinuity: false, map: map)
            segment.key = key
            return segment
        }
        let tables = 0..<564
        #expect(HLSEncryptedRange.canDecryptRanges(of: [keyframe(stated, range: 564..<5000, map: HLSMap(url: url, byteRange: tables, key: stated))]))
        #expect(!HLSEncryptedRange.canDecryptRanges(of: [keyframe(implied, range: 564..<5000, map: HLSMap(url: url, byteRange: tables, key: implied))]))
        #expect(HLSEncryptedRange.canDecryptRanges(of: [keyframe(implied, range: 564..<5000, map: HLSMap(url: url, byteRange: 16..<564, key: implied))]))
        #expect(!HLSEncryptedRange.canDecryptRanges(of: [keyframe(implied, range: 0..<5000, map: nil)]))
        #expect(!HLSEncryptedRange.canDecryptRanges(of: [keyframe(stated, range: 564..<5000, map: HLSMap(url: url, byteRange: tables))]))
        #expect(HLSEncryptedRange.canDecryptRanges(of: [keyframe(nil, range: 564..<5000, map: HLSMap(url: url, byteRange: tables))]))
    }
}
