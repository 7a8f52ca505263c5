import FoundationEssentials
import Results
import Testing

@Suite("counter availability in results files")
struct AvailabilityTests {
    @Test("written and read as the text files have always held: \"available\" or \"unavailable: REASON\"")
    func fileForm() throws {
        let written: [String: Availability] = [
            "task-clock": .available, "cycles": .unavailable(reason: "no PMU: ENOENT"),
        ]
        let text = String(decoding: try JSONEncoder().encode(written), as: UTF8.self)
        #expect(text.contains("\"available\"") && text.contains("\"unavailable: no PMU: ENOENT\""), "\(text)")
        let older = #"{"task-clock": "available", "cycles": "unavailable: no PMU: ENOENT"}"#
        #expect(try JSONDecoder().decode([String: Availability].self, from: Data(older.utf8)) == written)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: Availability].self, from: Data(#"{"x": "maybe"}"#.utf8))
        }
    }
}

@Suite("the suite in results files")
struct SuiteFileFormTests {
    struct File: Codable, Equatable { let suite: Suite }

    @Test("written as the name files have always held, and an unknown name refused")
    func fileForm() throws {
        let text = String(decoding: try JSONEncoder().encode(File(suite: .full)), as: UTF8.self)
        #expect(text == #"{"suite":"full"}"#)
        for suite in Suite.allCases {
            #expect(
                try JSONDecoder().decode(File.self, from: Data(#"{"suite":"\#(suite)"}"#.utf8)) == File(suite: suite))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(File.self, from: Data(#"{"suite":"huge"}"#.utf8))
        }
    }
}
