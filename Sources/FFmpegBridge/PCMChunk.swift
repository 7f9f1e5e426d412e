// Playhead: a block of converted audio ready for an output device, with its media time.
import OpenCoreMedia

// Concurrency: a plain value; it crosses from the audio conversion thread to the audio
// output's ring buffer freely.

/// Interleaved Float32 samples at the output rate, stamped on the item's original timeline.
package struct PCMChunk: Sendable, Equatable {
    /// Interleaved samples: `frameCount × channels` values.
    package var samples: [Float]
    /// Sample frames (samples per channel).
    package var frameCount: Int
    /// Channels per sample frame.
    package var channels: Int
    /// Sample frames per second.
    package var sampleRate: Int
    /// The item time of the first sample, on the original timeline even when the tempo is
    /// not 1 (so it can drive the master clock directly).
    package var mediaTime: CMTime
    /// The item time the chunk covers: `frameCount / sampleRate × tempo`.
    package var mediaDuration: CMTime

    /// Creates a chunk.
    package init(
        samples: [Float], frameCount: Int, channels: Int, sampleRate: Int, mediaTime: CMTime,
        mediaDuration: CMTime
    ) {
        self.samples = samples
        self.frameCount = frameCount
        self.channels = channels
        self.sampleRate = sampleRate
        self.mediaTime = mediaTime
        self.mediaDuration = mediaDuration
    }

    /// How long the chunk plays on the output device: `frameCount / sampleRate`.
    package var playbackDuration: CMTime {
        CMTime(value: Int64(frameCount), timescale: Int32(sampleRate))
    }
}
