// Playhead: `playhead probe` run as a process on generated media and on bad inputs.

import Foundation
import PlayheadTestSupport
import Testing

/// The reason `playhead` prints for each bad input (after `playhead: <input>: `).
extension BadInput {
    var cliReason: String {
        switch self {
        case .missingFile: return "no such file"
        case .directory: return "is a directory, not a media file"
        case .emptyFile: return "empty file"
        case .randomBytes, .textFileNamedMP4: return "not a media file (no known format recognised)"
        case .truncatedMP4: return "damaged or truncated media file: moov atom not found"
        }
    }
}

@Suite("probe end to end")
struct ProbeEndToEndTests {
    static let trackKeys = [
        "id", "mediaType", "codec", "width", "height", "frameRate", "sampleRate", "channels", "language",
        "rotation",
    ]

    @Test("probe --json describes every fixture field by field", arguments: Fixture.allCases)
    func probeJSONDescribesEveryFixture(_ fixture: Fixture) async throws {
        let url = try Fixture.url(fixture)
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let json = try PlayheadProcess.jsonObject(result)
        let reference = try FFprobe.summary(of: url)

        let duration = try #require(json["duration"] as? Double)
        #expect(abs(duration - (reference.duration ?? -1)) < 0.001)
        #expect(json["isPlayable"] as? Bool == true)
        #expect(json["format"] as? String == reference.formatName)
        #expect(json["hasProtectedContent"] as? Bool == false)

        let tracks = try #require(json["tracks"] as? [[String: Any]])
        for track in tracks {
            #expect(Self.trackKeys.allSatisfy { track.keys.contains($0) }, "missing keys in \(track)")
        }
        func ofType(_ type: String) -> [[String: Any]] { tracks.filter { $0["mediaType"] as? String == type } }
        let expected = fixture.expectedStreams
        #expect(ofType("video").count == expected.video, "attached pictures are not video tracks")
        #expect(ofType("audio").count == expected.audio)
        #expect(ofType("subtitle").count == expected.subtitle)
        // IDs are the container's own when it has unique ones (MPEG-TS PIDs 256, 257), else 1...n.
        let ids = tracks.compactMap { $0["id"] as? Int }
        #expect(ids.count == tracks.count && Set(ids).count == ids.count && ids.allSatisfy { $0 > 0 })
        if reference.formatName.hasPrefix("mov,") || reference.formatName == "matroska,webm" {
            #expect(ids == Array(1...tracks.count))
        }

        let videoStreams = reference.streams(ofType: "video").filter { !$0.isAttachedPicture }
        for (track, stream) in zip(ofType("video"), videoStreams) {
            #expect(track["codec"] as? String == (stream.codecName ?? stream.codecTag))
            #expect(track["width"] as? Int == stream.width)
            #expect(track["height"] as? Int == stream.height)
            #expect(track["frameRate"] as? Double == ([.threeGP, .threeG2].contains(fixture) ? 15 : 25))
            #expect(track["sampleRate"] is NSNull && track["channels"] is NSNull)
            // Clockwise degrees; ffprobe prints FFmpeg's counter-clockwise angle.
            let clockwise = stream.rotation.map { (360 - Int($0)) % 360 } ?? 0
            #expect(track["rotation"] as? Int == clockwise)
        }
        for (track, stream) in zip(ofType("audio"), reference.streams(ofType: "audio")) {
            #expect(track["codec"] as? String == stream.codecName)
            #expect(track["sampleRate"] as? Int == stream.sampleRate)
            #expect(track["channels"] as? Int == stream.channels)
            #expect(track["width"] is NSNull && track["height"] is NSNull && track["rotation"] is NSNull)
            let language = stream.language.flatMap { $0 == "und" ? nil : $0 }
            #expect((track["language"] as? String) == language)
        }

        let metadata = try #require(json["metadata"] as? [String: String])
        for key in ["title", "artist", "album"] {
            #expect(metadata[key] == reference.tags[key], "metadata \(key)")
        }
        #expect(metadata.keys.contains("albumName") == false, "keys are the container's tag names")
        if expected.attachedPictures > 0 {
            let artwork = try #require(metadata["artwork"])
            #expect(artwork.hasPrefix("image/png, ") && artwork.hasSuffix(" bytes"))
        } else {
            #expect(metadata["artwork"] == nil)
        }
    }

    @Test func theRotatedFixtureProbesAs270DegreesClockwiseWithItsTitle() async throws {
        // The file's matrix is a 0, b -1, c 1, d 0: a quarter turn counter-clockwise, which
        // ffprobe 5.1 prints as +90 and Playhead reports clockwise as 270.
        let url = try Fixture.url(.rotatedMP4)
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["rotation"] as? Int } == [270, nil])
        #expect((json["metadata"] as? [String: String])?["title"] == Fixture.rotatedTitle)
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("rotation 270°"))
        #expect(text.standardOutput.contains("title:"))
        #expect(text.standardOutput.contains(Fixture.rotatedTitle))
    }

    @Test func aVideoTracksStatedColourIsProbedAsFFprobeReadsIt() async throws {
        // HDR10-style tags: BT.2020 matrix and primaries, PQ transfer.
        let url = try GeneratedMedia.url(
            named: "probe-colour-pq", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=25:duration=1", "-c:v", "libx264",
                "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "smpte2084",
            ])
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        let colour = try #require(tracks.first?["colour"] as? [String: String])
        #expect(colour == ["matrix": "ITU_R_2020", "primaries": "ITU_R_2020", "transfer": "SMPTE_ST_2084_PQ"])
        // ffprobe reads the same tags from the same stream (in its own order).
        let reference = try MediaFixturesProbe.colourTags(url)
        #expect(Set(reference) == ["bt2020nc", "bt2020", "smpte2084"])
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(text.standardOutput.contains("BT.2020 PQ"), "\(text.standardOutput)")
        // An untagged stream says nothing of colour.
        let plain = try Fixture.url(.mp4)
        guard let untagged = try await PlayheadProcess.run(["probe", "--json", plain.path]) else { return }
        let plainTracks = try #require(try PlayheadProcess.jsonObject(untagged)["tracks"] as? [[String: Any]])
        #expect(plainTracks.allSatisfy { $0["colour"] == nil })
    }

    @Test func theMP3sTagsAndArtworkAppearInTheReadableSummary() async throws {
        let url = try Fixture.url(.mp3WithCoverArt)
        guard let result = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let text = result.standardOutput
        #expect(text.contains("Playable:   yes"))
        #expect(text.contains("#1  audio  mp3"))
        #expect(!text.contains("#2"), "the cover is not a track")
        for (key, value) in Fixture.songTags {
            #expect(text.contains("\(key):") && text.contains(value), "\(key)")
        }
        #expect(text.contains("image/png,"))
    }

    @Test func anUndecodableVideoIsProbedWithItsCodecTag() async throws {
        let url = try Fixture.url(.undecodableVideoMP4)
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(tracks.compactMap { $0["codec"] as? String } == [Fixture.undecodableCodecTag, "aac"])
        #expect(json["isPlayable"] as? Bool == true, "the audio still plays")
    }

    @Test("probe fails on a bad input with exit 1 and one line", arguments: BadInput.allCases)
    func probeRejectsBadInput(_ input: BadInput) async throws {
        let path = try BadInput.url(input).path
        for arguments in [["probe", path], ["probe", "--json", path]] {
            guard let result = try await PlayheadProcess.run(arguments) else { return }
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == ["playhead: \(path): \(input.cliReason)"[...]])
        }
    }

    @Test func probeUsageErrorsExitTwo() async throws {
        let wav = try Fixture.url(.wav).path
        for arguments in [["probe"], ["probe", "--frobnicate", wav], ["probe", wav, wav]] {
            guard let result = try await PlayheadProcess.run(arguments) else { return }
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.hasPrefix("playhead: error: "), "\(arguments)")
            #expect(result.standardError.contains("Usage: playhead probe [--json] INPUT"))
        }
    }
}

/// ffprobe's reading of a stream's colour tags.
enum MediaFixturesProbe {
    /// The first video stream's `color_space`, `color_primaries` and `color_transfer`.
    static func colourTags(_ url: URL) throws -> [String] {
        let result = try Subprocess.run(
            try Subprocess.tool(named: "ffprobe"),
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=color_space,color_primaries,color_transfer", "-of", "default=noprint_wrappers=1:nokey=1",
                url.path,
            ])
        return result.standardOutput.split(separator: "\n").map(String.init)
    }
}
