// Playhead: PGS (Blu-ray presentation graphics) subtitles end to end, on a stream written by
// hand (PlayheadTestSupport's PGSSubtitleBytes) and muxed into Matroska: listing, decoding to
// placed RGBA pictures with the palette's colours, and cue timing on a manual clock.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct PGSSubtitleTests {
    /// The RGBA a PGS palette entry should become: BT.601 video-range YCbCr (FFmpeg's choice
    /// for presentations up to 576 lines), alpha unchanged.
    static func expectedRGBA(entry: UInt8) -> [Int] {
        guard let colour = PGSSubtitleBytes.palette.first(where: { $0.entry == entry }) else {
            return [0, 0, 0, 0]
        }
        let y = 1.164 * (Double(colour.y) - 16)
        let cb = Double(colour.cb) - 128
        let cr = Double(colour.cr) - 128
        let channels = [y + 1.596 * cr, y - 0.391 * cb - 0.813 * cr, y + 2.018 * cb]
        return channels.map { Int(max(0, min(255, $0.rounded()))) } + [Int(colour.alpha)]
    }

    /// The RGBA of pixel (`column`, `row`) of `bitmap`.
    static func pixel(_ bitmap: AVSubtitleBitmap, _ column: Int, _ row: Int) -> [Int] {
        let offset = (row * bitmap.pixelWidth + column) * 4
        return bitmap.rgba[offset..<offset + 4].map(Int.init)
    }

    /// True when every channel of `actual` is within 3 of `expected`.
    static func close(_ actual: [Int], _ expected: [Int]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0 - $1) <= 3 }
    }

    @Test func pgsTrackIsListedWithCodecAndLanguage() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.pgsSubtitles.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(group.options.count == 1)
        let option = try #require(group.options.first)
        #expect(option.codecName == "hdmv_pgs_subtitle")
        #expect(option.isBitmapSubtitle)
        #expect(option.extendedLanguageTag == "ja")
        #expect(option.mediaType == .subtitle)
        #expect(group.defaultOption == nil, "subtitles start off")
    }

    @Test func pgsDecodesToPicturesPlacedOnThePresentationWithPaletteColours() throws {
        let demuxer = try Demuxer(
            location: try MediaLocation(url: try SelectionMedia.pgsSubtitles.url()))
        let stream = try #require(demuxer.description.tracks.first { $0.kind == .subtitle })
        #expect(stream.codecName == "hdmv_pgs_subtitle")
        let decoder = try SubtitleDecoder(demuxer: demuxer, streamIndex: stream.index)
        demuxer.setActiveStreams([stream.index])
        var events: [SubtitleEvent] = []
        while case .packet(let packet) = demuxer.readPacket() { events += decoder.decode(packet) }
        // The picture's display set, then the empty composition that clears it.
        #expect(events.map(\.isClear) == [false, true])
        let shown = try #require(events.first)
        #expect(abs(shown.start.seconds - 1) < 0.001)
        #expect(shown.end == nil, "PGS pictures last until the next composition")
        #expect(abs(try #require(events.last).start.seconds - 3) < 0.001)
        #expect(shown.canvasWidth == 640 && shown.canvasHeight == 480, "the PGS presentation")
        let object = PGSSubtitleBytes.object
        #expect(
            shown.bitmaps.map { [$0.x, $0.y, $0.width, $0.height] }
                == [[object.x, object.y, object.width, object.height]])

        let store = SubtitleCueStore()
        store.reset(version: 0, header: decoder.assHeader)
        store.add(events, version: 0)
        #expect(store.allCues.count == 1)
        let cue = try #require(store.allCues.first)
        #expect(abs(cue.timeRange.start.seconds - 1) < 0.001)
        #expect(abs(cue.timeRange.end.seconds - 3) < 0.001)
        let picture = try #require(cue.bitmaps.first)
        try #require(picture.pixelWidth == 240 && picture.pixelHeight == 40 && picture.rgba.count == 240 * 40 * 4)
        // Fractions of the picture: the 640x480 presentation covers the 320x240 video.
        #expect(abs(picture.x - 0.25) < 1e-9 && abs(picture.y - 0.75) < 1e-9)
        #expect(abs(picture.width - 0.375) < 1e-9 && abs(picture.height - 40.0 / 480) < 1e-9)
        // Columns 0-119 palette entry 1 (opaque red), 120-229 entry 2 (blue, alpha 128),
        // 230-239 entry 0 (transparent).
        let red = Self.expectedRGBA(entry: 1)
        let blue = Self.expectedRGBA(entry: 2)
        #expect(Self.close(red, [255, 0, 0, 255]) && Self.close(blue, [0, 0, 255, 128]))
        for (column, row) in [(0, 0), (119, 20), (60, 39)] {
            #expect(Self.close(Self.pixel(picture, column, row), red), "(\(column), \(row))")
        }
        for (column, row) in [(120, 0), (229, 39), (180, 10)] {
            #expect(Self.close(Self.pixel(picture, column, row), blue), "(\(column), \(row))")
        }
        for (column, row) in [(230, 0), (239, 39)] {
            #expect(Self.pixel(picture, column, row)[3] == 0, "(\(column), \(row))")
        }
    }

    /// Plays the PGS fixture on `clock` with its subtitle track selected, recording deliveries.
    private func playPGS(clock: ManualClock) async throws -> (AVPlayer, LegibleRecorder) {
        try await MediaSelectionPlaybackTests.playWithSubtitles(
            try SelectionMedia.pgsSubtitles.url(), clock: clock
        ) { $0.options.first }
    }

    @Test func pgsCuesAppearAtTheFirstDisplaySetAndClearAtTheSecond() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await playPGS(clock: clock)
        await advance(clock, by: 0.9)
        #expect(recorder.all.allSatisfy { $0.cues.isEmpty })
        await advance(clock, by: 0.2)
        await waitUntil("picture") { recorder.last?.cues.first?.bitmaps.count == 1 }
        let shown = try #require(recorder.last)
        #expect(shown.time >= 0.99 && shown.time <= 1.1)
        #expect(shown.strings == [] && shown.onMainThread)
        let picture = try #require(shown.cues.first?.bitmaps.first)
        #expect(abs(picture.x - 0.25) < 1e-9 && abs(picture.y - 0.75) < 1e-9)
        #expect(Self.close(Self.pixel(picture, 0, 0), Self.expectedRGBA(entry: 1)))
        let deliveries = recorder.all.count
        await advance(clock, by: 1.8)
        #expect(recorder.all.count == deliveries, "nothing changes until the second display set")
        await advance(clock, by: 0.3)
        await waitUntil("cleared") { recorder.last?.cues.isEmpty == true }
        if let cleared = recorder.last { #expect(cleared.time >= 2.99 && cleared.time <= 3.1) }
        player.replaceCurrentItem(with: nil)
    }

    @Test func seekingIntoThePGSPictureShowsItUntilTheClearingDisplaySet() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await playPGS(clock: clock)
        let target = CMTime(value: 2, timescale: 1)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        await advance(clock, by: 0.1)
        await waitUntil("picture after the seek") {
            recorder.last?.cues.first?.bitmaps.count == 1
        }
        #expect(recorder.last?.cues.first?.timeRange.start.seconds == 1)
        await advance(clock, by: 1.0)
        await waitUntil("cleared") { recorder.last?.cues.isEmpty == true }
        if let cleared = recorder.last { #expect(cleared.time >= 2.99 && cleared.time <= 3.15) }
        player.replaceCurrentItem(with: nil)
    }
}

/// A PGS stream given as its own `.sup` file (the common way Blu-ray subtitles travel).
@Suite struct PGSSubtitleFileTests {
    /// Writes the fixture stream as `name.sup` beside a generated clip, once per process.
    static func supFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-pgs-sidecar-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("movie.ja.sup")
        if !FileManager.default.fileExists(atPath: file.path) {
            try Data(PGSSubtitleBytes.stream()).write(to: file, options: .atomic)
        }
        return file
    }

    @Test func aSupFileKeepsItsDisplaySetTimes() throws {
        let contents = try SubtitleFileReader.read(try MediaLocation(url: try Self.supFile()))
        #expect(contents.codecName == "hdmv_pgs_subtitle")
        #expect(contents.events.map(\.isClear) == [false, true])
        // As written in the file (1 s and 3 s), not moved to start at zero.
        #expect(contents.events.map { ($0.start.seconds * 1000).rounded() } == [1000, 3000])
    }

    @Test func aSupFileIsOfferedAsABitmapSubtitleOption() async throws {
        let sup = try Self.supFile()
        let clip = try SelectionMedia.sidecarClip.url()
        let asset = AVURLAsset(
            url: clip,
            options: [
                AVURLAssetPlayheadDiscoversSubtitleFilesKey: false,
                AVURLAssetPlayheadSubtitleFilesKey: [sup],
            ])
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let option = try #require(legible.options.first)
        #expect(legible.options.count == 1)
        #expect(option.codecName == "hdmv_pgs_subtitle")
        #expect(option.isBitmapSubtitle)
        #expect(option.extendedLanguageTag == "ja")
    }
}
