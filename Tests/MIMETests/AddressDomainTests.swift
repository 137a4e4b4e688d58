import Foundation
import Testing

@testable import MIME

/// A domain holding a control character or white space names no host: no domain for it.
@Suite struct AddressDomainTests {
    static let forbidden: [String] = [
        "\u{1B}", "\u{0}", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}", "\t", "\u{A0}", "\u{2028}",
    ]

    @Test(arguments: forbidden)
    func aDomainWithAControlCharacterOrWhiteSpaceIsNone(_ character: String) {
        let address = MailAddress(address: "orders@shop\(character).example")
        #expect(address.domain == nil)
        #expect(MailAddress(address: "orders@shop.example\(character)").domain == nil)
        #expect(!MailAddress.isDomainText("shop\(character).example"))
    }

    @Test func ordinaryAndInternationalizedDomainsAreKept() {
        #expect(MailAddress(address: "orders@Mail.SHOP.example").domain == "mail.shop.example")
        #expect(MailAddress(address: "orders@bücher.example").domain == "bücher.example")
        #expect(MailAddress(address: "orders@[192.0.2.1]").domain == "[192.0.2.1]")
        #expect(MailAddress(address: "orders@").domain == nil)
        #expect(MailAddress.isDomainText("xn--bcher-kva.example"))
    }

    @Test func aFromFieldWithAnEscapeInItsDomainGivesNoDomain() throws {
        let message = try parse(
            "From: Example Shop <orders@example\u{1B}[31m.com>\nSubject: Your order\n\nOrder 12345\n")
        let from = try #require(message.from.first)
        #expect(from.name == "Example Shop")
        #expect(from.address.contains("\u{1B}"))
        #expect(from.domain == nil)
    }
}
