import MerchantCheck

/// The output formats of `mailorders check`.
enum CheckFormat: String, CaseIterable {
    case text, json, html
}

/// What `mailorders check` prints or writes, from the reports of the files checked.
enum CheckOutput {
    /// The output for the reports in a format.
    /// - Parameters:
    ///   - reports: one report per file, in the order given.
    ///   - crossFindings: ``MerchantEmailChecker/crossCheck(_:)`` of the reports.
    ///   - format: text, JSON or HTML.
    ///   - emailHTML: the HTML body of each email (for the HTML report), in the same order.
    ///   - skipped: the inputs that could not be read, listed by JSON and HTML (text lists them
    ///     on standard error as they are met).
    ///   - error: why the run ends with exit status 2, for JSON.
    ///   - exitCode: the run's exit status, for JSON.
    /// - Returns: the text to print or write.
    static func render(
        _ reports: [CheckReport], crossFindings: [Finding], format: CheckFormat, emailHTML: [String?] = [],
        skipped: [SkippedInput] = [], error: String? = nil, exitCode: Int32? = nil
    ) -> String {
        switch format {
        case .text: ReportRenderer.text(reports, crossFindings: crossFindings)
        case .json:
            ReportRenderer.json(
                reports, crossFindings: crossFindings, skipped: skipped, error: error, exitCode: exitCode)
        case .html:
            ReportRenderer.html(reports, emailHTML: emailHTML, crossFindings: crossFindings, skipped: skipped)
        }
    }

    /// Whether any report or cross-email finding is an error (exit status 1).
    static func hasErrors(_ reports: [CheckReport], crossFindings: [Finding]) -> Bool {
        reports.contains(where: \.hasErrors) || crossFindings.contains { $0.severity == .error }
    }
}
