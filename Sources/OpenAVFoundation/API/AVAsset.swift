// Playhead: a piece of timed media (a file or stream) and what is known about it.
import FFmpegBridge
import Foundation

/// Timed media at a URL: its duration, tracks and metadata, loaded in the background.
///
/// Create assets with `AVURLAsset(url:)`. Properties load on demand: prefer
/// `try await asset.load(.duration, .tracks)` or `loadValuesAsynchronously(forKeys:)`;
/// the synchronous getters (`duration`, `tracks`, ...) block until loading finishes, as
/// Apple's deprecated ones do, so never use them on the main queue.
///
/// - Important: Thread-safe. Loading runs on a background queue and never blocks callers of
///   the asynchronous APIs.
open class AVAsset: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    let inspection: AssetInspection
    let sourceURL: URL
    /// owned by the lock: public objects made once from a successful inspection
    private let built = Locked<AssetContents?>(nil)
    /// The bytes of samples per stream, shared with the tracks (`totalSampleDataLength`).
    let sampleDataTotals: SampleDataTotals

    /// The keys the string-based loading API understands.
    static let loadableKeys: Set<String> = [
        "duration", "tracks", "playable", "isPlayable", "hasProtectedContent", "commonMetadata",
        "metadata", "preferredTransform", "preferredRate", "preferredVolume",
        "providesPreciseDurationAndTiming", "containerFormat", "availableChapterLocales",
        "availableMediaCharacteristicsWithMediaSelectionOptions", "availableMetadataFormats",
        "allMediaSelections", "variants",
    ]
    /// Where subtitle files beside the media are looked for (see SidecarSubtitles).
    let sidecarSettings: SidecarSubtitleSettings

    init(
        url: URL, limits: MediaInspector.Limits, network: NetworkOptions = NetworkOptions(),
        sidecars: SidecarSubtitleSettings = SidecarSubtitleSettings()
    ) {
        sourceURL = url
        sidecarSettings = sidecars
        inspection = AssetInspection(url: url, limits: limits, network: network)
        sampleDataTotals = SampleDataTotals(inspection: inspection)
        super.init()
    }

    /// An asset named `url` whose media comes from `location` (an internal input).
    init(url: URL, location: MediaLocation) {
        sourceURL = url
        sidecarSettings = SidecarSubtitleSettings(discoversBesideMedia: false)
        inspection = AssetInspection(location: location, limits: MediaInspector.Limits())
        sampleDataTotals = SampleDataTotals(inspection: inspection)
        super.init()
    }

    /// An asset for the media at `url`.
    ///
    /// - Note: Deprecated on Apple platforms in favour of `AVURLAsset(url:)`, which it equals.
    public convenience init(url URL: URL) {
        self.init(url: URL, limits: MediaInspector.Limits())
    }

    // MARK: - AVAsynchronousKeyValueLoading

    open func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard Self.loadableKeys.contains(key) else {
            outError?.pointee = AVError(
                .unknown, description: "AVAsset has no loadable property '\(key)'"
            ).nsError
            return .failed
        }
        guard inspection.wasRequested(key) else { return .unknown }
        switch inspection.result {
        case nil: return .loading
        case .success: return .loaded
        case .failure(.cancelled): return .cancelled
        // DRM-protected media: that it is protected and not playable here is known.
        case .failure(.protectedContent) where Self.knownWhenProtected.contains(key): return .loaded
        case .failure(let failure):
            outError?.pointee = failure.nsError(input: inputDescription)
            return .failed
        }
    }

    open func loadValuesAsynchronously(
        forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil
    ) {
        inspection.load(keys: keys, completion: handler)
    }

    /// Cancels loading; keys not yet loaded report `.cancelled`.
    open func cancelLoading() { inspection.cancel() }

    // MARK: - Loaded values

    /// The loaded contents, blocking until loading finishes (for synchronous getters).
    func contentsWaiting(for key: String) -> AssetContents? {
        switch inspection.waitForResult(key: key) {
        case .success(let description): return contents(for: description)
        case .failure: return nil
        }
    }

    /// The loaded contents, or the loading error (for `AVAsyncProperty` readers).
    func loadedContents() throws -> AssetContents {
        switch inspection.result {
        case .success(let description)?: return contents(for: description)
        case .failure(let failure)?: throw failure.nsError(input: inputDescription)
        case nil: throw AVError(.unknown, description: "asset is not loaded yet").nsError
        }
    }

    private func contents(for description: MediaDescription) -> AssetContents {
        built.withLock { cached in
            if let cached { return cached }
            let contents = AssetContents(description: description, asset: self)
            cached = contents
            return contents
        }
    }

    /// The input as people name it: the path for files, the URL otherwise.
    var inputDescription: String { sourceURL.isFileURL ? sourceURL.path : sourceURL.absoluteString }

    // MARK: - Synchronous getters

    /// The asset's duration; `.indefinite` when unknown (live streams), `.invalid` when the
    /// asset failed to load. Blocks until loaded.
    open var duration: CMTime {
        contentsWaiting(for: "duration").map { $0.duration } ?? .invalid
    }

    /// Every track. Blocks until loaded; empty when loading failed.
    open var tracks: [AVAssetTrack] { contentsWaiting(for: "tracks")?.tracks ?? [] }

    /// The tracks of `mediaType`. Blocks until loaded.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with `trackID`, if any. Blocks until loaded.
    open func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// The tracks of `mediaType`, loading them first.
    open func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        try await load(.tracks).filter { $0.mediaType == mediaType }
    }

    /// The tracks that have `mediaCharacteristic` (`.audible`, `.visual`, `.legible`, ...),
    /// loading tracks first.
    open func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVAssetTrack] {
        try await load(.tracks).filter { $0.hasMediaCharacteristic(mediaCharacteristic) }
    }

    /// The track with `trackID`, loading tracks first.
    open func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        try await load(.tracks).first { $0.trackID == trackID }
    }

    /// True when some audio or video track can be decoded. Blocks until loaded.
    open var isPlayable: Bool { contentsWaiting(for: "playable")?.isPlayable ?? false }

    /// The keys that load for DRM-protected media whose opening failed: it has protected
    /// content and is not playable (Playhead has no DRM system).
    static let knownWhenProtected: Set<String> = ["hasProtectedContent", "playable", "isPlayable"]

    /// True when some track is encrypted, or the stream's keys come from a DRM system (its
    /// loading then fails with `AVError.contentIsProtected`). Blocks until loaded.
    open var hasProtectedContent: Bool {
        switch inspection.waitForResult(key: "hasProtectedContent") {
        case .success(let description): return contents(for: description).hasProtectedContent
        case .failure(let failure): return failure == .protectedContent
        }
    }

    /// Metadata with common keys (title, artist, album, artwork, ...). Blocks until loaded.
    open var commonMetadata: [AVMetadataItem] {
        contentsWaiting(for: "commonMetadata")?.commonMetadata ?? []
    }

    /// Every metadata tag of the container. Blocks until loaded.
    open var metadata: [AVMetadataItem] { contentsWaiting(for: "metadata")?.metadata ?? [] }

    /// The movie-level transform; identity (track transforms live on the tracks).
    open var preferredTransform: CGAffineTransform { .identity }
    /// The natural playback rate: 1.
    open var preferredRate: Float { 1 }
    /// The natural volume: 1.
    open var preferredVolume: Float { 1 }

    /// False when the duration was estimated from the bit rate (raw MP3 or AAC without an
    /// index), true when the container states it. Blocks until loaded.
    open var providesPreciseDurationAndTiming: Bool {
        contentsWaiting(for: "providesPreciseDurationAndTiming")?.providesPreciseDurationAndTiming
            ?? false
    }
}
