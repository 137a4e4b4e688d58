import Foundation
import Mailbox

/// `mailorders corpus`: regression run over an email corpus.
enum CorpusCommand: Subcommand {
    static let spec = CommandSpec(
        name: "corpus",
        summary: "Run extraction and linking over a corpus and compare with the expected files.",
        usage: "DIR [--json] [--junit FILE] [--update] [--rules DIR]",
        options: [
            OptionSpec(name: "json", valueName: nil, help: "The report as JSON on standard output."),
            OptionSpec(
                name: "junit", valueName: "FILE", help: "Also write a JUnit XML report for CI systems."),
            OptionSpec(
                name: "update", valueName: nil,
                help: "Write expected files for cases that have none (never overwrites)."),
            OptionSpec(
                name: "rules", valueName: "DIR", help: "Use this rules folder instead of the bundled one."),
        ],
        examples: [
            "mailorders corpus Corpus/",
            "mailorders corpus ~/my-corpus --junit corpus.xml",
            "mailorders corpus ~/my-corpus --update    # then check each new expected file by eye",
        ],
        details: """
            DIR holds <case>.eml files, each beside <case>.expected.json (the extraction JSON without
            source and evidence), and thread folders <thread>/ with several .eml files and an
            expected-orders.json (see Corpus/README.md). Prints precision, recall and F1 per field,
            then a unified diff for every mismatch. Exit status: 0 when everything matches, 1 on any
            mismatch or unreadable case, 2 when DIR or the rules cannot be read.
            """)

    /// The report with no case run, `error` and `exitCode` set.
    static func errorJSON(_ message: String, exitCode: Int32) -> String? {
        CorpusRunner.jsonReport(error: message, exitCode: exitCode)
    }

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            return usageError("give one corpus folder", json: arguments.has("json"), showingUsage: true)
        }
        let json = arguments.has("json")
        // A fatal error: its line on standard error and, with --json, the report with the error
        // on standard output.
        func stop(_ message: String) -> Int32 {
            Console.error("mailorders corpus: \(TerminalText.oneLine(message))")
            if json { Console.out(CorpusRunner.jsonReport(error: ScanSummary.oneLine(message)), json: true) }
            return ExitCode.fatal
        }
        let pipeline: MessagePipeline
        do {
            pipeline = MessagePipeline(rules: try MessagePipeline.loadRules(from: arguments.value("rules")))
        } catch {
            return stop("\(error)")
        }
        var runner = CorpusRunner(
            directory: URL(fileURLWithPath: path), pipeline: pipeline, update: arguments.has("update"))
        do {
            try runner.run()
        } catch let error as CorpusLayoutError {
            return stop("\(error)")
        } catch {
            return stop("cannot read \(path): \(fileErrorReason(error))")
        }
        // The JUnit file first, so that the JSON report can say it could not be written.
        var junitError: String?
        if let junit = arguments.value("junit") {
            do {
                try OutputFile.write(runner.junitReport(), to: junit)
            } catch {
                junitError = "cannot write \(junit): \(fileErrorReason(error))"
            }
        }
        if json {
            Console.out(runner.jsonReport(error: junitError.map(ScanSummary.oneLine)), json: true)
        } else {
            Console.out(runner.textReport())
        }
        if let junitError {
            Console.error("mailorders corpus: \(TerminalText.oneLine(junitError))")
            return ExitCode.fatal
        }
        return runner.results.allSatisfy(\.passed) ? ExitCode.success : ExitCode.partial
    }
}

extension CorpusRunner {
    func textReport() -> String {
        func percent(_ value: Double?) -> String {
            value.map { String(format: "%6.1f%%", $0 * 100) } ?? "     – "
        }
        var lines: [String] = []
        let failed = results.filter { !$0.passed }
        for result in failed {
            lines.append("FAIL \(TerminalText.oneLine(result.name))")
            if let error = result.error { lines.append("  \(TerminalText.oneLine(error))") }
            if let diff = result.diff { lines.append(diff) }
            lines.append("")
        }
        lines.append("field               precision   recall       F1     TP   FP   FN")
        for field in Self.scoredFields {
            let score = scores[field] ?? FieldScore()
            lines.append(
                field.padding(toLength: 18, withPad: " ", startingAt: 0) + "  " + percent(score.precision)
                    + "  "
                    + percent(score.recall) + "  " + percent(score.f1)
                    + String(
                        format: "  %5d %4d %4d", score.truePositives, score.falsePositives,
                        score.falseNegatives))
        }
        let cases = results.filter { !$0.name.hasSuffix("/") }
        let threads = results.filter { $0.name.hasSuffix("/") }
        lines.append("")
        lines.append(
            "cases: \(cases.filter(\.passed).count)/\(cases.count) match; threads: \(threads.filter(\.passed).count)/\(threads.count) match"
        )
        if !written.isEmpty {
            lines.append("wrote \(written.count) new expected file(s): check each by eye before committing:")
            lines += written.map { "  \(TerminalText.oneLine($0))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as one JSON object: `{"passed", "fields", "cases", "written", "error",
    /// "exitCode"}`.
    /// - Parameter error: why the run stops with exit status 2 (`null` in the JSON when
    ///   `nil`); `passed` is then false.
    func jsonReport(error: String? = nil) -> String {
        Self.jsonReport(results: results, scores: scores, written: written, error: error)
    }

    /// The JSON report of a run with these results (none when a fatal error stopped it first).
    static func jsonReport(
        results: [CorpusCaseResult] = [], scores: [String: FieldScore] = [:], written: [String] = [],
        error: String?, exitCode: Int32? = nil
    ) -> String {
        var fields: [String: Any] = [:]
        for field in Self.scoredFields {
            let score = scores[field] ?? FieldScore()
            var object: [String: Any] = [
                "truePositives": score.truePositives, "falsePositives": score.falsePositives,
                "falseNegatives": score.falseNegatives,
            ]
            if let precision = score.precision { object["precision"] = precision }
            if let recall = score.recall { object["recall"] = recall }
            if let f1 = score.f1 { object["f1"] = f1 }
            fields[field] = object
        }
        let cases = results.map { result -> [String: Any] in
            var object: [String: Any] = ["name": result.name, "passed": result.passed]
            if let diff = result.diff { object["diff"] = diff }
            if let error = result.error { object["error"] = error }
            return object
        }
        let passed = results.allSatisfy(\.passed)
        let report: [String: Any] = [
            "passed": error == nil && passed, "fields": fields, "cases": cases, "written": written,
            "error": error ?? NSNull(),
            "exitCode": Int(
                exitCode ?? (error != nil ? ExitCode.fatal : passed ? ExitCode.success : ExitCode.partial)),
        ]
        return canonicalJSON(report) + "\n"
    }

    func junitReport() -> String {
        func escape(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                // As character references: an attribute keeps them (a parser reads a raw one as a
                // space, XML 1.0 §3.3.3), and a case name with a line break stays that name.
                case "\t": out += "&#9;"
                case "\n": out += "&#10;"
                case "\r": out += "&#13;"
                default:
                    // XML 1.0 forbids most control characters.
                    if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                        out += "?"
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out
        }
        let failures = results.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuite name=\"mailorders corpus\" tests=\"\(results.count)\" failures=\"\(failures)\">\n"
        for result in results {
            xml += "  <testcase classname=\"corpus\" name=\"\(escape(result.name))\""
            if result.passed {
                xml += "/>\n"
            } else {
                let message = result.error ?? "extracted values differ from the expected file"
                xml +=
                    ">\n    <failure message=\"\(escape(message))\">\(escape(result.diff ?? message))</failure>\n"
                xml += "  </testcase>\n"
            }
        }
        xml += "</testsuite>\n"
        return xml
    }
}
