import Extraction
import Foundation
import MIME
import Testing

@testable import MerchantCheck

/// Real messages through the whole reader (MIME, document, extraction with the repository's
/// rules) and the checker.
@Suite struct EndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
    static let checker: MerchantEmailChecker? = {
        guard let rules = try? Rules.load(from: repository.appendingPathComponent("rules")) else {
            return nil
        }
        return MerchantEmailChecker(rules: rules)
    }()

    static func email(html: String, subject: String = "Your order NW-48213 has shipped!") -> [UInt8] {
        let message = """
            From: Northwind Outfitters <orders@northwind-outfitters.example>
            To: Jamie Rivera <jamie@mail.example>
            Subject: \(subject)
            Date: Thu, 19 Nov 2026 16:05:00 -0500
            Message-ID: <e2e@northwind-outfitters.example>
            MIME-Version: 1.0
            Content-Type: text/html; charset=utf-8

            \(html)
            """
        return Array(message.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    @Test func exampleShippingEmailPassesWithItsFieldsAndWalletOrder() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let path = Self.repository.appendingPathComponent(
            "examples/Maildir/cur/1764400002.M2P4242.mailhost:2,S")
        let report = try checker.check(
            messageBytes: [UInt8](try Data(contentsOf: path)), origin: "shipped.eml", expect: .shipping)
        #expect(report.kind == .shippingConfirmation)
        #expect(!report.hasErrors, "\(report.findings)")
        #expect(report.value(of: "orderNumber") == "NW-48213")
        #expect(report.value(of: "shipments[0].trackingNumber") == "1ZA7X9252601815900")
        #expect(report.value(of: "shipments[0].carrier") == "UPS")
        #expect(report.fields.first { $0.field == "orderNumber" }?.snippet?.contains("NW-48213") == true)
        #expect(report.senderDomain == "northwind-outfitters.example")
        #expect(report.walletOrderJSON?.contains("\"trackingNumber\" : \"1ZA7X9252601815900\"") == true)
        #expect(report.emailHTML?.contains("Your order is on its way!") == true)
        let page = ReportRenderer.html([report])
        #expect(page.contains("&lt;mark class=&quot;mo-found&quot;&gt;NW-48213&lt;/mark&gt;"))
    }

    /// A Date field in 2099 is read as no date, as `scan` reads it: MO702 says so, and the
    /// Wallet preview carries no 2099 date; the same email dated today has no MO702.
    @Test func aDateAfterTheCheckIsMO702AndDatesNothing() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let html = """
            <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped with UPS.</p>
            <p>Tracking number: <a href="https://www.ups.com/track?tracknum=1ZA7X9252601815900">1ZA7X9252601815900</a></p>
            <p>It arrives tomorrow.</p></body></html>
            """
        let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
        let dated = String(decoding: Self.email(html: html), as: UTF8.self)
        let future = dated.replacingOccurrences(
            of: "Date: Thu, 19 Nov 2026 16:05:00 -0500", with: "Date: Tue, 01 Dec 2099 09:00:00 +0000")
        let message = try Message(bytes: Array(future.utf8))
        let report = checker.check(message: message, origin: "future.eml", expect: .shipping, now: now)
        let finding = try #require(report.findings.first { $0.code == "MO702" }, "\(report.findings)")
        #expect(finding.severity == .warning)
        #expect(finding.evidence == "2099-12-01T09:00:00Z")
        #expect(report.value(of: "orderNumber") == "NW-48213")
        let preview = try #require(report.walletOrderJSON)
        #expect(!preview.contains("2099-"), "\(preview)")
        #expect(!preview.contains("2100-"), "\(preview)")

        let today = try Message(bytes: Self.email(html: html))
        let fine = checker.check(message: today, origin: "today.eml", expect: .shipping, now: now)
        #expect(!fine.findings.contains { $0.code == "MO702" })
        #expect(fine.walletOrderJSON?.contains("2026-11-") == true)
    }

    /// A test email with a made-up number that counts up: MO201 says that is why no tracking
    /// number was taken, and how to test instead.
    @Test func aPlaceholderTrackingNumberIsNamedInMO201() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped.</p>
                    <p>Carrier: SF Express</p><p>Tracking number: SF1234567890123</p></body></html>
                    """), origin: "test.eml", expect: .shipping)
        let finding = try #require(report.findings.first { $0.code == "MO201" }, "\(report.findings)")
        #expect(finding.evidence == "SF1234567890123")
        #expect(finding.message.contains("looks like a placeholder"))
        #expect(finding.fix.contains("1Z999AA10123456784"))
        #expect(MerchantEmailChecker.placeholderTrackingNumber(in: "Order NW-48213 of 2026-11-19") == nil)
    }

    /// The preview of a cancellation of part of the order shows it open, as `scan` keeps it;
    /// a whole cancellation shows it cancelled.
    @Test func aPartialCancellationsPreviewIsOpen() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        func status(_ html: String, subject: String) throws -> String? {
            let report = try checker.check(
                messageBytes: Self.email(html: html, subject: subject), origin: "c.eml")
            let preview = try #require(report.walletOrderJSON)
            let object = try JSONSerialization.jsonObject(with: Data(preview.utf8)) as? [String: Any]
            return object?["status"] as? String
        }
        #expect(
            try status(
                "<p>One item of your order NW-48213 has been cancelled.</p><p>Order number: NW-48213</p>",
                subject: "An item of your order NW-48213 has been cancelled") == "open")
        #expect(
            try status(
                "<p>Your order NW-48213 has been cancelled.</p><p>Order number: NW-48213</p>",
                subject: "Your order NW-48213 has been cancelled") == "cancelled")
    }

    @Test func trackingNumberInDisplayNoneIsMO302() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let broken = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped with UPS.</p>
                    <div style="display:none">Tracking number: 1ZA7X9252601815900</div>
                    <p><a href="https://www.ups.com/track">Track your package</a></p></body></html>
                    """), origin: "hidden.eml", expect: .shipping)
        #expect(broken.findings.contains { $0.code == "MO302" }, "\(broken.findings)")
        #expect(broken.hasErrors)
        let fixed = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped with UPS.</p>
                    <div>Tracking number: 1ZA7X9252601815900</div>
                    <p><a href="https://www.ups.com/track?tracknum=1ZA7X9252601815900">Track your package</a></p>
                    </body></html>
                    """), origin: "fixed.eml", expect: .shipping)
        #expect(!fixed.hasErrors, "\(fixed.findings)")
    }

    @Test func trackingNumberOnlyInLinkIsMO202() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped with UPS.</p>
                    <p><a href="https://www.ups.com/track?tracknum=1ZA7X9252601815900">Track your package</a></p>
                    </body></html>
                    """), origin: "link.eml", expect: .shipping)
        let finding = report.findings.first { $0.code == "MO202" }
        #expect(finding?.message.contains("inside a link") == true, "\(report.findings)")
    }

    @Test func merchantOnlyInLogoIsMO101() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><img src="cid:logo" alt="Northwind Outfitters">
                    <p>Thank you for your order!</p><p>Order number: NW-48213</p></body></html>
                    """, subject: "Order confirmation"), origin: "logo.eml")
        #expect(report.findings.contains { $0.code == "MO101" }, "\(report.findings)")
    }

    @Test func wrongCheckDigitWithTheRepositorysCarrierRulesIsMO205() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(
            messageBytes: Self.email(
                html: """
                    <html><body><h1>Northwind Outfitters</h1><p>Your order NW-48213 has shipped with UPS.</p>
                    <p>Tracking number: 1ZA7X9252601815901</p></body></html>
                    """), origin: "digit.eml", expect: .shipping)
        #expect(
            report.findings.contains { $0.code == "MO205" && $0.message.contains("1ZA7X9252601815901") },
            "\(report.findings)")
    }

    /// A carrier's number with a wrong check digit, printed with a label: MO205 names it, and
    /// the check does not also claim that no tracking number was printed (MO201).
    @Test(arguments: [
        ("Corpus/ja-sagawa-haitatsu-kanryo.eml", "705182639475", "705182639476"),
        ("Corpus/de-dhl-sendung-kommt-heute-8bit.eml", "00340434201175938604", "00340434201175938605"),
    ])
    func wrongCheckDigitOfTheEmailsCarrierIsMO205AndNotMO201(_ file: String, _ good: String, _ bad: String)
        throws
    {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let original = try Data(contentsOf: Self.repository.appendingPathComponent(file))
        let text = String(decoding: original, as: UTF8.self)
        #expect(text.contains(good))
        let report = try checker.check(
            messageBytes: Array(text.replacingOccurrences(of: good, with: bad).utf8), origin: "bad.eml")
        let codes = report.findings.map(\.code)
        #expect(report.findings.contains { $0.code == "MO205" && $0.message.contains(bad) }, "\(codes)")
        #expect(!codes.contains("MO201"), "\(codes)")
        let intact = try checker.check(messageBytes: [UInt8](original), origin: "good.eml")
        #expect(!intact.findings.contains { $0.code == "MO205" }, "\(intact.findings.map(\.code))")
    }

    /// A shipping email of a Japanese shop, in UTF-8 text, with the given lines.
    static func shippingEmail(_ lines: [String]) -> [UInt8] {
        let subject = Data("商品発送のお知らせ".utf8).base64EncodedString()
        let message = """
            From: Komorebi Zakka <info@komorebi-zakka.example>
            To: hanako@example.jp
            Subject: =?utf-8?B?\(subject)?=
            Date: Sun, 22 Nov 2026 16:30:00 +0900
            Message-ID: <ship@komorebi-zakka.example>
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8

            Komorebi Zakka
            ご注文いただいた商品を本日発送いたしました。
            ご注文番号: KM-4571

            """ + lines.joined(separator: "\n") + "\n"
        return Array(message.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    /// A tracking number with a wrong check digit, given as a tracking number — after a
    /// tracking label the extractor reads, or with its carrier named beside it — is MO205 for
    /// every carrier whose format has a check digit, never MO201; with the right digit the
    /// number is found and neither is reported.
    @Test(arguments: [
        // ヤマト運輸 and 佐川急便 (mod 7), named beside the number, no label.
        ("ヤマト運輸でお届けします: ", "394028173615", "394028173616"),
        ("佐川急便でお届けします: ", "552882001825", "552882001826"),
        // A label the extractor reads but the languages' list leaves out, and the carrier named.
        ("配送業者: ヤマト運輸\n問合せ番号: ", "3940-2817-3615", "3940-2817-3616"),
        // 日本郵便's international numbers (UPU S10).
        ("日本郵便 国際郵便 お問い合わせ番号: ", "EJ123456785JP", "EJ123456784JP"),
        // UPS, named, and a UPU S10 number of a postal operator with no rules file of its own.
        ("UPS: ", "1ZA7X9252601815900", "1ZA7X9252601815901"),
        ("Tracking number: ", "RR123456785SE", "RR123456784SE"),
    ])
    func wrongCheckDigitOfANamedCarrierIsMO205(_ before: String, _ good: String, _ bad: String) throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(messageBytes: Self.shippingEmail([before + bad]), origin: "bad.eml")
        let codes = report.findings.map(\.code)
        let compact = bad.replacingOccurrences(of: "-", with: "")
        #expect(report.findings.contains { $0.code == "MO205" && $0.message.contains(compact) }, "\(codes)")
        #expect(!codes.contains("MO201"), "\(codes)")
        let intact = try checker.check(messageBytes: Self.shippingEmail([before + good]), origin: "good.eml")
        #expect(!intact.findings.contains { $0.code == "MO205" || $0.code == "MO201" }, "\(intact.findings)")
        #expect(
            intact.value(of: "shipments[0].trackingNumber") == good.replacingOccurrences(of: "-", with: ""))
    }

    /// A number written in full-width digits, as Japanese email often has them, is read as
    /// the extractor reads it: MO205 with a wrong check digit, found with the right one.
    @Test func aFullWidthNumberWithAWrongCheckDigitIsMO205() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let bad = try checker.check(
            messageBytes: Self.shippingEmail(["宅急便 お荷物伝票番号: ３９４０－２８１７－３６１６"]), origin: "bad.eml")
        let codes = bad.findings.map(\.code)
        #expect(
            bad.findings.contains { $0.code == "MO205" && $0.message.contains("394028173616") }, "\(codes)")
        #expect(!codes.contains("MO201"), "\(codes)")
        let good = try checker.check(
            messageBytes: Self.shippingEmail(["宅急便 お荷物伝票番号: ３９４０－２８１７－３６１５"]), origin: "good.eml")
        #expect(good.value(of: "shipments[0].trackingNumber") == "394028173615")
        #expect(!good.findings.contains { $0.code == "MO205" || $0.code == "MO201" }, "\(good.findings)")
    }

    /// Formats without a check digit (CJ대한통운, 日本郵便's domestic numbers) cannot tell a
    /// mistyped number: with a label and the carrier named it is the tracking number, and no
    /// MO205 is reported.
    @Test(arguments: [
        ("택배사: CJ대한통운\n운송장번호: ", "520183746295"),
        ("配送方法: 日本郵便 ゆうパック\nお問い合わせ番号: ", "4561-9027-3852"),
    ])
    func aFormatWithoutCheckDigitIsNotMO205(_ before: String, _ number: String) throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(messageBytes: Self.shippingEmail([before + number]), origin: "cj.eml")
        let codes = report.findings.map(\.code)
        #expect(!codes.contains("MO205") && !codes.contains("MO201"), "\(codes)")
        #expect(
            report.value(of: "shipments[0].trackingNumber") == number.replacingOccurrences(of: "-", with: ""))
    }

    /// A number the carrier's name stands near but that is labelled as something else (an
    /// order number) is not read against the carrier's check digit.
    @Test func aNumberLabelledAsAnotherNumberNearTheCarrierIsNotMO205() throws {
        let checker = try #require(Self.checker, "rules/ could not be loaded")
        let report = try checker.check(
            messageBytes: Self.shippingEmail(["ヤマト運輸でお届けします。お客様番号: 394028173616"]), origin: "other.eml")
        #expect(!report.findings.contains { $0.code == "MO205" }, "\(report.findings.map(\.code))")
    }

    @Test func unreadableBytesThrow() {
        #expect(throws: (any Error).self) {
            _ = try Self.checker?.check(messageBytes: [], origin: "empty.eml")
        }
    }
}
