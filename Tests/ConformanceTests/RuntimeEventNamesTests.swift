import Backends
import RuntimeKit
import Testing

@Suite("runtime event names")
struct RuntimeEventNamesTests {
    @Test("the backends RuntimeEvent names as counting their events are backends of the registry")
    func countingBackendsExist() {
        let ids = Set(Backends.ids)
        #expect(Set(RuntimeEvent.countingBackends).isSubset(of: ids), "\(RuntimeEvent.countingBackends) vs \(ids)")
        for event in RuntimeEvent.allCases { #expect(Set(event.countedBy).isSubset(of: ids), "\(event)") }
    }
}
