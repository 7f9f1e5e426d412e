// Playhead: AVAssetTrack fields checked against ffprobe, rotation and undecodable codecs.
import Foundation
@testable import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite("AVAssetTrack")
struct AVAssetTrackTests {
    @Test("Every track matches ffprobe's stream field by field", arguments: Fixture.allCases)
    func tracksMatchFFprobeStreams(_ fixture: Fixture) async throws {
        let loaded = try await LoadedFixture(fixture)
        let videoStreams = loaded.referenceStreams("video")
        let audioStreams = loaded.referenceStreams("audio")
        try #require(loaded.tracks(.video).count == videoStreams.count)
        try #require(loaded.tracks(.audio).count == audioStreams.count)

        for (track, stream) in zip(loaded.tracks(.video), videoStreams) {
            // Every fixture has square pixels, so the natural size is the coded size.
            #expect(track.naturalSize == CGSize(width: stream.width ?? 0, height: stream.height ?? 0))
            #expect(track.nominalFrameRate == (fixture == .threeGP || fixture == .threeG2 ? 15 : 25))
            #expect(track.sampleRate == 0 && track.channelCount == 0)
            #expect(track.hasMediaCharacteristic(.visual) && !track.hasMediaCharacteristic(.audible))
            #expect(track.codec == (stream.codecName ?? stream.codecTag))
            checkCommonFields(track, stream)
        }
        for (track, stream) in zip(loaded.tracks(.audio), audioStreams) {
            #expect(track.sampleRate == Double(stream.sampleRate ?? -1))
            #expect(track.channelCount == stream.channels)
            #expect(track.naturalSize == .zero)
            #expect(track.nominalFrameRate == 0)
            #expect(track.preferredTransform == .identity)
            #expect(track.hasMediaCharacteristic(.audible) && !track.hasMediaCharacteristic(.visual))
            #expect(track.codec == stream.codecName)
            #expect(track.isPlayable, "every fixture's audio decodes")
            checkCommonFields(track, stream)
        }
        if let languages = fixture.expectedAudioLanguages {
            #expect(loaded.tracks(.audio).map(\.languageCode) == languages)
        }
    }

    private func checkCommonFields(
        _ track: AVAssetTrack, _ stream: FFprobeSummary.Stream,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // ffprobe prints "und" for an unset language; Playhead reports nil.
        let language = stream.language.flatMap { $0 == "und" || $0.isEmpty ? nil : $0 }
        #expect(track.languageCode == language, sourceLocation: sourceLocation)
        #expect(track.isEnabled, sourceLocation: sourceLocation)
        #expect(track.naturalTimeScale > 0, sourceLocation: sourceLocation)
        #expect(track.estimatedDataRate >= 0, sourceLocation: sourceLocation)
        #expect(track.codecDescription?.isEmpty == false || !track.isPlayable, sourceLocation: sourceLocation)
        #expect(track.statusOfValue(forKey: "naturalSize", error: nil) == .loaded, sourceLocation: sourceLocation)
    }

    // MARK: - Rotation

    @Test func theRotatedFixtureTurnsAQuarterCounterClockwise() async throws {
        // What the file really holds (tkhd matrix, read with ffprobe -show_streams and by hand):
        //   a 0, b -1, c 1, d 0, tx 0, ty 0
        // In Apple's convention (x' = a·x + c·y + tx, y' = b·x + d·y + ty, y pointing down) that
        // sends the x axis upwards: a quarter turn COUNTER-clockwise, i.e. 270° clockwise. An
        // iPhone portrait clip is the mirror case (a 0, b 1, c -1, d 0 = 90° clockwise).
        // ffprobe 5.1 prints FFmpeg's counter-clockwise angle, +90, for this file, so Playhead's
        // clockwise `rotation` must be (360 - 90) % 360 = 270.
        let loaded = try await LoadedFixture(.rotatedMP4)
        let video = try #require(loaded.tracks(.video).first)
        let ffprobeRotation = try #require(loaded.referenceStreams("video").first?.rotation)
        #expect(ffprobeRotation == Fixture.rotatedMP4.expectedRotation)
        let clockwise = (360 - Int(ffprobeRotation)) % 360
        #expect(clockwise == 270)
        #expect(video.rotationDegrees == clockwise)

        // The rotation part equals the file's matrix; Playhead adds the translation that keeps
        // the turned 320x240 picture in the positive quadrant (the file stores none).
        let transform = video.preferredTransform
        #expect((transform.a, transform.b, transform.c, transform.d) == (0, -1, 1, 0))
        #expect((transform.tx, transform.ty) == (0, 320))
        let shown = CGRect(origin: .zero, size: video.naturalSize).applying(transform)
        #expect(shown == CGRect(x: 0, y: 0, width: 240, height: 320))
        #expect(video.naturalSize == CGSize(width: 320, height: 240), "natural size is before the transform")

        let (size, loadedTransform) = try await video.load(.naturalSize, .preferredTransform)
        #expect(size == video.naturalSize && loadedTransform == transform)
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(audio.preferredTransform == .identity)

        let title = AVMetadataItem.metadataItems(
            from: try await loaded.asset.load(.commonMetadata), filteredByIdentifier: .commonIdentifierTitle)
        #expect(title.first?.stringValue == Fixture.rotatedTitle)
    }

    @Test("Quarter-turn transforms keep the picture at the origin", arguments: [0, 90, 180, 270])
    func quarterTurnTransformsKeepThePictureAtTheOrigin(_ degrees: Int) async {
        let size = CGSize(width: 320, height: 240)
        let transform = AVAssetTrack.transform(rotation: degrees, size: size)
        let turned = CGRect(origin: .zero, size: size).applying(transform)
        #expect(turned.origin == .zero)
        let swapped = degrees % 180 != 0
        #expect(turned.size == (swapped ? CGSize(width: 240, height: 320) : size))
        let angle = atan2(Double(transform.b), Double(transform.a)) * 180 / .pi
        #expect((Int(angle.rounded()) + 360) % 360 == degrees, "b/a give the clockwise angle")
        if degrees == 90 {
            // Apple's iPhone-portrait matrix.
            #expect(transform == CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 240, ty: 0))
        }
    }

    @Test func anOddAngleStillLandsInThePositiveQuadrant() async {
        let transform = AVAssetTrack.transform(rotation: 45, size: CGSize(width: 100, height: 100))
        let turned = CGRect(x: 0, y: 0, width: 100, height: 100).applying(transform)
        #expect(abs(turned.minX) < 1e-9 && abs(turned.minY) < 1e-9)
    }

    // MARK: - Undecodable and special tracks

    @Test func anUnknownVideoCodecIsNamedByItsTagAndIsNotPlayable() async throws {
        let loaded = try await LoadedFixture(.undecodableVideoMP4)
        let video = try #require(loaded.tracks(.video).first)
        #expect(video.codec == Fixture.undecodableCodecTag)
        #expect(!video.isPlayable)
        #expect(!video.isDecodable)
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        let audio = try #require(loaded.tracks(.audio).first)
        #expect(audio.isPlayable)
        #expect(try await loaded.asset.load(.isPlayable), "the AAC track still decodes")
    }

    @Test func aVideoOnlyFileHasOneVideoTrackAndNoAudio() async throws {
        let loaded = try await LoadedFixture(.videoOnlyMP4)
        #expect(loaded.tracks.map(\.mediaType) == [.video])
        #expect(try await loaded.asset.loadTrack(withTrackID: 1) === loaded.tracks.first)
        #expect(try await loaded.asset.loadTrack(withTrackID: 99) == nil)
    }

    @Test func trackPropertiesLoadThroughTheAsyncAPIWithoutBlocking() async throws {
        let loaded = try await LoadedFixture(.matroska)
        let english = try #require(loaded.tracks(.audio).first)
        let (language, tag, range, rate, playable, enabled, scale) = try await english.load(
            .languageCode, .extendedLanguageTag, .timeRange, .estimatedDataRate, .isPlayable, .isEnabled,
            .naturalTimeScale)
        #expect(language == "eng" && tag == "en")
        #expect(range == english.timeRange)
        #expect(rate == english.estimatedDataRate)
        #expect(playable && enabled)
        #expect(scale == english.naturalTimeScale)
        let (frameRate, metadata, common) = try await loaded.tracks[0].load(
            .nominalFrameRate, .metadata, .commonMetadata)
        #expect(frameRate == 25)
        #expect(common.count <= metadata.count)
        #expect(english.description == "AVAssetTrack(2, soun, aac)")
    }

    @Test func trackLegacyLoadingCallsBackAtOnceWithEverythingLoaded() async throws {
        let loaded = try await LoadedFixture(.mp4)
        let track = try #require(loaded.tracks.first)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            track.loadValuesAsynchronously(forKeys: ["naturalSize", "timeRange"]) { done.resume() }
        }
        #expect(track.statusOfValue(forKey: "timeRange", error: nil) == .loaded)
    }
}
