import Foundation
import MailDocument
import Testing

@testable import Extraction

/// Numbers near order words that are not order numbers: a wrong number is worse than none.
@Suite struct FalsePositiveTests {
    static let traps: [(String, [String])] = [
        (
            "phone number",
            ["Questions about your order? Call 1-800-555-0199", "Order support: (415) 555-0123"]
        ),
        ("Korean phone", ["주문 문의 02-1234-5678"]),
        ("date", ["Order 11/20/2026", "Order 2026-11-20 summary"]),
        ("eight-digit date", ["Order 20261120"]),
        ("ZIP code", ["Your order ships to 94103"]),
        ("coupon code", ["Coupon code: SAVE20NOW on your next order", "Use code WELCOME2026 at checkout"]),
        ("SKU", ["SKU: 88-1234-567", "Item # 4455667"]),
        ("invoice number", ["Invoice number: INV-2026-0042"]),
        ("customer number", ["Customer number: 55123456"]),
        ("price", ["Order 45.00", "Order total 1,234.56"]),
        ("a word after the label", ["Your order has been received", "Order now and save 20%"]),
        ("short number", ["Order 12"]),
        ("year", ["Order 2026"]),
        ("email address", ["Order 12345@example.com"]),
    ]

    @Test(arguments: traps.map(\.0)) func labelledTrapIsNotAnOrderNumber(_ name: String) {
        let lines = FalsePositiveTests.traps.first { $0.0 == name }?.1 ?? []
        let result = Fixture.extract(Fixture.document(subject: "Thank you for your order", html: lines))
        #expect(result.orderNumber == nil, "\(name): \(result.orderNumber ?? "")")
    }

    @Test func orderLabelFollowedByCouponLineDoesNotReachDown() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order",
                html: ["Thanks for your order", "SAVE2026 gets you 10% off"]))
        #expect(result.orderNumber == nil)
    }

    @Test func invoiceLabelBeforeOrderWordIsNotAnOrder() {
        let result = Fixture.extract(
            Fixture.document(subject: "Thanks for your order", html: ["Invoice number 778812 for order"]))
        #expect(result.orderNumber == nil)
    }

    @Test func plainNumbersWithoutLabelsAreIgnored() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order",
                html: [
                    "Thanks for your order!", "112233445566", "Call 1-800-555-0199",
                    "123 Main St, Springfield 62701",
                ]))
        #expect(result.orderNumber == nil)
    }

    @Test func moneyIsNotReadWithoutACurrency() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", html: ["Order number: 55123", "Total items: 3"]))
        #expect(result.total == nil)
    }
}

/// Emails that are not about an order carry no order number and no shipments.
@Suite struct NotAnOrderTests {
    @Test func promotionThatSaysOrderNow() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Black Friday: 40% off everything — order now!", name: "Example Shop",
                html: ["Shop now", "Order now and get free shipping", "Limited time offer", "Unsubscribe"]))
        #expect(result.kind == .notAnOrder)
        #expect(result.orderNumber == nil)
        #expect(result.shipments == nil)
    }

    @Test func passwordReset() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Reset your password",
                html: ["Click below to reset your password.", "Order history"]))
        #expect(result.kind == .notAnOrder)
    }

    @Test func surveyAboutARecentOrder() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "How did we do? Take our survey",
                html: ["Tell us about your recent order", "Take our survey"]))
        #expect(result.kind == .notAnOrder)
        #expect(result.orderNumber == nil)
    }

    @Test func bankAlertAndServiceInvoice() {
        let bank = Fixture.extract(
            Fixture.document(
                subject: "Transaction alert: card ending in 1234",
                html: ["A purchase of $45.00 was made", "Reference 99812345"]))
        #expect(bank.kind == .notAnOrder)
        let invoice = Fixture.extract(
            Fixture.document(
                subject: "Your invoice for November",
                html: ["Invoice number: INV-2026-11", "Amount due: $12.00"]))
        #expect(invoice.kind == .notAnOrder)
        #expect(invoice.orderNumber == nil)
    }

    @Test func newsletterInOtherLanguages() {
        let korean = Fixture.extract(
            Fixture.document(subject: "(광고) 이번 주 특가 상품", html: ["지금 주문하세요", "수신거부"]))
        #expect(korean.kind == .notAnOrder)
        let german = Fixture.extract(
            Fixture.document(
                subject: "Unser Newsletter: jetzt bestellen und sparen",
                html: ["Jetzt bestellen", "Newsletter abbestellen"]))
        #expect(german.kind == .notAnOrder)
    }

    @Test func orderNumberInANewsletterIsDropped() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Our newsletter",
                html: ["Newsletter", "Shop now", "Order now", "Your last order #559812 is eligible"]))
        #expect(result.kind == .notAnOrder)
        #expect(result.orderNumber == nil)
    }
}
