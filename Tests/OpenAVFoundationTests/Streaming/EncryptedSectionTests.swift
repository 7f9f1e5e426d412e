// Playhead: an AES-128 key that comes before a fragmented MP4 stream's `EXT-X-MAP` encrypts the
// initialisation section too (RFC 8216 §4.3.2.4): Playhead's own loader decrypts it with that
// key and IV before feeding it, so every picture decodes as the clear files do.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

extension SectionedStreamingTests {
    @Test func anInitialisationSectionAfterAnAES128KeyIsDecryptedWithIt() async throws {
        let folder = try AdaptiveMedia.encryptedFragmentedFolder()
        let directory = folder.appendingPathComponent("ladder/low")
        let playlist = try String(contentsOf: directory.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let keyLine = try #require(playlist.range(of: "#EXT-X-KEY:METHOD=AES-128"))
        let mapLine = try #require(playlist.range(of: "#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(keyLine.lowerBound < mapLine.lowerBound, "the key comes before the map")
        let section = try Data(contentsOf: directory.appendingPathComponent("init.mp4"))
        #expect(section.range(of: Data("ftyp".utf8)) == nil, "the section is encrypted")
        let reference = try referencePictures(
            ([directory.appendingPathComponent("init.mp4.clear")]
                + (0..<Int(AdaptiveMedia.fragmentedDuration)).map { directory.appendingPathComponent("seg\($0).m4s.clear") }))

        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, player, sink) = await playLowestToEnd(server)

        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let frames = sink.frames
        #expect(frames.count == Int(AdaptiveMedia.fragmentedDuration) * 25, "\(frames.count) pictures")
        #expect(frames.allSatisfy { reference[millis($0.pts)] == $0.frame.checksum() }, "the clear files' pictures")
        #expect(server.requests.filter { $0.path == "/ladder/key.bin" }.count == 1, "one key request")
        #expect(item.errorLog()?.events.isEmpty == true)
        player.replaceCurrentItem(with: nil)
    }
}
