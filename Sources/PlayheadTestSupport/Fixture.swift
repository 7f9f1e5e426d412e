// Playhead: the catalogue of generated test media, one case per container and codec mix.
import Foundation

/// A short media file made on demand by the `ffmpeg` tool and cached on disk.
///
/// Every file lasts about two seconds. Video is the `testsrc2` pattern (320x240 at 25 fps unless
/// noted) and audio is a sine tone. Ask for a file with ``url(_:)``; the first request on a
/// machine runs ffmpeg, later ones (from any thread or process) reuse the cached file.
public enum Fixture: String, CaseIterable, Sendable {
    // MARK: - Video with audio
    /// MP4: H.264 + stereo AAC, with a `title` tag.
    case mp4
    /// QuickTime MOV: H.264 + AAC.
    case mov
    /// M4V: H.264 + AAC.
    case m4v
    /// 3GP: H.263 at 176x144 + mono 8 kHz AAC.
    case threeGP
    /// 3G2: H.263 at 176x144 + mono 8 kHz AAC.
    case threeG2
    /// Matroska: H.264, two AAC tracks (English, French) and an English SubRip subtitle track.
    case matroska
    /// WebM: VP9 + Opus.
    case webM
    /// AVI: MPEG-4 Part 2 + MP3.
    case avi
    /// FLV: Sorenson Spark (flv1) + MP3.
    case flv
    /// MPEG program stream (`.mpg`): MPEG-2 video + MP2.
    case mpegProgramStream
    /// DVD VOB: MPEG-2 video + AC-3.
    case vob
    /// MPEG transport stream (`.ts`): H.264 + AAC.
    case mpegTransportStream
    /// Ogg: Theora + Vorbis.
    case oggTheora
    /// ASF (`.wmv`): Windows Media Video 8 (wmv2) + Windows Media Audio 2.
    case windowsMedia
    /// RealMedia: RealVideo 2.0 + RealAudio 1.0 (14.4K, mono 8 kHz).
    case realMedia
    /// NUT: MPEG-4 Part 2 + 16-bit PCM.
    case nut
    /// MXF: MPEG-2 video + 16-bit PCM at 48 kHz.
    case mxf

    // MARK: - Single-kind and special files
    /// MP4 with H.264 video and no audio track.
    case videoOnlyMP4
    /// M4A: AAC audio only, with a `title` tag.
    case audioOnlyM4A
    /// MP4 (remuxed from ``mp4``) whose video carries a 90° display matrix, with a `title` tag.
    case rotatedMP4
    /// MP4 (remuxed from ``mp4``) whose video sample entry is renamed to the unregistered code
    /// `plhd`, so the video codec is unknown and has no decoder; the AAC audio still decodes.
    case undecodableVideoMP4

    // MARK: - Audio only
    /// MP3 with a PNG cover (an attached picture) and title, artist and album tags.
    case mp3WithCoverArt
    /// Raw AAC in ADTS framing (`.aac`).
    case aacADTS
    /// Raw AC-3 (`.ac3`), 48 kHz.
    case ac3
    /// AIFF: big-endian 16-bit PCM.
    case aiff
    /// Opus in Ogg (`.opus`), 48 kHz.
    case oggOpus
    /// WAV: little-endian 16-bit PCM.
    case wav
    /// WavPack (`.wv`).
    case wavPack
    /// FLAC.
    case flac
    /// Core Audio Format: Apple Lossless (ALAC).
    case caf

    /// Returns the fixture's file, generating it first if this machine has no cached copy.
    ///
    /// Safe to call from many tests at once: concurrent callers wait for a single ffmpeg run.
    /// - Throws: ``TestSupportError`` if ffmpeg is missing or fails.
    public static func url(_ fixture: Fixture) throws -> URL {
        try fixture.url()
    }

    /// Returns this fixture's file; see ``url(_:)``.
    public func url() throws -> URL {
        let recipe = self.recipe
        let name = "\(rawValue)-\(StableHash.hex(recipe.signature)).\(recipe.fileExtension)"
        return try FixtureCache.file(named: name) { try recipe.generate(to: $0) }
    }

    /// The file name extension, without the dot (`mp4`, `mkv`, ...).
    public var fileExtension: String { recipe.fileExtension }

    /// The nominal length in seconds; containers may report a few tens of milliseconds more.
    public var nominalDuration: Double { 2 }
}
