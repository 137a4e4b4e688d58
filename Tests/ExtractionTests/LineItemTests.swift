import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// The cells ``ExtractionContext/plainTextCells(_:gaps:)`` splits a text/plain line into.
private func cells(_ line: String) -> [String] {
    let bytes = Array(line.utf8)
    return ExtractionContext.plainTextCells(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
}

/// A text/plain order as the document stage renders it (wide gaps noted).
private func plainDocument(subject: String, _ lines: [String]) -> MailDocument {
    var document = Fixture.document(subject: subject, plain: [])
    document.plainText = PlainTextRenderer.render(text: lines.joined(separator: "\n"), partPath: "1").text
    return document
}

@Suite struct LineItemTests {
    private func usd(_ amount: String) -> MonetaryAmount { MonetaryAmount(amount: amount, currency: "USD") }

    @Test func readsRowsOfAPlainTextOrderLaidOutWithSpaces() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Your order 48213 is confirmed",
                [
                    "Thank you for your order!",
                    "Order number:   48213",
                    "Order date:     November 19, 2026",
                    "Ship to:        10 Main Street, Springfield",
                    "Call us:        +1 555 123 4567",
                    "",
                    "Enamel Camp Mug ........ $12.00",
                    "2 x Linen Tea Towel      $18.00",
                    "Beeswax Wraps (x3)       $27.00",
                    "Coupon SAVE10            -$5.00",
                    "Taxes                    $4.10",
                    "Shipping                 $5.00",
                    "",
                    "Total:  $61.10",
                ]))
        #expect(result.orderNumber == "48213")
        #expect(result.orderDate == "2026-11-19")
        #expect(result.total == usd("61.10"))
        #expect(
            result.lineItems == [
                LineItem(title: "Enamel Camp Mug", quantity: 1, price: usd("12.00")),
                LineItem(title: "Linen Tea Towel", quantity: 2, price: usd("18.00")),
                LineItem(title: "Beeswax Wraps", quantity: 3, price: usd("27.00")),
            ])
        let evidence = result.evidence?.first { $0.field == "lineItems" }
        #expect(evidence?.source == "body")
        #expect(
            evidence?.text.hasPrefix("Enamel Camp Mug ........ $12.00 / 2 x Linen Tea Towel $18.00") == true)
    }

    /// "2 x $24.00" after the name: the count before the price is the quantity, the price the
    /// unit price (the bundled example's own text/plain).
    @Test func readsAQuantityWrittenBeforeThePrice() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Your order 48213 is confirmed",
                [
                    "Thank you for your order!", "Order number: 48213", "",
                    "Trailhead Rain Shell (Navy, M)    1 x $129.00",
                    "Merino Trail Socks, 3-pack        2 x $24.00",
                    "Enamel Camp Mug                   3× $12.00",
                    "", "Total:  $213.00",
                ]))
        #expect(
            result.lineItems == [
                LineItem(title: "Trailhead Rain Shell (Navy, M)", quantity: 1, price: usd("129.00")),
                LineItem(title: "Merino Trail Socks, 3-pack", quantity: 2, price: usd("24.00")),
                LineItem(title: "Enamel Camp Mug", quantity: 3, price: usd("12.00")),
            ])
        let euro = Fixture.extract(
            plainDocument(
                subject: "Ihre Bestellung 4711",
                [
                    "Vielen Dank für Ihre Bestellung!", "Bestellnummer: 4711", "",
                    "Sencha Grüntee 100 g      2 x EUR 7,00", "Teekanne aus Gusseisen   1 x EUR 39,00", "",
                    "Gesamtsumme: EUR 53,00",
                ]))
        #expect(euro.lineItems?.map(\.quantity) == [2, 1])
        #expect(euro.lineItems?.first?.price == MonetaryAmount(amount: "7.00", currency: "EUR"))
        // Words before the price are no count: "Save 2 x" is not a quantity.
        #expect(ExtractionContext.quantityBefore(NSRange(location: 7, length: 6), in: "only x $24.00") == nil)
        #expect(ExtractionContext.quantityBefore(NSRange(location: 4, length: 6), in: "0 x $24.00") == nil)
        #expect(ExtractionContext.quantityBefore(NSRange(location: 5, length: 6), in: "12 x $24.00") == 12)
    }

    /// A table whose header row starts with the quantity ("Qty | Item | Price"): each row's
    /// first cell is its count, not an article code. Without such a header, a leading number
    /// is no quantity (it may number the rows).
    /// A title that ends in an abbreviation's point ("32-tlg.", "Co.", "approx.") keeps it, and
    /// the wide gap after it still parts the columns.
    @Test func aTitleEndingInAPointKeepsItsColumns() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Ihre Bestellung 4711",
                [
                    "Vielen Dank für Ihre Bestellung!", "Bestellnummer: 4711", "",
                    "Artikel                       Menge    Preis",
                    "Bit-Set 32-tlg.               2        19,90 €",
                    "Filtertüten 100 Stk.          1        3,50 €", "",
                    "Gesamtsumme: 43,30 €",
                ]))
        #expect(result.lineItems?.map(\.title) == ["Bit-Set 32-tlg.", "Filtertüten 100 Stk."])
        #expect(result.lineItems?.map(\.quantity) == [2, 1])
    }

    @Test func readsAQuantityInTheFirstColumnUnderItsLabel() {
        let lines = [
            "Thank you for your order!", "Order number: 48213", "",
            "Qty   Item                        Price",
            "2     Walnut Cutting Board        $130.00",
            "1     Oak Tip Jar                 $18.00",
            "", "Total:  $148.00",
        ]
        let result = Fixture.extract(plainDocument(subject: "Your order 48213 is confirmed", lines))
        #expect(
            result.lineItems == [
                LineItem(title: "Walnut Cutting Board", quantity: 2, price: usd("130.00")),
                LineItem(title: "Oak Tip Jar", quantity: 1, price: usd("18.00")),
            ])
        let german = Fixture.extract(
            plainDocument(
                subject: "Ihre Bestellung 4711",
                [
                    "Vielen Dank für Ihre Bestellung!", "Bestellnummer: 4711", "",
                    "Menge   Artikel                Preis", "3       Sencha Grüntee 100 g   21,00 €", "",
                    "Gesamtsumme: 21,00 €",
                ]))
        #expect(german.lineItems?.first?.quantity == 3)
        #expect(german.lineItems?.first?.title == "Sencha Grüntee 100 g")
        let numbered = Fixture.extract(
            plainDocument(
                subject: "Your order 48213 is confirmed",
                Array(lines[0..<3]) + ["#     Item                        Price"] + Array(lines[4...])))
        #expect(numbered.lineItems?.allSatisfy { $0.quantity != 2 } != false)
        // One space after the label ("Qty Item"), an abbreviated label ("Cant."), counts with a
        // times sign ("2x").
        let narrow = Fixture.extract(
            plainDocument(
                subject: "Your order 48213 is confirmed",
                Array(lines[0..<3]) + ["Qty Item                        Price"]
                    + [
                        "2x    Walnut Cutting Board        $130.00",
                        "12    Paper Filters               $6.00", "",
                        "Total:  $136.00",
                    ]))
        #expect(narrow.lineItems?.map(\.quantity) == [2, 12])
        let spanish = Fixture.extract(
            plainDocument(
                subject: "Tu pedido 4711",
                [
                    "¡Gracias por tu pedido!", "Número de pedido: 4711", "",
                    "Cant.   Producto                    Precio",
                    "2       Aceite de oliva 500 ml      18,00 €", "",
                    "Total: 18,00 €",
                ]))
        #expect(spanish.lineItems?.first?.quantity == 2)
        #expect(ExtractionContext.countCell("2 ×") == 2)
        #expect(ExtractionContext.countCell("x3") == 3)
        #expect(ExtractionContext.countCell("2a") == nil)
    }

    @Test func readsTheHTMLTableWhenTheTotalWasChosenFromTextPlain() {
        // The plain part's label is the more specific one: the total is chosen from there, and
        // its rows are prose.
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\tBQ-55810",
                    "Leather Tote\t1\t$119.00",
                    "Shipping\t\t$10.00",
                    "Total: $129.00",
                ],
                plain: ["Order number: BQ-55810", "You ordered one Leather Tote.", "Order total: $129.00"]))
        #expect(result.total == usd("129.00"))
        #expect(result.evidence?.first { $0.field == "total" }?.text == "Order total: $129.00")
        #expect(result.lineItems == [LineItem(title: "Leather Tote", quantity: 1, price: usd("119.00"))])
    }

    @Test func pricesTakeTheTotalsCurrencyForAnAmbiguousSign() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Tu pedido MC-884120",
                [
                    "Número de pedido: MC-884120",
                    "Rebozo tejido a mano    1    $1,150.00",
                    "Total: $1,150.00 MXN",
                ]))
        #expect(result.total == MonetaryAmount(amount: "1150.00", currency: "MXN"))
        #expect(result.lineItems?.first?.price == MonetaryAmount(amount: "1150.00", currency: "MXN"))
    }

    @Test func proseAndLabelsInPlainTextAreNotItems() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order 48213 is confirmed",
                plain: [
                    "Order number: 48213",
                    "We charged your card $61.10 today.",
                    "Paid with:   $61.10",
                    "Gift card balance  $20.00",
                    "Total: $61.10",
                ]))
        #expect(result.orderNumber == "48213")
        #expect(result.lineItems == nil)
    }

    @Test func splitsPlainTextCellsAtWideGapsAndLeaders() {
        #expect(cells("Mug  1  $12.00") == ["Mug", "1", "$12.00"])
        #expect(cells("Mug ...... $12.00") == ["Mug", "$12.00"])
        #expect(cells("Mug......$12.00") == ["Mug", "$12.00"])
        #expect(cells("Acme Co. Mug $12.00") == ["Acme Co. Mug $12.00"])
        #expect(cells("Price 19.99  ") == ["Price 19.99"])
        let gapped = Array("Mug 1 $12.00".utf8)
        #expect(
            ExtractionContext.plainTextCells(gapped, gaps: [3, 5]).map {
                String(decoding: gapped[$0], as: UTF8.self)
            }
                == ["Mug", "1", "$12.00"])
        #expect(cells("Wait... what  $5") == ["Wait... what", "$5"])
        #expect(cells("Mug ... $12.00") == ["Mug", "$12.00"])
        #expect(cells("Wait...what") == ["Wait...what"])
        #expect(cells("") == [])
        #expect(cells("    ") == [])
    }

    @Test func readsAQuantityPrintedWithTheTitle() {
        #expect(ExtractionContext.titleAndQuantity("2 x Mug")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("2× Mug")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("12 × Mug")! == ("Mug", 12))
        #expect(ExtractionContext.titleAndQuantity("Mug x 2")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug ×2")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Braided Cable 2 m (x2)")! == ("Braided Cable 2 m", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug (x0)") == nil)
        #expect(ExtractionContext.titleAndQuantity("Mug x1000") == nil)
        #expect(ExtractionContext.titleAndQuantity("Box 10x2") == nil)
        #expect(ExtractionContext.titleAndQuantity("x 2") == nil)
        #expect(ExtractionContext.titleAndQuantity("2 x ") == nil)
        #expect(ExtractionContext.titleAndQuantity("iPhone X") == nil)
        #expect(ExtractionContext.titleAndQuantity("") == nil)
    }
}

@Suite struct LineItemPrecisionTests {
    private func usd(_ amount: String) -> MonetaryAmount { MonetaryAmount(amount: amount, currency: "USD") }

    @Test func discountsPaymentsAndSentencesAreNotItems() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order 48213 is confirmed",
                plain: [
                    "Order number: 48213",
                    "Mug\t$12.00",
                    "Promo code SAVE10\t-$3.00",
                    "Rewards applied\t−$2.00",
                    "Visa **** 4242\t$7.00",
                    "We are so glad\tit means $5.00 to us",
                    "Sie sparen\t5,00 €",
                    "Total: $7.00",
                ]))
        #expect(result.lineItems == [LineItem(title: "Mug", quantity: 1, price: usd("12.00"))])
    }

    @Test func theHTMLTableComesBeforeSpacedText() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t77120", "Rain jacket\t1\t$50.00", "Wool socks\t1\t$12.00", "Total: $62.00",
                ],
                plain: [
                    "Order number: 77120", "Rain jacket, wool socks", "Card ending 4242\t$62.00",
                    "Total: $62.00",
                ]))
        #expect(
            result.lineItems == [
                LineItem(title: "Rain jacket", quantity: 1, price: usd("50.00")),
                LineItem(title: "Wool socks", quantity: 1, price: usd("12.00")),
            ])
    }

    @Test func aRowOfAttributesTakesTheNameAbove() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t40021",
                    "Order summary",
                    "Ridgeline Insulated Jacket",
                    "Color: Spruce / Size: M · SKU 40021-SPR-M\tQty 1\t$119.00",
                    "Merino Trail Socks (2-pack)",
                    "SKU 11870-CHR\tQty 1\t$22.00",
                    "Subtotal\t$141.00",
                    "Total: $141.00",
                ]))
        #expect(
            result.lineItems == [
                LineItem(title: "Ridgeline Insulated Jacket", quantity: 1, price: usd("119.00")),
                LineItem(title: "Merino Trail Socks (2-pack)", quantity: 1, price: usd("22.00")),
            ])
        #expect(ExtractionContext.isAttributeLine("Farbe: Blau"))
        #expect(!ExtractionContext.isAttributeLine("Ridgeline Insulated Jacket"))
        #expect(!ExtractionContext.isAttributeLine("Note from the maker: handle with care, it is fragile"))
    }

    @Test func attributesAloneAreNoItemAndABlankLineKeepsTheNameAbove() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t7004",
                    "Classic Tee",
                    "",
                    "Color: Navy · Size: M\t$40.00",
                    "Option: Gift wrap\t$0.00",
                    "Refund of deposit\t($5.00)",
                    "Total: $40.00",
                ]))
        #expect(result.lineItems == [LineItem(title: "Classic Tee", quantity: 1, price: usd("40.00"))])
    }

    @Test func aNameInABlockOfItsOwnCellIsTheRowsTitle() {
        let html = """
            <p>Your Order #000000412</p>
            <table><tr><th>Items</th><th>Qty</th><th>Price</th></tr>
            <tr><td><p>Breathe-Easy Tank</p><p>SKU: WT09-XS-Purple</p><dl><dt>Size</dt><dd>XS</dd></dl></td>
                <td>2</td><td>$68.00</td></tr>
            <tr><td><p>Sprite Yoga Strap</p></td><td>1</td><td>$14.00</td></tr>
            <tr><td>Subtotal</td><td></td><td>$82.00</td></tr></table>
            <p>Grand Total: $82.00</p>
            """
        var document = Fixture.document(subject: "Your Luma order #000000412", html: [])
        document.htmlText = HTMLRenderer.render(html: html, partPath: "1").text
        let result = Fixture.extract(document)
        #expect(
            result.lineItems == [
                LineItem(title: "Breathe-Easy Tank", quantity: 2, price: usd("68.00")),
                LineItem(title: "Sprite Yoga Strap", quantity: 1, price: usd("14.00")),
            ])
        #expect(ExtractionContext.rowPath("html/body/table/tr[3]/td[1]/p") == "html/body/table/tr[3]")
        #expect(ExtractionContext.rowPath("html/body/table/tbody/tr/td") == "html/body/table/tbody/tr")
        #expect(ExtractionContext.rowPath("html/body/p[2]") == nil)
        // The innermost row of nested tables; a step that only starts with "tr" is no row.
        #expect(
            ExtractionContext.rowPath("html/body/table/tr/td/table/tr[2]/td[1]")
                == "html/body/table/tr/td/table/tr[2]")
        #expect(ExtractionContext.rowPath("html/body/track/div") == nil)
        #expect(ExtractionContext.rowPath("html/body/table/tr") == "html/body/table/tr")
        #expect(ExtractionContext.withoutNoBreakSpaces("a\u{00A0}b") == "a b")
        #expect(ExtractionContext.withoutNoBreakSpaces("½ kg") == "½ kg")
        #expect(ExtractionContext.rowPath("html/body/track/p") == nil)
    }

    /// A plain-text order forwarded inline: its rows keep their wide gaps in the original.
    @Test func aForwardedPlainTextOrderKeepsItsRows() throws {
        let raw = [
            "From: Jordan Lee <jordan@example.com>", "To: Sam <sam@example.net>",
            "Subject: Fwd: Your order 48213 is confirmed", "Date: Thu, 19 Nov 2026 10:00:00 +0000",
            "Message-ID: <fwd@example.com>", "Content-Type: text/plain; charset=utf-8", "",
            "For the records.", "", "---------- Forwarded message ---------",
            "From: Enamel Goods <orders@enamelgoods.example>", "Date: Wed, 18 Nov 2026 at 09:00",
            "Subject: Your order 48213 is confirmed", "To: Jordan Lee <jordan@example.com>", "",
            "Order number:   48213", "", "Enamel Camp Mug        1    $12.00",
            "Linen Tea Towel        2    $18.00", "", "Order total:  $30.00", "",
        ].joined(separator: "\r\n")
        let document = MailDocument(message: try Message(bytes: Array(raw.utf8)))
        #expect(document.forwardedOriginal?.plainText?.wideGaps.isEmpty == false)
        let result = Fixture.extract(document)
        #expect(result.orderNumber == "48213")
        #expect(
            result.lineItems == [
                LineItem(title: "Enamel Camp Mug", quantity: 1, price: usd("12.00")),
                LineItem(title: "Linen Tea Towel", quantity: 2, price: usd("18.00")),
            ])
    }

    @Test func anEmailOfSeveralOrdersGivesNoBodyRowsToTheFirst() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your orders",
                html: [
                    "Order number: BZ-8686-099604",
                    "Lavender Body Oil\t1\t$24.00",
                    "Order total: $28.99",
                    "Order number: BZ-0782-921999",
                    "Waxed Canvas Tote\t1\t$56.00",
                    "Order total: $61.99",
                ]))
        #expect(result.orderNumber == "BZ-8686-099604")
        #expect(result.additionalOrders?.isEmpty == false)
        #expect(result.lineItems == nil)
        #expect(result.evidence?.contains { $0.field == "lineItems" } == false)
    }

    @Test func aQuantityLabelAfterTheNameIsTheQuantity() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t8002",
                    "Mug (Qty: 2)\t$24.00",
                    "Tea Towel - Qty: 3\t$27.00",
                    "Phone Case - 256\t$9.00",
                    "Total: $60.00",
                ]))
        #expect(
            result.lineItems == [
                LineItem(title: "Mug", quantity: 2, price: usd("24.00")),
                LineItem(title: "Tea Towel", quantity: 3, price: usd("27.00")),
                LineItem(title: "Phone Case - 256", quantity: 1, price: usd("9.00")),
            ])
    }

    @Test func countsInParenthesesAndAgainstTheSignAreQuantities() {
        #expect(ExtractionContext.titleAndQuantity("Mug (2x)")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug (3×)")! == ("Mug", 3))
        #expect(ExtractionContext.titleAndQuantity("Zoom lens 10x") == nil)
        #expect(ExtractionContext.titleAndQuantity("Frame 13 x 18 x2")! == ("Frame 13 x 18", 2))
        #expect(ExtractionContext.titleAndQuantity("Screws 4 x 40") == nil)
    }

    @Test func widerLeadersSplitCells() {
        #expect(cells("湯呑み……3,000円") == ["湯呑み", "3,000円"])
        #expect(cells("湯呑み・・・3,000円") == ["湯呑み", "3,000円"])
        #expect(cells("Mug ____ $12.00") == ["Mug", "$12.00"])
        #expect(cells("Mug ···· $12.00") == ["Mug", "$12.00"])
        #expect(cells("Wait… what") == ["Wait… what"])
        #expect(cells("snake_case_name") == ["snake_case_name"])
    }

    @Test func productsNamedWithASummaryWordAreItemsAndSummaryRowsAreNot() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t4411",
                    "Shipping Container Model Kit\t1\t$40.00",
                    "Free Shipping Tote Bag\t1\t$15.00",
                    "MUG-7\tLinen Tea Towel\t1\t$9.00",
                    "Item subtotal\t\t$64.00",
                    "Express delivery\t\t$8.00",
                    "Paid with Visa ending 4242\t\t$72.00",
                    "Total: $72.00",
                ]))
        #expect(
            result.lineItems == [
                LineItem(title: "Shipping Container Model Kit", quantity: 1, price: usd("40.00")),
                LineItem(title: "Free Shipping Tote Bag", quantity: 1, price: usd("15.00")),
                LineItem(title: "Linen Tea Towel", quantity: 1, price: usd("9.00")),
            ])
        #expect(ExtractionContext.looksLikeCode("WT09-XS"))
        #expect(!ExtractionContext.looksLikeCode("Mug"))
        #expect(ExtractionContext.namesAPaymentCard("Visa **** 4242"))
        #expect(!ExtractionContext.namesAPaymentCard("Bookends, pair"))
    }

    @Test func productsNamedByASummaryWordAboveTheSummaryRowsAreItems() {
        // A quantity column shared with the item above, a product among products, a code.
        let table = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t4412",
                    "Enamel Mug\t1\t$12.00",
                    "Gift Card Holder Wallet\t1\t$24.00",
                    "Oak Tip Jar\t1\t$18.00",
                    "Subtotal\t\t$54.00",
                    "Shipping (Standard)\t\t$5.00",
                    "Shipping via UPS Ground 2-Day\t\t$8.00",
                    "Tax (8%)\t\t$4.32",
                    "Total: $71.32",
                ]))
        #expect(
            table.lineItems == [
                LineItem(title: "Enamel Mug", quantity: 1, price: usd("12.00")),
                LineItem(title: "Gift Card Holder Wallet", quantity: 1, price: usd("24.00")),
                LineItem(title: "Oak Tip Jar", quantity: 1, price: usd("18.00")),
            ])
        let plain = Fixture.extract(
            plainDocument(
                subject: "Your order 48214 is confirmed",
                [
                    "Order number: 48214",
                    "Oak Tip Jar ............ $18.00",
                    "Enamel Camp Mug ........ $12.00",
                    "Subtotal ............... $30.00",
                    "Express delivery ....... $8.00",
                    "Total:  $38.00",
                ]))
        #expect(
            plain.lineItems == [
                LineItem(title: "Oak Tip Jar", quantity: 1, price: usd("18.00")),
                LineItem(title: "Enamel Camp Mug", quantity: 1, price: usd("12.00")),
            ])
        let korean = Fixture.extract(
            Fixture.document(
                subject: "주문이 완료되었습니다",
                html: [
                    "주문번호: 20261103-0001",
                    "배송 박스 10매\t2\t12,000원",
                    "쿠폰 지갑\t1\t9,000원",
                    "상품금액\t\t21,000원",
                    "배송비\t\t3,000원",
                    "결제금액: 24,000원",
                ]))
        let krw = { (amount: String) in MonetaryAmount(amount: amount, currency: "KRW") }
        #expect(
            korean.lineItems == [
                LineItem(title: "배송 박스 10매", quantity: 2, price: krw("12000")),
                LineItem(title: "쿠폰 지갑", quantity: 1, price: krw("9000")),
            ])
        let german = Fixture.extract(
            Fixture.document(
                subject: "Bestellbestätigung",
                html: [
                    "Vielen Dank für Ihre Bestellung!",
                    "Bestellnummer: 400124",
                    "GB-12\tGutschein Box Holz\t1\t14,90 €",
                    "Kaffeetasse\t1\t9,90 €",
                    "Zwischensumme\t\t24,80 €",
                    "Versand (DHL)\t\t4,90 €",
                    "Gesamtbetrag: 29,70 €",
                ]))
        let eur = { (amount: String) in MonetaryAmount(amount: amount, currency: "EUR") }
        #expect(
            german.lineItems == [
                LineItem(title: "Gutschein Box Holz", quantity: 1, price: eur("14.90")),
                LineItem(title: "Kaffeetasse", quantity: 1, price: eur("9.90")),
            ])
    }

    @Test func readsShopifysTextPlainLayoutOfNameVariantAndPriceLines() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Order #1047 confirmed",
                [
                    "Harbor Goods", "Order #1047", "", "Thank you for your purchase!", "",
                    "Order summary", "",
                    "Linen Shirt", "Size: M / Blue", "2 × $19.00", "",
                    "Sea Fog Candle\u{00A0}×\u{00A0}2", "220 g / Amber", "$72.00", "",
                    "Beeswax Wraps × 3", "$27.00", "",
                    "Subtotal", "$137.00", "Shipping", "$5.00", "Total", "$142.00 USD", "",
                    "Free shipping on orders over", "$50.00",
                ]))
        #expect(result.total == usd("142.00"))
        #expect(
            result.lineItems == [
                LineItem(title: "Linen Shirt", quantity: 2, price: usd("19.00")),
                LineItem(title: "Sea Fog Candle", quantity: 2, price: usd("72.00")),
                LineItem(title: "Beeswax Wraps", quantity: 3, price: usd("27.00")),
            ])
        #expect(
            result.evidence?.first { $0.field == "lineItems" }?.text.hasPrefix(
                "Linen Shirt / Size: M / Blue / 2 × $19.00 / Sea Fog Candle × 2 / 220 g / Amber / $72.00")
                == true)
        let german = Fixture.extract(
            plainDocument(
                subject: "Bestellung #2291 bestätigt",
                [
                    "Vielen Dank für Ihre Bestellung!", "Bestellung #2291", "",
                    "Leinenhemd", "Größe: M / Blau", "2 × 19,00 €", "",
                    "Zwischensumme", "38,00 €", "Versand", "4,90 €", "Gesamtbetrag", "42,90 €",
                ]))
        #expect(
            german.lineItems == [
                LineItem(
                    title: "Leinenhemd", quantity: 2, price: MonetaryAmount(amount: "19.00", currency: "EUR"))
            ])
    }

    @Test func readsShopifysOlderTextPlainLineOfQuantityTitleAndPriceEach() {
        let result = Fixture.extract(
            plainDocument(
                subject: "Order #1049 confirmed",
                [
                    "Thank you for placing your order with Harbor Goods!",
                    "Order #1049", "",
                    "2x Linen Shirt - M / Blue for $19.00 each",
                    "1x Sea Fog Candle for $36.00 each",
                    "We charged 2x your card for $5.00 each",
                    "", "Subtotal  : $74.00 USD", "Shipping  : $5.00 USD", "Total     : $79.00 USD",
                ]))
        #expect(result.total == usd("79.00"))
        #expect(
            result.lineItems == [
                LineItem(title: "Linen Shirt - M / Blue", quantity: 2, price: usd("19.00")),
                LineItem(title: "Sea Fog Candle", quantity: 1, price: usd("36.00")),
            ])
        #expect(
            ExtractionContext.quantityTitlePriceEach("2 x Mug for €12,00 each")?.cells == ["Mug", "€12,00"])
        #expect(ExtractionContext.quantityTitlePriceEach("2x Mug for two days each") == nil)
        #expect(ExtractionContext.quantityTitlePriceEach("2x Mug for each") == nil)
        #expect(ExtractionContext.quantityTitlePriceEach("2x for each") == nil)
        #expect(ExtractionContext.quantityTitlePriceEach(" for each") == nil)
    }

    @Test func aLabelOrASentenceOverAPriceLineIsNoItem() {
        // Without a variant line or a quantity, a name over a price is a label and its value.
        let result = Fixture.extract(
            plainDocument(
                subject: "Order #1048 confirmed",
                [
                    "Order #1048", "",
                    "Gift wrap", "$4.00", "",
                    "We will charge your card when it ships.", "Size: M / Blue", "$20.00", "",
                    "Subtotal", "$24.00", "Total", "$24.00 USD",
                ]))
        #expect(result.orderNumber == "1048")
        #expect(result.total == usd("24.00"))
        #expect(result.lineItems == nil)
        #expect(ExtractionContext.isVariantLine("M / Blue"))
        #expect(!ExtractionContext.isVariantLine("Linen Shirt"))
        #expect(!ExtractionContext.isVariantLine("2 / $19.00"))
    }

    @Test func readsJapaneseRowsSpacedWithOneSpaceOrAnIdeographicSpace() {
        let jpy = { (amount: String) in MonetaryAmount(amount: amount, currency: "JPY") }
        let result = Fixture.extract(
            plainDocument(
                subject: "ご注文ありがとうございます",
                [
                    "ご注文ありがとうございます。",
                    "ご注文番号：IM-20261103-0042",
                    "",
                    "・今治タオル 3枚セット\u{3000}¥3,980",
                    "湯呑み ¥1,200 × 2",
                    "・和紙のレターセット\u{3000}2点\u{3000}1,400円",
                    "茶碗 2,400円",
                    "商品代金 ¥9,780",
                    "送料 ¥500",
                    "お支払い金額は ¥10,280 です。",
                    "合計：¥10,280",
                ]))
        #expect(result.orderNumber == "IM-20261103-0042")
        #expect(result.total == jpy("10280"))
        #expect(
            result.lineItems == [
                LineItem(title: "今治タオル 3枚セット", quantity: 1, price: jpy("3980")),
                LineItem(title: "湯呑み", quantity: 2, price: jpy("1200")),
                LineItem(title: "和紙のレターセット", quantity: 2, price: jpy("1400")),
                LineItem(title: "茶碗", quantity: 1, price: jpy("2400")),
            ])
        // Chinese, with the total's currency for "¥".
        let chinese = Fixture.extract(
            plainDocument(
                subject: "订单确认",
                [
                    "感谢您的订购！", "订单号：CN20261103001", "",
                    "紫砂茶壶 ¥268.00 × 1", "■青瓷茶杯\u{3000}4件\u{3000}¥96.00", "运费 ¥10.00",
                    "实付款：¥374.00 元",
                ]))
        let cny = { (amount: String) in MonetaryAmount(amount: amount, currency: "CNY") }
        #expect(chinese.total == cny("374.00"))
        #expect(
            chinese.lineItems == [
                LineItem(title: "紫砂茶壶", quantity: 1, price: cny("268.00")),
                LineItem(title: "青瓷茶杯", quantity: 4, price: cny("96.00")),
            ])
        // The ideographic space is a wide gap of the text/plain rendition.
        #expect(PlainTextRenderer.render(text: "湯呑み\u{3000}¥3,980", partPath: "1").text.wideGaps == [9])
        #expect(ExtractionContext.singleSpacedCJKRow("お支払い金額は ¥10,280 です。") == nil)
        #expect(ExtractionContext.singleSpacedCJKRow("Enamel mug ¥1,200") == nil)
        #expect(ExtractionContext.singleSpacedCJKRow("茶碗 $24.00") == nil)
        #expect(ExtractionContext.withoutListMarker("・今治タオル") == "今治タオル")
        #expect(ExtractionContext.withoutListMarker("★限定★ マグ") == "★限定★ マグ")
    }

    @Test func summaryRowsWithAWordMoreAreNotItems() {
        // Without a mark of an item, a summary phrase and a word or two is a summary row: alone,
        // two in a row, or below the first summary row.
        let result = Fixture.extract(
            Fixture.document(
                subject: "Conferma ordine",
                html: [
                    "Numero ordine: BQ-4472",
                    "Borsa in pelle\t1\t119,00 €",
                    "Costi di spedizione\t\t5,00 €",
                    "Buono regalo digitale\t\t10,00 €",
                    "Totale: 134,00 €",
                ]))
        #expect(
            result.lineItems == [
                LineItem(
                    title: "Borsa in pelle", quantity: 1,
                    price: MonetaryAmount(amount: "119.00", currency: "EUR"))
            ])
        let shippingFirst = Fixture.extract(
            plainDocument(
                subject: "Your order 48215 is confirmed",
                [
                    "Order number: 48215",
                    "Enamel Camp Mug       $12.00",
                    "Standard shipping     $5.00",
                    "Estimated tax         $1.02",
                    "Total:  $18.02",
                ]))
        #expect(
            shippingFirst.lineItems == [LineItem(title: "Enamel Camp Mug", quantity: 1, price: usd("12.00"))])
        // A summary row of another shape than the items, or a label, before a row that is no
        // summary phrase: still a summary row.
        let giftWrap = Fixture.extract(
            Fixture.document(
                subject: "Order confirmation",
                html: [
                    "Order number\t4413",
                    "Enamel Mug\t1\t$12.00",
                    "Item subtotal\t\t$12.00",
                    "Gift wrap\t\t$3.00",
                    "Total: $15.00",
                ]))
        #expect(giftWrap.lineItems?.first?.title == "Enamel Mug")
        #expect(giftWrap.lineItems?.contains { $0.title == "Item subtotal" } == false)
        let labelled = Fixture.extract(
            plainDocument(
                subject: "Your order 48216 is confirmed",
                [
                    "Order number: 48216",
                    "Enamel Camp Mug       $12.00",
                    "Items subtotal:       $12.00",
                    "Oak Tip Jar           $18.00",
                    "Total:  $30.00",
                ]))
        #expect(labelled.lineItems?.map(\.title) == ["Enamel Camp Mug"])
        let summary = Fixture.extractor.allSummaryRows
        let form = { (title: String) in
            ExtractionContext.summaryRowForm(Text.fold(Array(title.lowercased().utf8)), summary)
        }
        #expect(form("Shipping") == .definite)
        #expect(form("Shipping & Handling") == .definite)
        #expect(form("Shipping (Standard)") == .definite)
        #expect(form("送料（税込）") == .definite)
        #expect(form("Express delivery") == .short)
        #expect(form("Oak Tip Jar") == .short)
        #expect(form("Free Shipping Tote Bag") == .withinName)
        #expect(form("Enamel Mug") == .none)
    }

    @Test func aCurrencySetApartFromItsAmountIsOnePrice() {
        #expect(ExtractionContext.isCurrencyCell(Array("EUR".utf8)[...]))
        #expect(ExtractionContext.isCurrencyCell(Array("€".utf8)[...]))
        #expect(ExtractionContext.isCurrencyCell(Array(" $ ".utf8)[...]))
        #expect(!ExtractionContext.isCurrencyCell(Array("2".utf8)[...]))
        #expect(!ExtractionContext.isCurrencyCell(Array("Mug".utf8)[...]))
        var document = Fixture.document(subject: "Bestellung 400123", plain: [])
        document.plainText =
            PlainTextRenderer.render(
                text:
                    "Bestellnummer: 400123\nKaffeetasse Steingut   2   EUR   24,00\nGesamtbetrag: EUR 24,00",
                partPath: "1"
            ).text
        let result = Fixture.extract(document)
        #expect(
            result.lineItems == [
                LineItem(
                    title: "Kaffeetasse Steingut", quantity: 2,
                    price: MonetaryAmount(amount: "24.00", currency: "EUR"))
            ])
    }

    @Test func sizesAreNotQuantitiesAndBulletsAreNotTitles() {
        #expect(ExtractionContext.titleAndQuantity("Rug 160 x 230") == nil)
        #expect(ExtractionContext.titleAndQuantity("2 x 4 Lumber") == nil)
        #expect(ExtractionContext.titleAndQuantity("Storage box 3 x 2") == nil)
        #expect(ExtractionContext.withoutListMarker("- Enamel mug") == "Enamel mug")
        #expect(ExtractionContext.withoutListMarker("•  Apron") == "Apron")
        #expect(ExtractionContext.withoutListMarker("-Mug") == "-Mug")
        #expect(ExtractionContext.withoutListMarker("T-shirt") == "T-shirt")
        #expect(ExtractionContext.lettersOutside(NSRange(location: 0, length: 6), of: "$12.00 USD") == 3)
    }
}
