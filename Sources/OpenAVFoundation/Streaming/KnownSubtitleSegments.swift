// Playhead: the segments of a subtitle rendition that come with its manifest rather than from
// a playlist of their own (DASH text AdaptationSets), for `HLSSubtitleReader`.
//
// Concurrency: values; the live case's closure is called on the reader's thread.
import Foundation

/// A subtitle rendition's segments known without a playlist to fetch (a DASH text set).
enum KnownSubtitleSegments: Sendable {
    /// Listed by the manifest.
    case listed(HLSMediaPlaylist)
    /// One file indexed by its `sidx` box (`SegmentBase`), read when the rendition is chosen.
    case indexed(DASHManifest.IndexedFile)
    /// A live manifest's: `playlist` as the manifest stood at the open, then `read` from each
    /// reload of the manifest at `manifest` (its bytes and URL).
    case live(HLSMediaPlaylist, manifest: URL, read: @Sendable (Data, URL) -> HLSMediaPlaylist?)
}
