import Results
import Testing

@Suite("thread counts as parameters spell them")
struct ThreadCountTests {
    @Test("a count and a multiple of the CPUs read back as they were written")
    func roundTrip() {
        for text in ["1", "4", "1024", "2xcpus", "1xcpus"] {
            #expect(ThreadCount(text)?.description == text)
        }
    }

    @Test("a multiple of the CPUs resolves against the machine's CPUs; a count does not")
    func resolution() {
        #expect(ThreadCount("2xcpus")?.resolved(cpus: 3) == 6)
        #expect(ThreadCount("4")?.resolved(cpus: 3) == 4)
    }

    @Test("anything else is not a thread count")
    func rejects() {
        for text in ["", "0", "-2", "xcpus", "0xcpus", "2xcpu", "two", "2 xcpus"] {
            #expect(ThreadCount(text) == nil, "\(text)")
        }
    }
}
