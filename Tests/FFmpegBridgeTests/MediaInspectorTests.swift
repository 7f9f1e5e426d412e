// Playhead: MediaInspector, StreamDescriber and MediaLocation on generated media and bad inputs.
import Foundation
@testable import FFmpegBridge
import OpenCoreMedia
import PlayheadTestSupport
import Testing

@Suite struct MediaInspectorTests {
    static func describe(_ url: URL, limits: MediaInspector.Limits = .init()) throws -> MediaDescription {
        try MediaInspector.describe(try MediaLocation(url: url), limits: limits)
    }

    // MARK: - Fixtures

    @Test("Streams, durations and tags match ffprobe", arguments: Fixture.allCases)
    func describesEveryFixtureAsFFprobeDoes(_ fixture: Fixture) async throws {
        let url = try Fixture.url(fixture)
        let description = try Self.describe(url)
        let reference = try FFprobe.summary(of: url)
        #expect(description.formatName == reference.formatName)
        #expect(abs(description.duration.seconds - (reference.duration ?? -1)) < 0.001)
        #expect(description.streams.count == reference.streams.count)
        for (stream, expected) in zip(description.streams, reference.streams) {
            #expect(stream.index == expected.index)
            #expect(stream.kind.rawValue == expected.codecType)
            #expect(stream.codecName == (expected.codecName ?? expected.codecTag))
            #expect(stream.isAttachedPicture == expected.isAttachedPicture)
            if stream.kind == .video {
                #expect(stream.width == expected.width && stream.height == expected.height)
            }
            if stream.kind == .audio {
                #expect(stream.sampleRate == expected.sampleRate && stream.channels == expected.channels)
                #expect(stream.decoderAvailable)
            }
            #expect(stream.language == expected.language.flatMap { $0 == "und" ? nil : $0 })
        }
        for (key, value) in fixture.expectedTags {
            #expect(description.tags.first { $0.key == key }?.value == value, "tag \(key)")
        }
        #expect(description.tags.allSatisfy { $0.key == $0.key.lowercased() })
        #expect(description.tracks.count == reference.streams.count - reference.streamCounts.attachedPictures)
        #expect(description.hasDecodableTrack)
        #expect(description.startTime.isNumeric)
        #expect(description.probeScore > 0)
        let ids = description.streams.map(\.trackID)
        #expect(Set(ids).count == ids.count && !ids.contains { $0 <= 0 })
    }

    @Test func coverArtIsAnAttachedPictureWithItsBytes() async throws {
        let description = try Self.describe(try Fixture.url(.mp3WithCoverArt))
        #expect(description.streams.map(\.isAttachedPicture) == [false, true])
        #expect(description.tracks.map(\.kind) == [.audio])
        let art = try #require(description.artwork.first)
        #expect(description.artwork.count == 1)
        #expect(art.mimeType == "image/png")
        #expect(art.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func theRotatedFixturesDisplayMatrixIsA270DegreeClockwiseTurn() async throws {
        // The file's tkhd matrix is a 0, b -1, c 1, d 0 (16.16 fixed point): 90° counter-
        // clockwise, which ffprobe 5.1 prints as rotation 90; clockwise that is 270.
        let description = try Self.describe(try Fixture.url(.rotatedMP4))
        let video = try #require(description.streams.first { $0.kind == .video })
        let matrix = try #require(video.displayMatrix)
        #expect(Array(matrix.prefix(5)) == [0, -65_536, 0, 65_536, 0])
        #expect(video.rotationDegrees == 270)
        let plain = try Self.describe(try Fixture.url(.mp4))
        #expect(plain.streams.allSatisfy { $0.rotationDegrees == 0 })
    }

    @Test func anUnknownCodecIsNamedByItsFourCharacterCode() async throws {
        let description = try Self.describe(try Fixture.url(.undecodableVideoMP4))
        let video = try #require(description.streams.first { $0.kind == .video })
        #expect(video.codecName == Fixture.undecodableCodecTag)
        #expect(video.codecTag == Fixture.undecodableCodecTag)
        #expect(!video.decoderAvailable)
        #expect(description.hasDecodableTrack, "the AAC track decodes")
    }

    @Test func matroskaLanguagesDefaultsAndTrackIDs() async throws {
        let description = try Self.describe(try Fixture.url(.matroska))
        #expect(description.streams.map(\.kind) == [.video, .audio, .audio, .subtitle])
        #expect(description.streams.map(\.language) == [nil, "eng", "fre", "eng"])
        #expect(description.streams.map(\.trackID) == [1, 2, 3, 4])
        #expect(description.streams.filter(\.isDefault).map(\.index) == [1])
    }

    @Test func aRawAACStreamHasAnEstimatedDuration() async throws {
        #expect(try Self.describe(try Fixture.url(.aacADTS)).durationIsEstimated)
        #expect(!(try Self.describe(try Fixture.url(.mp4)).durationIsEstimated))
    }

    @Test func tooManyStreamsAreRefused() async throws {
        var limits = MediaInspector.Limits()
        limits.maximumStreams = 3
        #expect(throws: MediaFailure.damaged(detail: "4 streams is more than Playhead accepts")) {
            try Self.describe(try Fixture.url(.matroska), limits: limits)
        }
    }

    @Test func anAbortedInspectionIsCancelled() async throws {
        let interrupt = InterruptDeadline()
        interrupt.abort()
        let location = try MediaLocation(url: try Fixture.url(.mp4))
        #expect(throws: MediaFailure.cancelled) {
            try MediaInspector.describe(location, interrupt: interrupt)
        }
    }

    // MARK: - Bad inputs

    @Test(
        "Bad inputs fail with a classified reason",
        arguments: [
            (BadInput.missingFile, MediaFailure.fileNotFound),
            (.directory, .isDirectory),
            (.emptyFile, .emptyFile),
            (.randomBytes, .notMediaFile),
            (.textFileNamedMP4, .notMediaFile),
            (.truncatedMP4, .damaged(detail: "moov atom not found")),
        ])
    func badInputsFailWithAClassifiedReason(_ input: BadInput, _ expected: MediaFailure) async throws {
        let url = try BadInput.url(input)
        #expect(throws: expected) { try Self.describe(url) }
    }

    // MARK: - MediaLocation

    @Test func fileURLsAreOpenedThroughTheFileProtocolOnly() async throws {
        let location = try MediaLocation(url: URL(fileURLWithPath: "/media/a:b.mp4"))
        #expect(location.path == "/media/a:b.mp4")
        #expect(location.ffmpegURL == "file:/media/a:b.mp4", "so 'a:' is not read as a protocol")
        #expect(location.allowedProtocols.split(separator: ",").contains("file"))
        #expect(!location.allowedProtocols.contains("http"))
    }

    @Test func httpURLsPassThroughAndOtherSchemesAreRefused() async throws {
        let web = try MediaLocation(url: try #require(URL(string: "https://example.com/a.mp4?x=1")))
        #expect(web.path == nil)
        #expect(web.ffmpegURL == "https://example.com/a.mp4?x=1")
        #expect(web.allowedProtocols.contains("https"))
        #expect(throws: MediaFailure.unsupportedScheme("rtmp")) {
            try MediaLocation(url: try #require(URL(string: "RTMP://example.com/live")))
        }
    }

    @Test func checkingALocalPathNamesTheProblem() async throws {
        #expect(throws: MediaFailure.fileNotFound) { try MediaLocation(url: try BadInput.url(.missingFile)).checkLocalFile() }
        #expect(throws: MediaFailure.isDirectory) { try MediaLocation(url: try BadInput.url(.directory)).checkLocalFile() }
        #expect(throws: MediaFailure.emptyFile) { try MediaLocation(url: try BadInput.url(.emptyFile)).checkLocalFile() }
        try MediaLocation(url: try Fixture.url(.wav)).checkLocalFile()
        try MediaLocation(url: try #require(URL(string: "https://example.com/x"))).checkLocalFile()
    }

    @Test func aNamedPipeIsRefusedWithoutBlocking() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-fifo-\(UUID().uuidString).mp4").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: MediaFailure.io(detail: "not a regular file (a pipe or socket)")) {
            try Self.describe(URL(fileURLWithPath: path))
        }
    }

    // MARK: - Track IDs and rotation math

    @Test func trackIDsFallBackToIndexPlusOneWhenMissingOrRepeated() async throws {
        let base = try Self.describe(try Fixture.url(.mp4)).streams
        try #require(base.count >= 2)
        var repeated = base
        repeated[1].trackID = repeated[0].trackID
        #expect(StreamDescriber.assignTrackIDs(repeated).map(\.trackID) == [1, 2])
        var zero = base
        zero[0].trackID = 0
        zero[1].trackID = 7
        #expect(StreamDescriber.assignTrackIDs(zero).map(\.trackID) == [1, 2])
        var kept = base
        kept[0].trackID = 10
        kept[1].trackID = 20
        #expect(StreamDescriber.assignTrackIDs(kept).map(\.trackID) == [10, 20])
    }

    @Test(
        "Rotation reads the clockwise angle from the matrix",
        arguments: [
            ([65_536, 0, 0, 0, 65_536, 0, 0, 0, 1 << 30], 0),
            ([0, 65_536, 0, -65_536, 0, 0, 0, 0, 1 << 30], 90),  // iPhone portrait
            ([-65_536, 0, 0, 0, -65_536, 0, 0, 0, 1 << 30], 180),
            ([0, -65_536, 0, 65_536, 0, 0, 0, 0, 1 << 30], 270),
        ] as [([Int32], Int)])
    func rotationFromMatrix(_ matrix: [Int32], _ degrees: Int) async throws {
        var stream = try #require(try Self.describe(try Fixture.url(.videoOnlyMP4)).streams.first)
        stream.displayMatrix = matrix
        #expect(stream.rotationDegrees == degrees)
        stream.displayMatrix = nil
        #expect(stream.rotationDegrees == 0)
    }
}

extension MediaInspectorTests {
    @Test func aFailureDescribesItselfWithItsReason() async {
        let error: any Error = MediaFailure.fileNotFound
        #expect(error.localizedDescription == "no such file")
        #expect((MediaFailure.unsupportedCodec(codecs: ["plhd"]) as NSError).localizedDescription
            == "unsupported codec: plhd (no decoder available)")
    }
}
