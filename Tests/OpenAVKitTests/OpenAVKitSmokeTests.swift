// Playhead: OpenAVKit's audio device choice, checked without a sound card.
import Foundation
import Testing

@testable import OpenAVKit

@Suite struct OpenAVKitSmokeTests {
    @Test func namedDriverCountsAsAPossibleDevice() async {
        // `make test` sets SDL_AUDIODRIVER=dummy, which SDL always honours.
        if ProcessInfo.processInfo.environment["SDL_AUDIODRIVER"] != nil {
            #expect(SystemAudio.deviceMayExist)
        }
    }
}
