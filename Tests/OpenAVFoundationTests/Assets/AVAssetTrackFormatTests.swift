// Playhead: tests for track format descriptions (CMFormatDescription), segments and mutable
// metadata items.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct AVAssetTrackFormatTests {
    private func tracks(_ fixture: Fixture) async throws -> [AVAssetTrack] {
        try await AVURLAsset(url: try Fixture.url(fixture)).load(.tracks)
    }

    @Test func fourCharacterCodesRoundTrip() {
        #expect(FourCharCode(fourCharacters: "avc1") == 0x6176_6331)
        #expect(kAudioFormatMPEG4AAC.fourCharacterString == "aac ")
        #expect(FourCharCode(fourCharacters: "aac") == kAudioFormatMPEG4AAC)
        #expect(kCMMediaType_Video.fourCharacterString == "vide")
    }

    @Test func anMP4sVideoAndAudioAreDescribedAsCoreMediaWould() async throws {
        let tracks = try await tracks(.mp4)
        let video = try #require(tracks.first { $0.mediaType == .video })
        let audio = try #require(tracks.first { $0.mediaType == .audio })
        let picture = try #require(video.formatDescriptions.first as? CMFormatDescription)
        #expect(CMFormatDescriptionGetMediaType(picture) == kCMMediaType_Video)
        #expect(CMFormatDescriptionGetMediaSubType(picture) == kCMVideoCodecType_H264)
        #expect(picture.mediaSubType == .h264)
        let dimensions = CMVideoFormatDescriptionGetDimensions(picture)
        #expect(CGFloat(dimensions.width) == video.naturalSize.width && CGFloat(dimensions.height) == video.naturalSize.height)
        #expect(CMAudioFormatDescriptionGetStreamBasicDescription(picture) == nil)

        let sound = try #require(try await audio.load(.formatDescriptions).first)
        #expect(sound.mediaType == .audio && sound.mediaSubType == .mpeg4AAC)
        let basic = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(sound)?.pointee)
        #expect(basic.mSampleRate == audio.sampleRate && basic.mChannelsPerFrame == UInt32(audio.channelCount))
        #expect(basic.mFormatID == kAudioFormatMPEG4AAC && basic.mFramesPerPacket == 1024 && basic.mBytesPerFrame == 0)
    }

    @Test(arguments: [
        (Fixture.webM, ["vp09", "opus"]), (.matroska, ["avc1", "aac ", "aac ", "srt "]), (.ac3, ["ac-3"]),
        (.flac, ["flac"]), (.caf, ["alac"]), (.avi, ["mp4v", ".mp3"]),
    ])
    func eachCodecHasItsCode(_ fixture: Fixture, _ codes: [String]) async throws {
        let subTypes = try await tracks(fixture).compactMap {
            ($0.formatDescriptions.first as? CMFormatDescription)?.mediaSubType.rawValue.fourCharacterString
        }
        #expect(subTypes == codes)
    }

    @Test func pcmLayoutsComeFromTheSampleFormat() async throws {
        let wav = try #require(try await tracks(.wav).first?.load(.formatDescriptions).first)
        let little = try #require(wav.audioStreamBasicDescription)
        #expect(little.mFormatID == kAudioFormatLinearPCM && little.mBitsPerChannel == 16)
        #expect(little.mFormatFlags == kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked)
        #expect(little.mBytesPerFrame == 2 * little.mChannelsPerFrame && little.mFramesPerPacket == 1)
        let aiff = try #require(try await tracks(.aiff).first?.load(.formatDescriptions).first)
        #expect(aiff.audioStreamBasicDescription?.mFormatFlags ?? 0 & kAudioFormatFlagIsBigEndian != 0)
    }

    @Test func aTrackIsOneSegmentOverItsTimeRangeAfterAnEmptyEditForALateStart() async throws {
        let video = try #require(try await tracks(.mp4).first { $0.mediaType == .video })
        let segments = try await video.load(.segments)
        #expect(segments.count == 1)
        #expect(segments.first?.isEmpty == false)
        #expect(segments.first?.timeMapping.source == video.timeRange)
        #expect(segments.first?.timeMapping.target == video.timeRange)
        #expect(video.segment(forTrackTime: CMTime(value: 1, timescale: 1))?.timeMapping == segments.first?.timeMapping)

        let late = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 2, timescale: 1))
        let empty = CMTimeMappingMakeEmpty(CMTimeRange(start: .zero, duration: late.start))
        #expect(!empty.source.start.isValid && empty.target.duration == late.start)
        #expect(CMTimeMappingMake(late, late) == CMTimeMapping(source: late, target: late))
    }

    /// MP4 and MOV from their index, the others by reading the packets: ffprobe's sums either way.
    @Test(arguments: [Fixture.mp4, .mov, .matroska, .webM, .mpegTransportStream, .wav])
    func totalSampleDataLengthIsTheSumOfThePackets(_ fixture: Fixture) async throws {
        let url = try Fixture.url(fixture)
        let expected = try FFprobe.packetBytes(of: url)
        let tracks = try await AVURLAsset(url: url).load(.tracks)
        #expect(!tracks.isEmpty)
        for track in tracks {
            let loaded = try await track.load(.totalSampleDataLength)
            #expect(loaded == expected[track.streamIndex], "\(fixture) track \(track.trackID)")
            #expect(loaded > 0 && track.totalSampleDataLength == loaded)
        }
    }

    @Test func aMutableItemKeepsKeyKeySpaceAndIdentifierInStep() throws {
        let item = AVMutableMetadataItem()
        #expect(item.identifier == nil && item.value == nil && !item.time.isValid)
        item.identifier = .commonIdentifierTitle
        item.value = "Evening news" as NSString
        item.extendedLanguageTag = "en-GB"
        #expect(item.keySpace == .common && item.commonKey == .commonKeyTitle)
        #expect((item.key as? NSString) == "title")
        #expect(item.stringValue == "Evening news" && item.locale?.identifier == "en-GB")
        item.keySpace = .playheadContainer
        #expect(item.identifier == AVMetadataIdentifier.identifier(forKey: "title", keySpace: .playheadContainer))
        #expect(item.commonKey == nil)

        let frozen = try #require(item.copy() as? AVMetadataItem)
        #expect(!(frozen is AVMutableMetadataItem) && frozen.stringValue == "Evening news")
        item.value = "Changed" as NSString
        #expect(frozen.stringValue == "Evening news")
        let filtered = AVMetadataItem.metadataItems(from: [frozen, item], filteredByIdentifier: item.identifier!)
        #expect(filtered.count == 2)
        let editable = try #require(frozen.mutableCopy() as? AVMutableMetadataItem)
        editable.startDate = Date(timeIntervalSince1970: 0)
        #expect(editable.startDate == Date(timeIntervalSince1970: 0) && frozen.startDate == nil)
    }
}
