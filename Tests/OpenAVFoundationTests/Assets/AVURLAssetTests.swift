// Playhead: AVURLAsset on generated media in many containers, checked against ffprobe.
import Foundation
@testable import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite("AVURLAsset")
struct AVURLAssetTests {
    // MARK: - Creation

    @Test func creatingAnAssetDoesNoInputOutputAndKeepsTheURL() async throws {
        let url = try BadInput.url(.missingFile)
        let asset = AVURLAsset(url: url)
        #expect(asset.url == url)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        #expect(asset.statusOfValue(forKey: "tracks", error: &error) == .unknown)
        #expect(error == nil)
    }

    @Test func theTimeoutOptionAcceptsSecondsAsDoubleOrInt() async {
        let url = URL(fileURLWithPath: "/nonexistent.mp4")
        #expect(AVURLAsset(url: url).inspection.limits.timeout == 15)
        let double = AVURLAsset(url: url, options: [AVURLAssetPlayheadTimeoutKey: 2.5])
        #expect(double.inspection.limits.timeout == 2.5)
        let integer = AVURLAsset(url: url, options: [AVURLAssetPlayheadTimeoutKey: 4])
        #expect(integer.inspection.limits.timeout == 4)
        let ignored = AVURLAsset(
            url: url,
            options: [AVURLAssetPlayheadTimeoutKey: -1, AVURLAssetPreferPreciseDurationAndTimingKey: true])
        #expect(ignored.inspection.limits.timeout == 15)
    }

    @Test func avAssetInitWithURLEqualsAVURLAsset() async throws {
        let asset = AVAsset(url: try Fixture.url(.wav))
        let duration = try await asset.load(.duration)
        #expect(duration.seconds == 2)
    }

    // MARK: - Every fixture against ffprobe

    @Test("Duration, track counts, codecs and format agree with ffprobe", arguments: Fixture.allCases)
    func everyFixtureAgreesWithFFprobe(_ fixture: Fixture) async throws {
        let loaded = try await LoadedFixture(fixture)
        let reference = loaded.reference

        // Duration: the container's figure, to the microsecond FFmpeg reports.
        let expectedDuration = try #require(reference.duration)
        #expect(loaded.duration.isNumeric)
        #expect(abs(loaded.duration.seconds - expectedDuration) < 0.001)
        #expect(abs(loaded.duration.seconds - fixture.nominalDuration) < 0.2)

        // Tracks: attached pictures (MP3 cover art) are metadata, never video tracks.
        let counts = fixture.expectedStreams
        #expect(loaded.tracks(.video).count == counts.video)
        #expect(loaded.tracks(.audio).count == counts.audio)
        #expect(loaded.tracks(.subtitle).count == counts.subtitle)
        #expect(loaded.tracks.count == counts.video + counts.audio + counts.subtitle)

        // Codecs: ffprobe's names; an unknown codec is named by its four-character code.
        var expectedCodecs = fixture.expectedCodecNames.subtracting(["png"])
        if fixture == .undecodableVideoMP4 { expectedCodecs.insert(Fixture.undecodableCodecTag) }
        #expect(Set(loaded.tracks.map(\.codec)) == expectedCodecs)

        // Track IDs are non-zero and unique; lookups by ID and type agree with `tracks`.
        let ids = loaded.tracks.map(\.trackID)
        #expect(!ids.contains(0))
        #expect(Set(ids).count == ids.count)
        for track in loaded.tracks {
            #expect(loaded.asset.track(withTrackID: track.trackID) === track)
            #expect(track.asset === loaded.asset)
        }
        for type in [AVMediaType.video, .audio, .subtitle, .metadata] {
            #expect(loaded.asset.tracks(withMediaType: type).map(\.trackID) == loaded.tracks(type).map(\.trackID))
            let viaLoad = try await loaded.asset.loadTracks(withMediaType: type)
            #expect(viaLoad.map(\.trackID) == loaded.tracks(type).map(\.trackID))
        }

        let (playable, protected, format) = try await loaded.asset.load(
            .isPlayable, .hasProtectedContent, .containerFormat)
        #expect(playable, "every fixture has at least one decodable track")
        #expect(!protected)
        #expect(format.name == reference.formatName)
        #expect(!format.formatDescription.isEmpty)
    }

    // MARK: - Containers field by field

    @Test func mp4WithH264AndAACIsDescribedFieldByField() async throws {
        let loaded = try await LoadedFixture(.mp4)
        #expect(loaded.duration == CMTime(value: 2, timescale: 1))
        let video = try #require(loaded.tracks(.video).first)
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(loaded.tracks.map(\.trackID) == [1, 2])
        #expect(video.codec == "h264")
        #expect(video.codecProfile == "High")
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        #expect(video.nominalFrameRate == 25)
        #expect(video.preferredTransform == .identity)
        #expect(video.rotationDegrees == 0)
        #expect(video.timeRange == CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1)))
        #expect(video.languageCode == nil, "the fixture's language is 'und'")
        #expect(video.isPlayable)
        #expect(video.estimatedDataRate > 100_000 && video.estimatedDataRate < 1_000_000)
        #expect(audio.codec == "aac")
        #expect(audio.codecProfile == "LC")
        #expect(audio.sampleRate == 44_100)
        #expect(audio.channelCount == 2)
        #expect(audio.channelLayoutName == "stereo")
        #expect(audio.naturalSize == .zero)
        #expect(audio.nominalFrameRate == 0)
        #expect(audio.estimatedDataRate > 32_000 && audio.estimatedDataRate < 200_000)
        #expect(audio.naturalTimeScale == 44_100)
        let (title, precise) = try await loaded.asset.load(.commonMetadata, .providesPreciseDurationAndTiming)
        #expect(title.first { $0.commonKey == .commonKeyTitle }?.stringValue == Fixture.mp4Title)
        #expect(precise)
    }

    @Test func matroskaHasTwoLabelledAudioTracksAndASubtitleTrack() async throws {
        let loaded = try await LoadedFixture(.matroska)
        let video = try #require(loaded.tracks(.video).first)
        #expect(video.codec == "h264")
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        #expect(video.nominalFrameRate == 25)
        let audio = loaded.tracks(.audio)
        #expect(audio.map(\.languageCode) == ["eng", "fre"])
        #expect(audio.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(audio.map(\.codec) == ["aac", "aac"])
        #expect(audio.allSatisfy { $0.sampleRate == 44_100 && $0.channelCount == 2 })
        #expect(audio.map(\.isDefault) == [true, false])
        let subtitle = try #require(loaded.tracks(.subtitle).first)
        #expect(subtitle.codec == "subrip")
        #expect(subtitle.languageCode == "eng")
        #expect(subtitle.hasMediaCharacteristic(.legible))
        #expect(!subtitle.hasMediaCharacteristic(.visual))
        #expect(subtitle.naturalSize == .zero)
        #expect(loaded.tracks.map(\.trackID) == [1, 2, 3, 4])
    }

    @Test func webMHasVP9VideoAndOpusAudio() async throws {
        let loaded = try await LoadedFixture(.webM)
        let video = try #require(loaded.tracks(.video).first)
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(video.codec == "vp9")
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        #expect(video.nominalFrameRate == 25)
        #expect(audio.codec == "opus")
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channelCount == 1)
        #expect(abs(loaded.duration.seconds - 2.008) < 0.001)
        let format = try await loaded.asset.load(.containerFormat)
        #expect(format.name == "matroska,webm")
    }

    @Test func oggHasTheoraVideoAndVorbisAudio() async throws {
        let loaded = try await LoadedFixture(.oggTheora)
        let video = try #require(loaded.tracks(.video).first)
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(video.codec == "theora")
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        #expect(video.nominalFrameRate == 25)
        #expect(audio.codec == "vorbis")
        #expect(audio.sampleRate == 44_100)
        #expect(audio.channelCount == 1)
        #expect(try await loaded.asset.load(.containerFormat).name == "ogg")
    }

    @Test func threeGPHasSmallH263VideoAndNarrowbandAAC() async throws {
        let loaded = try await LoadedFixture(.threeGP)
        let video = try #require(loaded.tracks(.video).first)
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(video.codec == "h263")
        #expect(video.naturalSize == CGSize(width: 176, height: 144))
        #expect(video.nominalFrameRate == 15)
        #expect(audio.sampleRate == 8_000)
        #expect(audio.channelCount == 1)
    }

    @Test func mp3CoverArtIsMetadataNotAVideoTrack() async throws {
        let loaded = try await LoadedFixture(.mp3WithCoverArt)
        #expect(loaded.tracks.count == 1)
        #expect(loaded.tracks(.video).isEmpty)
        let audio = try #require(loaded.tracks.first)
        #expect(audio.mediaType == .audio)
        #expect(audio.codec == "mp3")
        #expect(audio.sampleRate == 44_100)
        #expect(!audio.hasMediaCharacteristic(.visual))
        let metadata = try await loaded.asset.load(.commonMetadata)
        let artwork = try #require(metadata.first { $0.commonKey == .commonKeyArtwork })
        #expect(artwork.dataType == "image/png")
        #expect(artwork.dataValue?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    @Test func transportStreamTracksLieOnTheAssetTimelineFromZero() async throws {
        // The TS clock starts at ~1.457 s (ffprobe start_time); Apple's track time ranges are
        // on the asset's timeline, which starts at zero, and must end within the asset.
        let loaded = try await LoadedFixture(.mpegTransportStream)
        for track in loaded.tracks {
            #expect(track.timeRange.start >= .zero, "\(track)")
            #expect(track.timeRange.start.seconds < 0.1, "\(track)")
            #expect(track.timeRange.end.seconds <= loaded.duration.seconds + 0.001, "\(track)")
        }
    }

    @Test("Track time ranges stay within the asset", arguments: Fixture.allCases)
    func trackTimeRangesStayWithinTheAsset(_ fixture: Fixture) async throws {
        let loaded = try await LoadedFixture(fixture)
        for track in loaded.tracks {
            let range = track.timeRange
            #expect(range.isValid && range.start.isNumeric && range.duration.isNumeric, "\(track)")
            #expect(range.start >= .zero, "\(track)")
            #expect(range.end.seconds <= loaded.duration.seconds + 0.05, "\(track): \(range)")
            #expect(range.duration.seconds > 0.5 || track.mediaType == .subtitle, "\(track): \(range)")
        }
    }

    @Test func aRawAACStreamSaysItsDurationIsAnEstimate() async throws {
        // ADTS has no index: FFmpeg estimates the duration from the bit rate.
        let asset = AVURLAsset(url: try Fixture.url(.aacADTS))
        let (duration, precise) = try await asset.load(.duration, .providesPreciseDurationAndTiming)
        #expect(abs(duration.seconds - 2) < 0.1)
        #expect(!precise)
    }

    // MARK: - Synchronous getters

    @Test func theSynchronousGettersBlockUntilLoadedAndAgreeWithLoad() async throws {
        let url = try Fixture.url(.mp4)
        let values = await Task.detached {
            let asset = AVURLAsset(url: url)
            return (
                asset.duration, asset.tracks.count, asset.isPlayable, asset.hasProtectedContent,
                asset.commonMetadata.count, asset.metadata.count, asset.providesPreciseDurationAndTiming,
                asset.preferredTransform, asset.preferredRate, asset.preferredVolume)
        }.value
        let loaded = try await LoadedFixture(.mp4)
        let commonMetadata = try await loaded.asset.load(.commonMetadata)
        #expect(values.0 == loaded.duration)
        #expect(values.1 == loaded.tracks.count)
        #expect(values.2)
        #expect(!values.3)
        #expect(values.4 == commonMetadata.count)
        #expect(values.5 >= values.4)
        #expect(values.6)
        #expect(values.7 == .identity)
        #expect(values.8 == 1 && values.9 == 1)
    }
}
