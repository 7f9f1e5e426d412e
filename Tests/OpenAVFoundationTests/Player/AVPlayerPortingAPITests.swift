// Playhead: the members ported wrappers reach for that need no engine work: the rate-change
// notification and its reason, external playback (absent on Linux), metadata formats, and the
// deprecated per-item selected option.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records `AVPlayer.rateDidChangeNotification`s: the rate as the handler reads it, and the reason.
final class RateChangeLog: @unchecked Sendable {
    private let entries = Locked<[(rate: Float, reason: AVPlayer.RateDidChangeReason?)]>([])
    private var token: (any NSObjectProtocol)?

    init(_ player: AVPlayer) {
        let entries = self.entries
        token = NotificationCenter.default.addObserver(
            forName: AVPlayer.rateDidChangeNotification, object: player, queue: nil
        ) { note in
            let player = note.object as? AVPlayer
            let reason = note.userInfo?[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason
            entries.withLock { $0.append((player?.rate ?? -1, reason)) }
        }
    }

    var rates: [Float] { entries.withLock { $0.map(\.rate) } }
    var reasons: [AVPlayer.RateDidChangeReason?] { entries.withLock { $0.map(\.reason) } }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }
}

@MainActor
@Suite struct AVPlayerPortingAPITests {
    @Test func everyRateChangeIsPostedOnceWithItsReasonOnTheMainQueue() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        let log = RateChangeLog(player)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        player.play()  // no change: no post
        player.rate = 1.5
        player.pause()
        player.playImmediately(atRate: 2)
        await waitUntil("four changes") { log.rates.count >= 4 }
        await mainQueueSleep(nanoseconds: 50_000_000)
        // Under `swift test` the main queue is drained off the main thread, so posts go out
        // from the ordered background queue and a handler reads the rate a moment later; in
        // order and once per change all the same.
        #expect(log.rates.count == 4)
        #expect(log.reasons == [.setRateCalled, .setRateCalled, .setRateCalled, .setRateCalled])
        #expect(log.rates.last == 2)
        player.replaceCurrentItem(with: nil)
    }

    @Test func defaultRateIsWhatPlayUses() async throws {
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: nil)
        let log = RateChangeLog(player)
        player.defaultRate = 1.25
        player.play()
        await waitUntil("the rate change") { log.rates.count == 1 }
        #expect(player.rate == 1.25)
        #expect(log.rates == [1.25])
    }

    @Test func externalPlaybackDoesNotExistOnLinux() {
        let player = AVPlayer()
        #expect(!player.allowsExternalPlayback)
        player.allowsExternalPlayback = true
        player.usesExternalPlaybackWhileExternalScreenIsActive = true
        #expect(!player.allowsExternalPlayback, "accepted, but there is no route to allow")
        #expect(!player.usesExternalPlaybackWhileExternalScreenIsActive)
        #expect(!player.isExternalPlaybackActive)
    }

    @Test(arguments: [
        (Fixture.mp3WithCoverArt, AVMetadataFormat.id3Metadata),
        (Fixture.mp4, AVMetadataFormat.iTunesMetadata),
        (Fixture.matroska, AVMetadataFormat.playheadContainer),
    ])
    func metadataComesInTheContainersFormat(_ fixture: Fixture, _ format: AVMetadataFormat) async throws {
        let asset = AVURLAsset(url: try fixture.url())
        let (formats, all) = try await asset.load(.availableMetadataFormats, .metadata)
        #expect(!all.isEmpty, "\(fixture) has tags")
        #expect(formats == [format])
        let inFormat = try await asset.loadMetadata(for: format)
        #expect(inFormat.map(\.identifier) == all.map(\.identifier))
        #expect(asset.metadata(forFormat: format).count == all.count)
        #expect(asset.metadata(forFormat: .quickTimeMetadata).isEmpty)
        #expect(asset.availableMetadataFormats == [format])
    }

    @Test func theDeprecatedSelectedOptionFollowsTheCurrentSelection() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.twoLanguagesAudio.url())
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        try #require(group.options.count >= 2)
        let item = AVPlayerItem(asset: asset)
        item.select(group.options[1], in: group)
        #expect(item.selectedMediaOption(in: group) == group.options[1])
        #expect(item.selectedMediaOption(in: group) == item.currentMediaSelection.selectedMediaOption(in: group))
    }
}

extension AVPlayerPortingAPITests {
    @Test func aVideoTracksShortestFrameIsOneFrameAtItsRate() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        let tracks = try await asset.load(.tracks)
        let video = try #require(tracks.first { $0.mediaType == .video })
        let (rate, frame) = try await video.load(.nominalFrameRate, .minFrameDuration)
        #expect(rate > 0)
        #expect(frame.timescale == 90_000)
        #expect(abs(frame.seconds * Double(rate) - 1) < 1e-4, "\(frame) at \(rate) fps")
        let audio = try #require(tracks.first { $0.mediaType == .audio })
        #expect(!audio.minFrameDuration.isValid)
    }

    @Test func theLegibleOutputKeepsItsTextStylingResolution() {
        let output = AVPlayerItemLegibleOutput()
        #expect(output.textStylingResolution == .default)
        output.textStylingResolution = .sourceAndRulesOnly
        #expect(output.textStylingResolution == .sourceAndRulesOnly)
    }

    /// Compile-time: each new symbol has Apple's signature.
    @Test func signaturesMatchApples() {
        let _: NSNotification.Name = AVPlayer.rateDidChangeNotification
        let _: String = AVPlayer.rateDidChangeReasonKey
        let _: String = AVPlayer.rateDidChangeOriginatingParticipantKey
        let _: [AVPlayer.RateDidChangeReason] = [.setRateCalled, .setRateFailed, .audioSessionInterrupted, .appBackgrounded]
        let _: KeyPath<AVPlayer, Bool> = \.isExternalPlaybackActive
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \.allowsExternalPlayback
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \.usesExternalPlaybackWhileExternalScreenIsActive
        let _: (AVAsset) -> (AVMetadataFormat) -> [AVMetadataItem] = AVAsset.metadata(forFormat:)
        let _: KeyPath<AVAsset, [AVMetadataFormat]> = \.availableMetadataFormats
        let _: AVAsyncProperty<AVAsset, [AVMetadataFormat]> = .availableMetadataFormats
        let _: [AVMetadataFormat] = [.id3Metadata, .iTunesMetadata, .quickTimeMetadata, .quickTimeUserData, .isoUserData, .hlsMetadata]
        let _: (AVPlayerItem) -> (AVMediaSelectionGroup) -> AVMediaSelectionOption? = AVPlayerItem.selectedMediaOption(in:)
        let _: KeyPath<AVAssetTrack, CMTime> = \.minFrameDuration
        let _: (AVPlayerItem) -> (Int) -> Void = AVPlayerItem.step(byCount:)
        let _: (AVPlayerItem) -> () -> Date? = AVPlayerItem.currentDate
        let _: (AVPlayerItem) -> (Date, (@Sendable (Bool) -> Void)?) -> Bool = AVPlayerItem.seek(to:completionHandler:)
        let _: KeyPath<AVPlayerItem, Bool> = \.canStepForward
        let _: KeyPath<AVPlayerItem, Bool> = \.canStepBackward
        let _: KeyPath<AVPlayerItem, Bool> = \.canPlayReverse
        let _: ReferenceWritableKeyPath<AVPlayer, String?> = \.audioOutputDeviceUniqueID
        let _: KeyPath<AVPlayerItem, Bool> = \.canPlayFastReverse
        let _: KeyPath<AVPlayerItem, Bool> = \.canPlaySlowReverse
        let _: ReferenceWritableKeyPath<AVPlayerItem, CMTime> = \.reversePlaybackEndTime
        let _: ReferenceWritableKeyPath<AVPlayerItemLegibleOutput, AVPlayerItemLegibleOutput.TextStylingResolution> =
            \.textStylingResolution
        let _: (AVPlayer) -> (Float, (@Sendable (Bool) -> Void)?) -> Void = AVPlayer.preroll(atRate:completionHandler:)
        let _: (AVPlayer) -> () -> Void = AVPlayer.cancelPendingPrerolls
        let _: (AVPlayer) -> (Float, CMTime, CMTime) -> Void = AVPlayer.setRate(_:time:atHostTime:)
        let _: (AVPlayer) -> (AVPlayerMediaSelectionCriteria?, AVMediaCharacteristic) -> Void =
            AVPlayer.setMediaSelectionCriteria(_:forMediaCharacteristic:)
        let _: (AVPlayer) -> (AVMediaCharacteristic) -> AVPlayerMediaSelectionCriteria? =
            AVPlayer.mediaSelectionCriteria(forMediaCharacteristic:)
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \.appliesMediaSelectionCriteriaAutomatically
        let _: AVPlayerMediaSelectionCriteria = AVPlayerMediaSelectionCriteria(
            preferredLanguages: ["en"], preferredMediaCharacteristics: [.legible])
        let _: KeyPath<AVAsset, [AVMediaSelection]> = \.allMediaSelections
        let _: AVAsyncProperty<AVAsset, [AVMediaSelection]> = .allMediaSelections
        let _: KeyPath<AVAssetTrack, [Any]> = \.formatDescriptions
        let _: AVAsyncProperty<AVAssetTrack, [CMFormatDescription]> = .formatDescriptions
        let _: KeyPath<AVAssetTrack, [AVAssetTrackSegment]> = \.segments
        let _: AVAsyncProperty<AVAssetTrack, [AVAssetTrackSegment]> = .segments
        let _: KeyPath<AVAssetTrackSegment, CMTimeMapping> = \.timeMapping
        let _: KeyPath<AVAssetTrackSegment, Bool> = \.isEmpty
        let _: KeyPath<AVAssetTrack, Int64> = \.totalSampleDataLength
        let _: AVAsyncProperty<AVAssetTrack, Int64> = .totalSampleDataLength
        let _: (CMFormatDescription) -> CMMediaType = CMFormatDescriptionGetMediaType
        let _: (CMFormatDescription) -> FourCharCode = CMFormatDescriptionGetMediaSubType
        let _: (CMVideoFormatDescription) -> CMVideoDimensions = CMVideoFormatDescriptionGetDimensions
        let _: (CMAudioFormatDescription) -> UnsafePointer<AudioStreamBasicDescription>? =
            CMAudioFormatDescriptionGetStreamBasicDescription
        let _: KeyPath<CMFormatDescription, CMFormatDescription.MediaSubType> = \.mediaSubType
        let _: KeyPath<CMFormatDescription, AudioStreamBasicDescription?> = \.audioStreamBasicDescription
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, (any NSCopying & NSObjectProtocol)?> = \.value
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, AVMetadataIdentifier?> = \.identifier
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, String?> = \.extendedLanguageTag
        let _: ReferenceWritableKeyPath<AVMutableMetadataItem, Date?> = \.startDate
        let _: AVMutableMetadataItem = AVMutableMetadataItem()
        let _: KeyPath<AVPlayerItem, CMTimebase?> = \.timebase
        let _: (CMTimebase) -> CMTime = CMTimebaseGetTime
        let _: (CMTimebase) -> Float64 = CMTimebaseGetRate
        let _: (CMTimebase, Float64) -> OSStatus = CMTimebaseSetRate(_:rate:)
        let _: (CMTimebase, CMTime) -> OSStatus = CMTimebaseSetTime(_:time:)
        let _: NSNotification.Name = CMTimebase.effectiveRateChanged
        let _: NSNotification.Name = CMTimebase.timeJumped
        let _: () -> CMClock = CMClockGetHostTimeClock
        let _: (CMClock) throws -> CMTimebase = CMTimebase.init(sourceClock:)
        let _: (String?) -> AVPlayerItemMetadataOutput = { AVPlayerItemMetadataOutput(identifiers: $0.map { [$0] }) }
        let _: (AVPlayerItemMetadataOutput) -> ((any AVPlayerItemMetadataOutputPushDelegate)?, DispatchQueue?) -> Void =
            AVPlayerItemMetadataOutput.setDelegate(_:queue:)
        let _: KeyPath<AVPlayerItem, [AVMetadataItem]?> = \.timedMetadata
        let _: [AVMetadataKeySpace] = [.id3, .icy]
        let _: [AVMetadataIdentifier] = [.id3MetadataTitleDescription, .icyMetadataStreamTitle]
        let _: ([String: Any]) -> AVTextStyleRule? = AVTextStyleRule.init(textMarkupAttributes:)
        let _: ([String: Any], String?) -> AVTextStyleRule? = AVTextStyleRule.init(textMarkupAttributes:textSelector:)
        let _: AVTextStyleRule? = AVTextStyleRule(textMarkupAttributes: [:], textSelector: nil)
        let _: KeyPath<AVTextStyleRule, [String: Any]> = \.textMarkupAttributes
        let _: KeyPath<AVTextStyleRule, String?> = \.textSelector
        let _: ([AVTextStyleRule]) -> Any = AVTextStyleRule.propertyList(for:)
        let _: (Any) -> [AVTextStyleRule]? = AVTextStyleRule.textStyleRules(fromPropertyList:)
        let _: ReferenceWritableKeyPath<AVPlayerItem, [AVTextStyleRule]?> = \.textStyleRules
        let _: [String] = [
            kCMTextMarkupAttribute_BackgroundColorARGB, kCMTextMarkupAttribute_CharacterBackgroundColorARGB,
            kCMTextMarkupAttribute_FontFamilyName, kCMTextMarkupAttribute_FontFamilyNameList,
            kCMTextMarkupAttribute_GenericFontFamilyName,
            kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight, kCMTextMarkupAttribute_RelativeFontSize,
            kCMTextMarkupAttribute_VerticalLayout, kCMTextMarkupAttribute_Alignment,
            kCMTextMarkupAttribute_TextPositionPercentageRelativeToWritingDirection,
            kCMTextMarkupAttribute_OrthogonalLinePositionPercentageRelativeToWritingDirection,
            kCMTextMarkupAttribute_WritingDirectionSizePercentage, kCMTextMarkupAttribute_CharacterEdgeStyle,
            kCMTextMarkupCharacterEdgeStyle_None, kCMTextMarkupCharacterEdgeStyle_Raised,
            kCMTextMarkupCharacterEdgeStyle_Depressed, kCMTextMarkupCharacterEdgeStyle_Uniform,
            kCMTextMarkupCharacterEdgeStyle_DropShadow, kCMTextMarkupGenericFontName_Default,
            kCMTextMarkupGenericFontName_Serif, kCMTextMarkupGenericFontName_SansSerif,
            kCMTextMarkupGenericFontName_Monospace, kCMTextMarkupGenericFontName_ProportionalSerif,
            kCMTextMarkupGenericFontName_ProportionalSansSerif, kCMTextMarkupGenericFontName_MonospaceSerif,
            kCMTextMarkupGenericFontName_MonospaceSansSerif, kCMTextMarkupGenericFontName_Casual,
            kCMTextMarkupGenericFontName_Cursive, kCMTextMarkupGenericFontName_Fantasy,
            kCMTextMarkupGenericFontName_SmallCapital, kCMTextMarkupAlignmentType_Start,
            kCMTextMarkupAlignmentType_Middle, kCMTextMarkupAlignmentType_End, kCMTextMarkupAlignmentType_Left,
            kCMTextMarkupAlignmentType_Right, kCMTextVerticalLayout_LeftToRight, kCMTextVerticalLayout_RightToLeft,
        ]
        #expect(AVMetadataFormat.id3Metadata.rawValue == "org.id3")
        #expect(AVPlayer.RateDidChangeReason.setRateCalled.rawValue == "AVPlayerRateDidChangeReasonSetRateCalled")
    }
}
