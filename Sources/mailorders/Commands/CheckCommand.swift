import Foundation
import Mailbox
import MerchantCheck

/// `mailorders check`: what a reader like ours finds in a merchant's email, what is missing,
/// and how to fix it.
enum CheckCommand: Subcommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "Check a merchant's order emails: what is found, what is missing, how to fix it.",
        usage: "FILE…|- [--format text|json|html] [--out REPORT] [--expect confirmation|shipping|delivery]",
        options: [
            OptionSpec(name: "format", valueName: "FORMAT", help: "text (default), json, or html."),
            OptionSpec(
                name: "out", valueName: "REPORT",
                help: "Write the report to this file instead of standard output."),
            OptionSpec(
                name: "expect", valueName: "KIND",
                help: "The kind of email this should be: confirmation, shipping or delivery."),
            OptionSpec(
                name: "rules", valueName: "DIR", help: "Use this rules folder instead of the bundled one."),
        ],
        examples: [
            "mailorders check confirmation.eml",
            "mailorders check shipped.eml --expect shipping --format json",
            "mailorders check *.eml --format html --out report.html",
        ],
        details: """
            For each email: the merchant, order number, kind, carriers and tracking numbers, dates,
            items and total found, each with where it was found and how sure the reader is; then the
            findings (code, severity, what is wrong, how to fix it) and the Wallet order.json the email
            would produce. With several files, a summary table and checks across the emails follow.
            Exit status: 0 no errors, 1 an error in any email, 2 an input that cannot be read or no email at all.
            """)

    /// `--format json` or `--format=json`, the last `--format` before any `--`.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        let options = Array(arguments.prefix { $0 != "--" })
        var format: String?
        for (index, argument) in options.enumerated() {
            if argument == "--format", index + 1 < options.count {
                format = options[index + 1]
            } else if argument.hasPrefix("--format=") {
                format = String(argument.dropFirst("--format=".count))
            }
        }
        return format == CheckFormat.json.rawValue
    }

    /// The JSON report with nothing checked, `error` and `exitCode` set.
    static func errorJSON(_ message: String, exitCode: Int32) -> String? {
        ReportRenderer.json([], error: message, exitCode: exitCode)
    }

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let asksForJSON = arguments.value("format") == CheckFormat.json.rawValue
        guard !arguments.positionals.isEmpty else {
            return usageError(
                "give at least one FILE, or - for standard input", json: asksForJSON, showingUsage: true)
        }
        guard let format = CheckFormat(rawValue: arguments.value("format") ?? "text") else {
            return usageError(
                "--format is text, json or html, not '\(arguments.value("format") ?? "")'", json: false)
        }
        var expect: ExpectedKind?
        if let text = arguments.value("expect") {
            guard let kind = ExpectedKind(rawValue: text) else {
                let names = ExpectedKind.allCases.map(\.rawValue).joined(separator: ", ")
                return usageError("--expect is one of \(names), not '\(text)'", json: asksForJSON)
            }
            expect = kind
        }
        var reports: [CheckReport] = []
        var crossFindings: [Finding] = []
        var skipped: [SkippedInput] = []
        // A fatal error: its line on standard error and, with --format json, the document with
        // what was checked and the error on standard output, whatever --out says.
        func stop(_ message: String) -> Int32 {
            Console.error("mailorders check: \(TerminalText.oneLine(message))")
            if format == .json {
                Console.out(
                    ReportRenderer.json(
                        reports, crossFindings: crossFindings, skipped: skipped,
                        error: ScanSummary.oneLine(message), exitCode: ExitCode.fatal),
                    json: true)
            }
            return ExitCode.fatal
        }
        let checker: MerchantEmailChecker
        do {
            checker = MerchantEmailChecker(
                rules: try MessagePipeline.loadRules(from: arguments.value("rules")))
        } catch {
            return stop("\(error)")
        }
        let loop = MessageLoop(command: "check", paths: arguments.positionals)
        loop.forEachMessage { raw, message in
            reports.append(checker.check(message: message, origin: raw.origin.description, expect: expect))
        }
        skipped = loop.skippedInputs
        // Nothing could be read: each file's reason is on standard error already, and an empty
        // text report would only look like a clean one. JSON and HTML list what was not read.
        if reports.isEmpty && !skipped.isEmpty && format == .text { return ExitCode.fatal }
        crossFindings = checker.crossCheck(reports)
        var status =
            CheckOutput.hasErrors(reports, crossFindings: crossFindings) ? ExitCode.partial : ExitCode.success
        var error: String?
        if !skipped.isEmpty {
            error = "\(skipped.count) input\(skipped.count == 1 ? "" : "s") could not be read (see skipped)"
            status = ExitCode.fatal
        } else if reports.isEmpty {
            // An empty folder (a wrong path in a CI job) checks nothing: that is no pass.
            error = "no email found in " + arguments.positionals.joined(separator: ", ")
            status = ExitCode.fatal
            Console.error("mailorders check: \(TerminalText.oneLine(error ?? ""))")
        }
        let output = CheckOutput.render(
            reports, crossFindings: crossFindings, format: format, emailHTML: reports.map(\.emailHTML),
            skipped: skipped, error: error, exitCode: status)
        if let path = arguments.value("out") {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
            {
                let example = (path as NSString).appendingPathComponent(
                    "report." + (format == .text ? "txt" : format.rawValue))
                return stop("cannot write \(path): it is a folder; --out takes a file name, e.g. \(example)")
            }
            do {
                try OutputFile.write(output, to: path)
                Console.error("mailorders check: wrote \(TerminalText.oneLine(path))")
            } catch {
                return stop("cannot write \(path): \(fileErrorReason(error, path: path))")
            }
        } else {
            Console.out(output.hasSuffix("\n") ? output : output + "\n", json: format == .json)
        }
        return status
    }
}
