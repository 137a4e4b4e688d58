import Foundation
import OrderStore
import Testing

import struct Extraction.CarrierCatalog
import struct Extraction.CarrierRule
import enum Extraction.ShipmentStatus

@testable import WalletOrder

@Suite struct OrderBuilderTests {
    @Test func buildsEveryFieldWeSupportFromAStoredOrder() throws {
        let order = OrderBuilder().order(from: sampleStoredOrder(), merchantLogo: "logo.png")
        #expect(order.schemaVersion == 1)
        #expect(order.orderTypeIdentifier == "order.mailorders.local")
        #expect(order.orderType == .ecommerce)
        #expect(order.orderNumber == "A-10023")
        #expect(order.status == .open)
        #expect(order.createdAt == day("2026-11-20T00:00:00Z"))
        #expect(order.updatedAt == day("2026-11-23T17:02:00Z"))
        #expect(order.orderManagementURL == "https://example.com/orders/A-10023")
        #expect(order.merchant.displayName == "Example Outfitters")
        #expect(order.merchant.merchantIdentifier == "merchant.com.example")
        #expect(order.merchant.url == "https://example.com/")
        #expect(order.merchant.logo == "logo.png")
        #expect(order.payment?.total.amount == Decimal(string: "1234.56"))
        #expect(order.payment?.total.currency == "USD")
        #expect(order.lineItems?.first?.title == "Wool socks")
        #expect(order.lineItems?.first?.quantity == 2)
        #expect(order.lineItems?.first?.price?.amount == Decimal(string: "12.3"))

        let shipment = try #require(order.fulfillments?.first?.shipping)
        #expect(shipment.status == .onTheWay)
        #expect(shipment.carrier == "UPS")
        #expect(shipment.trackingNumber == "1Z999AA10123456784")
        #expect(shipment.shippedAt == day("2026-11-22T10:00:00Z"))
        #expect(shipment.estimatedDeliveryAt == day("2026-11-24T00:00:00Z"))
        #expect(shipment.estimatedDeliveryWindowDuration == "P3D")
        #expect(shipment.fulfillmentIdentifier.hasPrefix("tracking-"))

        let text = String(decoding: try order.jsonData(), as: UTF8.self)
        #expect(text.contains("\"amount\" : 1234.56"))
    }

    @Test func orderIdentifierIsStableAndDependsOnlyOnMerchantAndNumber() {
        var other = sampleStoredOrder()
        other.id = 999
        other.lastMessageAt = day("2027-01-01T00:00:00Z")
        other.merchantName = "Renamed"
        let first = OrderBuilder.orderIdentifier(for: sampleStoredOrder())
        #expect(first == OrderBuilder.orderIdentifier(for: other))
        #expect(first.count == 64)
        #expect(first != OrderBuilder.orderIdentifier(for: sampleStoredOrder(orderNumber: "A-10024")))
    }

    @Test func shipmentOnlyRecordIsIdentifiedByItsTrackingNumber() {
        var a = sampleStoredOrder(orderNumber: nil)
        a.merchantKey = "ups.com"
        var b = sampleStoredOrder(orderNumber: nil)
        b.merchantKey = "unknown"
        b.fulfillments[0].normalizedTrackingNumber = nil
        b.fulfillments[0].trackingNumber = "1z 999aa1-0123456784"
        #expect(OrderBuilder.orderIdentifier(for: a) == OrderBuilder.orderIdentifier(for: b))
    }

    @Test func fallsBackToMerchantSiteThenTrackingPageThenInvalidDomain() {
        var stored = sampleStoredOrder()
        stored.orderManagementURL = "javascript:alert(1)"
        #expect(OrderBuilder().order(from: stored).orderManagementURL == "https://example.com/")

        stored.merchantDomain = nil
        stored.fulfillments[0].trackingURL = "https://www.ups.com/track?tracknum=1Z999AA10123456784"
        let noDomain = OrderBuilder().order(from: stored)
        #expect(noDomain.orderManagementURL == "https://www.ups.com/track?tracknum=1Z999AA10123456784")
        #expect(noDomain.merchant.url == "https://merchant.invalid/")
        #expect(noDomain.merchant.merchantIdentifier == "merchant.local.example.com")

        stored.fulfillments = []
        #expect(OrderBuilder().order(from: stored).orderManagementURL == "https://merchant.invalid/")
    }

    @Test func usesCarrierTemplateWhenTheEmailGaveNoTrackingLink() {
        let builder = OrderBuilder(orderTypeIdentifier: "order.com.example") { carrier, number in
            carrier == "UPS" ? "https://www.ups.com/track?tracknum=\(number)" : nil
        }
        let order = builder.order(from: sampleStoredOrder())
        #expect(order.orderTypeIdentifier == "order.com.example")
        #expect(
            order.fulfillments?.first?.shipping?.trackingURL
                == "https://www.ups.com/track?tracknum=1Z999AA10123456784")
    }

    @Test func takesTrackingLinkTemplatesFromTheCarrierRules() throws {
        let rule = CarrierRule(
            id: "ups", name: "UPS", trackingURLTemplate: "https://www.ups.com/track?tracknum={number}")
        let builder = OrderBuilder(carriers: try CarrierCatalog(carriers: [rule]))
        let url = builder.order(from: sampleStoredOrder()).fulfillments?.first?.shipping?.trackingURL
        #expect(url == "https://www.ups.com/track?tracknum=1Z999AA10123456784")
        var stored = sampleStoredOrder()
        stored.fulfillments[0].carrier = "Unknown Post"
        #expect(builder.order(from: stored).fulfillments?.first?.shipping?.trackingURL == nil)
    }

    @Test func mapsEveryShipmentStatusAndSingleDayEstimate() {
        for status in ShipmentStatus.allCases {
            var stored = sampleStoredOrder()
            stored.fulfillments[0].status = status
            stored.fulfillments[0].estimatedDelivery = .init(from: "2026-11-24", until: "2026-11-24")
            let shipment = OrderBuilder().order(from: stored).fulfillments?.first?.shipping
            #expect(shipment?.status.rawValue == status.rawValue)
            #expect(shipment?.estimatedDeliveryAt == day("2026-11-24T00:00:00Z"))
            #expect(shipment?.estimatedDeliveryWindowDuration == nil)
        }
        for status in OrderStatus.allCases {
            var stored = sampleStoredOrder()
            stored.status = status
            #expect(OrderBuilder().order(from: stored).status.rawValue == status.rawValue)
        }
    }

    @Test func updatedAtFollowsTheStoresLogicalClock() {
        var stored = sampleStoredOrder()
        stored.updatedAt = day("2026-11-23T17:02:01Z")
        #expect(OrderBuilder().order(from: stored).updatedAt == day("2026-11-23T17:02:01Z"))
    }

    @Test func updatedAtIsNeverBeforeCreatedAt() {
        var stored = sampleStoredOrder()
        stored.orderDate = day("2026-12-01T00:00:00Z")
        let order = OrderBuilder().order(from: stored)
        #expect(order.updatedAt >= order.createdAt)
    }
}
