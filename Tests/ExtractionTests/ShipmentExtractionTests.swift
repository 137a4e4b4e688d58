import Foundation
import MailDocument
import Testing

@testable import Extraction

@Suite struct ShipmentExtractionTests {
    @Test func shippingConfirmationWithUPSTrackingNumber() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your Example Outfitters order has shipped", from: "orders@example.com",
                name: "Example Outfitters",
                html: [
                    "Good news! Your order is on its way.", "Order #A-10023", "Carrier: UPS",
                    "Tracking number: 1Z999AA10123456784", "Estimated delivery: November 24, 2026",
                ]))
        #expect(result.kind == .shippingConfirmation)
        #expect(result.orderNumber == "A-10023")
        #expect(result.shipments?.count == 1)
        let shipment = result.shipments?.first
        #expect(shipment?.carrier == "UPS")
        #expect(shipment?.trackingNumber == "1Z999AA10123456784")
        #expect(shipment?.trackingURL?.contains("1Z999AA10123456784") == true)
        #expect(shipment?.estimatedDelivery == DateWindow(from: "2026-11-24", until: "2026-11-24"))
        #expect(shipment?.status == .shipped)
        #expect(result.evidence?.contains { $0.field == "shipments[0].trackingNumber" } == true)
    }

    /// The digits of an order number printed with letters before them are not a tracking
    /// number, though the carrier is named beside them.
    @Test(arguments: [
        ("ご注文番号: KM-20261120-0455", "ヤマト運輸でお届けします。", "KM-20261120-0455", "202611200455"),
        ("주문번호: KM-20261120-0457", "CJ대한통운으로 발송되었습니다.", "KM-20261120-0457", "202611200457"),
        ("Order number: KM-20261120-0453", "Shipped with FedEx.", "KM-20261120-0453", "202611200453"),
        ("Bestellnummer: KM-20261120-0457", "Versand mit DHL Paket.", "KM-20261120-0457", "202611200457"),
    ])
    func theOrderNumbersDigitsAreNotATrackingNumber(
        _ orderLine: String, _ carrierLine: String, _ orderNumber: String, _ digits: String
    ) {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Shipped", from: "shop@hikari.example", name: "Hikari",
                html: [orderLine, carrierLine]))
        #expect(result.orderNumber == orderNumber)
        #expect(result.shipments?.contains { $0.trackingNumber == digits } != true, "\(orderLine)")
    }

    @Test func carrierEmailNamesTheShipperAsMerchant() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "[CJ대한통운] 상품이 배송출발 예정입니다", from: "noreply@cjlogistics.com", name: "CJ대한통운",
                html: ["운송장번호: 560123456789", "보내는분: 무신사", "배송출발 예정입니다"]))
        #expect(result.kind == .carrierUpdate)
        #expect(result.merchant == MerchantInfo(name: "무신사"))
        #expect(result.shipments?.first?.trackingNumber == "560123456789")
        #expect(result.shipments?.first?.carrier == "CJ대한통운")
        #expect(result.shipments?.first?.status == .outForDelivery)
    }

    @Test func theShippersAddressIsNotPartOfItsName() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "UPS Update: Your package has shipped", from: "mcinfo@ups.com", name: "UPS",
                html: [
                    "Shipped From:\tNORTHWIND OUTFITTERS, PORTLAND, OR, US",
                    "Tracking Number:\t1ZA7X9252601815900",
                ]))
        #expect(result.kind == .carrierUpdate)
        #expect(result.merchant == MerchantInfo(name: "Northwind Outfitters"))
        #expect(result.shipments?.first?.trackingNumber == "1ZA7X9252601815900")
    }

    @Test func carrierEmailWithoutShipperHasNoMerchant() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "UPS Update: Package Scheduled for Delivery Today", from: "mcinfo@ups.com",
                name: "UPS",
                html: ["Tracking Number: 1Z999AA10123456784", "Your package is out for delivery"]))
        #expect(result.kind == .carrierUpdate)
        #expect(result.merchant == nil)
        #expect(result.shipments?.first?.status == .outForDelivery)
    }

    @Test func severalShipmentsInOneEmail() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order has shipped in 2 packages",
                html: [
                    "Order #A-10023", "Package 1: UPS tracking number 1Z999AA10123456784",
                    "Package 2: UPS tracking number 1Z5R89390357567127",
                ]))
        #expect(
            result.shipments?.compactMap(\.trackingNumber) == ["1Z999AA10123456784", "1Z5R89390357567127"])
    }

    @Test func severalOrdersInOneEmail() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your orders have shipped",
                html: [
                    "Order number: 111-2223334-4445556", "UPS tracking number: 1Z999AA10123456784", "",
                    "Order number: 222-3334445-5556667", "UPS tracking number: 1Z5R89390357567127",
                ]))
        #expect(result.orderNumber == "111-2223334-4445556")
        #expect(result.shipments?.compactMap(\.trackingNumber) == ["1Z999AA10123456784"])
        #expect(result.additionalOrders?.map(\.orderNumber) == ["222-3334445-5556667"])
        #expect(result.additionalOrders?.first?.shipments?.first?.trackingNumber == "1Z5R89390357567127")
    }

    @Test func notAnOrderDropsTrackingNumbers() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Shipping FAQ: how tracking works — shop now",
                html: ["Newsletter", "Shop now", "UPS numbers look like 1Z999AA10123456784"]))
        #expect(result.kind == .notAnOrder)
        #expect(result.shipments == nil)
    }
}
