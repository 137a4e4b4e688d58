import Extraction
import Foundation
import Testing

@testable import OrderStore

/// The repository's `examples/Maildir`, as a careful reader would extract each message, applied
/// in the order a scan reads them (`cur/` then `new/`, by file name).
@Suite struct ExampleMaildirTests {
    static func at(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss Z"
        return formatter.date(from: text)
    }

    static let northwind = MerchantInfo(name: "Northwind Outfitters", domain: "northwind-outfitters.example")
    static let bergmann = MerchantInfo(name: "Kaffeerösterei Bergmann", domain: "kaffee-bergmann.example")
    static let hanbit = MerchantInfo(name: "한빛문구", domain: "hanbit-mungu.example")
    static let upsNumber = "1ZA7X9252601815900"
    static let dhlNumber = "00340434909378657970"
    static let cjNumber = "630824628195"

    static func mail(
        _ file: String, messageID: String?, date: String, _ extraction: ExtractionResult
    ) -> IngestedMessage {
        IngestedMessage(
            origin: "examples/Maildir/\(file)", messageID: messageID, contentHash: "sha256-of-\(file)",
            date: at(date), extraction: extraction)
    }

    static let messages: [IngestedMessage] = [
        mail(
            "cur/1764400001", messageID: nil, date: "Wed, 18 Nov 2026 09:42:00 -0500",
            ExtractionResult(
                kind: .orderConfirmation, merchant: northwind, orderNumber: "NW-48213",
                orderDate: "2026-11-18",
                total: MonetaryAmount(amount: "191.16", currency: "USD"))),
        mail(
            "cur/1764400002", messageID: nil, date: "Thu, 19 Nov 2026 16:05:00 -0500",
            ExtractionResult(
                kind: .shippingConfirmation, merchant: northwind, orderNumber: "NW-48213",
                shipments: [Shipment(carrier: "UPS", trackingNumber: upsNumber, status: .shipped)])),
        mail(
            "cur/1764400003", messageID: "<179597290616.10615.4685937087852394156@ups.com>",
            date: "Tue, 24 Nov 2026 07:12:00 -0500",
            ExtractionResult(
                kind: .carrierUpdate,
                shipments: [Shipment(carrier: "UPS", trackingNumber: upsNumber, status: .outForDelivery)])),
        mail(
            "cur/1764400005", messageID: "<179597290617.10615.11459961133085544283@kaffee-bergmann.example>",
            date: "Fri, 20 Nov 2026 10:15:00 +0100",
            ExtractionResult(
                kind: .orderConfirmation, merchant: bergmann, orderNumber: "2026-11-30417",
                orderDate: "2026-11-20")),
        mail(
            "cur/1764400006", messageID: "<179597290617.10615.1720075701188704905@kaffee-bergmann.example>",
            date: "Sat, 21 Nov 2026 14:30:00 +0100",
            ExtractionResult(
                kind: .shippingConfirmation, merchant: bergmann, orderNumber: "2026-11-30417",
                shipments: [Shipment(carrier: "DHL", trackingNumber: dhlNumber)])),
        mail(
            "cur/1764400008", messageID: "<179597290618.10615.4414644297267603270@hanbit-mungu.example>",
            date: "Sun, 22 Nov 2026 11:03:00 +0900",
            ExtractionResult(
                kind: .orderConfirmation, merchant: hanbit, orderNumber: "20261122-0001583",
                orderDate: "2026-11-22",
                total: MonetaryAmount(amount: "38900", currency: "KRW"))),
        mail(
            "cur/1764400010", messageID: nil, date: "Fri, 27 Nov 2026 06:00:00 -0500",
            ExtractionResult(kind: .notAnOrder)),
        mail(
            "cur/1764400011", messageID: "<179597290620.10615.15004296762367996489@cloudnest.example>",
            date: "Thu, 26 Nov 2026 21:14:00 +0000", ExtractionResult(kind: .notAnOrder)),
        mail(
            "cur/1764400012", messageID: "<179597290620.10615.4343025876266682936@harborline-bank.example>",
            date: "Tue, 24 Nov 2026 19:31:00 -0500", ExtractionResult(kind: .notAnOrder)),
        mail(
            "new/1764400004", messageID: "<179597290617.10615.13014577182869124049@ups.com>",
            date: "Tue, 24 Nov 2026 13:48:00 -0500",
            ExtractionResult(
                kind: .carrierUpdate,
                shipments: [Shipment(carrier: "UPS", trackingNumber: upsNumber, status: .delivered)])),
        mail(
            "new/1764400007", messageID: "<179597290618.10615.17712988466649838045@dhl.de>",
            date: "Wed, 25 Nov 2026 08:02:00 +0100",
            ExtractionResult(
                kind: .carrierUpdate,
                shipments: [Shipment(carrier: "DHL", trackingNumber: dhlNumber, status: .outForDelivery)])),
        mail(
            "new/1764400009", messageID: "<179597290619.10615.6425280014383811384@hanbit-mungu.example>",
            date: "Mon, 23 Nov 2026 15:20:00 +0900",
            ExtractionResult(
                kind: .shippingConfirmation, merchant: hanbit, orderNumber: "20261122-0001583",
                shipments: [Shipment(carrier: "CJ대한통운", trackingNumber: cjNumber)])),
        mail(
            "new/1764400013", messageID: "<179597290620.10615.12219207377230470072@mail.example>",
            date: "Wed, 25 Nov 2026 18:40:00 -0500", ExtractionResult(kind: .notAnOrder)),
    ]

    @Test func exampleMaildirBecomesThreeLinkedOrders() throws {
        let db = try TemporaryStore()
        try db.apply(Self.messages)
        let orders = try db.store.orders()
        #expect(orders.map(\.orderNumber) == ["NW-48213", "2026-11-30417", "20261122-0001583"])
        #expect(
            orders.map(\.merchantKey) == [
                "northwind-outfitters.example", "kaffee-bergmann.example", "hanbit-mungu.example",
            ])
        #expect(orders.map(\.status) == [.completed, .open, .open])
        #expect(
            orders.map { $0.fulfillments.map(\.status) } == [[.delivered], [.outForDelivery], [.shipped]])
        #expect(orders.map { $0.fulfillments.map(\.carrier) } == [["UPS"], ["DHL"], ["CJ대한통운"]])
        #expect(orders.map(\.messageCount) == [4, 3, 2])
        #expect(orders.map(\.orderDay) == ["2026-11-18", "2026-11-20", "2026-11-22"])
        #expect(try db.store.unlinkedShipments().isEmpty)
        #expect(try db.store.messageCount() == 13)
    }

    @Test func carrierMailReadBeforeTheMerchantsStillEndsInTheSameOrders() throws {
        let inOrder = try TemporaryStore()
        try inOrder.apply(Self.messages)
        let carriersFirst = try TemporaryStore()
        let isCarrier = { (message: IngestedMessage) in message.extraction.kind == .carrierUpdate }
        try carriersFirst.apply(Self.messages.filter(isCarrier) + Self.messages.filter { !isCarrier($0) })
        #expect(
            try carriersFirst.store.orders().map(OrderView.init) == inOrder.store.orders().map(OrderView.init)
        )
        #expect(try carriersFirst.store.deletedOrderIDs(after: 0).count == 2)
    }
}
