import Foundation
import MIME
import Testing

@testable import MailDocument

/// The sender's domain and registrable domain are never taken from a domain holding a
/// control character (ESC, DEL, C1) or white space.
@Suite struct SenderDomainTests {
    @Test(arguments: ["\u{1B}", "\u{7F}", "\u{9B}", "\u{0}", " "])
    func registrableDomainRefusesControlCharacters(_ character: String) {
        #expect(RegistrableDomain.of("shop\(character).example") == nil)
        #expect(RegistrableDomain.of("mail.shop\(character)evil.example.co.uk") == nil)
    }

    @Test func registrableDomainOfOrdinaryNames() {
        #expect(RegistrableDomain.of("mail.shop.example.co.uk") == "example.co.uk")
        #expect(RegistrableDomain.of(" Shop.Example.COM. ") == "example.com")
    }

    @Test func senderWithAnEscapeInItsDomainHasNoDomain() {
        let sender = Sender(address: MailAddress(name: "Shop", address: "orders@mail.shop\u{1B}.example"))
        #expect(sender.domain == nil)
        #expect(sender.registrableDomain == nil)
        #expect(sender.address == "orders@mail.shop\u{1B}.example")
        let fine = Sender(address: MailAddress(name: "Shop", address: "orders@mail.shop.example"))
        #expect(fine.domain == "mail.shop.example")
        #expect(fine.registrableDomain == "shop.example")
    }

    @Test func documentOfAMessageFromADomainWithAnEscapeHasNoSenderDomain() throws {
        let message = try Message(
            bytes: Array(
                "From: Example Shop <orders@example\u{1B}.com>\nReply-To: <help@exa\u{1B}mple.net>\nSubject: Order 12345\n\nThanks\n"
                    .utf8))
        let document = MailDocument(message: message)
        #expect(document.sender?.name == "Example Shop")
        #expect(document.sender?.domain == nil)
        #expect(document.sender?.registrableDomain == nil)
        #expect(document.replyTo?.domain == nil)
    }
}
