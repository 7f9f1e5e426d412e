// Playhead: the queue a sound server's stream asks for: the machine facts it goes by (stolen
// CPU time, a CPU quota on the process's group or one above it) read from /proc and cgroup text, and the PLAYHEAD_AUDIO_BUFFER choice.
import Testing

@testable import OpenAVKit

@Suite struct SoundServerBufferTests {
    @Test func stolenTimeIsTheEighthValueOfTheCPULine() {
        let stolen = "cpu  3768704 3446 396281 4394067 20724 0 4247 14896 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
        let none = "cpu  3768704 3446 396281 4394067 20724 0 4247 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
        #expect(ProcessorStalls.hasStolenTime(procStat: stolen))
        #expect(!ProcessorStalls.hasStolenTime(procStat: none))
        #expect(!ProcessorStalls.hasStolenTime(procStat: "cpu  1 2 3\n"))
        #expect(!ProcessorStalls.hasStolenTime(procStat: nil))
    }

    @Test func aQuotaIsANumberInCpuMaxOrAPositiveCFSQuota() {
        #expect(ProcessorStalls.quotaIsSet(cgroup2: "150000 100000\n"))
        #expect(!ProcessorStalls.quotaIsSet(cgroup2: "max 100000\n"))
        #expect(!ProcessorStalls.quotaIsSet(cgroup2: ""))
        #expect(ProcessorStalls.quotaIsSet(cgroup1: "50000\n"))
        #expect(!ProcessorStalls.quotaIsSet(cgroup1: "-1\n"))
    }

    @Test func theQuotasReadAreTheRootsAndEveryGroupAboveTheProcess() {
        // cgroup v2: a pod's container inside its slice.
        let pod = "0::/kubepods.slice/pod-7.slice/cri-3.scope\n"
        #expect(ProcessorStalls.groups(procSelfCgroup: pod) == [
            "/", "/kubepods.slice", "/kubepods.slice/pod-7.slice", "/kubepods.slice/pod-7.slice/cri-3.scope",
        ])
        // cgroup v1: only the cpu controller's line counts.
        let v1 = "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/init.scope\n"
        #expect(ProcessorStalls.groups(procSelfCgroup: v1) == ["/", "/docker", "/docker/abc"])
        #expect(ProcessorStalls.groups(procSelfCgroup: "0::/\n") == ["/"])
        #expect(ProcessorStalls.groups(procSelfCgroup: nil) == ["/"])
    }

    @Test func theChosenBufferIsSecondsFromTwoHundredthsToFourHundredFiftyThousandths() {
        #expect(PulseAudioOutput.chosenBuffer("0.1") == 0.1)
        #expect(PulseAudioOutput.chosenBuffer("0.45") == 0.45)
        #expect(PulseAudioOutput.chosenBuffer("0.01") == nil)
        #expect(PulseAudioOutput.chosenBuffer("0.5") == nil)
        #expect(PulseAudioOutput.chosenBuffer("fast") == nil)
        #expect(PulseAudioOutput.chosenBuffer(nil) == nil)
    }
}
