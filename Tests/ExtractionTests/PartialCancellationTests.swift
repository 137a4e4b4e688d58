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

    @Test func byteSearchFindsANeedleAnywhere() {
        func contains(_ needle: String, _ haystack: String) -> Bool {
            Array(needle.utf8).withUnsafeBytes { needle in
                Array(haystack.utf8).withUnsafeBytes { ExtractionContext.contains(needle, in: $0) }
            }
        }
        #expect(contains("abc", "abc"))
        #expect(contains("abc", "xxabc"))
        #expect(contains("abc", "abxabc"))
        #expect(contains("a", "xa"))
        #expect(!contains("abc", "abxab"))
        #expect(!contains("abcd", "abc"))
        #expect(!contains("abc", ""))
        #expect(!contains("", "abc"))
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
