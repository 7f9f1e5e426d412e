// Playhead: an audio output that consumes audio as fast as it is produced (untimed runs).
//
// Concurrency: one consumer thread owns the render scratch buffer and calls the source; `lock`
// guards the running flag and thread hand-over. `stop()` waits until the thread is parked.
import Foundation

/// Pulls audio with no regard for real time, so untimed playback (benchmarks, `--untimed`)
/// decodes and "plays" audio as fast as the engine produces it.
package final class UntimedAudioOutput: AudioOutput, @unchecked Sendable {
    package let name = "untimed"
    package var outputLatency: Double { 0 }
    private let condition = NSCondition()
    /// protected by condition
    private var source: (any AudioRenderSource)?
    /// protected by condition
    private var format = AudioOutputFormat(sampleRate: 48_000, channelCount: 2)
    /// protected by condition
    private var running = false
    /// protected by condition
    private var rendering = false
    /// protected by condition
    private var closed = false
    /// protected by condition
    private var threadStarted = false

    /// An output that is not yet open.
    package init() {}

    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        condition.lock()
        defer { condition.unlock() }
        self.source = source
        self.format = format
        if !threadStarted {
            threadStarted = true
            NamedThread.start("drain") { [self] in run() }
        }
        return format
    }

    package func start() {
        condition.lock()
        running = true
        condition.broadcast()
        condition.unlock()
    }

    package func stop() {
        condition.lock()
        running = false
        while rendering { condition.wait() }
        condition.unlock()
    }

    package func close() {
        stop()
        condition.lock()
        closed = true
        source = nil
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        var scratch: [Float] = []
        var hostTime = 0.0
        while true {
            condition.lock()
            while !running && !closed { condition.wait() }
            if closed { condition.unlock(); return }
            guard let source else { condition.unlock(); return }
            let format = self.format
            rendering = true
            condition.unlock()

            let frames = 1024
            if scratch.count != frames * format.channelCount {
                scratch = [Float](repeating: 0, count: frames * format.channelCount)
            }
            let buffered = (source as? AudioRingBuffer)?.bufferedFrames ?? frames
            if buffered > 0 {
                scratch.withUnsafeMutableBufferPointer { source.render(into: $0, hostTime: hostTime) }
                hostTime += Double(frames) / Double(format.sampleRate)
            }

            condition.lock()
            rendering = false
            condition.broadcast()
            condition.unlock()
            if buffered == 0 { usleep(500) }
        }
    }
}
