// Playhead: tests for closed captions at the FFmpeg layer: finding them at open, keeping the
// packets read to find them, and decoding them from the pictures and from a caption track.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import PlayheadTestSupport
import Testing

// Concurrency: each test owns its demuxer and decoders on the test's own task.

@Suite struct ClosedCaptionTests {
    /// The text of a caption event's ASS line (after the eight fields and override tags).
    static func text(_ event: SubtitleEvent) -> String {
        event.assLines.map { line in
            var text = Substring(line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false).last ?? "")
            while let open = text.firstIndex(of: "{"), let close = text.firstIndex(of: "}"), open < close {
                text.removeSubrange(open...close)
            }
            return text.trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// (seconds, text) of every caption screen change: "" when the screen clears.
    static func screens(_ events: [SubtitleEvent]) -> [(Double, String)] {
        events.map { ($0.start.seconds, text($0)) }
    }

    static let expected: [(Double, String)] = [
        (1, "Hello world"), (2, ""), (3, "Second line"), (4, ""),
    ]

    static func matches(_ screens: [(Double, String)]) -> Bool {
        screens.count == expected.count
            && zip(screens, expected).allSatisfy { abs($0.0 - $1.0) < 0.001 && $0.1 == $1.1 }
    }

    @Test(arguments: [CaptionMedia.h264SEI, .mpeg2UserData])
    func captionsInThePicturesAreFoundAtOpen(_ media: CaptionMedia) throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try media.url()))
        let video = try #require(demuxer.description.tracks.first { $0.kind == .video })
        #expect(video.hasClosedCaptions)
        #expect(!demuxer.description.streams.contains { $0.kind == .subtitle })
    }

    @Test(arguments: [CaptionMedia.noCaptions, .quickTimeTrack])
    func videoWithoutCaptionDataIsNotMarked(_ media: CaptionMedia) throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try media.url()))
        #expect(!demuxer.description.streams.contains { $0.hasClosedCaptions })
    }

    /// The packets read while looking for captions come out again, first and in order.
    @Test func packetsReadAtOpenAreReturnedFirst() throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try CaptionMedia.h264SEI.url()))
        var video: [Double] = []
        var audio = 0
        while case .packet(let packet) = demuxer.readPacket() {
            if demuxer.description.streams[packet.streamIndex].kind == .video {
                video.append(packet.pts.seconds)
            } else {
                audio += 1
            }
        }
        #expect(video.count == 125)
        #expect(video.sorted() == (0..<125).map { Double($0) / 25 })
        #expect(video.first == 0)
        #expect(audio > 200)
    }

    /// Decoding the pictures and handing their caption data to the caption decoder gives each
    /// screen at the time of the picture that changed it.
    @Test(arguments: [CaptionMedia.h264SEI, .mpeg2UserData])
    func captionsDecodeFromThePicturesAtTheirTimes(_ media: CaptionMedia) throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try media.url()))
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index)
        let captions = try SubtitleDecoder(closedCaptionsOfVideoStream: index)
        #expect(captions.isClosedCaptions)
        demuxer.setActiveStreams([index])
        var events: [SubtitleEvent] = []
        var pictures = 0
        func drain() {
            while let frame = decoder.receiveFrame().frame {
                pictures += 1
                #expect(frame.hasClosedCaptions)
                events += captions.decodeCaptions(of: frame)
            }
        }
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull { drain() }
            drain()
        }
        decoder.sendEndOfStream()
        drain()
        #expect(pictures == 125)
        #expect(Self.matches(Self.screens(events)), "\(Self.screens(events))")
        #expect(events.allSatisfy { $0.end == nil })
    }

    /// A QuickTime 'c608' track decodes as a subtitle stream, screens at the right times.
    @Test func quickTimeCaptionTrackDecodesAsASubtitleStream() throws {
        let demuxer = try Demuxer(location: try MediaLocation(url: try CaptionMedia.quickTimeTrack.url()))
        let track = try #require(demuxer.description.tracks.first { $0.kind == .subtitle })
        #expect(track.codecName == "eia_608")
        #expect(track.language == "eng")
        let decoder = try SubtitleDecoder(demuxer: demuxer, streamIndex: track.index)
        #expect(decoder.isClosedCaptions)
        demuxer.setActiveStreams([track.index])
        var events: [SubtitleEvent] = []
        while case .packet(let packet) = demuxer.readPacket() { events += decoder.decode(packet) }
        #expect(Self.matches(Self.screens(events)), "\(Self.screens(events))")
    }
}
