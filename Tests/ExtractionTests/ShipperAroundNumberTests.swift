import Foundation
import MailDocument
import Testing

@testable import Extraction

/// A carrier's email names the shipper in a sentence whose label stands on either side of
/// the parcel's number ("Ihre Sendung … von Werkzeughaus Lindner"): the shipper is the
/// merchant of the carrier update.
@Suite struct ShipperAroundNumberTests {
    static func carrierUpdate(from address: String, _ body: String) -> ExtractionResult {
        Fixture.extract(
            Fixture.document(
                subject: "Ihre Sendung kommt heute", from: address, name: "DHL Paket", plain: [body]))
    }

    @Test func theShipperAfterTheNumberIsTheMerchant() {
        let german = Self.carrierUpdate(
            from: "noreply@dhl.de",
            "Ihre Sendung 00340434161094042557 von Werkzeughaus Lindner kommt heute zwischen 11:00 und 14:00 Uhr."
        )
        #expect(german.kind == .carrierUpdate)
        #expect(german.merchant?.name == "Werkzeughaus Lindner")
        let english = Self.carrierUpdate(
            from: "mcinfo@ups.com",
            "Your package 1Z999AA10123456784 from Northwind Outfitters, Portland, OR is out for delivery today."
        )
        #expect(english.merchant?.name == "Northwind Outfitters")
    }

    @Test func theSubjectNamesTheShipperWhenTheBodyDoesNot() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Ihre Sendung 00340434161094042557 von Werkzeughaus Lindner kommt heute",
                from: "noreply@dhl.de", name: "DHL Paket",
                plain: ["Ihre Sendung kommt heute zwischen 11 und 14 Uhr."]))
        #expect(result.merchant?.name == "Werkzeughaus Lindner")
    }

    @Test func noNumberBetweenOrNoNameGivesNoShipper() {
        // A short word between the noun and the preposition is no parcel number.
        let short = Self.carrierUpdate(
            from: "noreply@dhl.de",
            "Ihre Sendung 00340434161094042557 kommt heute. Die Sendung heute von morgen.")
        #expect(short.merchant == nil)
        // A name in lower case is no name.
        let lower = Self.carrierUpdate(
            from: "noreply@dhl.de", "Ihre Sendung 00340434161094042557 von uns kommt heute.")
        #expect(lower.merchant == nil)
    }
}
