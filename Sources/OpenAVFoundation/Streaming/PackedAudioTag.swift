// Playhead: the ID3 tag that leads each segment of HLS packed audio (raw AAC, MP3, AC-3
// segments), whose frames are a stream's timed metadata: the song a radio station is playing
// (TIT2, TPE1), artwork, its own PRIV frames. The tag's timestamp frame
// (`com.apple.streaming.transportStreamTimestamp`) is packaging, not metadata, and is left out
// (it places the audio: PackedAudioTiming.swift); the items are timed by the segment's place
// on the playlist. The loader keeps a tag when it
// says something new (a station repeats the song's tag on every segment), and the engine's
// demux thread takes them into the item's timed metadata (`takeTimedMetadata()`).
//
// Concurrency: `items` is a pure function; `State.noteTag` runs under the loader's
// `condition`, `takeTimedMetadata` takes it.
import Foundation

enum PackedAudioTag {
    /// The owner of the PRIV frame that carries a packed-audio segment's timestamp.
    static let timestampOwner = "com.apple.streaming.transportStreamTimestamp"

    /// The frames of the ID3 tag `data` begins with, timed at `start` seconds, but its
    /// timestamp frame; empty when it begins with none.
    static func items(leading data: Data, at start: Double) -> [AVMetadataItem] {
        guard let length = ID3TagReader.tagLength([UInt8](data.prefix(10))) else { return [] }
        let tag = [UInt8](data.prefix(length))
        return ID3TagReader.items(tag, time: CMTime(seconds: start, preferredTimescale: 90_000)).filter { item in
            guard item.key.map({ String(describing: $0) }) == "PRIV", let bytes = item.dataValue else { return true }
            return !bytes.starts(with: Array(timestampOwner.utf8))
        }
    }
}

extension HLSStreamLoader.State {
    /// Keeps `items` (a segment's tag, at `start` seconds) when they say something other than
    /// the last tag kept.
    mutating func noteTag(_ items: [AVMetadataItem], at start: Double) {
        guard !items.isEmpty else { return }
        let said = items.map { item in
            "\(item.key.map { String(describing: $0) } ?? "")=\(item.stringValue ?? item.value.map { String(describing: $0) } ?? "")"
        }
        guard said != lastTag else { return }
        lastTag = said
        tags.append((items, start))
    }
}

extension HLSStreamLoader {
    /// The packed-audio tags fetched since the last call, each with the item time it applies
    /// from. Any thread.
    func takeTimedMetadata() -> [(items: [AVMetadataItem], time: CMTime)] {
        condition.lock()
        defer { condition.unlock() }
        let taken = state.tags.map { ($0.items, CMTime(seconds: $0.start, preferredTimescale: 90_000)) }
        state.tags = []
        return taken
    }
}
