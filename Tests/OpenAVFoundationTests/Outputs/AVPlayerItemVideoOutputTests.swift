// Playhead: AVPlayerItemVideoOutput and CVPixelBuffer: pixels checked against frames decoded
// independently, item times on a manual clock, attach and detach.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// FNV-1a of a buffer's visible bytes, plane after plane, row by row (no padding).
func visibleChecksum(_ buffer: CVPixelBuffer) -> UInt64 {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    var bytes: [UInt8] = []
    let planar = CVPixelBufferIsPlanar(buffer)
    for plane in 0..<(planar ? CVPixelBufferGetPlaneCount(buffer) : 1) {
        let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
        // Bi-planar 4:2:0's second plane holds Cb/Cr pairs.
        let biPlanarChroma = planar && CVPixelBufferGetPlaneCount(buffer) == 2 && plane == 1
        let rowBytes =
            planar ? CVPixelBufferGetWidthOfPlane(buffer, plane) * (biPlanarChroma ? 2 : 1) : CVPixelBufferGetWidth(buffer) * 4
        for row in 0..<CVPixelBufferGetHeightOfPlane(buffer, plane) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + row * stride, count: rowBytes))
        }
    }
    return VideoFrame.fnv1a64(bytes)
}

@MainActor
@Suite struct AVPlayerItemVideoOutputTests {
    @Test func bgraBuffersMatchIndependentlyDecodedFramesAtTheClocksTime() async throws {
        let url = try Fixture.url(.mp4)
        let reference = await linearFrames(of: url)
        let clock = ManualClock()
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA
        ])
        item.add(output)
        #expect(item.outputs.count == 1)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let scaler = Scaler()
        for step in 1...3 {
            await advance(clock, by: 0.3)
            let time = output.itemTime(forHostTime: clock.now)
            #expect(abs(time.seconds - 0.3 * Double(step)) < 0.05, "item time \(time.seconds)")
            // On a loaded machine the presenter may still be handing over older frames: copy
            // until the frame on screen at `time` (the last one starting at or before it) is
            // the one on offer.
            let onScreen = try #require(reference.keys.filter { $0 <= millis(time) }.max())
            var shown = CMTime.invalid
            var copied: CVPixelBuffer?
            await waitUntil("the frame for \(time.seconds)") {
                guard output.hasNewPixelBuffer(forItemTime: time) else { return false }
                copied = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: &shown)
                return millis(shown) == onScreen
            }
            let buffer = try #require(copied)
            #expect(!output.hasNewPixelBuffer(forItemTime: time), "already copied")
            #expect(shown <= time && time.seconds - shown.seconds < 0.1)
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
            #expect(CVPixelBufferGetWidth(buffer) == 320 && CVPixelBufferGetHeight(buffer) == 240)
            #expect(CVPixelBufferGetBytesPerRow(buffer) >= 320 * 4)
            #expect(!CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 0)
            let frame = try #require(reference[millis(shown)], "no reference frame at \(shown.seconds)")
            let expected = try #require(frame.converted(to: .bgra, using: scaler))
            #expect(visibleChecksum(buffer) == expected.checksum(), "pixels at \(shown.seconds)")
        }
        player.pause()
    }

    @Test func theDefaultIsPlanarYUVIdenticalToTheDecodedPicture() async throws {
        let url = try Fixture.url(.mp4)
        let reference = await linearFrames(of: url)
        let clock = ManualClock()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        let output = AVPlayerItemVideoOutput()
        item.add(output)  // while the item is already current
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.5)
        let time = output.itemTime(forHostTime: clock.now)
        await waitUntil("a frame") { output.hasNewPixelBuffer(forItemTime: time) }
        let result = output.pixelBufferAndDisplayTime(forItemTime: time)
        let buffer = try #require(result.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_420YpCbCr8Planar)
        #expect(CVPixelBufferGetPlaneCount(buffer) == 3)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 160 && CVPixelBufferGetHeightOfPlane(buffer, 2) == 120)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) % 64 == 0)
        let frame = try #require(reference[millis(result.itemTimeForDisplay)])
        #expect(visibleChecksum(buffer) == frame.checksum())
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnInvalidArgument, "not locked")
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)
        player.pause()
    }

    @Test func thePullDelegateHearsOfNewFramesOncePerRequestAndOfFlushes() async throws {
        final class Delegate: NSObject, AVPlayerItemOutputPullDelegate, @unchecked Sendable {
            let changes = Locked(0), flushes = Locked(0)
            func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) { changes.withLock { $0 += 1 } }
            func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { flushes.withLock { $0 += 1 } }
        }
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let output = AVPlayerItemVideoOutput()
        let delegate = Delegate()
        output.setDelegate(delegate, queue: nil)
        #expect(output.delegate === delegate && output.delegateQueue == nil)
        item.add(output)
        output.requestNotificationOfMediaDataChange(withAdvanceInterval: 0.03)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.3)
        await waitUntil("told once") { delegate.changes.withLock { $0 } == 1 }
        await advance(clock, by: 0.3)
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(delegate.changes.withLock { $0 } == 1, "one call per request")
        output.requestNotificationOfMediaDataChange(withAdvanceInterval: 0.03)
        await advance(clock, by: 0.1)
        await waitUntil("told again") { delegate.changes.withLock { $0 } == 2 }
        #expect(delegate.flushes.withLock { $0 } == 0)
        _ = await player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        await waitUntil("flushed") { delegate.flushes.withLock { $0 } == 1 }
        player.pause()
    }

    @Test func sizeAttributesScaleAndDetachedOutputsGetNothing() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey: [kCVPixelFormatType_32RGBA],
            kCVPixelBufferWidthKey: 160, kCVPixelBufferHeightKey: 120,
        ])
        #expect(output.itemTime(forHostTime: CACurrentMediaTime()) == .invalid, "not attached")
        #expect(output.copyPixelBuffer(forItemTime: .zero, itemTimeForDisplay: nil) == nil)
        item.add(output)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("first frame") { output.hasNewPixelBuffer(forItemTime: .invalid) }
        let buffer = try #require(output.copyPixelBuffer(forItemTime: .invalid, itemTimeForDisplay: nil))
        #expect(CVPixelBufferGetWidth(buffer) == 160 && CVPixelBufferGetHeight(buffer) == 120)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32RGBA)
        item.remove(output)
        #expect(item.outputs.isEmpty)
        #expect(output.itemTime(forHostTime: CACurrentMediaTime()) == .invalid)
        #expect(engine(of: player)?.environment.videoSinks.all.count == 1, "only the recording sink is left")
    }
}
