// Playhead: the hand-over from the slice-threaded catch-up decoder to the frame-threaded one at
// an HEVC CRA picture (open GOPs), where a fresh decoder would drop the leading pictures.
//
// Concurrency: a value owned by its `VideoDecoder`, so by that decoder's decode thread only.
import OpenCoreMedia

/// At a CRA picture both decoders take every packet for a while. Pictures before the CRA in
/// display order (the previous GOP's tail and the CRA's leading pictures, which need that GOP)
/// come from the catch-up decoder, which has the references; the CRA and everything after it
/// come from the fresh frame-threaded decoder. The catch-up decoder is done as soon as it puts
/// out the CRA itself: display order puts every leading picture before it.
struct OpenGOPHandOver {
    /// The CRA's presentation time: the first picture taken from the frame-threaded decoder.
    let boundary: CMTime
    /// The catch-up decoder's pictures before `boundary`, in display order, not yet returned.
    private(set) var leading: [VideoFrame] = []
    /// The frame-threaded decoder's pictures from `boundary` on, held until `leading` is out.
    private(set) var trailing: [VideoFrame] = []
    /// True until the catch-up decoder has put out the CRA (or ended).
    private(set) var catchUpBusy = true
    /// True until the frame-threaded decoder has put out the CRA: before it, its pictures are
    /// leading pictures it could decode on its own (RADL), which the catch-up decoder supplies.
    private(set) var filtersMain = true

    /// More held pictures than an HEVC picture buffer can reorder (16) means the catch-up
    /// decoder will never put out the CRA (damaged data, missing times): stop waiting for it.
    static let maximumHeld = 16

    init(boundary: CMTime) { self.boundary = boundary }

    /// Sorts one catch-up picture: before the boundary it is kept, at or after it the
    /// catch-up decoder's part is over.
    mutating func takeFromCatchUp(_ frame: VideoFrame) {
        guard catchUpBusy else { return }
        if isBeforeBoundary(frame) {
            leading.append(frame)
            if leading.count > Self.maximumHeld { catchUpBusy = false }
        } else {
            catchUpBusy = false
        }
    }

    /// Sorts one picture of the frame-threaded decoder: those before the boundary are
    /// duplicates of catch-up pictures and are dropped.
    mutating func takeFromMain(_ frame: VideoFrame) {
        if filtersMain, isBeforeBoundary(frame) { return }
        filtersMain = false
        trailing.append(frame)
        if trailing.count > Self.maximumHeld { catchUpBusy = false }
    }

    /// Marks the catch-up decoder as finished (it ended or failed).
    mutating func endCatchUp() { catchUpBusy = false }

    /// The next picture in display order, or nil while the catch-up decoder may still add
    /// leading pictures (or there is none held).
    mutating func next() -> VideoFrame? {
        if !leading.isEmpty { return leading.removeFirst() }
        if catchUpBusy || trailing.isEmpty { return nil }
        return trailing.removeFirst()
    }

    /// True once every held picture is out and the catch-up decoder is done: from then on the
    /// frame-threaded decoder's pictures are returned directly (still filtered while
    /// `filtersMain`).
    var isDrained: Bool { !catchUpBusy && leading.isEmpty && trailing.isEmpty }

    private func isBeforeBoundary(_ frame: VideoFrame) -> Bool {
        // A picture without a time cannot be placed; treat it as leading (catch-up side).
        !frame.pts.isNumeric || frame.pts < boundary
    }
}
