import Foundation
import Mailbox
import WalletOrder

/// Renders the reports of `mailorders validate BUNDLE…` for a terminal or for scripts.
///
/// Text: one `PASS`/`FAIL` line per bundle, then one indented line per issue
/// (`error  missingKey  merchant.displayName: required key is missing`), then a summary line.
/// JSON: `{"passed": Bool, "bundles": [{"bundle", "passed", "issues": [{"severity", "code",
/// "location", "message"}]}]}`, keys sorted.
///
/// - Parameters:
///   - reports: One report per bundle, in the order the bundles were given.
///   - json: `true` for JSON, `false` for text.
/// - Returns: The text to print, ending with a newline.
func renderValidation(_ reports: [BundleValidationReport], json: Bool) -> String {
    json ? renderValidationJSON(reports) : renderValidationText(reports)
}

/// The exit status of `mailorders validate`: 0 when every bundle passed, 1 otherwise.
///
/// - Parameter reports: One report per bundle.
/// - Returns: `0` or `1`.
func validationExitStatus(_ reports: [BundleValidationReport]) -> Int32 {
    reports.allPassed ? 0 : 1
}

private func renderValidationText(_ reports: [BundleValidationReport]) -> String {
    var lines: [String] = []
    for report in reports {
        let errors = report.errors.count
        let warnings = report.warnings.count
        var counts: [String] = []
        if errors > 0 { counts.append(plural(errors, "error")) }
        if warnings > 0 { counts.append(plural(warnings, "warning")) }
        let suffix = counts.isEmpty ? "" : "  (\(counts.joined(separator: ", ")))"
        lines.append("\(report.passed ? "PASS" : "FAIL")  \(printable(report.bundle))\(suffix)")
        for issue in report.issues {
            let location = issue.location.map { printable($0) + ": " } ?? ""
            let severity = issue.severity == .error ? "error  " : "warning"
            lines.append("  \(severity)  \(issue.code.rawValue)  \(location)\(printable(issue.message))")
        }
    }
    let passed = reports.filter(\.passed).count
    let failed = reports.count - passed
    lines.append("\(plural(reports.count, "bundle")): \(passed) passed, \(failed) failed")
    return lines.joined(separator: "\n") + "\n"
}

private func renderValidationJSON(_ reports: [BundleValidationReport]) -> String {
    struct Output: Encodable {
        var passed: Bool
        var bundles: [BundleValidationReport]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(Output(passed: reports.allPassed, bundles: reports)) else {
        return "{\"passed\": false, \"bundles\": []}\n"
    }
    return String(decoding: data, as: UTF8.self) + "\n"
}

private func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
}

/// Escapes control characters so a hostile file name or message cannot drive the terminal
/// (``TerminalText/oneLine(_:)``, as every command writes names).
private func printable(_ text: String) -> String { TerminalText.oneLine(text) }
