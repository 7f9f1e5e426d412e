// Playhead: how early the presentation thread hands frames to a sink that takes time to show
// them, as the sink's measured delay changes.
import Testing

@testable import OpenAVFoundation

@Suite struct DisplayLeadTests {
    @Test func aLongerDelayIsTakenAStepPerFrameShown() {
        var lead = DisplayLead()
        lead.follow(0.045)
        #expect(lead.seconds == 0, "nothing moves before a frame is shown")
        var leads: [Double] = []
        for _ in 0..<30 {
            lead.follow(0.045)
            lead.notePresented()
            leads.append(lead.seconds)
        }
        let steps = zip(leads, [0] + leads).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 <= DisplayLead.stepPerFrame + 1e-12 }, "never more than a step per frame")
        #expect(steps.allSatisfy { $0 >= 0 })
        #expect(abs(leads[22] - 0.045) < 1e-12, "the whole delay after 23 frames")
        #expect(abs(leads[21] - 0.044) < 1e-12)
    }

    @Test func aShorterDelayAppliesAtOnce() {
        var lead = DisplayLead()
        for _ in 0..<20 {
            lead.follow(0.03)
            lead.notePresented()
        }
        #expect(abs(lead.seconds - 0.03) < 1e-12)
        lead.follow(0.01)
        #expect(lead.seconds == 0.01, "frames wait longer at once: nothing is dropped by that")
        lead.follow(-1)
        #expect(lead.seconds == 0, "a nonsense reading counts as no delay")
    }

    @Test func aStepIsASmallPartOfAFrameEvenAt120FramesASecond() {
        #expect(DisplayLead.stepPerFrame * 4 < 1.0 / 120)
    }
}
