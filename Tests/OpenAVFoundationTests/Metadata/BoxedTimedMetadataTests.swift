// Playhead: MP4/QuickTime timed metadata tracks ('mebx'): their samples read into items, the
// track as an asset track, and the groups delivered to a metadata output as playback
// reaches them.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@Suite struct BoxedMetadataReadingTests {
    private let keys: [UInt32: BoxedMetadataKey] = Dictionary(
        uniqueKeysWithValues: TimedMetadataMedia.boxedKeys.map { key in
            (
                key.localID,
                BoxedMetadataKey(
                    localID: key.localID, namespace: "mdta", keyValue: Array(key.name.utf8), dataTypeNamespace: 0,
                    dataType: BoxedMetadataBytes.be32(key.wellKnownType))
            )
        })

    @Test func aSampleBecomesQuickTimeMetadataItems() throws {
        let sample = TimedMetadataMedia.boxedSamples[1]
        let time = CMTime(value: 1, timescale: 1), duration = CMTime(value: 1, timescale: 1)
        let items = BoxedMetadataReader.items(
            TimedMetadataMedia.boxedSampleBytes(sample), keys: keys, time: time, duration: duration)
        #expect(items.map(\.identifier) == [
            .quickTimeMetadataTitle, .quickTimeMetadataLocationISO6709, .quickTimeMetadataDirectionFacing,
        ])
        #expect(items.allSatisfy { $0.keySpace == .quickTimeMetadata && $0.time == time && $0.duration == duration })
        #expect(items.map { ($0.key as? NSString).map(String.init) } == TimedMetadataMedia.boxedKeys.map(\.name))
        #expect(items.map(\.commonKey) == [.commonKeyTitle, .commonKeyLocation, nil])
        try #require(items.count == 3)
        #expect(items[0].stringValue == "Bridge" && items[1].stringValue == sample.location)
        #expect((items[2].value as? NSNumber)?.floatValue == 180.5)
        #expect(items.map(\.dataType) == [
            "com.apple.metadata.datatype.UTF-8", "com.apple.metadata.datatype.UTF-8",
            "com.apple.metadata.datatype.float32",
        ])
    }

    @Test func valuesInDataBoxesAndOfEveryNumberTypeAreRead() throws {
        let bytes = BoxedMetadataBytes.sample([
            (1, BoxedMetadataBytes.dataBox(wellKnownType: 21, [0xFF, 0xFE])),  // int16 -2
            (2, BoxedMetadataBytes.dataBox(wellKnownType: 1, Array("in a data box".utf8))),
            (3, BoxedMetadataBytes.dataBox(wellKnownType: 24, Array(withUnsafeBytes(of: (2.5).bitPattern.bigEndian, Array.init)))),
            (99, Array("undeclared".utf8)),
        ])
        let items = BoxedMetadataReader.items(bytes, keys: keys)
        try #require(items.count == 3)
        #expect((items[0].value as? NSNumber)?.intValue == -2 && items[0].dataType == "com.apple.metadata.datatype.int16")
        #expect(items[1].stringValue == "in a data box")
        #expect((items[2].value as? NSNumber)?.doubleValue == 2.5)
        let cases: [(UInt32, [UInt8], String, Int64)] = [
            (21, [0x80], "int8", -128), (21, [0xFF, 0xFF, 0xFE], "int32", -2), (67, [0, 0, 1, 0], "int32", 256),
            (22, [0xFF, 0xFF], "uint16", 65535), (78, [0, 0, 0, 0, 0, 0, 0, 7], "uint64", 7),
        ]
        for (type, value, name, expected) in cases {
            let (number, dataType) = BoxedMetadataReader.value(value[...], wellKnownType: type)
            #expect((number as? NSNumber)?.int64Value == expected && dataType == "com.apple.metadata.datatype." + name)
        }
        // A float of the wrong size, and an unknown type, stay bytes.
        #expect(BoxedMetadataReader.value([1, 2][...], wellKnownType: 23).1 == "com.apple.metadata.datatype.raw-data")
        #expect(BoxedMetadataReader.value([1][...], wellKnownType: 9999).0 is NSData)
    }

    @Test func garbageAndTruncatedSamplesGiveWhatIsWholeAndNeverCrash() {
        let sample = TimedMetadataMedia.boxedSampleBytes(TimedMetadataMedia.boxedSamples[0])
        for length in 0...sample.count {
            let items = BoxedMetadataReader.items(Array(sample.prefix(length)), keys: keys)
            #expect(items.count <= 3)
            #expect(items.first.map { $0.stringValue == "Harbour" } ?? true)
        }
        var state: UInt64 = 14
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
            } else {
                bytes = sample
                for _ in 0..<(1 + Int(next() % 4)) { bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next()) }
            }
            // Local IDs 1…3 are declared: make noise hit them often.
            if bytes.count >= 8, round % 3 == 0 { bytes[4...7] = [0, 0, 0, UInt8(1 + next() % 3)] }
            _ = BoxedMetadataReader.items(bytes, keys: keys).map { ($0.stringValue, $0.numberValue, $0.dataValue) }
        }
    }

    @Test func theTrackIsABoxedMetadataTrackAndTheAssetMetadataIsUnchanged() async throws {
        let asset = AVURLAsset(url: try TimedMetadataMedia.quickTimeMovie())
        let tracks = try await asset.load(.tracks)
        #expect(tracks.map(\.mediaType) == [.video, .metadata])
        try #require(tracks.count >= 2)
        let format = try #require(try await tracks[1].load(.formatDescriptions).first)
        #expect(format.mediaType == .metadata && format.mediaSubType.rawValue == kCMMetadataFormatType_Boxed)
        #expect(tracks[1].trackID == 2)
        // Timed values are no asset metadata: the container's tags stay as they were.
        #expect(asset.availableMetadataFormats == [.iTunesMetadata])
        #expect(asset.metadata(forFormat: .quickTimeMetadata).isEmpty)
        #expect(!asset.metadata.contains { $0.keySpace == .quickTimeMetadata })
    }
}

@MainActor
@Suite(.serialized) struct BoxedMetadataDeliveryTests {
    @Test func eachSampleArrivesAsAGroupWhenPlaybackReachesIt() async throws {
        let item = AVPlayerItem(url: try TimedMetadataMedia.quickTimeMovie())
        let clock = ManualClock()
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        let box = UncheckedBox(player)
        let recorder = MetadataRecorder { box.value.currentTime().seconds }
        let groups = Locked<[AVTimedMetadataGroup]>([])
        let collector = GroupCollector(groups)
        let output = AVPlayerItemMetadataOutput(identifiers: nil)
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        let everything = AVPlayerItemMetadataOutput(identifiers: nil)
        everything.setDelegate(collector, queue: nil)
        item.add(everything)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }

        let samples = TimedMetadataMedia.boxedSamples
        for (index, sample) in samples.enumerated() {
            for _ in 0..<3_000 where player.currentTime().seconds < sample.seconds + 0.01 {
                await advance(clock, by: 0.01)
            }
            await waitUntil("group \(index + 1)") { recorder.events.count >= index + 1 }
        }
        #expect(recorder.events == samples.map(\.title))
        for (delivery, sample) in zip(recorder.deliveries, samples) {
            #expect(delivery.starts == [sample.seconds])
            #expect(delivery.itemTime >= sample.seconds - 0.001 && delivery.itemTime < sample.seconds + 0.05)
            #expect(delivery.fromTrack && delivery.onMain)
        }
        let received = groups.withLock { $0 }
        #expect(received.map(\.timeRange.duration.seconds) == [1, 1, 1])
        for (group, sample) in zip(received, samples) {
            let location = AVMetadataItem.metadataItems(
                from: group.items, filteredByIdentifier: .quickTimeMetadataLocationISO6709)
            #expect(location.first?.stringValue == sample.location)
            let facing = group.items.first { $0.identifier == .quickTimeMetadataDirectionFacing }
            #expect((facing?.value as? NSNumber)?.floatValue == sample.facing)
        }
        #expect(item.timedMetadata?.first?.stringValue == "Tower")
        player.replaceCurrentItem(with: nil)
    }
}

/// Keeps every group a metadata output delivers.
private final class GroupCollector: AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
    private let groups: Locked<[AVTimedMetadataGroup]>
    init(_ groups: Locked<[AVTimedMetadataGroup]>) { self.groups = groups }

    func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?
    ) {
        self.groups.withLock { $0 += groups }
    }
}
