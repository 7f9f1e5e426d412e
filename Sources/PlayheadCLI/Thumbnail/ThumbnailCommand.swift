// Playhead: `playhead thumbnail INPUT --at S ... -o OUT`, still images or a contact sheet.
import Foundation
import OpenAVFoundation

/// The `thumbnail` command: exact frames at chosen times through one `AVAssetImageGenerator`
/// (one demuxer and decoder for all of them), written as PNG or JPEG.
public enum ThumbnailCommand {
    /// The `INPUT` positional.
    static let inputArgument = PositionalArgument("INPUT", help: "The media file path or URL.")

    /// Width of contact-sheet tiles when `--width` is not given.
    static let defaultTileWidth = 320

    /// Builds the `thumbnail` command.
    public static func command() -> Command {
        Command(
            name: "thumbnail",
            abstract: "Write still images of a video at chosen times, or a contact sheet.",
            discussion: """
                Each image is the first frame starting at or after its time, as ffmpeg -ss \
                picks it (exact, not the nearest keyframe, unless --keyframes). One time \
                writes OUT; several write OUT-1, OUT-2, ... in the order given. --sheet \
                COLSxROWS writes one image with the frames on a grid, each stamped with its \
                time; without --at the times are spread evenly over the video. The extension \
                of OUT picks PNG or JPEG. The paths written are printed, one per line.
                """,
            options: ThumbnailOptions.all,
            arguments: [inputArgument],
            customUsage: "playhead thumbnail INPUT --at S [--at S ...] [--width W] [--sheet COLSxROWS] -o OUT"
        ) { context in
            let input = context.arguments.argument(inputArgument.name) ?? ""
            let options = try ThumbnailOptions.from(context.arguments, input: input)
            for path in try await run(options) { context.console.print(path) }
            return .success
        }
    }

    /// Generates and writes the images; returns the paths written.
    ///
    /// - Throws: `InputFailure` naming the input (cannot open or decode) or the output
    ///   (cannot write).
    static func run(_ options: ThumbnailOptions) async throws -> [String] {
        let asset = AVURLAsset(url: InputURL.from(options.input))
        let generator = AVAssetImageGenerator(asset: asset)
        // Upright, as players show it (and as ffmpeg writes it).
        generator.appliesPreferredTrackTransform = true
        if !options.keyframesOnly {
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
            // The frame `ffmpeg -ss S` writes: the first one starting at or after S.
            generator.framesStartingAtOrAfterTime = true
        }
        let width = options.width ?? (options.sheet != nil ? defaultTileWidth : nil)
        if let width { generator.maximumSize = CGSize(width: width, height: 0) }

        var times = options.times
        if times.isEmpty, let sheet = options.sheet {
            times = try await evenlySpacedTimes(count: sheet.columns * sheet.rows, in: asset, input: options.input)
        }
        guard let sheet = options.sheet else {
            return try await generateAndWrite(times, with: generator, options: options)
        }
        let images = try await generate(times, with: generator, input: options.input)
        let first = images[0].image
        let layout = ContactSheet(
            columns: sheet.columns, rows: sheet.rows, tileWidth: first.width, tileHeight: first.height)
        guard let image = layout.render(images) else {
            throw InputFailure(input: options.output, reason: "cannot compose the contact sheet")
        }
        try write(image, to: options.output)
        return [options.output]
    }

    /// Generates the images in increasing time order and writes each while the next one
    /// decodes (encoding a PNG costs about as much as decoding its frame).
    private static func generateAndWrite(
        _ times: [Double], with generator: AVAssetImageGenerator, options: ThumbnailOptions
    ) async throws -> [String] {
        let paths = ThumbnailOptions.outputPaths(for: options.output, count: times.count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, seconds) in times.enumerated().sorted(by: { $0.element < $1.element }) {
                let image: CGImage
                do {
                    image = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 90_000)).image
                } catch {
                    throw InputFailure(input: options.input, error: error)
                }
                let path = paths[index]
                group.addTask { try write(image, to: path) }
            }
            try await group.waitForAll()
        }
        return paths
    }

    /// The images for `times`, generated in increasing time order (so the decoder moves
    /// forward) and returned in the order asked, each with its requested time.
    private static func generate(
        _ times: [Double], with generator: AVAssetImageGenerator, input: String
    ) async throws -> [(image: CGImage, seconds: Double)] {
        var images = [CGImage?](repeating: nil, count: times.count)
        for (index, seconds) in times.enumerated().sorted(by: { $0.element < $1.element }) {
            do {
                images[index] = try await generator.image(
                    at: CMTime(seconds: seconds, preferredTimescale: 90_000)).image
            } catch {
                throw InputFailure(input: input, error: error)
            }
        }
        return zip(images.compactMap { $0 }, times).map { ($0, $1) }
    }

    /// `count` times at the middle of equal slices of the asset's duration.
    private static func evenlySpacedTimes(count: Int, in asset: AVURLAsset, input: String) async throws -> [Double] {
        let duration: CMTime
        do {
            duration = try await asset.load(.duration)
        } catch {
            throw InputFailure(input: input, error: error)
        }
        guard duration.isNumeric, duration.seconds > 0 else {
            throw InputFailure(input: input, reason: "unknown duration; give the times with --at")
        }
        let slice = duration.seconds / Double(count)
        return (0..<count).map { (Double($0) + 0.5) * slice }
    }

    private static func write(_ image: CGImage, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw InputFailure(input: path, reason: "cannot write: no such directory")
        }
        do {
            try image.write(to: url)
        } catch {
            throw InputFailure(input: path, reason: "cannot write: \(Diagnostics.reason(for: error))")
        }
    }
}
