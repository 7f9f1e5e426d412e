// Playhead: hand-built ProbeSummary values the probe formatting tests print.

import PlayheadCLI

/// Probe summaries that stand in for real media.
enum SampleSummaries {
    /// A film with rotated video, stereo audio, a French subtitle track, a forced English
    /// one and two chapters.
    static let film: ProbeSummary = {
        var summary = filmTracks
        summary.chapters = [
            .init(title: "Opening", start: 0, end: 12.5),
            .init(title: "The End", start: 12.5, end: 63.5),
        ]
        return summary
    }()

    private static let filmTracks = ProbeSummary(
        input: "demo.mp4",
        durationSeconds: 63.5,
        isPlayable: true,
        format: "mov,mp4,m4a,3gp,3g2,mj2",
        formatDescription: "QuickTime / MOV",
        bitRate: 1_234_567,
        tracks: [
            .init(
                id: 1, mediaType: "video", codec: "h264",
                codecDescription: "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10", profile: "High",
                width: 1920, height: 1080, frameRate: 30000.0 / 1001.0, language: "eng",
                rotation: 90, bitRate: 1_100_000, isDefault: true),
            .init(
                id: 2, mediaType: "audio", codec: "aac", profile: "LC", sampleRate: 48000,
                channels: 2, channelLayout: "stereo", language: "eng", bitRate: 128_000,
                isDefault: true),
            .init(
                id: 3, mediaType: "subtitle", codec: "subrip", language: "fre",
                title: "French"),
            .init(
                id: 4, mediaType: "subtitle", codec: "hdmv_pgs_subtitle", language: "eng",
                isForced: true),
        ],
        metadata: [
            .init(key: "title", value: "My Film"),
            .init(key: "artist", value: "Someone"),
        ])

    /// A song with cover art and a multi-line comment.
    static let song = ProbeSummary(
        input: "/music/Song \"Live\".m4a",
        durationSeconds: 215.04,
        isPlayable: true,
        format: "mov,mp4,m4a,3gp,3g2,mj2",
        formatDescription: "QuickTime / MOV",
        bitRate: 256_000,
        tracks: [
            .init(
                id: 1, mediaType: "audio", codec: "alac", sampleRate: 44100, channels: 2,
                channelLayout: "stereo", language: "und", isDefault: true)
        ],
        metadata: [
            .init(key: "title", value: "Café del Mar"),
            .init(key: "artist", value: "Band"),
            .init(key: "album", value: "Live Tapes"),
            .init(key: "comment", value: "Recorded live.\nSecond take."),
            .init(key: "artwork", value: "image/jpeg, 1234 bytes"),
        ])

    /// A live stream: no duration, no bit rate, no metadata, protected.
    static let liveStream = ProbeSummary(
        input: "https://example.com/live.m3u8",
        durationSeconds: nil,
        isPlayable: false,
        format: "hls",
        formatDescription: "Apple HTTP Live Streaming",
        tracks: [
            .init(id: 1, mediaType: "video", codec: "hevc", width: 1280, height: 720),
            .init(id: 2, mediaType: "data", codec: "timed_id3"),
        ],
        hasProtectedContent: true)
}
