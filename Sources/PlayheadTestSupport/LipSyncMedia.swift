// Playhead: a clip for measuring lip-sync (a white frame and a beep at each whole second) and
// the arithmetic that finds the beeps in a recording.
//
// Concurrency: stateless; the clip is made under FixtureCache's per-file lock.
import Foundation

/// Media and measurements for audio/video sync tests.
public enum LipSyncMedia {
    /// `seconds` of black 64×64 video at 25 fps whose frame at each whole second is white,
    /// with a 1 kHz beep (48 kHz mono PCM) during the same 40 ms, in Matroska.
    public static func flashAndBeep(seconds: Int = 3) throws -> URL {
        try GeneratedMedia.url(
            named: "flash-beep-\(seconds)s", fileExtension: "mkv",
            ffmpeg: [
                "-f", "lavfi", "-i",
                "color=c=black:s=64x64:r=25:d=\(seconds),drawbox=c=white:t=fill:enable='lt(mod(t,1),0.04)'",
                // Computed sample by sample, so each beep starts exactly on its second (a
                // volume gate's `enable` would switch whole 1024-sample frames).
                "-f", "lavfi", "-i",
                "aevalsrc='if(lt(mod(t,1),0.04),0.5*sin(2*PI*1000*t),0)':s=48000:d=\(seconds)",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-ac", "1",
            ])
    }

    /// The sample indices where beeps start in `samples`: the first sample louder than
    /// `threshold` after at least `quiet` seconds below it.
    public static func beepOnsets(in samples: [Float], sampleRate: Int, threshold: Float = 0.05, quiet: Double = 0.3)
        -> [Int]
    {
        let quietSamples = Int(quiet * Double(sampleRate))
        var onsets: [Int] = []
        var lastLoud = -quietSamples
        for (index, sample) in samples.enumerated() where abs(sample) > threshold {
            if index - lastLoud >= quietSamples { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }
}
