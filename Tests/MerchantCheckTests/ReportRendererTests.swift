import Extraction
import Foundation
import MailDocument
import Testing

@testable import MerchantCheck

@Suite struct ReportRendererTests {
    let checker = Fixtures.checker

    func shippingReport(origin: String = "ship.eml") -> CheckReport {
        checker.check(
            document: Fixtures.shipping(links: []), extraction: Fixtures.shippingExtraction(),
            expect: .shipping,
            origin: origin)
    }

    @Test func textShowsFieldsFindingsFixesAndWalletOrder() {
        let text = ReportRenderer.text(shippingReport())
        #expect(text.hasPrefix("ship.eml: shippingConfirmation (expected shippingConfirmation)\n"))
        #expect(text.contains("orderNumber"))
        #expect(text.contains("shipments[0].trackingNumber     \(Fixtures.validTracking)  [body]"))
        #expect(
            text.contains("warning MO204  No link leads to the tracking page of \(Fixtures.validTracking)."))
        #expect(text.contains("fix: Link the tracking number to the carrier's tracking page."))
        #expect(text.contains("\"trackingNumber\" : \"\(Fixtures.validTracking)\""))
    }

    @Test func textOfSeveralFilesEndsWithASummaryTable() {
        let bad = checker.check(
            document: Fixtures.confirmation(body: "Thanks!", subject: "Thanks"),
            extraction: Fixtures.confirmationExtraction(orderNumber: nil), origin: "confirm.eml")
        let text = ReportRenderer.text([bad, shippingReport()])
        #expect(text.contains("Summary\nfile         kind                  errors  warnings  info  result\n"))
        #expect(text.contains("confirm.eml  orderConfirmation          1"))
        #expect(text.contains("FAIL"))
        #expect(text.hasSuffix("2 files, 1 with errors, 1 error in all\n"))
    }

    @Test func textKeepsControlCharactersOfTheEmailOutOfTheTerminal() {
        var extraction = Fixtures.confirmationExtraction()
        extraction.merchant = MerchantInfo(name: "Evil\u{1B}[31m Shop", domain: "example.com")
        let report = checker.check(document: Fixtures.confirmation(), extraction: extraction)
        #expect(!ReportRenderer.text(report).contains("\u{1B}"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let report = shippingReport()
        let json = ReportRenderer.json([report], crossFindings: [])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["reports", "crossFindings", "skipped", "summary", "hasErrors", "error"])
        #expect((object["skipped"] as? [Any])?.isEmpty == true)
        #expect(object["error"] is NSNull)
        #expect(object["hasErrors"] as? Bool == false)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 1)
        #expect(summary["warnings"] as? Int == 1)
        let reports = try #require(object["reports"] as? [[String: Any]])
        let first = try #require(reports.first)
        #expect(first["origin"] as? String == "ship.eml")
        #expect(first["kind"] as? String == "shippingConfirmation")
        #expect(first["expected"] as? String == "shippingConfirmation")
        #expect((first["sender"] as? [String: Any])?["domain"] as? String == "example.com")
        let findings = try #require(first["findings"] as? [[String: Any]])
        #expect(findings.first?["code"] as? String == "MO204")
        #expect(findings.first?["severity"] as? String == "warning")
        #expect(findings.first?["fix"] is String)
        let fields = try #require(first["fields"] as? [[String: Any]])
        let orderNumber = try #require(fields.first { $0["field"] as? String == "orderNumber" })
        #expect(orderNumber["value"] as? String == "A-10023")
        let wallet = try #require(first["walletOrder"] as? [String: Any])
        #expect(wallet["orderNumber"] as? String == "A-10023")
        let fulfillments = try #require(wallet["fulfillments"] as? [[String: Any]])
        #expect(fulfillments.first?["carrier"] as? String == "UPS")
        #expect(fulfillments.first?["status"] as? String == "onTheWay")
    }

    @Test func jsonCarriesCrossFindingsAndErrors() throws {
        let finding = FindingCode.senderDomainInconsistent.finding("two domains")
        let json = ReportRenderer.json([shippingReport()], crossFindings: [finding])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let cross = try #require(object["crossFindings"] as? [[String: Any]])
        #expect(cross.first?["code"] as? String == "MO401")
    }

    /// Inputs that could not be read are listed with their origin, byte offset and reason.
    @Test func jsonAndHTMLListTheInputsNotRead() throws {
        let skipped = [
            SkippedInput(
                origin: "in/box.mbox#3", byteOffset: 4096, reason: "empty message after a From line"),
            SkippedInput(origin: "in/<b>.eml", reason: "no header field: not an Internet message"),
        ]
        let json = ReportRenderer.json([shippingReport()], skipped: skipped)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listed = try #require(object["skipped"] as? [[String: Any]])
        #expect(listed.count == 2)
        #expect(listed[0]["origin"] as? String == "in/box.mbox#3")
        #expect(listed[0]["byteOffset"] as? Int == 4096)
        #expect(listed[0]["reason"] as? String == "empty message after a From line")
        #expect(listed[1]["byteOffset"] is NSNull)
        let page = ReportRenderer.html([shippingReport()], emailHTML: [nil], skipped: skipped)
        #expect(page.contains("No errors in 1 email; 2 inputs not read"))
        #expect(page.contains("<p class=\"verdict fail\">"))
        #expect(page.contains("<td>in/box.mbox#3</td><td>4096</td><td>empty message after a From line</td>"))
        #expect(page.contains("<td>in/&lt;b&gt;.eml</td><td></td>"))
        #expect(!page.contains("<b>.eml"))
        // Nothing skipped: no such section, and the verdict is the reports' own.
        let clean = ReportRenderer.html([shippingReport()], emailHTML: [nil])
        #expect(!clean.contains("Not read"))
        #expect(clean.contains("<p class=\"verdict pass\">No errors in 1 email</p>"))
    }

    @Test func foundFieldsCarrySnippetAndConfidenceFromEvidence() {
        let report = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        let field = report.fields.first { $0.field == "orderNumber" }
        #expect(field?.snippet == "Order number: A-10023")
        #expect(field?.confidence == 0.95)
        #expect(field?.source == "label")
        let merchant = report.fields.first { $0.field == "merchant" }
        #expect(merchant?.snippet == "Thank you for shopping at Example Outfitters!")
        #expect(merchant?.source == "body")
    }

    @Test func walletPreviewIsAValidLookingOrder() throws {
        let report = shippingReport()
        let json = try #require(report.walletOrderJSON)
        let order = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for key in [
            "schemaVersion", "orderTypeIdentifier", "orderIdentifier", "orderType", "orderManagementURL",
            "status",
            "createdAt", "updatedAt", "merchant",
        ] {
            #expect(order[key] != nil, "missing \(key)")
        }
        #expect(order["orderType"] as? String == "ecommerce")
        #expect(order["status"] as? String == "open")
    }

    // MARK: - HTML, as text

    @Test func htmlEscapesTheEmailIntoTheSrcdocAttribute() {
        let email = "<p title=\"x\">Order <b>A-10023</b> & co</p><script>alert(1)</script>"
        let page = ReportRenderer.html(shippingReport(), emailHTML: email)
        #expect(page.contains("sandbox=\"\""))
        #expect(!page.contains("allow-scripts"))
        #expect(
            page.contains(
                "srcdoc=\"&lt;meta http-equiv=&quot;Content-Security-Policy&quot; content=&quot;default-src &#39;none&#39;; img-src data: cid:; style-src &#39;unsafe-inline&#39;&quot;&gt;"
            ))
        #expect(
            page.contains(
                "&lt;p title=&quot;x&quot;&gt;Order &lt;b&gt;&lt;mark class=&quot;mo-found&quot;&gt;A-10023&lt;/mark&gt;&lt;/b&gt; &amp; co"
            ))
        #expect(!page.contains("alert(1)"))
        #expect(!page.contains("<script"))
    }

    @Test func htmlEscapesEveryValueFromTheEmail() {
        var extraction = Fixtures.shippingExtraction()
        let hostile = "\"><script>alert('x')</script><img src=x onerror=alert(2)>"
        extraction.merchant = MerchantInfo(name: hostile, domain: "example.com")
        extraction.orderNumber = hostile
        let report = checker.check(
            document: Fixtures.shipping(body: hostile), extraction: extraction, origin: "<b>x</b>.eml")
        let page = ReportRenderer.html([report], emailHTML: [nil])
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<b>x</b>"))
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
    }

    /// A subject or merchant name with bidirectional overrides cannot reorder the report's
    /// text around it: the controls are shown as escapes; the email's own preview keeps them.
    @Test func htmlShowsBidirectionalControlsInValues() {
        var extraction = Fixtures.shippingExtraction()
        extraction.merchant = MerchantInfo(name: "Shop\u{202E}gpj.exe", domain: "example.com")
        extraction.orderNumber = "A-1\u{2067}0023"
        let report = checker.check(
            document: Fixtures.shipping(body: "Order A-10023 \u{202B}שלום\u{202C}"), extraction: extraction,
            origin: "mail.eml")
        let page = ReportRenderer.html([report], emailHTML: [nil])
        #expect(page.contains("Shop\\u{202E}gpj.exe"))
        #expect(page.contains("A-1\\u{2067}0023"))
        let outsidePreview = page.replacingOccurrences(
            of: #"srcdoc="[^"]*""#, with: "", options: .regularExpression)
        #expect(!outsidePreview.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        #expect(!outsidePreview.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
        #expect(HTMLEscaping.escapeValue("a<b\u{202D}") == "a&lt;b\\u{202D}")
        #expect(HTMLEscaping.escapeValue("plain") == "plain")
    }

    /// Control characters from an email (a terminal escape in a subject, a bell) never reach
    /// the report raw: they are shown as `\u{1B}`, as on the command line.
    @Test func htmlShowsControlCharactersVisibly() {
        #expect(HTMLEscaping.escape("a\u{1B}[2Jb\u{7}c") == "a\\u{1B}[2Jb\\u{7}c")
        #expect(HTMLEscaping.escape("x\u{7F}y\u{85}z\u{9F}") == "x\\u{7F}y\\u{85}z\\u{9F}")
        #expect(HTMLEscaping.escape("tab\tline\r\nend") == "tab\tline\r\nend")
        #expect(HTMLEscaping.escape("é ¢ \u{A0} Â") == "é ¢ \u{A0} Â")
        #expect(HTMLEscaping.escape("\u{0}") == "\u{FFFD}")
        let noncharacters = [0xFDD0, 0xFFFF, 0x1FFFE].map { String(Character(Unicode.Scalar($0)!)) }
        #expect(
            HTMLEscaping.escape(
                "a" + noncharacters[0] + "b" + noncharacters[1] + "c" + noncharacters[2] + "<")
                == "a\\u{FDD0}b\\u{FFFF}c\\u{1FFFE}&lt;")
        #expect(HTMLEscaping.escape("\u{FFFD}\u{FDCF}") == "\u{FFFD}\u{FDCF}")
        var extraction = Fixtures.shippingExtraction()
        extraction.orderNumber = "A-10023\u{1B}[2J"
        let report = checker.check(
            document: Fixtures.shipping(body: "Order A-10023 \u{7}"), extraction: extraction,
            origin: "mail.eml")
        let page = ReportRenderer.html([report], emailHTML: [nil])
        #expect(!page.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" })
        #expect(!page.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
    }

    @Test func markerWrapsValuesOnlyInTextNodes() {
        let html =
            "<a href=\"https://x/A-10023\" title=\"A-10023\">A-10023</a><style>.A-10023{}</style>"
            + "<!-- A-10023 --><p>Fish &amp; Chips A-10023</p>"
        let marked = HTMLMarker.mark(html: html, values: ["A-10023", "amp"])
        #expect(
            marked
                == "<a href=\"https://x/A-10023\" title=\"A-10023\"><mark class=\"mo-found\">A-10023</mark></a>"
                + "<style>.A-10023{}</style><!-- A-10023 --><p>Fish &amp; Chips <mark class=\"mo-found\">A-10023</mark></p>"
        )
    }

    @Test func markerEscapesValuesBeforeMatching() {
        let html = "<p>Tom &amp; Jerry &lt;Shop&gt;</p>"
        let marked = HTMLMarker.mark(html: html, values: ["Tom & Jerry <Shop>"])
        #expect(marked == "<p><mark class=\"mo-found\">Tom &amp; Jerry &lt;Shop&gt;</mark></p>")
    }

    @Test func markerDropsScriptsAndRefresh() {
        let html =
            "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\"><SCRIPT type=x>a<b</script >"
            + "<p>ok</p><script>unterminated"
        #expect(HTMLMarker.mark(html: html, values: []) == "<p>ok</p>")
    }

    @Test func markerSurvivesHostileMarkup() {
        let html = String(repeating: "<a href='\"'>\"<<!--", count: 2_000) + "<p"
        let marked = HTMLMarker.mark(html: html, values: ["a", "ab"])
        #expect(!marked.isEmpty)
    }

    @Test func plainTextEmailIsShownEscapedWithMarks() {
        let report = checker.check(
            document: Fixtures.shipping(body: "Order A-10023 <ships> & UPS"),
            extraction: Fixtures.shippingExtraction())
        let preview = ReportRenderer.previewDocument(report, emailHTML: nil)
        #expect(
            preview.contains(
                "Order <mark class=\"mo-found\">A-10023</mark> &lt;ships&gt; &amp; <mark class=\"mo-found\">UPS</mark>"
            ))
    }

    @Test func htmlShowsTheWalletCardAndFindings() {
        let page = ReportRenderer.html(shippingReport(), emailHTML: "<p>x</p>")
        #expect(page.contains("<div class=\"wallet-card\" id=\"wallet-card-1\">"))
        #expect(page.contains("<div class=\"merchant\">Example Outfitters</div>"))
        #expect(page.contains("<dd class=\"mono\">\(Fixtures.validTracking)</dd>"))
        #expect(page.contains("<dd>2026-11-24 – 2026-11-26</dd>"))
        #expect(page.contains("<code>MO204</code>"))
        #expect(!page.contains("http://") && !page.contains("https://fonts"))
    }
}
