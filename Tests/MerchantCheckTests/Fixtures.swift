import Extraction
import MailDocument

@testable import MerchantCheck

/// Constructed emails and extractions for the checker's tests.
enum Fixtures {
    /// UPS 1Z check digit: letters map to digits ((ASCII − 63) mod 10), odd positions count
    /// once, even positions twice, the check digit tops the sum up to a multiple of ten.
    static func upsCheckDigit(_ payload: String) -> Int? {
        var sum = 0
        for (index, character) in payload.enumerated() {
            guard let ascii = character.asciiValue else { return nil }
            let value: Int
            if character.isNumber {
                value = Int(ascii - 48)
            } else if character.isUppercase {
                value = (Int(ascii) - 63) % 10
            } else {
                return nil
            }
            sum += index % 2 == 0 ? value : value * 2
        }
        return (10 - sum % 10) % 10
    }

    static let ups = CarrierProfile(
        id: "ups", name: "UPS", names: ["UPS", "United Parcel Service"], linkHosts: ["ups.com"],
        formats: [
            TrackingNumberFormat(
                id: "ups-1z", name: "UPS 1Z", pattern: "1Z(?<payload>[0-9A-Z]{15})(?<check>[0-9])",
                isDistinctive: true,
                validate: { payload, check in upsCheckDigit(payload).map(String.init) == check })
        ])

    static let checker = MerchantEmailChecker(carriers: [ups])

    static let validTracking = "1Z999AA10123456784"
    static let invalidTracking = "1Z999AA10123456785"

    static let sender = Sender(
        name: "Example Outfitters", address: "orders@mail.example.com", domain: "mail.example.com",
        registrableDomain: "example.com")

    static let orderMarkup = SchemaObject(
        type: "Order",
        properties: [
            "merchant": .object(["@type": .string("Organization"), "name": .string("Example Outfitters")]),
            "orderNumber": .string("A-10023"),
            "priceCurrency": .string("USD"),
            "price": .string("24.00"),
            "acceptedOffer": .object([
                "@type": .string("Offer"),
                "itemOffered": .object(["@type": .string("Product"), "name": .string("Wool socks")]),
            ]),
            "orderStatus": .string("https://schema.org/OrderProcessing"),
        ], origin: "jsonld")

    static func deliveryMarkup(trackingNumber: String = validTracking) -> SchemaObject {
        SchemaObject(
            type: "ParcelDelivery",
            properties: [
                "carrier": .object(["@type": .string("Organization"), "name": .string("UPS")]),
                "trackingNumber": .string(trackingNumber),
                "deliveryAddress": .object([
                    "@type": .string("PostalAddress"), "streetAddress": .string("1 Main St"),
                ]),
                "expectedArrivalUntil": .string("2026-11-26"),
                "itemShipped": .object(["@type": .string("Product"), "name": .string("Wool socks")]),
                "partOfOrder": .object([
                    "@type": .string("Order"),
                    "orderNumber": .string("A-10023"),
                    "merchant": .object([
                        "@type": .string("Organization"), "name": .string("Example Outfitters"),
                    ]),
                    "orderStatus": .string("http://schema.org/OrderInTransit"),
                ]),
            ], origin: "jsonld")
    }

    /// A good order confirmation: every check passes.
    static func confirmation(
        body: String =
            "Thank you for shopping at Example Outfitters!\nOrder number: A-10023\nWool socks\t24.00",
        subject: String = "Your Example Outfitters order A-10023", preheader: String? = nil,
        images: [ImageReference] = [], markup: [SchemaObject] = [orderMarkup], sender: Sender = sender
    ) -> MailDocument {
        MailDocument(
            subject: subject, sender: sender, htmlText: RenderedText(text: body), preheader: preheader,
            images: images, structuredData: markup)
    }

    static func confirmationExtraction(
        orderNumber: String? = "A-10023", merchant: String? = "Example Outfitters"
    )
        -> ExtractionResult
    {
        ExtractionResult(
            kind: .orderConfirmation, merchant: MerchantInfo(name: merchant, domain: "example.com"),
            orderNumber: orderNumber, orderDate: "2026-11-20",
            lineItems: [
                LineItem(
                    title: "Wool socks", quantity: 1, price: MonetaryAmount(amount: "24.00", currency: "USD"))
            ],
            total: MonetaryAmount(amount: "24.00", currency: "USD"),
            evidence: [
                Evidence(
                    field: "orderNumber", source: "label", text: "Order number: A-10023", confidence: 0.95)
            ])
    }

    static let trackingLink = Link(
        href: "https://www.ups.com/track?tracknum=\(validTracking)",
        target: "https://www.ups.com/track?tracknum=\(validTracking)", text: "Track your parcel", position: 0)

    /// A good shipping confirmation: every check passes.
    static func shipping(
        body: String =
            "Example Outfitters\nYour order A-10023 has shipped.\nCarrier: UPS\nTracking number: \(validTracking)",
        links: [Link] = [trackingLink], images: [ImageReference] = [], preheader: String? = nil,
        markup: [SchemaObject] = [deliveryMarkup()], sender: Sender = sender
    ) -> MailDocument {
        MailDocument(
            subject: "Your order A-10023 has shipped", sender: sender, htmlText: RenderedText(text: body),
            preheader: preheader, links: links, images: images, structuredData: markup)
    }

    static func shippingExtraction(trackingNumber: String? = validTracking, carrier: String? = "UPS")
        -> ExtractionResult
    {
        ExtractionResult(
            kind: .shippingConfirmation,
            merchant: MerchantInfo(name: "Example Outfitters", domain: "example.com"),
            orderNumber: "A-10023",
            shipments: trackingNumber.map {
                [
                    Shipment(
                        carrier: carrier, trackingNumber: $0,
                        trackingURL: "https://www.ups.com/track?tracknum=\($0)", status: .onTheWay,
                        estimatedDelivery: DateWindow(from: "2026-11-24", until: "2026-11-26"))
                ]
            })
    }

    static func codes(_ report: CheckReport) -> Set<String> { Set(report.findings.map(\.code)) }
}
