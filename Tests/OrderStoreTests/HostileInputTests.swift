import Extraction
import Foundation
import Testing

@testable import OrderStore

@Suite struct HostileInputTests {
    static let quotes = "O'Brien \"Shop\"; DROP TABLE orders; --"
    static let nul = "before\u{0}after"
    static let emoji = "🛒 Bücher & Co. 👩‍👩‍👧 ☃︎"
    static let long = String(repeating: "Zé🙂", count: 10_240 / 7 + 1)

    @Test(arguments: [quotes, nul, emoji, long, "", " "])
    func hostileStringsAreStoredAndReadBackIntact(_ text: String) throws {
        let db = try TemporaryStore()
        let merchant = MerchantInfo(name: text, domain: "example.com")
        let items = [
            LineItem(title: text, quantity: 2, price: MonetaryAmount(amount: "1.00", currency: "EUR"))
        ]
        let hostile = IngestedMessage(
            origin: "box/\(text)", messageID: "<\(text)-id@test>", contentHash: "hash-\(text)",
            date: november(1),
            extraction: ExtractionResult(
                kind: .shippingConfirmation, merchant: merchant, orderNumber: "N-\(text)",
                shipments: [
                    Shipment(
                        carrier: text, trackingNumber: "TN-\(text)",
                        trackingURL: "https://t.example/?q=\(text)")
                ],
                lineItems: items),
            orderManagementURL: "https://example.com/\(text)")
        #expect(try db.store.apply(hostile).effects != nil)
        #expect(try db.store.apply(hostile) == .alreadyApplied)
        #expect(try db.store.contains(contentHash: "hash-\(text)"))

        let order = try #require(try db.store.orders().first)
        #expect(order.merchantName == (text.isEmpty ? "" : text))
        #expect(order.orderNumber == "N-\(text)")
        #expect(order.lineItems == items)
        #expect(order.orderManagementURL == "https://example.com/\(text)")
        let fulfillment = try #require(order.fulfillments.first)
        #expect(fulfillment.carrier == text)
        #expect(fulfillment.trackingNumber == "TN-\(text)")
        #expect(fulfillment.trackingURL == "https://t.example/?q=\(text)")
        let facts = try db.store.contributions(orderID: order.id)
        #expect(facts.first?.origin == "box/\(text)")
        #expect(facts.first?.contentHash == "hash-\(text)")
        #expect(try db.store.orders().count == 1)
    }

    @Test func nulInsideAKeyDoesNotCollideWithTheTextBeforeIt() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("a", .orderConfirmation, at: november(1), orderNumber: "1001"),
            message("b", .orderConfirmation, at: november(1), orderNumber: "1001\u{0}x"),
            message(
                "c", .orderConfirmation, at: november(1),
                merchant: MerchantInfo(domain: "example.com\u{0}evil")))
        #expect(try db.store.orders().map(\.orderNumber) == ["1001", "1001\u{0}x"])
    }

    @Test func extractionWithNothingToKeyByStoresNoOrder() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("empty", .shippingConfirmation, at: nil, merchant: nil),
            message("blank-number", .orderConfirmation, at: nil, orderNumber: " # "),
            message(
                "blank-tracking", .carrierUpdate, at: nil, merchant: nil,
                shipments: [Shipment(trackingNumber: " - ")]))
        #expect(try db.store.orders().isEmpty)
        #expect(try db.store.messageCount() == 3)
    }
}

@Suite struct KeyTests {
    @Test func trackingNumbersAreComparedWithoutSpacesHyphensOrCase() {
        #expect(OrderKeys.normalizedTrackingNumber("1z 999-aa1 0123\u{2011}456784") == "1Z999AA10123456784")
        #expect(OrderKeys.normalizedTrackingNumber(" \t-") == nil)
        #expect(OrderKeys.normalizedTrackingNumber(nil) == nil)
    }

    @Test func merchantKeyIsTheDomainElseTheFoldedName() {
        #expect(OrderKeys.merchantKey(name: "Shop", domain: "WWW.Example.COM.") == "example.com")
        #expect(OrderKeys.merchantKey(name: "  Café  Müller, Inc. ", domain: nil) == "cafe muller inc")
        #expect(OrderKeys.merchantKey(name: "CAFE-MULLER inc", domain: "  ") == "cafe muller inc")
        #expect(OrderKeys.merchantKey(name: "!!!", domain: nil) == nil)
    }

    @Test func orderKeysIgnoreHashSpacesAndCase() {
        #expect(OrderKeys.orderKey("# a-100 23") == OrderKeys.orderKey("A-10023"))
        #expect(OrderKeys.orderKey("#") == nil)
    }

    @Test func dayDatesParseOnlyRealDays() {
        #expect(DayDate.parse("2026-11-01") == november(1, 0))
        #expect(DayDate.parse("2026-02-30") == nil)
        #expect(DayDate.parse("2026-1-01") == nil)
        #expect(DayDate.parse("x") == nil)
    }
}

@Suite struct StatusFoldTests {
    func event(_ status: ShipmentStatus, _ day: Int?, _ sequence: Int64 = 0) -> StatusEvent {
        StatusEvent(status: status, at: day.map { november($0) }, sequence: sequence)
    }

    @Test func progressNeverMovesBackwards() {
        let folded = StatusFold.fold([event(.delivered, 3), event(.shipped, 5), event(.onTheWay, 4)])
        #expect(folded?.status == .delivered)
        #expect(folded?.statusAt == november(3))
        #expect(folded?.firstShippedAt == november(3))
        #expect(folded?.firstDeliveredAt == november(3))
    }

    @Test func issueHoldsUntilANewerProgressEvent() {
        #expect(StatusFold.fold([event(.onTheWay, 1), event(.issue, 2)])?.status == .issue)
        #expect(StatusFold.fold([event(.issue, 2), event(.onTheWay, 1)])?.status == .issue)
        let resumed = StatusFold.fold([event(.outForDelivery, 1), event(.issue, 2), event(.shipped, 3)])
        #expect(resumed?.status == .outForDelivery)
        #expect(resumed?.statusAt == november(3))
    }

    @Test func undatedEventsCountAsOldest() {
        #expect(StatusFold.fold([event(.issue, nil), event(.shipped, 1)])?.status == .shipped)
        #expect(StatusFold.fold([event(.delivered, nil), event(.shipped, 1)])?.status == .delivered)
        #expect(StatusFold.fold([]) == nil)
    }
}
