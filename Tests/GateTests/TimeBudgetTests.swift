import Gate
import Testing

@Suite("--budget: a length of time as people write it")
struct TimeBudgetTests {
    @Test("units add up; a bare number is seconds; a number after a unit, an unknown unit or nothing at all is refused")
    func parsing() {
        let read = { (text: String) in TimeBudget(spelled: text)?.seconds }
        #expect(
            read("90s") == 90 && read("10m") == 600 && read("1h30m") == 5_400 && read("45") == 45 && read("1.5m") == 90)
        #expect(read("1h30") == nil && read("10x") == nil && read("") == nil && read("0") == nil && read("m") == nil)
        #expect(
            TimeBudget.spelled(45) == "45s" && TimeBudget.spelled(600) == "10m" && TimeBudget.spelled(90) == "1m30s")
    }
}
