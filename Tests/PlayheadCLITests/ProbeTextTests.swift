// Playhead: tests for the readable `playhead probe` report and its number spellings.

import PlayheadCLI
import Testing

@Suite struct ProbeTextTests {
    @Test func aFilmListsVideoAudioAndSubtitleInAlignedColumns() async {
        #expect(
            SampleSummaries.film.readableText == """
                Input:      demo.mp4
                Container:  QuickTime / MOV (mov,mp4,m4a,3gp,3g2,mj2)
                Duration:   00:01:03.500 (63.500 s)
                Bit rate:   1.2 Mb/s
                Playable:   yes
                Tracks:
                  #1  video     h264 (High)        1920x1080  29.97 fps  rotation 90°  1.1 Mb/s  [eng]  default
                  #2  audio     aac (LC)           48000 Hz  2 ch (stereo)  128 kb/s  [eng]  default
                  #3  subtitle  subrip             [fre]  "French"
                  #4  subtitle  hdmv_pgs_subtitle  [eng]  forced
                Metadata:
                  title:   My Film
                  artist:  Someone
                Chapters:
                  #1  00:00:00.000 - 00:00:12.500  Opening
                  #2  00:00:12.500 - 00:01:03.500  The End
                """)
    }

    @Test func anAudioOnlyFileShowsArtworkAndIndentsMultiLineValues() async {
        #expect(
            SampleSummaries.song.readableText == """
                Input:      /music/Song "Live".m4a
                Container:  QuickTime / MOV (mov,mp4,m4a,3gp,3g2,mj2)
                Duration:   00:03:35.040 (215.040 s)
                Bit rate:   256 kb/s
                Playable:   yes
                Tracks:
                  #1  audio  alac  44100 Hz  2 ch (stereo)  [und]  default
                Metadata:
                  title:    Café del Mar
                  artist:   Band
                  album:    Live Tapes
                  comment:  Recorded live.
                            Second take.
                  artwork:  image/jpeg, 1234 bytes
                """)
    }

    @Test func anUnknownDurationReadsUnknownAndAbsentFieldsAreLeftOut() async {
        #expect(
            SampleSummaries.liveStream.readableText == """
                Input:      https://example.com/live.m3u8
                Container:  Apple HTTP Live Streaming (hls)
                Duration:   unknown
                Playable:   no
                Protected:  yes
                Tracks:
                  #1  video  hevc       1280x720
                  #2  data   timed_id3
                """)
    }

    @Test func aSummaryWithoutTracksSaysNone() async {
        let summary = ProbeSummary(
            input: "x", durationSeconds: 0, isPlayable: false, format: "", formatDescription: "")
        #expect(
            summary.readableText == """
                Input:      x
                Container:  unknown
                Duration:   00:00:00.000 (0.000 s)
                Playable:   no
                Tracks:     none
                """)
    }

    @Test func trackIdsOfDifferentWidthsStillAlign() async {
        var summary = SampleSummaries.liveStream
        summary.tracks[1].id = 12
        let lines = summary.readableText.split(separator: "\n").suffix(2)
        #expect(Array(lines) == ["  #1   video  hevc       1280x720", "  #12  data   timed_id3"])
    }

    @Test func zeroRotationAndLayoutOnlyChannelsAreSpelledCompactly() async {
        let track = ProbeSummary.Track(
            id: 1, mediaType: "audio", codec: "opus", channelLayout: "5.1", rotation: 0)
        let summary = ProbeSummary(
            input: "a", durationSeconds: nil, isPlayable: true, format: "ogg",
            formatDescription: "ogg", tracks: [track])
        #expect(
            summary.readableText == """
                Input:      a
                Container:  ogg
                Duration:   unknown
                Playable:   yes
                Tracks:
                  #1  audio  opus  5.1
                """)
    }

    // MARK: - Number spellings

    @Test func durationsUseAClockAndSeconds() async {
        #expect(MediaText.duration(63.5) == "00:01:03.500 (63.500 s)")
        #expect(MediaText.duration(3600 * 101 + 0.0004) == "101:00:00.000 (363600.000 s)")
        #expect(MediaText.duration(59.9996) == "00:01:00.000 (60.000 s)")
        #expect(MediaText.duration(-1.25) == "-00:00:01.250 (-1.250 s)")
        #expect(MediaText.duration(nil) == "unknown")
        #expect(MediaText.duration(.infinity) == "unknown")
        #expect(MediaText.duration(.nan) == "unknown")
    }

    @Test func bitRatesPickDecimalUnits() async {
        #expect(MediaText.bitRate(800) == "800 b/s")
        #expect(MediaText.bitRate(128_000) == "128 kb/s")
        #expect(MediaText.bitRate(64_500) == "64.5 kb/s")
        #expect(MediaText.bitRate(999_990) == "1 Mb/s")
        #expect(MediaText.bitRate(1_234_567) == "1.2 Mb/s")
        #expect(MediaText.bitRate(40_000_000) == "40 Mb/s")
    }

    @Test func frameRatesKeepTwoDecimalsAtMost() async {
        #expect(MediaText.frameRate(30000.0 / 1001.0) == "29.97 fps")
        #expect(MediaText.frameRate(24000.0 / 1001.0) == "23.98 fps")
        #expect(MediaText.frameRate(25) == "25 fps")
        #expect(MediaText.frameRate(.nan) == "? fps")
    }
}
