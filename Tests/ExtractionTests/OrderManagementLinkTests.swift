import Foundation
import MailDocument
import Testing

@testable import Extraction

/// The link to the order's page (Wallet's `orderManagementURL`).
@Suite struct OrderManagementLinkTests {
    static let lines = ["Thank you for your order!", "Order number:\tA-10023", "Order total:\t$24.00"]

    /// Bytes read in place are searched as ``Text/containsBytes(_:in:)`` searches arrays.
    @Test func containsBytesInPlaceAgreesWithArrays() {
        let haystacks = [
            "", "a", "view order", "view your order", "orders", "ab" + String(repeating: "a", count: 40),
        ]
        let needles = ["", "a", "order", "view your order", "view your orders", "aab", "z"]
        for haystack in haystacks {
            for needle in needles {
                let bytes = Array(haystack.utf8)
                let inPlace = bytes.withUnsafeBufferPointer {
                    FieldText.containsBytes(Array(needle.utf8), in: $0)
                }
                #expect(inPlace == Text.containsBytes(Array(needle.utf8), in: bytes), "\(haystack) \(needle)")
            }
        }
    }

    /// The web prefix is read from the first bytes as `isWebURL` reads it, in any case.
    @Test func webPrefixInAnyCase() {
        for (text, expected) in [
            ("https://shop.example/a", true), ("HTTP://shop.example/a", true), ("hTtPs://x.example", true),
            ("https:/shop.example/a", false), ("ftp://shop.example/a", false), ("http://", true),
            ("https://é.example/a", true), ("httpé://shop.example", false), ("mailto:a@b.example", false),
        ] {
            #expect(ExtractionContext.hasWebPrefix(text) == expected, "\(text)")
        }
    }

    /// Which links name another order than NW-48213: the quick tests (no ASCII digit, no
    /// series letters in a target without percent escapes) answer as the full reading does.
    @Test(arguments: [
        ("View order NW-0", "https://shop.example/orders", true),
        ("View order #51007", "https://shop.example/orders", true),
        ("View your order", "https://shop.example/orders/NW-51007", true),
        ("View your order", "https://shop.example/account?id=nw-51007", true),
        ("View your order", "https://shop.example/orders/%4E%57-51007", true),
        ("View your order", "https://shop.example/orders/NW-48213", false),
        ("View order NW-48213", "https://shop.example/orders/NW-0", true),
        ("View order NW-48213", "https://shop.example/account/orders", false),
        ("View your order", "https://shop.example/orders/9f1c0a7e2b5d4c3a/authenticate", false),
        ("View your order", "https://shop.example/orders?utm_campaign=2026-11", false),
        ("View your order", "https://shop.example/orders", false),
        ("View order NW-482139", "https://shop.example/orders/NW-482139", true),
        ("View your order", "https://shop.example/orders/NW-482139", true),
        ("View order NW-48213", "https://shop.example/orders/NW-48213?ref=mail", false),
        ("Voir la commande", "https://shop.example/commande/%C3%A9t%C3%A9", false),
    ])
    func linksNamingAnotherOrder(_ text: String, _ target: String, _ expected: Bool) {
        let link = Link(href: target, target: target, text: text, position: 1)
        #expect(ExtractionContext.namesAnotherOrder(link, orderNumber: "NW-48213") == expected)
    }

    /// An order number stands in a text only as a whole, not as the start of a longer one.
    @Test func theOrderNumberStandsInATextAsAWhole() {
        for (text, expected) in [
            ("/orders/NW-48213", true), ("/orders/nw-48213?x=1", true), ("NW-48213", true),
            ("View order NW-48213.", true), ("/orders/NW-482139", false), ("XNW-48213", false),
            ("/orders/NW-4821", false), ("", false), ("NW-48213-2", true),
        ] {
            #expect(ExtractionContext.containsNumber("NW-48213", in: text) == expected, "\(text)")
        }
        #expect(!ExtractionContext.containsNumber("NW-48213", in: "/orders/nw-48213", ignoringCase: false))
        #expect(!ExtractionContext.containsNumber("", in: "/orders"))
    }

    /// A link to a longer number that starts with the order's is another order's page.
    @Test func aLinkToALongerNumberIsNotTheOrdersLink() {
        let lines = ["Thank you for your order!", "Order number:\tNW-48213", "Order total:\t$24.00"]
        let links = [
            Link(
                href: "https://shop.example/orders/NW-482139",
                target: "https://shop.example/orders/NW-482139",
                text: "View your order", position: 10)
        ]
        let result = Fixture.extract(Fixture.document(subject: "Order confirmed", html: lines, links: links))
        #expect(result.orderNumber == "NW-48213")
        #expect(result.orderManagementURL == nil)
    }

    /// An order number that starts with a digit has no series: only the text is read.
    @Test func anOrderNumberWithoutLettersReadsOnlyTheText() {
        let plain = Link(
            href: "https://shop.example/orders/51007", target: "https://shop.example/orders/51007",
            text: "View your order", position: 1)
        #expect(!ExtractionContext.namesAnotherOrder(plain, orderNumber: "48213"))
        let named = Link(
            href: "https://shop.example/orders", target: "https://shop.example/orders", text: "Order 51007",
            position: 1)
        #expect(ExtractionContext.namesAnotherOrder(named, orderNumber: "48213"))
    }

    @Test func takesTheViewOrderLinkOnTheMerchantsDomain() {
        let links = [
            Link(
                href: "https://click.shop.example/ls?u=x",
                target: "https://shop.example/account/orders/A-10023",
                text: "View your order", position: 10),
            Link(
                href: "https://www.ups.com/track?tracknum=1", target: "https://www.ups.com/track?tracknum=1",
                text: "Track", position: 20),
        ]
        let result = Fixture.extract(
            Fixture.document(subject: "Order confirmed", html: Self.lines, links: links))
        #expect(result.orderNumber == "A-10023")
        #expect(result.orderManagementURL == "https://shop.example/account/orders/A-10023")
        #expect(result.evidence?.contains { $0.field == "orderManagementURL" && $0.source == "link" } == true)
    }

    @Test func readsTheAnchorInOtherLanguages() {
        let links = [
            Link(
                href: "https://www.shop.example/mein-konto", target: "https://www.shop.example/mein-konto",
                text: "Bestellung ansehen", position: 5)
        ]
        let lines = [
            "Vielen Dank für Ihre Bestellung!", "Bestellnummer:\t2026-1147", "Gesamtbetrag:\t56,80 €",
        ]
        let result = Fixture.extract(
            Fixture.document(subject: "Bestellbestätigung", html: lines, links: links))
        #expect(result.orderManagementURL == "https://www.shop.example/mein-konto")
    }

    @Test func ignoresLinksToOtherSitesHiddenLinksAndUnrelatedAnchors() {
        let links = [
            Link(
                href: "https://survey.example/order", target: "https://survey.example/view-order",
                text: "View your order", position: 1),
            Link(
                href: "https://shop.example/o", target: "https://shop.example/o", text: "View your order",
                position: 2, isHidden: true),
            Link(
                href: "https://shop.example/sale", target: "https://shop.example/sale", text: "Shop the sale",
                position: 3),
            Link(href: "javascript:alert(1)", target: "javascript:alert(1)", text: "View order", position: 4),
        ]
        let result = Fixture.extract(
            Fixture.document(subject: "Order confirmed", html: Self.lines, links: links))
        #expect(result.orderNumber == "A-10023")
        #expect(result.orderManagementURL == nil)
    }

    /// A link that names another order number than the order's, in its text or its URL, is
    /// not the order's link; one that names the order, or no order number, still is.
    @Test func aLinkNamingAnotherOrderIsNotTheOrdersLink() {
        let lines = ["Thank you for your order!", "Order number:\tNW-48213", "Order total:\t$24.00"]
        func url(_ links: [Link]) -> String? {
            Fixture.extract(Fixture.document(subject: "Order confirmed", html: lines, links: links))
                .orderManagementURL
        }
        func link(_ target: String, _ text: String) -> Link {
            Link(href: target, target: target, text: text, position: 1)
        }
        // Another number in the anchor, in the path, in the query.
        #expect(url([link("https://shop.example/account/orders", "View order NW-0")]) == nil)
        #expect(url([link("https://shop.example/orders/NW-0", "View order")]) == nil)
        #expect(url([link("https://shop.example/orders?id=NW-51007", "View your order")]) == nil)
        #expect(url([link("https://shop.example/account/orders", "View order #51007")]) == nil)
        // The order's own number, or no number at all: as before.
        #expect(
            url([link("https://shop.example/orders/NW-48213", "View order NW-48213")])
                == "https://shop.example/orders/NW-48213")
        #expect(
            url([link("https://shop.example/account", "View your order")]) == "https://shop.example/account")
        #expect(
            url([link("https://shop.example/account/orders?utm_source=email", "View order")])
                == "https://shop.example/account/orders?utm_source=email")
        // A shop's own identifiers in the target are no order numbers.
        #expect(
            url([
                link(
                    "https://shop.example/52819377/orders/9f1c0a7e2b5d4c3a/authenticate?key=3b8e1f",
                    "View your order")
            ])
                == "https://shop.example/52819377/orders/9f1c0a7e2b5d4c3a/authenticate?key=3b8e1f")
        #expect(
            url([link("https://shop.example/account/orders/5123456789012", "View order")])
                == "https://shop.example/account/orders/5123456789012")
        // Of two links, the one naming another order is passed over.
        #expect(
            url([
                link("https://shop.example/orders/NW-0", "View order NW-0"),
                link("https://shop.example/account", "View your order"),
            ]) == "https://shop.example/account")
    }

    @Test func prefersTheSchemaOrgOrderURL() {
        let order = SchemaObject(
            type: "Order",
            properties: [
                "orderNumber": .string("A-10023"), "url": .string("https://shop.example/orders/A-10023"),
            ],
            origin: "jsonld")
        let result = Fixture.extract(
            Fixture.document(subject: "Order confirmed", html: Self.lines, structuredData: [order]))
        #expect(result.orderManagementURL == "https://shop.example/orders/A-10023")
    }
}
