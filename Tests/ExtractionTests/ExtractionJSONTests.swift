import Foundation
import Testing

@testable import Extraction

@Suite struct ExtractionJSONTests {
    @Test func writesKeysInContractOrderAndLeavesUnknownOut() {
        let result = ExtractionResult(
            source: "inbox.mbox#3", messageID: "<m@x>", kind: .shippingConfirmation,
            merchant: MerchantInfo(name: "Example \"Outfitters\"", domain: "example.com"),
            orderNumber: "A-10023",
            orderDate: "2026-11-20",
            shipments: [
                Shipment(
                    carrier: "UPS", trackingNumber: "1Z999AA10123456784", status: .onTheWay,
                    estimatedDelivery: DateWindow(from: "2026-11-24", until: "2026-11-26"))
            ],
            lineItems: [
                LineItem(
                    title: "Socks\n", quantity: 2, price: MonetaryAmount(amount: "12.00", currency: "USD"))
            ],
            total: MonetaryAmount(amount: "24.00", currency: "USD"),
            evidence: [
                Evidence(field: "orderNumber", source: "label", text: "Order #A-10023", confidence: 0.85)
            ])
        let line = ExtractionJSON.line(result)
        #expect(
            line
                == #"{"source":"inbox.mbox#3","messageID":"<m@x>","kind":"shippingConfirmation","merchant":{"name":"Example \"Outfitters\"","domain":"example.com"},"orderNumber":"A-10023","orderDate":"2026-11-20","shipments":[{"carrier":"UPS","trackingNumber":"1Z999AA10123456784","status":"onTheWay","estimatedDelivery":{"from":"2026-11-24","until":"2026-11-26"}}],"lineItems":[{"title":"Socks\n","quantity":2,"price":{"amount":"12.00","currency":"USD"}}],"total":{"amount":"24.00","currency":"USD"},"evidence":[{"field":"orderNumber","source":"label","text":"Order #A-10023","confidence":0.85}]}"#
        )
        #expect(!line.contains("\n"))
    }

    @Test func minimalResultHasOnlyTheKind() {
        #expect(
            ExtractionJSON.line(ExtractionResult(kind: .notAnOrder, orderNumber: ""))
                == #"{"kind":"notAnOrder"}"#)
    }

    @Test func outputDecodesBackToTheSameResult() throws {
        let result = Fixture.extract(
            Fixture.document(
                subject: "주문이 완료되었습니다", html: ["주문번호: 2026112012345", "총 결제금액\t38,900원", "\u{0001}"]))
        let line = ExtractionJSON.line(result)
        let decoded = try JSONDecoder().decode(ExtractionResult.self, from: Data(line.utf8))
        #expect(decoded == result)
    }

    @Test func numbersHaveNoExponent() {
        #expect(ExtractionJSON.number(0.85) == "0.85")
        #expect(ExtractionJSON.number(1) == "1")
        #expect(ExtractionJSON.number(0.00001) == "0")
    }
}
