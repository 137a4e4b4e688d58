import Extraction
import Foundation
import OrderStore
import Testing

@testable import mailorders

@Suite struct OrdersOutputTests {
    static let order = StoredOrder(
        id: 7, merchantKey: "example.com", merchantName: "Example Outfitters", merchantDomain: "example.com",
        orderNumber: "A-10023", status: .open, orderDate: Date(timeIntervalSince1970: 1_795_651_200),
        firstMessageAt: Date(timeIntervalSince1970: 1_795_690_000),
        total: MonetaryAmount(amount: "24.00", currency: "USD"),
        fulfillments: [
            StoredFulfillment(
                id: 1, carrier: "UPS", trackingNumber: "1Z999AA10123456784", status: .delivered,
                deliveredAt: Date(timeIntervalSince1970: 1_795_950_000)),
            StoredFulfillment(
                id: 2, carrier: "FedEx", trackingNumber: "449044304137821", status: .onTheWay,
                estimatedDelivery: DateWindow(from: "2026-11-26", until: "2026-11-27")),
        ],
        messageCount: 4)
    static let shipmentOnly = StoredOrder(
        id: 9, merchantKey: "", status: .open,
        fulfillments: [
            StoredFulfillment(id: 3, carrier: "DHL", trackingNumber: "JD0002", status: .outForDelivery)
        ],
        messageCount: 1)

    @Test func textListsMerchantOrderStatusFulfillmentsAndMessageCount() {
        let text = renderOrders([Self.order, Self.shipmentOnly], json: false)
        #expect(
            text == """
                #7  Example Outfitters (example.com)  order A-10023  open  4 messages
                    UPS  1Z999AA10123456784  delivered
                    FedEx  449044304137821  onTheWay  expected 2026-11-26–2026-11-27
                #9  unknown merchant  shipment only  open  1 message
                    DHL  JD0002  outForDelivery
                1 order, 1 shipment-only record

                """)
    }

    @Test func textSaysWhenThereAreNoOrders() {
        #expect(renderOrders([], json: false) == "No orders.\n")
        #expect(renderOrders([], json: false, unlinked: true) == "No unlinked shipments.\n")
        #expect(renderOrders([], json: true, unlinked: true) == "[]\n")
        #expect(renderOrders([], json: true) == "[]\n")
    }

    @Test func textEscapesControlCharactersAndShortensLongValues() {
        var hostile = Self.order
        hostile.merchantName = "Evil\u{1B}[31mRed\u{0}\u{202E}"
        hostile.orderNumber = String(repeating: "9", count: 500)
        let text = renderOrders([hostile], json: false)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{0}"))
        #expect(text.contains("Evil\\u{1B}[31mRed\\u{0}\\u{202E}"))
        #expect(text.contains(String(repeating: "9", count: 119) + "9…"))
        #expect(!text.contains(String(repeating: "9", count: 121)))
        var family = Self.order
        family.merchantName = "👩‍👩‍👧 Shop"
        #expect(renderOrders([family], json: false).contains("👩‍👩‍👧 Shop"))
    }

    @Test func jsonHasEveryFieldWithFullValues() throws {
        var hostile = Self.order
        hostile.merchantName = "Evil\u{0}\"Shop\""
        let text = renderOrders(
            [hostile, Self.shipmentOnly], json: true, origins: [7: ["1-confirm.eml", "2-shipped.eml"]])
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        let first = parsed[0]
        #expect(first["merchantName"] as? String == "Evil\u{0}\"Shop\"")
        #expect(first["orderNumber"] as? String == "A-10023")
        #expect(first["orderDate"] as? String == "2026-11-26")
        #expect(first["status"] as? String == "open")
        #expect(first["messageCount"] as? Int == 4)
        #expect(first["shipmentOnly"] as? Bool == false)
        let fulfillments = try #require(first["fulfillments"] as? [[String: Any]])
        #expect(fulfillments.map { $0["carrier"] as? String } == ["UPS", "FedEx"])
        #expect(fulfillments.map { $0["status"] as? String } == ["delivered", "onTheWay"])
        #expect(fulfillments[0]["deliveredAt"] as? String == "2026-11-29T11:00:00Z")
        #expect(first["messages"] as? [String] == ["1-confirm.eml", "2-shipped.eml"])
        #expect(parsed[1]["messages"] == nil)
        #expect(parsed[1]["orderNumber"] == nil)
        #expect(parsed[1]["shipmentOnly"] as? Bool == true)
    }
}
