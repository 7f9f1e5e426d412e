// Playhead: whether this machine's processors can be taken away from it for a while: a
// hypervisor that has stolen time from its virtual CPUs, or a control group's CPU quota. On
// such a machine every thread, real-time ones included, can stop for up to a quota period
// (100 ms by default) when the cores are busy; a sound server's stream needs more audio queued
// there than on a desktop.
//
// Concurrency: `likely` is computed once, on first use, from files that do not change under
// us; any thread may read it.
import Foundation

/// What this machine says about its processors being taken away.
enum ProcessorStalls {
    /// True when a hypervisor has taken time from this machine's CPUs since boot (the steal
    /// column of `/proc/stat`), or the process's control group or one above it has a CPU
    /// quota (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us`).
    static let likely: Bool = hasStolenTime(procStat: contents("/proc/stat")) || hasQuota

    /// Whether the `cpu` line of `/proc/stat` text counts stolen time (its eighth value).
    static func hasStolenTime(procStat: String?) -> Bool {
        guard let line = procStat?.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return false }
        let values = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        return values.count > 7 && values[7] > 0
    }

    /// Whether a CPU quota applies to the process's control group or one it is inside (a
    /// systemd slice, a container's or a Kubernetes pod's group), up to the root.
    private static var hasQuota: Bool {
        groups(procSelfCgroup: contents("/proc/self/cgroup")).contains { group in
            let base = group == "/" ? "" : group
            if let max = contents("/sys/fs/cgroup\(base)/cpu.max"), quotaIsSet(cgroup2: max) { return true }
            if let quota = contents("/sys/fs/cgroup/cpu\(base)/cpu.cfs_quota_us"), quotaIsSet(cgroup1: quota) { return true }
            return false
        }
    }

    /// The control groups whose CPU quota bounds the process, from `/proc/self/cgroup` text:
    /// the root, and each CPU group the process is in with every group above it.
    static func groups(procSelfCgroup text: String?) -> [String] {
        var groups = ["/"]
        for line in (text ?? "").split(separator: "\n") {
            // v2: "0::/path"; v1: "N:cpu,cpuacct:/path"
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].isEmpty || fields[1].split(separator: ",").contains("cpu") else { continue }
            var path = ""
            for part in fields[2].split(separator: "/") {
                path += "/" + part
                if !groups.contains(path) { groups.append(path) }
            }
        }
        return groups
    }

    /// Whether cgroup v2 `cpu.max` text ("max 100000" or "150000 100000") sets a quota.
    static func quotaIsSet(cgroup2 text: String) -> Bool {
        guard let quota = text.split(separator: " ").first else { return false }
        return quota != "max" && Int(quota.trimmingCharacters(in: .whitespacesAndNewlines)) != nil
    }

    /// Whether cgroup v1 `cpu.cfs_quota_us` text ("-1" when none) sets a quota.
    static func quotaIsSet(cgroup1 text: String) -> Bool {
        (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1) > 0
    }

    private static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
