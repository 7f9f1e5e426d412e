// Playhead: tests for WindowFit, the size a player window opens at.
import Foundation
import Testing

@testable import OpenAVKit

@Suite struct WindowFitTests {
    private func fit(_ width: Double, _ height: Double, on usable: (Double, Double)?) -> CGSize {
        WindowFit.size(
            for: CGSize(width: width, height: height), usable: usable.map { CGSize(width: $0.0, height: $0.1) })
    }

    @Test func aVideoAsLargeAsTheScreenOpensAtNinetyPercentWithItsAspect() {
        #expect(fit(1280, 720, on: (1280, 720)) == CGSize(width: 1152, height: 648))
        #expect(fit(1280, 720, on: (1280, 800)) == CGSize(width: 1152, height: 648))
        #expect(fit(1920, 1080, on: (1366, 700)) == CGSize(width: 1120, height: 630))
    }

    @Test func aLargeScreenStillCapsTheWindowAt1280By720() {
        #expect(fit(1920, 1080, on: (2560, 1440)) == CGSize(width: 1280, height: 720))
        #expect(fit(3840, 2160, on: nil) == CGSize(width: 1280, height: 720))
    }

    @Test func aSmallVideoIsShownAt640WideWhereItFits() {
        #expect(fit(320, 240, on: (1920, 1080)) == CGSize(width: 640, height: 480))
        // A small screen: as large as 90 % of it allows.
        #expect(fit(320, 240, on: (600, 400)) == CGSize(width: 480, height: 360))
    }

    @Test func aVideoWithNoSizeGetsTheDefault() {
        #expect(fit(0, 0, on: (1280, 800)) == CGSize(width: 1280, height: 720))
    }
}
