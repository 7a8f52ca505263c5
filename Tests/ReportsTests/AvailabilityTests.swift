import FoundationEssentials
import Results
import Testing

@Suite("counter availability in results files")
struct AvailabilityTests {
    @Test("written and read as the text files have always held: \"available\" or \"unavailable: REASON\"")
    func fileForm() throws {
        let written: [String: Availability] = ["task-clock": .available, "cycles": .unavailable(reason: "no PMU: ENOENT")]
        let text = String(decoding: try JSONEncoder().encode(written), as: UTF8.self)
        #expect(text.contains("\"available\"") && text.contains("\"unavailable: no PMU: ENOENT\""), "\(text)")
        let older = #"{"task-clock": "available", "cycles": "unavailable: no PMU: ENOENT"}"#
        #expect(try JSONDecoder().decode([String: Availability].self, from: Data(older.utf8)) == written)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: Availability].self, from: Data(#"{"x": "maybe"}"#.utf8)) }
    }
}
