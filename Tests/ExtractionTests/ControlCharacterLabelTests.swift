import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// A control character inside a label (NUL, `&#0;`, BEL …) does not hide the value after it:
/// rendering reads control characters as nothing, and a label of several words counts written
/// without its spaces too.
@Suite struct ControlCharacterLabelTests {
    static func message(type: String, body: String, subject: String = "Thanks for shopping with us") throws
        -> Message
    {
        let text = [
            "From: Lumen Shop <orders@lumen-shop.example>", "To: Jordan Lee <jordan.lee@example.com>",
            "Subject: \(subject)", "Date: Mon, 23 Nov 2026 10:00:00 +0000",
            "Message-ID: <c1@lumen-shop.example>",
            "MIME-Version: 1.0", "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: 8bit",
            "", body,
        ].joined(separator: "\r\n")
        return try Message(bytes: Array(text.utf8))
    }

    static func extract(type: String, body: String, subject: String = "Thanks for shopping with us") throws
        -> ExtractionResult
    {
        Fixture.extract(MailDocument(message: try message(type: type, body: body, subject: subject)))
    }

    static let controls = ["\u{0}", "\u{1}", "\u{7}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9F}"]

    @Test(arguments: controls)
    func aControlCharacterBetweenLabelWordsInPlainText(_ control: String) throws {
        let result = try Self.extract(
            type: "text/plain", body: "Hello Jordan,\r\nOrder\(control)number: LS-4471982\r\nThank you!")
        #expect(result.orderNumber == "LS-4471982", "\(control.unicodeScalars.map(\.value))")
    }

    @Test(arguments: controls)
    func aControlCharacterBetweenLabelWordsInHTML(_ control: String) throws {
        let result = try Self.extract(
            type: "text/html",
            body: "<p>Hello Jordan,</p><p>Order\(control)number: LS-4471982</p><p>Thank you!</p>")
        #expect(result.orderNumber == "LS-4471982", "\(control.unicodeScalars.map(\.value))")
    }

    @Test(arguments: ["&#0;", "&#1;", "&#x7;", "&#127;", "&#x85;"])
    func aControlCharacterReferenceBetweenLabelWordsInHTML(_ reference: String) throws {
        let result = try Self.extract(
            type: "text/html",
            body: "<p>Hello Jordan,</p><p>Order\(reference)number: LS-4471982</p><p>Thank you!</p>")
        #expect(result.orderNumber == "LS-4471982", "\(reference)")
    }

    /// Inside a label written as one word, a control character keeps the word whole.
    @Test func aControlCharacterInsideAOneWordLabel() throws {
        for (subject, body) in [
            ("Ihre Bestellung", "Vielen Dank für Ihren Einkauf!\r\nBestell\u{0}nummer: LS-4471982"),
            ("ご注文の確認", "ご注文ありがとうございます。\r\n注文\u{1}番号：LS-4471982"),
            ("주문 확인", "주문해 주셔서 감사합니다.\r\n주문\u{0}번호: LS-4471982"),
            ("Uw bestelling", "Bedankt voor je bestelling!\r\nBestel\u{7}nummer: LS-4471982"),
        ] {
            let result = try Self.extract(type: "text/plain", body: body, subject: subject)
            #expect(result.orderNumber == "LS-4471982", "\(body)")
        }
    }

    /// Labels written without their spaces, as some shops write them.
    @Test func labelsWrittenWithoutTheirSpaces() throws {
        let result = try Self.extract(
            type: "text/plain",
            body:
                "Thank you for your order!\r\nOrdernumber: LS-4471982\r\nCarrier: UPS\r\n"
                + "Trackingnumber: 1Z8A4F290361537848")
        #expect(result.orderNumber == "LS-4471982")
        #expect(result.shipments?.first?.trackingNumber == "1Z8A4F290361537848")
    }

    /// The prefilter reads control characters as rendering does: a message whose only order
    /// signal is a label with a NUL in it is let through.
    @Test func thePrefilterReadsControlCharactersAsNothing() throws {
        let prefilter = Prefilter(rules: Fixture.rules)
        for body in [
            "Hi,\r\nOrder\u{0}number: LS-4471982", "Hi,\r\nTracking\u{1}number: LS4471982",
            "<p>Hi,</p><p>Order&#0;number: LS-4471982</p>",
        ] {
            let message = try Self.message(type: body.hasPrefix("<") ? "text/html" : "text/plain", body: body)
            #expect(prefilter.needsFullWork(message), "\(body)")
        }
        let unrelated = try Self.message(
            type: "text/plain", body: "Hi,\r\nSee\u{0}you tomorrow at the\u{1}park.", subject: "Tomorrow")
        #expect(!prefilter.needsFullWork(unrelated))
    }

    @Test func joinedFormsFollowTheirLabels() {
        #expect(
            LanguageRules.withJoinedForms(["order total", "grand total", "total"]) == [
                "order total", "ordertotal", "grand total", "grandtotal", "total",
            ])
        // A joined form the rules list already stays where they put it.
        #expect(
            LanguageRules.withJoinedForms(["order #", "order#", "order no"]) == [
                "order #", "order#", "order no", "orderno",
            ])
        #expect(LanguageRules.withJoinedForms(["주문 번호", "주문번호"]) == ["주문 번호", "주문번호"])
        let english = Fixture.rules.languages.first { $0.code == "en" }
        #expect(english?.labels.orderNumber.contains("ordernumber") == true)
        #expect(english?.trackingNumberLabels.contains("trackingnumber") == true)
    }
}
