// Playhead: the surface that shows a player's video.
//
// Concurrency: thread-safe. Properties are behind `state`; the engine hands pictures to `slot`
// on its presentation thread; whoever draws the layer (a `PlayerWindow`'s loop) reads the slot
// on its own thread. `isReadyForDisplay` changes are published on the main queue.
import Dispatch
import FFmpegBridge
import Foundation
import OpenAVFoundation

/// Shows the video of an `AVPlayer`, fitted into its bounds according to `videoGravity`.
///
/// ```swift
/// let layer = AVPlayerLayer(player: player)
/// layer.videoGravity = .resizeAspectFill
/// let ready = layer.observe(\.isReadyForDisplay, options: [.new]) { layer, _ in
///     print("first picture ready:", layer.isReadyForDisplay)
/// }
/// ```
///
/// A `PlayerWindow` creates and draws one for its player.
///
/// - Note: Differs from AVFoundation: there is no Core Animation on Linux, so the layer is not a
///   `CALayer`; it has a `frame`, is drawn by OpenAVKit's window, and may be used from any
///   thread. The picture honours the video track's rotation and the stream's pixel aspect.
open class AVPlayerLayer: NSObject, _KeyValueObservable, @unchecked Sendable {
    private struct State {
        var player: AVPlayer?
        var gravity: AVLayerVideoGravity = .resizeAspect
        var frame: CGRect = .zero
        /// What observers were told (changed on the main queue only).
        var isReady = false
        /// Whether the slot held a picture at the latest news from the presentation side.
        var hasPicture = false
        /// The item whose rotation is cached, and that rotation in degrees.
        var rotationItem: ObjectIdentifier?
        var rotation = 0
        /// Runs after every new picture or clear (a window's wake-up).
        var pictureHook: (@Sendable () -> Void)?
    }

    /// Change bookkeeping for observers.
    nonisolated public let _kvoRegistry = _KeyValueObservingRegistry()
    /// protected by its mutex
    private let state = Locked(State())
    /// Where the engine puts pictures for this layer.
    let slot = FrameSlot()

    // MARK: - Creation

    /// A layer showing `player`'s video.
    public init(player: AVPlayer?) {
        super.init()
        let registry = WeakLayer(self)
        slot.setObserver { hasPicture in registry.pictureAvailabilityChanged(hasPicture) }
        self.player = player
    }

    /// A layer with no player.
    public convenience override init() { self.init(player: nil) }

    deinit {
        let player = state.withLock { $0.player }
        player?.removeVideoSink(slot)
    }

    // MARK: - Properties

    /// The player whose video shows. Setting it detaches the previous player.
    open var player: AVPlayer? {
        get { state.withLock { $0.player } }
        set {
            let old = state.withLock { state in
                defer { state.player = newValue }
                return state.player
            }
            guard old !== newValue else { return }
            old?.removeVideoSink(slot)
            // Detached, so a picture the old player's presentation thread was already handing
            // over (it calls sinks outside its list's lock) cannot show again after the clear.
            slot.detach()
            if let newValue {
                slot.attach()
                newValue.addVideoSink(slot)
            }
        }
    }

    /// How the picture fits the bounds. Default `.resizeAspect`.
    open var videoGravity: AVLayerVideoGravity {
        get { state.withLock { $0.gravity } }
        set { state.withLock { $0.gravity = newValue } }
    }

    /// The layer's rectangle in its window, in pixels.
    open var frame: CGRect {
        get { state.withLock { $0.frame } }
        set { state.withLock { $0.frame = newValue } }
    }

    /// The layer's own coordinate space: its size at the origin.
    open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }

    /// True once a picture of the current item can be shown. Observable.
    open var isReadyForDisplay: Bool {
        _kvoRegistry.access(\AVPlayerLayer.isReadyForDisplay, on: self)
        return state.withLock { $0.isReady }
    }

    /// Where the picture is drawn within `bounds` (larger than the bounds with
    /// `.resizeAspectFill`); `.zero` until a picture is available.
    open var videoRect: CGRect {
        guard let size = displaySize() else { return .zero }
        return VideoGeometry.videoRect(content: size, in: bounds, gravity: videoGravity)
    }

    // MARK: - Drawing support

    /// The current picture's display size (pixel aspect and rotation applied).
    func displaySize() -> CGSize? {
        guard let picture = slot.latest().picture else { return nil }
        return VideoGeometry.displaySize(
            width: picture.width, height: picture.height, sampleAspect: picture.sampleAspect,
            rotationDegrees: rotationDegrees())
    }

    /// The clockwise rotation of the current item's video track (0 until it is ready).
    func rotationDegrees() -> Int {
        let (player, cachedItem, cached) = state.withLock { ($0.player, $0.rotationItem, $0.rotation) }
        guard let item = player?.currentItem else { return 0 }
        let identity = ObjectIdentifier(item)
        if identity == cachedItem { return cached }
        guard item.status == .readyToPlay else { return 0 }
        let rotation = item.asset.tracks(withMediaType: .video).first?.rotationDegrees ?? 0
        state.withLock { state in
            state.rotationItem = identity
            state.rotation = rotation
        }
        return rotation
    }

    /// Sets what runs on the presentation thread after every new picture (or clear).
    func setPictureHook(_ hook: (@Sendable () -> Void)?) {
        state.withLock { $0.pictureHook = hook }
    }

    /// Wakes the drawer, and publishes `isReadyForDisplay` on the main queue when it changes.
    fileprivate func pictureAvailabilityChanged(_: Bool) {
        // What the slot holds now, not what the news said: news from two threads (a picture
        // handed over, a clear) can arrive in the other order than their changes were made.
        let (changed, hook) = state.withLock { state in
            let holdsPicture = slot.latest().picture != nil
            defer { state.hasPicture = holdsPicture }
            return (state.hasPicture != holdsPicture, state.pictureHook)
        }
        hook?()
        guard changed else { return }
        // The main queue publishes what the slot holds when the hop runs, whatever order the
        // hops and their news ran in: a picture's news that arrives after the clear that
        // detached its player (the presentation thread calls out after leaving the slot's
        // lock) cannot leave the layer ready with no picture.
        DispatchQueue.main.async { [self] in
            let wanted = slot.latest().picture != nil
            guard state.withLock({ $0.isReady != wanted }) else { return }
            _kvoRegistry.withMutation(\AVPlayerLayer.isReadyForDisplay, on: self) {
                state.withLock { $0.isReady = wanted }
            }
        }
    }
}

/// Lets the frame slot reach its layer without keeping it alive.
private final class WeakLayer: Sendable {
    private let layer: Locked<Weak>
    private struct Weak: @unchecked Sendable { weak var value: AVPlayerLayer? }

    init(_ layer: AVPlayerLayer) { self.layer = Locked(Weak(value: layer)) }

    func pictureAvailabilityChanged(_ hasPicture: Bool) {
        let target = layer.withLock { $0.value }
        target?.pictureAvailabilityChanged(hasPicture)
    }
}
