import Foundation
import MailDocument
import Testing

@testable import Extraction

/// A new shop's first orders have numbers of one to three digits ("Order number: 42"): read
/// when they are a strong label's whole value, and never when they are only near an order word.
@Suite struct ShortOrderNumberTests {
    static func confirmation(_ lines: [String], subject: String = "Thank you for your order")
        -> ExtractionResult
    {
        Fixture.extract(
            Fixture.document(
                subject: subject, from: "orders@fernshop.example", name: "Fern Shop",
                html: ["Thank you for shopping at Fern Shop. Your order has been received."] + lines
                    + ["Ceramic mug\t1\t$18.00", "Total:\t$18.00"]))
    }

    static let found: [(lines: [String], number: String)] = [
        (["Order number: 42"], "42"),
        (["Order #7"], "7"),
        (["Order number:\t105"], "105"),
        (["Order number: 2026"], "2026"),
        (["Order #1999"], "1999"),
        (["Your order number is 42."], "42"),
        (["Order ID: AB12"], "AB12"),
        (["Order number: HX-3"], "HX-3"),
        (["Confirmation number: 9"], "9"),
    ]

    @Test(arguments: found.indices) func shortNumberAsTheLabelsWholeValueIsRead(_ index: Int) {
        let (lines, number) = Self.found[index]
        let result = Self.confirmation(lines)
        #expect(result.kind == .orderConfirmation)
        #expect(result.orderNumber == number, "\(lines)")
        let evidence = result.evidence?.first { $0.field == "orderNumber" }
        #expect((evidence?.confidence ?? 1) < 0.85, "a short number is trusted less")
    }

    @Test func shortNumbersInOtherLanguages() {
        let german = Fixture.extract(
            Fixture.document(
                subject: "Ihre Bestellung bei Kaffeehaus Bohne", from: "shop@kaffeehaus.example",
                html: ["Vielen Dank für Ihre Bestellung!", "Bestellnummer: 42", "Gesamtsumme: 19,99 €"]))
        #expect(german.orderNumber == "42")
        let japanese = Fixture.extract(
            Fixture.document(
                subject: "ご注文ありがとうございます", from: "shop@kissa.example",
                html: ["ご注文ありがとうございます。", "注文番号：42", "合計：¥3,980"]))
        #expect(japanese.orderNumber == "42")
    }

    static let traps: [[String]] = [
        // Not the whole value: a count, a position, a sentence.
        ["Order number: 42 items shipped"],
        ["Order #1 of 3 is on its way"],
        ["Order number: 2 of your orders"],
        // Not an order number's shape.
        ["Order number: 0"],
        ["Order number: 000"],
        ["Order number: 12.50"],
        ["Order number: 1/2"],
        ["Order number: N/A"],
        ["Order number: ABCDE"],
        ["Order number: A-B-1"],
        // Below an empty label: a quantity, an item count.
        ["Order number:", "2"],
        ["Order number:\t", "2\tTrail shoes"],
        ["Order #:", "2pcs"],
        ["Order number", "42"],
        // Lower-case letters: a quantity or a size.
        ["Order number: 2pcs"],
        ["Order number: x2"],
        // Only near a weak order word.
        ["Order 12"],
        ["Your order 3 will ship soon"],
    ]

    @Test(arguments: traps.indices) func shortNumberNotAloneAfterAStrongLabelIsNotRead(_ index: Int) {
        let result = Self.confirmation(Self.traps[index])
        #expect(result.orderNumber == nil, "\(Self.traps[index]): \(result.orderNumber ?? "")")
    }

    @Test func shortNumberInTheSubjectAloneIsNotEnough() {
        let result = Self.confirmation([], subject: "Your order #42")
        #expect(result.orderNumber == nil)
    }

    @Test func shortNumberInSubjectAndBodyAgrees() {
        let result = Self.confirmation(["Order number: 42"], subject: "Your order #42")
        #expect(result.orderNumber == "42")
    }

    @Test func longerNumberWinsOverAShortOne() {
        let result = Self.confirmation(["Order number: 42", "Order number: 100042"])
        #expect(result.orderNumber == "100042")
    }

    @Test func shortLabelledShapes() {
        let fillers: Set<String> = ["is", "no.", "no", "number", "#", ":", "id"]
        #expect(OrderNumberToken.shortLabelled("42", fillers: fillers) == "42")
        #expect(OrderNumberToken.shortLabelled("no. 42).", fillers: fillers) == "42")
        #expect(OrderNumberToken.shortLabelled("is 7!", fillers: fillers) == "7")
        #expect(OrderNumberToken.shortLabelled("2026", fillers: fillers) == "2026")
        #expect(OrderNumberToken.shortLabelled("12345", fillers: fillers) == nil)
        #expect(OrderNumberToken.shortLabelled("x2", fillers: fillers) == nil)
        #expect(OrderNumberToken.shortLabelled("X2", fillers: fillers) == "X2")
        #expect(OrderNumberToken.shortLabelled("is", fillers: fillers) == nil)
        #expect(OrderNumberToken.shortLabelled("", fillers: fillers) == nil)
        #expect(OrderNumberToken.shortLabelled("４２", fillers: fillers) == nil)
        #expect(
            OrderNumberToken.shortLabelled(String(repeating: "is ", count: 30) + "4", fillers: fillers) == nil
        )
        // Another label after it ends the value, also after a separator: a layout's line.
        #expect(OrderNumberToken.shortLabelled("OL-1 Total: $10.00", fillers: fillers) == "OL-1")
        #expect(OrderNumberToken.shortLabelled("OL-3 | Total: $10.00", fillers: fillers) == "OL-3")
        #expect(OrderNumberToken.shortLabelled("is OL-12. Total: $10.00", fillers: fillers) == "OL-12")
        // Words that are no label still refuse it.
        #expect(OrderNumberToken.shortLabelled("2 items in total", fillers: fillers) == nil)
        #expect(OrderNumberToken.shortLabelled("2 | items", fillers: fillers) == nil)
    }

    /// An order number read from the hidden preview text says so in its evidence, not
    /// "subject".
    @Test func aNumberFromThePreheaderIsEvidencedAsSuch() {
        var document = Fixture.document(
            subject: "Your parcel is on its way", plain: ["Thanks for shopping with us!"])
        document.preheader = "Order #FF-2210"
        let result = Fixture.extract(document)
        #expect(result.orderNumber == "FF-2210")
        #expect(result.evidence?.first { $0.field == "orderNumber" }?.source == "preheader")
    }

    /// A short number inline before the next label, as new users' shops print it.
    @Test func aShortNumberBeforeTheNextLabelIsRead() {
        for line in ["Order number: OL-1 Total: $10.00", "Your order number is OL-12. Total: $10.00"] {
            let result = Fixture.extract(
                Fixture.document(
                    subject: "Thank you for your order", plain: ["Thanks for your order! " + line]))
            #expect(result.orderNumber == (line.contains("OL-12") ? "OL-12" : "OL-1"), "\(line)")
        }
    }
}
