// Playhead: tests for the `playhead probe --json` object and its key order.

import Foundation
import PlayheadCLI
import Testing

@Suite struct ProbeJSONTests {
    @Test func topLevelKeysComeInTheDocumentedOrder() async throws {
        guard case .object(let object) = SampleSummaries.film.jsonValue else {
            Issue.record("not an object")
            return
        }
        #expect(
            object.keys == [
                "duration", "isPlayable", "format", "formatDescription", "bitRate",
                "hasProtectedContent", "tracks", "metadata", "chapters", "captions", "variants", "fonts",
            ])
    }

    @Test func aFilmPrintsEveryTrackWithTheFixedKeysFirst() async {
        Snapshot.expect(
            ProbeCommand.render(SampleSummaries.film, asJSON: true) + "\n",
            matches: "probe-film.json")
    }

    @Test func anAudioOnlyFileHasNullVideoFieldsAndArtworkMetadata() async {
        Snapshot.expect(
            ProbeCommand.render(SampleSummaries.song, asJSON: true) + "\n",
            matches: "probe-song.json")
    }

    @Test func anUnknownDurationIsNull() async throws {
        let text = SampleSummaries.liveStream.jsonValue.formatted(.compact)
        #expect(
            text == """
                {"duration":null,"isPlayable":false,"format":"hls",\
                "formatDescription":"Apple HTTP Live Streaming","bitRate":null,\
                "hasProtectedContent":true,"tracks":[\
                {"id":1,"mediaType":"video","codec":"hevc","width":1280,"height":720,\
                "frameRate":null,"sampleRate":null,"channels":null,"language":null,\
                "rotation":null,"default":false},\
                {"id":2,"mediaType":"data","codec":"timed_id3","width":null,"height":null,\
                "frameRate":null,"sampleRate":null,"channels":null,"language":null,\
                "rotation":null,"default":false}],"metadata":{},"chapters":[],"captions":[],"variants":[],"fonts":[]}
                """)
    }

    @Test func theOutputParsesAsJSONWithTheSameValues() async throws {
        let text = ProbeCommand.render(SampleSummaries.song, asJSON: true)
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["duration"] as? Double == 215.04)
        let metadata = try #require(parsed["metadata"] as? [String: String])
        #expect(metadata["title"] == "Café del Mar")
        #expect(metadata["comment"] == "Recorded live.\nSecond take.")
        #expect(metadata["artwork"] == "image/jpeg, 1234 bytes")
        let tracks = try #require(parsed["tracks"] as? [[String: Any]])
        #expect(tracks.first?["width"] is NSNull)
        #expect(tracks.first?["channelLayout"] as? String == "stereo")
    }

    @Test func repeatedMetadataKeysAreJoinedUnderTheFirstPosition() async {
        let summary = ProbeSummary(
            input: "a", durationSeconds: 1, isPlayable: true, format: "f",
            formatDescription: "F",
            metadata: [
                .init(key: "artwork", value: "image/png, 10 bytes"),
                .init(key: "title", value: "T"),
                .init(key: "artwork", value: "image/jpeg, 20 bytes"),
            ])
        guard case .object(let object) = summary.jsonValue else { return }
        #expect(
            object["metadata"]
                == ["artwork": "image/png, 10 bytes; image/jpeg, 20 bytes", "title": "T"])
    }
}
