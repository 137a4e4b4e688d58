import Foundation
import MailDocument
import Testing

@testable import Extraction

@Suite struct EnglishExtractionTests {
    @Test func readsOrderConfirmationFields() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your Example Outfitters order confirmation", from: "no-reply@example.com",
                name: "Example Outfitters Orders",
                html: [
                    "Thank you for your order!",
                    "Order #A-10023",
                    "Order date:\tNovember 19, 2026",
                    "Item\tQty\tPrice",
                    "Trail Runner Shoes\t1\t$89.00",
                    "Wool Socks\t2\t$12.00",
                    "Subtotal\t$101.00",
                    "Shipping\t$5.00",
                    "Order total:\t$1,106.00",
                    "Estimated delivery: Nov 24 – 26",
                ]))
        #expect(result.kind == .orderConfirmation)
        #expect(result.merchant == MerchantInfo(name: "Example Outfitters", domain: "example.com"))
        #expect(result.orderNumber == "A-10023")
        #expect(result.orderDate == "2026-11-19")
        #expect(result.total == MonetaryAmount(amount: "1106.00", currency: "USD"))
        #expect(
            result.lineItems == [
                LineItem(
                    title: "Trail Runner Shoes", quantity: 1,
                    price: MonetaryAmount(amount: "89.00", currency: "USD")),
                LineItem(
                    title: "Wool Socks", quantity: 2, price: MonetaryAmount(amount: "12.00", currency: "USD")),
            ])
        #expect(
            result.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-11-24", until: "2026-11-26"))
        #expect(result.shipments?.first?.status == .processing)
        let fields = Set(result.evidence?.map(\.field) ?? [])
        #expect(
            fields.isSuperset(of: ["kind", "merchant", "orderNumber", "orderDate", "total", "lineItems"]))
        #expect(result.evidence?.allSatisfy { ($0.confidence ?? 0) > 0 && ($0.confidence ?? 0) <= 1 } == true)
    }

    @Test func takesValueFromNextCellAndNextLine() {
        let nextCell = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", html: ["Order number\t55012-XY", "Total\t€19.99"]))
        #expect(nextCell.orderNumber == "55012-XY")
        let nextLine = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", html: ["Order number:", "", "7781234", "Done"]))
        #expect(nextLine.orderNumber == "7781234")
        let evidence = nextLine.evidence?.first { $0.field == "orderNumber" }
        #expect(evidence?.source == "label")
    }

    @Test func readsValuesByColumnUnderARowOfLabels() {
        let usd = MonetaryAmount(amount: "43.00", currency: "USD")
        let table = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", from: "orders@harborgoods.example",
                html: [
                    "Thank you for your order!",
                    "Order number\tOrder date\tTotal",
                    "#HG-1047\tNovember 3, 2026\t$43.00",
                ]))
        #expect(table.orderNumber == "HG-1047")
        #expect(table.orderDate == "2026-11-03")
        #expect(table.total == usd)
        #expect(
            table.evidence?.first { $0.field == "orderNumber" }?.text
                == "Order number | Order date | Total / #HG-1047 | November 3, 2026 | $43.00")
        // A text/plain pair of lines split at wide gaps; the columns in another order.
        var plain = Fixture.document(subject: "Thanks for your order", from: "orders@harborgoods.example")
        plain.plainText =
            PlainTextRenderer.render(
                text:
                    "Thank you for your order!\n\nTotal      Order date         Order #\n$43.00     November 3, 2026   HG-1047\n",
                partPath: "1"
            ).text
        let spaced = Fixture.extract(plain)
        #expect(spaced.orderNumber == "HG-1047")
        #expect(spaced.orderDate == "2026-11-03")
        #expect(spaced.total == usd)
        let german = Fixture.extract(
            Fixture.document(
                subject: "Vielen Dank für Ihre Bestellung", from: "bestellung@kaffeehaus.example",
                html: [
                    "Vielen Dank für Ihre Bestellung!",
                    "Bestellnummer\tBestelldatum\tGesamtbetrag",
                    "KH-400125\t03.11.2026\t29,70 €",
                ]))
        #expect(german.orderNumber == "KH-400125")
        #expect(german.orderDate == "2026-11-03")
        #expect(german.total == MonetaryAmount(amount: "29.70", currency: "EUR"))
    }

    /// A table's values row with an empty cell keeps its columns: its cells, empty ones
    /// counted, line up with the labels' cells.
    @Test func aValuesRowWithAnEmptyCellKeepsItsColumns() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", from: "orders@harborgoods.example",
                html: [
                    "Thank you for your order!",
                    "Order number\tOrder date\tTotal",
                    "#HG-1047\t\t$43.00",
                ]))
        #expect(result.orderNumber == "HG-1047")
        #expect(result.orderDate == nil)
        #expect(result.total == MonetaryAmount(amount: "43.00", currency: "USD"))
    }

    @Test func aRowOfLabelsOverARowOfOtherShapeGivesNothingByColumn() {
        // The row below has another number of cells, or no digit under the label: no value.
        let result = Fixture.extract(
            Fixture.document(
                subject: "Thanks for your order", from: "orders@harborgoods.example",
                html: [
                    "Thank you for your order!",
                    "Order number\tOrder date\tTotal",
                    "HG-1047\tNovember 3, 2026",
                    "",
                    "Carrier\tService",
                    "UPS\tGround",
                ]))
        #expect(result.orderNumber == nil)
        #expect(result.orderDate == nil)
        #expect(result.total == nil)
        #expect(result.shipments == nil)
    }

    @Test func subjectIsUsedOnlyWhenTheBodyHasNoNumber() {
        let onlySubject = Fixture.extract(
            Fixture.document(subject: "Your order #883201 has shipped", html: ["Your package is on its way."])
        )
        #expect(onlySubject.orderNumber == "883201")
        #expect(onlySubject.evidence?.first { $0.field == "orderNumber" }?.source == "subject")
        let disagree = Fixture.extract(
            Fixture.document(subject: "Order #111111 has shipped", html: ["Order number: 222222"]))
        #expect(disagree.orderNumber == "222222")
    }

    @Test func htmlWinsOverPlainTextWhenTheyDisagree() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation", html: ["Order number: 40001"], plain: ["Order number: 40002"]))
        #expect(result.orderNumber == "40001")
    }

    @Test func valueInBothRenditionsBeatsValueInOne() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation", html: ["Order number: 50001", "Order number: 50002"],
                plain: ["Order number: 50002"]))
        #expect(result.orderNumber == "50002")
    }

    /// Sunday 29 November 2026, 23:30 in Los Angeles is already Monday in UTC: "tomorrow" is
    /// still Monday the 30th, the day after the sender's day.
    @Test func relativeDeliveryWordsAreReadOnTheSendersDay() {
        var document = Fixture.document(
            subject: "Your order has shipped", html: ["Order #90210-77", "Arriving tomorrow"],
            date: Date(timeIntervalSince1970: 1_796_023_800))
        document.dateTimeZone = TimeZone(secondsFromGMT: -8 * 3600)
        #expect(
            Fixture.extract(document).shipments?.first?.estimatedDelivery
                == DateWindow(from: "2026-11-30", until: "2026-11-30"))
        document.dateTimeZone = nil
        #expect(
            Fixture.extract(document).shipments?.first?.estimatedDelivery
                == DateWindow(from: "2026-12-01", until: "2026-12-01"))
    }

    @Test func resolvesRelativeDeliveryWordsAgainstTheDateHeader() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order has shipped",
                html: ["Order #90210-77", "Arriving tomorrow", "Carrier: none"]))
        #expect(
            result.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-11-21", until: "2026-11-21"))
        let weekday = Fixture.extract(
            Fixture.document(
                subject: "Your order has shipped", html: ["Order #90210-77", "Arriving Tuesday"]))
        #expect(
            weekday.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-11-24", until: "2026-11-24")
        )
    }

    @Test func readsDeliveryWindowBetweenTwoDates() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order has shipped",
                html: ["Order #90210-77", "Estimated delivery:\tDecember 30, 2026 - January 2, 2027"]))
        #expect(
            result.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-12-30", until: "2027-01-02"))
    }

    @Test func readsShipmentStatusWords() {
        let out = Fixture.extract(
            Fixture.document(
                subject: "Your package is out for delivery", html: ["Order #90210-77", "Arriving today"]))
        #expect(out.kind == .deliveryUpdate)
        #expect(out.shipments?.first?.status == .outForDelivery)
        let delivered = Fixture.extract(
            Fixture.document(
                subject: "Your package was delivered", html: ["Order #90210-77", "Delivered today"]))
        #expect(delivered.kind == .deliveryUpdate)
    }

    @Test func cancellationAndRefundKinds() {
        let cancel = Fixture.extract(
            Fixture.document(subject: "Your order has been cancelled", html: ["Order number: 123456"]))
        #expect(cancel.kind == .cancellation)
        #expect(cancel.orderNumber == "123456")
        let refund = Fixture.extract(
            Fixture.document(
                subject: "Your refund has been issued",
                html: ["Order number: 123456", "Refund issued: $5.00"]))
        #expect(refund.kind == .refund)
    }

    @Test func aTypographicApostropheReadsAsTheRulesApostrophe() {
        // "We’ve received your order" (U+2019, as `&rsquo;` renders) is the rules' "we've
        // received your order": an order confirmation, not an email without order words.
        let received = Fixture.extract(
            Fixture.document(
                subject: "We\u{2019}ve received your order", from: "orders@pebblebooks.example",
                plain: ["Hi Sam,", "Your order PB-377013 was placed on November 3, 2026."]))
        #expect(received.kind == .orderConfirmation)
        #expect(received.orderNumber == "PB-377013")
        #expect(received.orderDate == "2026-11-03")
        let heading = Fixture.extract(
            Fixture.document(
                subject: "Pebble Books", from: "orders@pebblebooks.example",
                html: [
                    "We\u{2019}ve received your order",
                    "Your order PB-377013 was placed on November 3, 2026.",
                ]))
        #expect(heading.kind == .orderConfirmation)
        #expect(heading.orderNumber == "PB-377013")
        // A label: "numero dell’ordine".
        let italian = Fixture.extract(
            Fixture.document(
                subject: "Conferma dell\u{2019}ordine", from: "ordini@bottega.example",
                html: ["Numero dell\u{2019}ordine:\tBQ-4471", "Totale: 24,00 €"]))
        #expect(italian.kind == .orderConfirmation)
        #expect(italian.orderNumber == "BQ-4471")
        #expect(
            LanguageRules.withTypographicApostrophes(["we've refunded", "refund"])
                == ["we've refunded", "we\u{2019}ve refunded", "refund"])
    }

    @Test func aDateInParenthesesAfterTheOrderNumberIsTheOrderDate() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order has been received",
                html: ["[Order #5012] (November 20, 2026)", "Total: $33.00"]))
        #expect(result.orderNumber == "5012")
        #expect(result.orderDate == "2026-11-20")
        #expect(ExtractionContext.parenthesizedAfterNumber("] (November 20, 2026)") == "November 20, 2026")
        #expect(ExtractionContext.parenthesizedAfterNumber("is on its way") == nil)
    }
}
