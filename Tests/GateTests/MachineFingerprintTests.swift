import FoundationEssentials
import Gate
import Results
import RuntimeKit
import Testing

@Suite("machine fingerprint")
struct MachineFingerprintTests {
    func environment(usable: UsableCPUs?, swift: String = "Swift 6.3") -> RunEnvironment {
        var environment = try! JSONDecoder().decode(
            RunEnvironment.self,
            from: Data(
                """
                {"cpuModel": "Test CPU", "onlineCPUs": 2, "kernel": "Linux 6 x86_64", "virtualMachine": "no",
                 "cpuGovernor": "performance", "perfEventParanoid": "2", "swiftCompiler": "\(swift)",
                 "gitCommit": "test", "hostname": "test"}
                """.utf8))
        environment.usableCPUs = usable
        return environment
    }

    @Test(
        """
        runs pinned to different CPUs, or built by different toolchains, are different machines; \
        a field an old file lacks is not compared
        """)
    func fields() {
        let both = UsableCPUs(affinity: [0, 1], quota: nil), one = UsableCPUs(affinity: [0], quota: nil)
        let unpinned = MachineFingerprint(environment(usable: both))
        #expect(
            unpinned.differences(from: MachineFingerprint(environment(usable: one))) == "usable CPUs: CPUs 0-1 vs CPU 0"
        )
        #expect(
            unpinned.differences(from: MachineFingerprint(environment(usable: both, swift: "Swift 6.4 or later")))
                == "Swift: Swift 6.3 vs Swift 6.4 or later")
        #expect(
            unpinned.differences(from: MachineFingerprint(environment(usable: nil))) == nil,
            "an old file records no usable CPUs")
        #expect(unpinned == MachineFingerprint(environment(usable: both)))
    }
}
