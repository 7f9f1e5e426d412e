// Playhead: a client written the way open-source iOS/macOS video players with their own renderer
// are (a Metal or OpenGL view fed by AVPlayerItemVideoOutput on a display-link tick, a muted
// looping video through AVQueuePlayer and AVPlayerLooper, video geometry read with the async
// load(_:) API, frame stepping for an editor's jog control), ported as docs/porting.md says:
// only the import changes. The texture upload is left out (no Metal on Linux): the renderer
// hands the locked planes to a sink. It must type-check with no errors in the Swift 5 and
// Swift 6 language modes (scripts/check-ported-clients.sh, run by `make test`).
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// One plane of a locked pixel buffer, as a texture cache would take it.
struct VideoPlane {
    let base: UnsafeMutableRawPointer
    let bytesPerRow, width, height: Int
}

/// What the Metal view does with a frame (uploads it and draws it).
protocol VideoFrameSink: AnyObject {
    func draw(_ planes: [VideoPlane], isYCbCr: Bool, uses709: Bool, itemTime: CMTime)
}

/// Pulls frames from the current item on a display-link-like tick, as custom renderers do. Its
/// state is touched on its render queue only (the pull delegate's queue too).
final class PixelBufferRenderer: NSObject, AVPlayerItemOutputPullDelegate, @unchecked Sendable {
    static let advanceInterval: TimeInterval = 0.03
    let output: AVPlayerItemVideoOutput
    weak var sink: VideoFrameSink?
    private let renderQueue = DispatchQueue(label: "pixel-buffer-renderer")
    private let frameInterval: Double
    private var timer: DispatchSourceTimer?
    private var lastFrameHostTime: CFTimeInterval = 0
    private(set) var framesDrawn = 0

    init(wantsYCbCr: Bool, framesPerSecond: Double = 60) {
        frameInterval = 1 / framesPerSecond
        // Bi-planar full-range 4:2:0 for a shader that converts itself, BGRA otherwise; both
        // IOSurface-backed and Metal-compatible so CVMetalTextureCache can wrap them.
        output = AVPlayerItemVideoOutput(pixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: wantsYCbCr
                ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_32BGRA,
            kCVPixelBufferMetalCompatibilityKey as String: true,
            kCVPixelBufferIOSurfacePropertiesKey as String: [String: String](),
        ])
        super.init()
        output.setDelegate(self, queue: renderQueue)
    }

    func attach(to item: AVPlayerItem) {
        if !item.outputs.contains(where: { $0 === output }) { item.add(output) }
        renderQueue.async { self.startTicking() }
    }

    func detach(from item: AVPlayerItem) { item.remove(output) }

    private func startTicking() {
        guard timer == nil else { return }
        lastFrameHostTime = CACurrentMediaTime()
        let source = DispatchSource.makeTimerSource(queue: renderQueue)
        source.schedule(deadline: .now(), repeating: frameInterval)
        source.setEventHandler { [weak self] in self?.tick() }
        source.resume()
        timer = source
    }

    private func stopTicking() { timer?.cancel(); timer = nil }

    private func tick() {
        let hostTime = CACurrentMediaTime()
        // The item time that will be on screen at the next vsync.
        let itemTime = output.itemTime(forHostTime: hostTime + frameInterval)
        if itemTime.isValid, output.hasNewPixelBuffer(forItemTime: itemTime) {
            var displayTime = CMTime.invalid
            if let buffer = output.copyPixelBuffer(forItemTime: itemTime, itemTimeForDisplay: &displayTime) {
                draw(buffer, itemTime: displayTime)
                lastFrameHostTime = hostTime
            }
        } else if hostTime - lastFrameHostTime > 0.5 {
            // Paused or ended: stop ticking until the output says frames are coming again.
            stopTicking()
            output.requestNotificationOfMediaDataChange(withAdvanceInterval: Self.advanceInterval)
        }
    }

    private func draw(_ buffer: CVPixelBuffer, itemTime: CMTime) {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        var planes: [VideoPlane] = []
        if CVPixelBufferIsPlanar(buffer) {
            for index in 0..<CVPixelBufferGetPlaneCount(buffer) {
                guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, index) else { continue }
                let bytesPerRow = CVPixelBufferGetBytesPerRowOfPlane(buffer, index)
                let (width, height) = (CVPixelBufferGetWidthOfPlane(buffer, index), CVPixelBufferGetHeightOfPlane(buffer, index))
                planes.append(VideoPlane(base: base, bytesPerRow: bytesPerRow, width: width, height: height))
            }
        } else if let base = CVPixelBufferGetBaseAddress(buffer) {
            let (width, height) = (CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer))
            planes.append(VideoPlane(base: base, bytesPerRow: CVPixelBufferGetBytesPerRow(buffer), width: width, height: height))
        }
        let isYCbCr = CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        // The shader's YCbCr matrix comes from the buffer's attachment, as in Apple's samples.
        let matrix = CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String
        let older = CVBufferGetAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil)?.takeUnretainedValue() as? String
        let uses709 = (matrix ?? older) == (kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
        sink?.draw(planes, isYCbCr: isYCbCr, uses709: uses709, itemTime: itemTime)
        framesDrawn += 1
    }

    // MARK: AVPlayerItemOutputPullDelegate (on the render queue)

    func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) { startTicking() }

    /// A seek flushed the frames: give the new position time before going idle.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { lastFrameHostTime = CACurrentMediaTime() }
}

/// The view model of a looping background video (or an editor's preview) drawn by the renderer.
@MainActor
final class LoopingVideoViewModel {
    let player = AVQueuePlayer()
    let renderer: PixelBufferRenderer
    private var looper: AVPlayerLooper?
    private var observations: [NSKeyValueObservation] = []
    private(set) var displaySize: CGSize = .zero
    private(set) var nominalFrameRate: Float = 0
    private(set) var showsHDR = false
    private(set) var isWaiting = false
    private(set) var loopsPlayed = 0
    private(set) var statusText = ""

    init(sink: VideoFrameSink) {
        renderer = PixelBufferRenderer(wantsYCbCr: true)
        renderer.sink = sink
        player.isMuted = true
        player.preventsDisplaySleepDuringVideoPlayback = true
    }

    /// Loads the video's geometry, then loops `loopRange` (all of it when nil).
    func load(_ url: URL, loopRange: CMTimeRange? = nil) async throws {
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        guard let track = try await asset.loadTracks(withMediaType: .video).first else {
            return statusText = "no video among \(tracks.count) tracks"
        }
        let (naturalSize, transform, frameRate) = try await track.load(
            .naturalSize, .preferredTransform, .nominalFrameRate)
        let characteristics = try await track.load(.mediaCharacteristics)
        let oriented = naturalSize.applying(transform)
        displaySize = CGSize(width: abs(oriented.width), height: abs(oriented.height))
        nominalFrameRate = frameRate
        showsHDR = characteristics.contains(.containsHDRVideo) && AVPlayer.eligibleForHDRPlayback

        let template = AVPlayerItem(asset: asset, automaticallyLoadedAssetKeys: [.duration, .tracks, .isPlayable])
        template.preferredForwardBufferDuration = 2
        let range = loopRange ?? CMTimeRange(start: .zero, duration: duration)
        looper = AVPlayerLooper(player: player, templateItem: template, timeRange: range)
        observe()
        player.play()
    }

    private func observe() {
        guard let looper else { return }
        observations = [
            // The looper swaps replicas in: the output follows the item on screen.
            player.observe(\.currentItem, options: [.initial, .old, .new]) { [weak self] _, change in
                if let old = change.oldValue ?? nil { self?.renderer.detach(from: old) }
                if let new = change.newValue ?? nil { self?.renderer.attach(to: new) }
            },
            looper.observe(\.loopCount, options: [.new]) { [weak self] looper, _ in
                self?.loopsPlayed = looper.loopCount
            },
            looper.observe(\.status, options: [.new]) { [weak self] looper, _ in
                if looper.status == .failed { self?.statusText = looper.error?.localizedDescription ?? "cannot loop" }
            },
            player.observe(\.timeControlStatus, options: [.new, .initial]) { [weak self] player, _ in
                self?.isWaiting = player.timeControlStatus == .waitingToPlayAtSpecifiedRate
            },
            player.observe(\.reasonForWaitingToPlay, options: [.new]) { [weak self] _, change in
                guard let reason = change.newValue ?? nil else { return }
                switch reason {
                case .toMinimizeStalls: self?.statusText = "buffering"
                case .evaluatingBufferingRate: self?.statusText = "measuring the network"
                case .noItemToPlay: self?.statusText = "nothing to play"
                default: self?.statusText = reason.rawValue
                }
            },
            player.observe(\.currentItem?.presentationSize, options: [.new]) { [weak self] _, change in
                if let size = change.newValue ?? nil, size != .zero { self?.displaySize = size }
            },
        ]
    }

    /// The jog control: one frame at a time, paused.
    func step(forward: Bool) {
        guard let item = player.currentItem, forward ? item.canStepForward : item.canStepBackward else { return }
        player.pause()
        item.step(byCount: forward ? 1 : -1)
    }

    func resume() { player.playImmediately(atRate: 1) }

    func stop() {
        looper?.disableLooping()
        looper = nil
        observations.removeAll()  // releasing the tokens ends the observations
        if let item = player.currentItem { renderer.detach(from: item) }
        player.removeAllItems()
    }
}
