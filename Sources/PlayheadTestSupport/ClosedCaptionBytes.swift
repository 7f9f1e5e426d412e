// Playhead: EIA-608 caption bytes written by hand for test fixtures: pop-on captions as byte
// pairs, as a Scenarist (.scc) file, and as ATSC A/53 caption data inserted into the SEI of
// an H.264 stream or the user data of an MPEG-2 video stream (FFmpeg 5.1 has no caption
// encoder, and its encoders only pass on captions decoded from an input that has them).
// Concurrency: pure functions over values.
import Foundation

/// A caption script: at each time, the EIA-608 byte pairs sent there (channel 1, field 1).
public struct ClosedCaptionScript: Sendable {
    /// One moment of the script: when, and the byte pairs (with parity) sent at once.
    public struct Cue: Sendable {
        /// Seconds from the start.
        public var seconds: Double
        /// The byte pairs sent at `seconds`, parity bits set.
        public var pairs: [(UInt8, UInt8)]
    }

    /// The moments, in time order.
    public var cues: [Cue]

    /// Each text shown as a pop-on caption on the bottom row from its start until its end.
    public init(popOn captions: [(text: String, start: Double, end: Double)]) {
        cues = captions.flatMap { caption in
            [
                Cue(seconds: caption.start, pairs: Self.popOn(caption.text)),
                Cue(seconds: caption.end, pairs: [Self.eraseDisplayed]),
            ]
        }.sorted { $0.seconds < $1.seconds }
    }

    /// Resume caption loading (pop-on), channel 1.
    static let resumeCaptionLoading: (UInt8, UInt8) = (0x94, 0x20)
    /// Erase non-displayed memory.
    static let eraseNonDisplayed: (UInt8, UInt8) = (0x94, 0xAE)
    /// Erase displayed memory (clears the screen).
    static let eraseDisplayed: (UInt8, UInt8) = (0x94, 0x2C)
    /// End of caption: swaps the loaded caption onto the screen.
    static let endOfCaption: (UInt8, UInt8) = (0x94, 0x2F)
    /// Preamble address code: row 15, column 0, white.
    static let bottomRow: (UInt8, UInt8) = (0x94, 0x70)
    /// Two null bytes with parity: what is sent when nothing is said.
    static let padding: (UInt8, UInt8) = (0x80, 0x80)

    /// The pairs that load `text` off screen and then show it.
    static func popOn(_ text: String) -> [(UInt8, UInt8)] {
        var characters = text.unicodeScalars.map { withParity(UInt8(truncatingIfNeeded: $0.value) & 0x7F) }
        if characters.count % 2 == 1 { characters.append(0x80) }
        let textPairs = stride(from: 0, to: characters.count, by: 2).map {
            (characters[$0], characters[$0 + 1])
        }
        return [resumeCaptionLoading, eraseNonDisplayed, bottomRow] + textPairs + [endOfCaption]
    }

    /// `byte` (7 bits) with its top bit set so the byte has an odd number of ones.
    static func withParity(_ byte: UInt8) -> UInt8 {
        byte.nonzeroBitCount % 2 == 0 ? byte | 0x80 : byte
    }

    /// The script as a Scenarist SCC file (30 fps non-drop time codes on whole frames).
    public var scc: String {
        var lines = ["Scenario_V1.0", ""]
        for cue in cues {
            let frames = Int((cue.seconds * 30).rounded())
            let code = String(
                format: "%02d:%02d:%02d:%02d", frames / 108_000, frames / 1800 % 60, frames / 30 % 60,
                frames % 30)
            let words = cue.pairs.map { String(format: "%02x%02x", $0.0, $0.1) }
            lines += [code + "\t" + words.joined(separator: " "), ""]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pairs of picture `index` at `fps` pictures a second: a cue's pairs on the picture
    /// at its time, padding on every other picture (as broadcast encoders send).
    func pairs(forPicture index: Int, fps: Double) -> [(UInt8, UInt8)] {
        let due = cues.filter { Int(($0.seconds * fps).rounded()) == index }.flatMap(\.pairs)
        return due.isEmpty ? [Self.padding] : due
    }

    /// ATSC A/53 cc_data for `pairs`: "GA94", type 3, the count, and one field-1 triplet each.
    static func a53Data(_ pairs: [(UInt8, UInt8)]) -> [UInt8] {
        precondition(pairs.count < 32, "cc_count has 5 bits")
        var bytes: [UInt8] = Array("GA94".utf8) + [0x03, 0xC0 | UInt8(pairs.count), 0xFF]
        for pair in pairs { bytes += [0xFC, pair.0, pair.1] }
        return bytes + [0xFF]
    }

    /// `h264` (Annex B, every access unit starting with an access unit delimiter, pictures in
    /// presentation order) with an SEI of the script's caption data after each delimiter.
    public func insertingSEI(into h264: [UInt8], fps: Double) -> [UInt8] {
        let units = Self.split(h264, atStartCodeFollowedBy: { $0 & 0x1F == 9 })
        var output: [UInt8] = []
        for (index, unit) in units.enumerated() {
            // The delimiter NAL is the start code and two bytes.
            output += unit.prefix(6)
            // user_data_registered_itu_t_t35: country 0xB5 (USA), provider 0x0031 (ATSC).
            let payload = [0xB5, 0x00, 0x31] + Self.a53Data(pairs(forPicture: index, fps: fps))
            let sei = [UInt8(4), UInt8(payload.count)] + payload + [0x80]
            output += [0, 0, 0, 1, 0x06] + Self.escaped(sei)
            output += unit.dropFirst(6)
        }
        return output
    }

    /// `mpeg2` (an elementary stream, pictures in presentation order) with the script's
    /// caption data as user data before the first slice of each picture.
    public func insertingUserData(into mpeg2: [UInt8], fps: Double) -> [UInt8] {
        let pieces = Self.split(mpeg2, atStartCodeFollowedBy: { $0 == 0x01 }, startCodeLength: 3)
        var output: [UInt8] = []
        var picture = 0
        for piece in pieces {
            // Each picture has one first slice (start code 1), after its picture headers.
            if piece.starts(with: [0, 0, 1, 1]) {
                output += [0, 0, 1, 0xB2] + Self.a53Data(pairs(forPicture: picture, fps: fps))
                picture += 1
            }
            output += piece
        }
        return output
    }

    /// `stream` cut before each start code (`00 00 00 01`, or `00 00 01` when
    /// `startCodeLength` is 3) whose next byte satisfies `isCut`; the first piece is what
    /// comes before the first such start code.
    static func split(
        _ stream: [UInt8], atStartCodeFollowedBy isCut: (UInt8) -> Bool, startCodeLength: Int = 4
    ) -> [[UInt8]] {
        var cuts: [Int] = []
        var index = 0
        while index + startCodeLength < stream.count {
            let isStart =
                stream[index] == 0 && stream[index + 1] == 0
                && (startCodeLength == 3
                    ? stream[index + 2] == 1 : stream[index + 2] == 0 && stream[index + 3] == 1)
            if isStart, isCut(stream[index + startCodeLength]) { cuts.append(index) }
            index += 1
        }
        var pieces: [[UInt8]] = []
        if let first = cuts.first, first > 0 { pieces.append(Array(stream[..<first])) }
        for (position, cut) in cuts.enumerated() {
            let end = position + 1 < cuts.count ? cuts[position + 1] : stream.count
            pieces.append(Array(stream[cut..<end]))
        }
        return pieces
    }

    /// `bytes` with H.264 emulation prevention: a 3 after two zeros when 0–3 follows.
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte <= 3 {
                output.append(3)
                zeros = 0
            }
            output.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return output
    }
}
