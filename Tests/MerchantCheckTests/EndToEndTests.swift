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

    @Test func unreadableBytesThrow() {
        #expect(throws: (any Error).self) {
            _ = try Self.checker?.check(messageBytes: [], origin: "empty.eml")
        }
    }
}
