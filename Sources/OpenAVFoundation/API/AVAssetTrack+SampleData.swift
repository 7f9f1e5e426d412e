// Playhead: AVAssetTrack.totalSampleDataLength, measured once per asset.
//
// Concurrency: an asset's tracks share one `SampleDataTotals`, whose measured totals sit
// behind its lock. Measuring blocks its thread on I/O, so `load(.totalSampleDataLength)`
// measures on a background queue.
import FFmpegBridge
import Foundation

/// The bytes of each stream's samples of one asset, measured on first use and kept. Tracks
/// hold it strongly, so it outlives the asset (as Apple's tracks do).
final class SampleDataTotals: Sendable {
    private let location: MediaLocation?
    private let timeout: Double
    private let totals = Locked<[Int: Int64]?>(nil)

    init(inspection: AssetInspection) {
        location = try? inspection.location.get()
        timeout = inspection.limits.timeout
    }

    /// Bytes per stream index; empty when the media cannot be read.
    func measured() -> [Int: Int64] {
        if let known = totals.withLock({ $0 }) { return known }
        let result = location.flatMap { try? SampleDataMeasure.totals($0, timeout: timeout) } ?? [:]
        return totals.withLock { known in
            if known == nil { known = result }
            return known ?? result
        }
    }
}

extension AVAssetTrack {
    /// The total bytes of the track's samples. MP4 and QuickTime files give it from their index;
    /// other containers are read once through (no decoding) the first time any track of the
    /// asset is asked. The synchronous getter blocks while that happens: prefer
    /// `load(.totalSampleDataLength)`, which measures on a background queue. 0 when unknown.
    public var totalSampleDataLength: Int64 {
        sampleData?.measured()[streamIndex] ?? 0
    }
}

extension AVPartialAsyncProperty where Root: AVAssetTrack {
    /// The total bytes of the track's samples (measured on a background queue).
    public static var totalSampleDataLength: AVAsyncProperty<Root, Int64> {
        AVAsyncProperty(key: "totalSampleDataLength") { $0.totalSampleDataLength }
    }
}
