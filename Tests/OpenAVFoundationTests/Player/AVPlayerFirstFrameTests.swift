// Playhead: the first picture after opening is decoded on its own and shown ahead of the
// frame-threaded decoder (`VideoDecoder.previewFrame(of:)`); it must be the stream's first
// picture, and playback afterwards must show every picture once, as a linear decode does.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Serialized: eleven players at once, under ThreadSanitizer, starved the other suites.
@MainActor
@Suite(.serialized) struct AVPlayerFirstFrameTests {
    /// Every picture of `url`'s video decoded on one thread, independently of the engine, as
    /// (pts in milliseconds, checksum) in presentation order.
    nonisolated static func referencePictures(of url: URL) throws -> [(Int, UInt64)] {
        let demuxer = try Demuxer(location: try MediaLocation(url: url))
        let index = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([index])
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index, threadCount: 1)
        var pictures: [(Int, UInt64)] = []
        func take() {
            while case .frame(let frame) = decoder.receiveFrame() {
                pictures.append((millis(frame.pts), frame.checksum()))
            }
        }
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull { take() }
            take()
        }
        decoder.sendEndOfStream()
        take()
        return pictures
    }

    /// Containers and codecs with and without reordered pictures, and wavefront HEVC (whose
    /// first picture comes from the catch-up decoder).
    nonisolated static let fixtures: [Fixture] = [
        .mp4, .matroska, .webM, .avi, .flv, .mpegProgramStream, .mpegTransportStream,
        .oggTheora, .windowsMedia, .mxf,
    ]

    @Test(arguments: fixtures)
    func theFirstPictureShowsAloneThenEveryPictureOnce(_ fixture: Fixture) async throws {
        try await expectFirstPictureThenEveryPictureOnce(try fixture.url())
    }

    @Test func waveFrontHEVCWithBFramesToo() async throws {
        try await expectFirstPictureThenEveryPictureOnce(try AVPlayerSeekCatchUpTests.hevc())
    }

    private func expectFirstPictureThenEveryPictureOnce(_ url: URL) async throws {
        let reference = try Self.referencePictures(of: url)
        let first = try #require(reference.first)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("first frame") { item.status == .readyToPlay && sink.count == 1 }
        let shown = try #require(sink.last)
        #expect(millis(shown.pts) == first.0, "\(url.lastPathComponent)")
        #expect(shown.frame.checksum() == first.1, "\(url.lastPathComponent)")

        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let played = sink.frames.map { (millis($0.pts), $0.frame.checksum()) }
        #expect(played.map(\.0) == reference.map(\.0), "\(url.lastPathComponent)")
        #expect(played.map(\.1) == reference.map(\.1), "\(url.lastPathComponent)")
        player.replaceCurrentItem(with: nil)
    }
}
