import Extraction
import Foundation
import MailDocument
import Testing

@testable import MerchantCheck

@Suite struct HostileInputTests {
    @Test func hugeBodyFullOfNumbersIsCheckedQuickly() {
        let line = "Tracking 1Z 999 AA1 01 2345 6785 order 1234-5678-9012 <b>x</b> &amp; "
        let body = String(repeating: line, count: 10_000)
        let start = Date()
        let report = Fixtures.checker.check(
            document: Fixtures.shipping(body: body, preheader: body),
            extraction: Fixtures.shippingExtraction())
        let page = ReportRenderer.html(report, emailHTML: body)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(report.findings.filter { $0.code == "MO205" }.count == 1)
        #expect(page.contains("wallet-card"))
    }

    @Test func emptyDocumentAndEmptyExtractionDoNotCrash() {
        let report = Fixtures.checker.check(
            document: MailDocument(), extraction: ExtractionResult(kind: .shippingConfirmation),
            expect: .delivery)
        #expect(report.hasErrors)
        #expect(Set(report.findings.map(\.code)).isSuperset(of: ["MO100", "MO103", "MO201", "MO601"]))
        #expect(!ReportRenderer.text(report).isEmpty)
        #expect(!ReportRenderer.json(report).isEmpty)
        #expect(!ReportRenderer.html(report, emailHTML: "").isEmpty)
    }

    @Test func theTextReportKeepsEachLineOneLineInOrder() {
        var document = Fixtures.shipping(body: "Your order has shipped.", preheader: nil)
        document.subject = "Shipped\u{2028}FAKE\u{202E}txt.exe\u{85}\u{1B}[2J"
        let report = Fixtures.checker.check(document: document, extraction: Fixtures.shippingExtraction())
        let text = ReportRenderer.text(report)
        #expect(text.contains("  Subject: ShippedFAKEtxt.exe[2J\n"))
        #expect(!text.unicodeScalars.contains { [0x1B, 0x85, 0x2028, 0x202E].contains($0.value) })
    }

    @Test func deeplyNestedMarkupIsBounded() {
        var value = JSONValue.string("OrderShipped")
        for _ in 0..<10_000 { value = .object(["orderStatus": value, "x": .array([value])]) }
        let order = SchemaObject(type: "Order", properties: ["orderStatus": value], origin: "jsonld")
        let report = Fixtures.checker.check(
            document: Fixtures.confirmation(markup: [order]), extraction: Fixtures.confirmationExtraction())
        #expect(report.findings.contains { $0.code == "MO502" })
    }

    @Test func badCarrierPatternIsSkipped() {
        let broken = TrackingNumberFormat(
            id: "bad", name: "Bad", pattern: "(", isDistinctive: true, validate: nil)
        let checker = MerchantEmailChecker(carriers: [
            CarrierProfile(id: "bad", name: "Bad", formats: [broken])
        ])
        let report = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!report.findings.contains { $0.code == "MO205" })
    }
}
