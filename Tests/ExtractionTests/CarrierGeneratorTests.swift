import Foundation
import Testing

@testable import Extraction

@Suite struct CarrierGeneratorTests {
    @Test func generatedNumbersAreFoundAsTheirCarrierWhenNamed() throws {
        let catalog = CarrierTestSupport.catalog
        for carrierID in TrackingNumberGenerator.supportedCarrierIDs + ["upu-ch", "upu-se", "upu-br"] {
            for seed in 1...5 {
                let number = try #require(TrackingNumberGenerator.make(carrierID: carrierID, seed: seed))
                let carrier = try #require(catalog.carrier(id: carrierID), "\(carrierID)")
                let recognized = catalog.recognize(number)
                #expect(
                    recognized.contains { $0.carrierID == carrierID && $0.checkDigitValid != false },
                    "\(carrierID) \(number)")
                let text = "\(carrier.name)\nTracking number: \(number)"
                #expect(CarrierTestSupport.found(text) == ["\(carrierID):\(number)"], "\(text)")
            }
        }
    }

    @Test func generatorIsDeterministic() {
        #expect(
            TrackingNumberGenerator.make(carrierID: "ups", seed: 3)
                == TrackingNumberGenerator.make(carrierID: "ups", seed: 3))
        #expect(
            TrackingNumberGenerator.make(carrierID: "ups", seed: 3)
                != TrackingNumberGenerator.make(carrierID: "ups", seed: 4))
        #expect(TrackingNumberGenerator.make(carrierID: "nope", seed: 1) == nil)
    }
}
