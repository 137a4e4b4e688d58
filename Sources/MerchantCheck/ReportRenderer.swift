import Extraction
import Foundation
import Mailbox

/// Turns check reports into what `mailorders check` prints: text for people, one JSON
/// document for a merchant's CI, or a self-contained HTML page.
public enum ReportRenderer {
    // MARK: - Text

    /// One report as text: what was found, the findings with their fixes, the Wallet order.
    /// - Parameter report: the report.
    /// - Returns: lines ending in `\n`.
    public static func text(_ report: CheckReport) -> String {
        var lines: [String] = []
        // File names are shown escaped (TerminalText.oneLine): a Maildir file may be named with
        // a line feed or an escape sequence.
        var heading = "\(TerminalText.oneLine(report.origin)): \(report.kind.rawValue)"
        if let expected = report.expected { heading += " (expected \(expected.emailKind.rawValue))" }
        lines.append(heading)
        if let subject = report.subject { lines.append("  Subject: \(oneLine(subject))") }
        if let address = report.senderAddress {
            lines.append(
                "  From:    \(oneLine(address))" + (report.senderDomain.map { " (\(oneLine($0)))" } ?? ""))
        }
        lines.append("")
        lines.append("Found")
        if report.fields.isEmpty { lines.append("  nothing") }
        let width = min(34, report.fields.map(\.field.count).max() ?? 0)
        for field in report.fields {
            var line =
                "  "
                + field.field.padding(toLength: max(width, field.field.count), withPad: " ", startingAt: 0)
            line += "  " + oneLine(field.value)
            var details: [String] = []
            if let source = field.source { details.append(source) }
            if let confidence = field.confidence { details.append(String(format: "%.2f", confidence)) }
            if !details.isEmpty { line += "  [" + details.joined(separator: ", ") + "]" }
            lines.append(line)
            if let snippet = field.snippet, field.field != "kind" {
                lines.append(
                    "  " + String(repeating: " ", count: max(width, field.field.count)) + "  “"
                        + oneLine(snippet, limit: 100) + "”")
            }
        }
        lines.append("")
        lines.append(contentsOf: findingLines(report.findings, title: "Findings"))
        lines.append("")
        lines.append("Wallet order.json")
        if let json = report.walletOrderJSON {
            lines.append(
                contentsOf: json.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 })
        } else {
            lines.append("  none: the email gives no order")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Several reports as text: each report, then the findings across the emails and a summary table.
    /// - Parameters:
    ///   - reports: the reports, in the order the files were given.
    ///   - crossFindings: findings of ``MerchantEmailChecker/crossCheck(_:)``.
    /// - Returns: lines ending in `\n`.
    public static func text(_ reports: [CheckReport], crossFindings: [Finding] = []) -> String {
        if reports.count == 1, crossFindings.isEmpty { return text(reports[0]) }
        var output = reports.map { text($0) }.joined(
            separator: "\n" + String(repeating: "─", count: 60) + "\n\n")
        if !crossFindings.isEmpty {
            output +=
                "\n" + findingLines(crossFindings, title: "Across the emails").joined(separator: "\n") + "\n"
        }
        output += "\n" + summaryTable(reports, crossFindings: crossFindings)
        return output
    }

    /// The summary table: one row per file with its kind and how many errors, warnings and notes.
    /// - Returns: lines ending in `\n`.
    public static func summaryTable(_ reports: [CheckReport], crossFindings: [Finding] = []) -> String {
        let rows = reports.map { report in
            [
                TerminalText.oneLine(report.origin), report.kind.rawValue, String(report.count(.error)),
                String(report.count(.warning)),
                String(report.count(.info)), report.hasErrors ? "FAIL" : "ok",
            ]
        }
        let header = ["file", "kind", "errors", "warnings", "info", "result"]
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func format(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                index >= 2 && index <= 4
                    ? String(repeating: " ", count: widths[index] - cell.count) + cell
                    : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var lines = ["Summary", format(header)]
        lines += rows.map(format)
        let errors =
            reports.map { $0.count(.error) }.reduce(0, +)
            + crossFindings.filter { $0.severity == .error }.count
        let failing = reports.filter(\.hasErrors).count
        lines.append(
            "\(reports.count) file\(reports.count == 1 ? "" : "s"), \(failing) with errors, \(errors) error\(errors == 1 ? "" : "s") in all"
        )
        return lines.joined(separator: "\n") + "\n"
    }

    private static func findingLines(_ findings: [Finding], title: String) -> [String] {
        var lines = [title]
        if findings.isEmpty { lines.append("  none") }
        for finding in findings {
            let severity = finding.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            lines.append("  \(severity) \(finding.code)  \(oneLine(finding.message))")
            lines.append("                fix: \(oneLine(finding.fix, limit: 2_000))")
        }
        return lines
    }

    private static func oneLine(_ text: String, limit: Int = 200) -> String {
        var line = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\t", with: " ")
        // C0 and C1 controls, DEL, line and paragraph separators and bidirectional controls
        // (``TerminalText/needsEscape(_:)``) are dropped: a line stays one line, shown in order.
        line = String(line.unicodeScalars.filter { !TerminalText.needsEscape($0) }.map(Character.init))
        if line.count > limit { line = String(line.prefix(limit - 1)) + "…" }
        return line
    }

    // MARK: - JSON

    /// The reports as one JSON document (sorted keys, pretty-printed):
    /// `{"reports": […], "crossFindings": […], "skipped": [{"origin", "byteOffset", "reason"}],
    /// "summary": {…}, "hasErrors": …, "error": …, "exitCode": …}`; `byteOffset` is `null` when
    /// unknown, `error` is `null` when there is none.
    /// - Parameters:
    ///   - reports: the reports.
    ///   - crossFindings: findings of ``MerchantEmailChecker/crossCheck(_:)``.
    ///   - skipped: the inputs that could not be read, in the order given.
    ///   - error: why the check ends in failure beyond its findings (an input not read, the
    ///     rules or the report file), on one line.
    ///   - exitCode: the exit status of the `mailorders check` run the document reports, as
    ///     `exitCode`; without it the key is left out.
    /// - Returns: the JSON text, ending in `\n`.
    public static func json(
        _ reports: [CheckReport], crossFindings: [Finding] = [], skipped: [SkippedInput] = [],
        error: String? = nil, exitCode: Int32? = nil
    ) -> String {
        var document = jsonObject(reports, crossFindings: crossFindings, skipped: skipped)
        document["error"] = error ?? NSNull()
        if let exitCode { document["exitCode"] = Int(exitCode) }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One report as the same JSON document.
    public static func json(_ report: CheckReport) -> String { json([report]) }

    static func jsonObject(_ reports: [CheckReport], crossFindings: [Finding], skipped: [SkippedInput])
        -> [String: Any]
    {
        let all = reports.flatMap(\.findings) + crossFindings
        return [
            "reports": reports.map(reportObject),
            "crossFindings": crossFindings.map(findingObject),
            "skipped": skipped.map { input -> [String: Any] in
                ["origin": input.origin, "byteOffset": input.byteOffset ?? NSNull(), "reason": input.reason]
            },
            "summary": [
                "files": reports.count,
                "filesWithErrors": reports.filter(\.hasErrors).count,
                "errors": all.filter { $0.severity == .error }.count,
                "warnings": all.filter { $0.severity == .warning }.count,
                "info": all.filter { $0.severity == .info }.count,
            ],
            "hasErrors": all.contains { $0.severity == .error },
        ]
    }

    private static func reportObject(_ report: CheckReport) -> [String: Any] {
        var object: [String: Any] = [
            "origin": report.origin,
            "kind": report.kind.rawValue,
            "fields": report.fields.map { field -> [String: Any] in
                var entry: [String: Any] = ["field": field.field, "value": field.value]
                if let source = field.source { entry["source"] = source }
                if let snippet = field.snippet { entry["snippet"] = snippet }
                if let confidence = field.confidence { entry["confidence"] = confidence }
                if let location = field.location { entry["location"] = location }
                return entry
            },
            "findings": report.findings.map(findingObject),
            "hasErrors": report.hasErrors,
            "counts": [
                "error": report.count(.error), "warning": report.count(.warning), "info": report.count(.info),
            ],
        ]
        if let expected = report.expected { object["expected"] = expected.emailKind.rawValue }
        if let subject = report.subject { object["subject"] = subject }
        var sender: [String: Any] = [:]
        if let address = report.senderAddress { sender["address"] = address }
        if let domain = report.senderDomain { sender["domain"] = domain }
        if !sender.isEmpty { object["sender"] = sender }
        if let json = report.walletOrderJSON, let data = json.data(using: .utf8),
            let order = try? JSONSerialization.jsonObject(with: data)
        {
            object["walletOrder"] = order
        }
        return object
    }

    private static func findingObject(_ finding: Finding) -> [String: Any] {
        var object: [String: Any] = [
            "code": finding.code, "severity": finding.severity.rawValue, "message": finding.message,
            "fix": finding.fix,
        ]
        if let evidence = finding.evidence { object["evidence"] = evidence }
        return object
    }
}
