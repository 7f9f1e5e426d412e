// Playhead: the first pixel buffer an AVPlayerItemVideoOutput gives for a playing item, and a
// buffer plane's visible bytes (shared by the video output tests).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Reads buffers from video outputs attached to items played on a manual clock.
@MainActor
enum VideoOutputBuffers {
    /// The first buffer an output attached to a playing item of `url` offers, with the frame
    /// time it is for; `format` nil asks for no format.
    static func first(of url: URL, format: OSType?) async throws -> (CVPixelBuffer, CMTime) {
        let clock = ManualClock()
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(
            pixelBufferAttributes: format.map { format -> [String: any Sendable] in
                [
                    kCVPixelBufferPixelFormatTypeKey: format,
                    kCVPixelBufferIOSurfacePropertiesKey: [String: String](),
                    kCVPixelBufferMetalCompatibilityKey: true,
                ]
            })
        item.add(output)
        let player = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        defer { player.pause() }
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.5)
        let time = output.itemTime(forHostTime: clock.now)
        await waitUntil("a frame") { output.hasNewPixelBuffer(forItemTime: time) }
        let result = output.pixelBufferAndDisplayTime(forItemTime: time)
        return (try #require(result.pixelBuffer), result.itemTimeForDisplay)
    }

    /// Every visible byte of `plane`, row after row.
    static func bytes(of buffer: CVPixelBuffer, plane: Int, perPixel: Int) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!.assumingMemoryBound(
            to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
        let width = CVPixelBufferGetWidthOfPlane(buffer, plane) * perPixel
        return (0..<CVPixelBufferGetHeightOfPlane(buffer, plane)).flatMap { row in
            Array(UnsafeBufferPointer(start: base + row * stride, count: width))
        }
    }
}
