// Playhead: tests for AVAssetImageGenerator and CGImage against frames ffmpeg extracts itself.
import Foundation
import PlayheadTestSupport
import Synchronization
import Testing

@testable import OpenAVFoundation

// Concurrency: each test owns its generator; completion handlers run on the main queue and
// record into lock-protected boxes that the test reads on the main actor.

/// 4 s of 320×240 H.264 at 25 fps with a keyframe every second (B-frames on).
enum ImageTestMedia {
    static func clip() throws -> URL {
        try GeneratedMedia.url(
            named: "images-clip", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=d=4:s=320x240:r=25", "-c:v", "libx264", "-preset",
                "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
            ])
    }

    /// ffmpeg's own accurately seeked frame at `seconds`, as a PNG.
    static func ffmpegFrame(_ url: URL, at seconds: Double) throws -> URL {
        try GeneratedMedia.url(
            named: "images-reference-\(seconds)", fileExtension: "png",
            ffmpeg: ["-ss", String(seconds), "-i", url.path, "-frames:v", "1"])
    }

    static func time(_ seconds: Double) -> CMTime { CMTime(seconds: seconds, preferredTimescale: 600) }

    static func exactGenerator(_ url: URL) -> AVAssetImageGenerator {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        return generator
    }
}

@Suite struct AVAssetImageGeneratorTests {
    /// Frame starts (25 fps), where "the frame on screen at t" (ours, Apple's) and "the first
    /// frame at or after t" (ffmpeg's -ss) are the same frame.
    @Test(arguments: [0.0, 0.52, 1.32, 2.48, 3.96])
    func exactImagesMatchFFmpegsAccuratelySeekedFrame(seconds: Double) async throws {
        let url = try ImageTestMedia.clip()
        let generator = ImageTestMedia.exactGenerator(url)
        let (image, actual) = try await generator.image(at: ImageTestMedia.time(seconds))
        #expect(image.width == 320 && image.height == 240)
        #expect(actual.seconds == (seconds * 25).rounded(.down) / 25)
        let ours = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-generator-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: ours) }
        try image.write(to: ours)
        let psnr = try GeneratedMedia.psnr(ours, try ImageTestMedia.ffmpegFrame(url, at: seconds))
        #expect(psnr >= 35, "PSNR \(psnr) dB at \(seconds) s")
    }

    @Test func defaultTolerancesGiveTheKeyframeBeforeTheTime() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try ImageTestMedia.clip()))
        #expect(generator.requestedTimeToleranceBefore == .positiveInfinity)
        #expect(generator.requestedTimeToleranceAfter == .positiveInfinity)
        let (_, actual) = try await generator.image(at: ImageTestMedia.time(2.7))
        #expect(actual.seconds == 2.0)
    }

    @Test func maximumSizeShrinksKeepingTheAspectRatio() async throws {
        let generator = ImageTestMedia.exactGenerator(try ImageTestMedia.clip())
        generator.maximumSize = CGSize(width: 160, height: 0)
        var (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 160 && image.height == 120)
        generator.maximumSize = CGSize(width: 1000, height: 60)
        (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 80 && image.height == 60)
        generator.maximumSize = CGSize(width: 4000, height: 4000)
        (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 320 && image.height == 240, "never enlarged")
    }

    @Test func thePreferredTransformTurnsPortraitVideoUprightAsFFmpegDisplaysIt() async throws {
        let url = try Fixture.url(.rotatedMP4)
        let generator = ImageTestMedia.exactGenerator(url)
        let (plain, _) = try await generator.image(at: .zero)
        generator.appliesPreferredTrackTransform = true
        let (turned, _) = try await generator.image(at: .zero)
        #expect(plain.width == turned.height && plain.height == turned.width)
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        #expect(track.rotationDegrees != 0)
        // ffmpeg turns the picture by the display matrix too (autorotate).
        let ours = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-turned-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: ours) }
        try turned.write(to: ours)
        let reference = try GeneratedMedia.url(
            named: "images-rotated-reference", fileExtension: "png",
            ffmpeg: ["-i", url.path, "-frames:v", "1"])
        #expect(try GeneratedMedia.psnr(ours, reference) >= 35)
    }

    @Test @MainActor func asynchronousGenerationReportsEveryTimeInOrderOnTheMainQueue() async throws {
        let generator = ImageTestMedia.exactGenerator(try ImageTestMedia.clip())
        // Between frames on purpose: the frame on screen is the one that started before.
        let seconds = [3.0, 0.21, 1.5, 0.25, 2.23]
        let results = Locked<[(CMTime, CMTime, AVAssetImageGenerator.Result, Bool)]>([])
        generator.generateCGImagesAsynchronously(
            forTimes: seconds.map { NSValue(time: ImageTestMedia.time($0)) }
        ) { requested, image, actual, result, _ in
            let onMain = MainQueue.isCurrent
            results.withLock { $0.append((requested, actual, result, onMain && image != nil)) }
        }
        await waitUntil("five results") { results.withLock { $0.count } == 5 }
        let received = results.withLock { $0 }
        #expect(received.map(\.0.seconds) == seconds.sorted())
        #expect(received.allSatisfy { $0.2 == .succeeded && $0.3 })
        for (requested, actual, _, _) in received {
            #expect(actual.seconds == (requested.seconds * 25).rounded(.down) / 25)
        }
    }

    @Test @MainActor func cancellingReportsCancelledForRequestsNotYetGenerated() async throws {
        let generator = ImageTestMedia.exactGenerator(try ImageTestMedia.clip())
        let times = (0..<40).map { NSValue(time: ImageTestMedia.time(Double($0) * 0.09)) }
        let results = Locked<[AVAssetImageGenerator.Result]>([])
        generator.generateCGImagesAsynchronously(forTimes: times) { _, image, _, result, error in
            #expect((result == .succeeded) == (image != nil))
            #expect((result == .succeeded) == (error == nil))
            results.withLock { $0.append(result) }
        }
        generator.cancelAllCGImageGeneration()
        await waitUntil("forty results") { results.withLock { $0.count } == 40 }
        let received = results.withLock { $0 }
        #expect(received.contains(.cancelled))
        // Once cancelled, every later request of the batch is cancelled too.
        if let first = received.firstIndex(of: .cancelled) {
            #expect(received[first...].allSatisfy { $0 == .cancelled })
        }
        // Requests made after cancelling run normally.
        let (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 320)
    }

    @Test func missingFilesAndAudioOnlyAssetsFailWithAnError() async throws {
        let missing = AVAssetImageGenerator(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/clip.mp4")))
        await #expect(throws: (any Error).self) { try await missing.image(at: .zero) }
        let audio = AVAssetImageGenerator(asset: AVURLAsset(url: try Fixture.url(.audioOnlyM4A)))
        do {
            _ = try await audio.image(at: .zero)
            Issue.record("an audio-only asset gave an image")
        } catch {
            #expect((error as NSError).localizedDescription == "no video track")
            #expect((error as NSError).code == AVError.Code.operationNotSupportedForAsset.rawValue)
        }
    }

    @Test func theAsyncSequenceYieldsOneResultPerTimeAndFailuresAsValues() async throws {
        let generator = ImageTestMedia.exactGenerator(try ImageTestMedia.clip())
        var received: [(CMTime, CMTime)] = []
        for await result in generator.images(for: [2.0, 0.5, 1.0].map(ImageTestMedia.time)) {
            switch result {
            case .success(let requested, let image, let actual):
                #expect(image.width == 320)
                received.append((requested, actual))
            case .failure(let requested, let error):
                Issue.record("no image at \(requested.seconds): \(error)")
            }
        }
        #expect(received.map(\.0.seconds) == [0.5, 1.0, 2.0])
        #expect(received.map(\.1.seconds) == [0.48, 1.0, 2.0], "the frames on screen at those times")
        let missing = AVAssetImageGenerator(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/x.mp4")))
        var failures = 0
        for await result in missing.images(for: [.zero]) {
            #expect(throws: (any Error).self) { _ = try result.image }
            #expect(result.requestedTime == .zero)
            failures += 1
        }
        #expect(failures == 1)
        for await _ in generator.images(for: []) { Issue.record("no times, no results") }
    }

    @Test func jpegDataDecodesToTheSamePicture() async throws {
        let generator = ImageTestMedia.exactGenerator(try ImageTestMedia.clip())
        let (image, _) = try await generator.image(at: ImageTestMedia.time(1.0))
        let folder = FileManager.default.temporaryDirectory
        let png = folder.appendingPathComponent("playhead-gen-\(UUID().uuidString).png")
        let jpeg = folder.appendingPathComponent("playhead-gen-\(UUID().uuidString).jpg")
        defer {
            try? FileManager.default.removeItem(at: png)
            try? FileManager.default.removeItem(at: jpeg)
        }
        try image.write(to: png)
        try image.write(to: jpeg)
        #expect(try Data(contentsOf: jpeg).prefix(2) == Data([0xFF, 0xD8]))
        #expect(try GeneratedMedia.psnr(png, jpeg) >= 30)
        #expect(throws: (any Error).self) {
            try image.write(to: folder.appendingPathComponent("x.gif"))
        }
    }
}
