import Foundation
import Testing

@testable import Extraction

@Suite struct CarrierRulesTests {
    @Test func rulesLoadWithEveryExampleFittingItsFormat() throws {
        let catalog = try CarrierCatalog.load(from: CarrierTestSupport.rulesDirectory)
        let formats = catalog.carriers.flatMap(\.formats)
        #expect(formats.count >= 60)
        for format in formats {
            #expect(!format.examples.isEmpty, "format \(format.id) has no example")
        }
    }
}
