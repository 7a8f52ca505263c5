@testable import Reports
import Testing

/// The comparison's text form in a 100-column CI log.
@Suite("comparison text in a CI log")
struct ComparisonTextTests {
    @Test("a case id too long for the line breaks after a comma or slash and continues under itself")
    func longCaseID() {
        let id = "queue-vs-lock/libdispatch/guard=queue-sync,threads=1,resource=counter,critical=0ns,outside=0ns/system"
        let indent = String(repeating: " ", count: 11)
        let lines = ComparisonReport.caseLines("undecided  ", id, indent: indent)
        #expect(
            lines == [
                "undecided  queue-vs-lock/libdispatch/guard=queue-sync,threads=1,resource=counter,critical=0ns,",
                indent + "outside=0ns/system",
            ])
        #expect(lines.allSatisfy { $0.count <= ComparisonReport.logWidth })
        #expect(
            ComparisonReport.caseLines("no change  ", "spin/none/rounds=0/system", indent: indent) == [
                "no change  spin/none/rounds=0/system"
            ])
    }

    @Test("a reason wraps at word boundaries under its indent; a word longer than a line stays whole")
    func wrapping() {
        let text = Array(repeating: "word", count: 40).joined(separator: " ")
        let lines = ComparisonReport.wrap(text, indent: "    ")
        #expect(
            lines.count > 1 && lines.allSatisfy { $0.count <= ComparisonReport.logWidth && $0.hasPrefix("    word") })
        let long = String(repeating: "x", count: 150)
        #expect(ComparisonReport.wrap("a " + long, indent: "") == ["a", long])
    }
}
