// Playhead: the keys `playhead play` reads from a terminal, decoded from their bytes.
import Testing

@testable import PlayheadCLI

@Suite struct TerminalKeysTests {
    @Test func keysDecodeToTheirCommands() {
        let expected: [([UInt8], PlayerKey)] = [
            ([0x20], .togglePause), (Array("k".utf8), .togglePause), (Array("q".utf8), .quit), ([0x03], .quit),
            ([0x1B, 0x5B, 0x44], .seekBackward), (Array("j".utf8), .seekBackward),
            ([0x1B, 0x5B, 0x43], .seekForward), (Array("l".utf8), .seekForward),
            (Array("[".utf8), .slower), (Array("]".utf8), .faster), (Array("x".utf8), .other(UInt8(ascii: "x"))),
        ]
        for (bytes, key) in expected {
            #expect(PlayerKey.decode(bytes) == key, "\(bytes)")
        }
        #expect(PlayerKey.decode([0x1B, 0x5B, 0x41, 0x41]) == nil)
    }
}
