import Foundation
import MailDocument
import Testing

@testable import Extraction

/// A cancellation email that cancels part of the order says so (`partialCancellation`), in
/// the rules' languages; one that cancels the whole order does not.
@Suite struct PartialCancellationTests {
    static func extract(subject: String, _ body: [String]) -> ExtractionResult {
        Fixture.extract(
            Fixture.document(subject: subject, from: "orders@acme-outdoor.example", plain: body))
    }

    @Test func partOfTheOrderInEachLanguage() {
        let cases: [(String, [String])] = [
            (
                "An item of your order A-55012 has been cancelled",
                [
                    "One item of your order A-55012 (Merino Hiking Socks) has been cancelled.",
                    "Order number: A-55012",
                ]
            ),
            (
                "Teilstornierung Ihrer Bestellung A-55012",
                ["Ein Artikel Ihrer Bestellung A-55012 wurde storniert.", "Bestellnummer: A-55012"]
            ),
            ("ご注文の一部キャンセルのお知らせ", ["ご注文の一部キャンセルを承りました。", "注文番号：A-55012"]),
            ("주문 부분 취소 안내", ["주문하신 상품의 부분 취소가 완료되었습니다.", "주문번호: A-55012"]),
            // Said without a full cancellation's words.
            (
                "Your order A-55012 has been partially cancelled",
                [
                    "Part of your order A-55012 has been cancelled.",
                    "The rest of your order ships as planned.",
                ]
            ),
            (
                "Teilstornierung Ihrer Bestellung 400123",
                ["wir mussten leider einen Artikel Ihrer Bestellung stornieren (Teilstornierung)."]
            ),
            ("【サンプル商店】一部キャンセルのお知らせ", ["ご注文商品の一部キャンセルが完了しました。", "注文番号：400123"]),
            (
                "Your order A-55012",
                ["We've cancelled the following item from your order A-55012:", "Merino Hiking Socks"]
            ),
        ]
        for (subject, body) in cases {
            let result = Self.extract(subject: subject, body)
            #expect(result.kind == .cancellation, "\(subject)")
            #expect(result.partialCancellation == true, "\(subject)")
        }
    }

    /// A whole cancellation that mentions a partial one in passing is whole; a whole
    /// cancellation said in other words is a cancellation.
    @Test func wholeWordsOutweighPartialOnes() {
        for body in [
            "Part of your order NW-60003 was delayed, so we have now cancelled the whole order.",
            "Your order NW-60003 has been cancelled in full. This is not a partial cancellation.",
            "Earlier only one item of your order would have been cancelled, but none of the items are available.",
        ] {
            let result = Self.extract(subject: "Your order NW-60003 has been cancelled", [body])
            #expect(result.kind == .cancellation, "\(body)")
            #expect(result.partialCancellation == nil, "\(body)")
        }
        let german = Self.extract(
            subject: "Stornierung Ihrer Bestellung 400123",
            [
                "Ihre Bestellung 400123 wurde vollständig storniert. Eine Teilstornierung war leider nicht möglich."
            ])
        #expect(german.kind == .cancellation)
        #expect(german.partialCancellation == nil)
        let entire = Self.extract(
            subject: "Order NW-60004 cancelled", ["We have cancelled your entire order NW-60004."])
        #expect(entire.kind == .cancellation)
        #expect(entire.partialCancellation == nil)
    }

    @Test func theWholeOrderIsNoPartialCancellation() {
        let result = Self.extract(
            subject: "Your order A-55012 has been cancelled",
            [
                "Your order A-55012 has been cancelled.", "Order number: A-55012",
                "One item: Merino Hiking Socks",
            ])
        #expect(result.kind == .cancellation)
        #expect(result.partialCancellation == nil)
        // Not a cancellation: the phrase alone says nothing.
        let shipped = Self.extract(
            subject: "Your order A-55012 has shipped",
            [
                "One item of your order A-55012 has shipped with UPS: 1ZA7X9252601815900",
                "Order number: A-55012",
            ])
        #expect(shipped.kind == .shippingConfirmation)
        #expect(shipped.partialCancellation == nil)
        #expect(!ExtractionJSON.line(shipped).contains("partialCancellation"))
        var partial = shipped
        partial.partialCancellation = true
        #expect(ExtractionJSON.line(partial).contains(#""partialCancellation":true"#))
    }
}
