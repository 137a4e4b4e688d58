import Foundation
import Testing
import WalletOrder

@testable import mailorders

@Suite struct ValidationOutputTests {
    private let failing = BundleValidationReport(
        bundle: "orders/bad.order",
        issues: [
            .init(.error, .missingKey, at: "merchant.displayName", "required key is missing"),
            .init(.warning, .unsigned, at: "signature", "no signature"),
        ])
    private let passing = BundleValidationReport(bundle: "orders/good", issues: [])

    @Test func textShowsOneVerdictPerBundleEachIssueAndASummary() {
        let text = renderValidation([passing, failing], json: false)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "PASS  orders/good")
        #expect(lines.contains("FAIL  orders/bad.order  (1 error, 1 warning)"))
        #expect(lines.contains("  error    missingKey  merchant.displayName: required key is missing"))
        #expect(lines.contains("  warning  unsigned  signature: no signature"))
        #expect(lines.last == "2 bundles: 1 passed, 1 failed")
        #expect(text.hasSuffix("\n"))
    }

    @Test func jsonCarriesOverallVerdictAndEveryIssue() throws {
        let text = renderValidation([passing, failing], json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        let bundles = try #require(object["bundles"] as? [[String: Any]])
        #expect(bundles.count == 2)
        #expect(bundles[1]["passed"] as? Bool == false)
        let issues = try #require(bundles[1]["issues"] as? [[String: Any]])
        #expect(issues.first?["code"] as? String == "missingKey")
        #expect(issues.first?["location"] as? String == "merchant.displayName")
    }

    @Test func exitStatusIsZeroOnlyWhenEveryBundlePasses() {
        #expect(validationExitStatus([passing]) == 0)
        #expect(validationExitStatus([passing, failing]) == 1)
        #expect(validationExitStatus([]) == 0)
    }

    @Test func controlCharactersInNamesAreEscaped() {
        let report = BundleValidationReport(
            bundle: "evil\u{1B}[2J.order", issues: [.init(.error, .unreadable, "bad\nline")])
        let text = renderValidation([report], json: false)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("evil\\u{1B}[2J.order"))
        #expect(text.contains("bad\\nline"))
    }
}
