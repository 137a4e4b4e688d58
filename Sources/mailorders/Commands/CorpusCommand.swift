import Foundation

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

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            Console.error("mailorders corpus: give one corpus folder\nUsage: mailorders corpus \(spec.usage)")
            return ExitCode.usage
        }
        let pipeline: MessagePipeline
        do {
            pipeline = MessagePipeline(rules: try MessagePipeline.loadRules(from: arguments.value("rules")))
        } catch {
            Console.error("mailorders corpus: \(error)")
            return ExitCode.fatal
        }
        var runner = CorpusRunner(
            directory: URL(fileURLWithPath: path), pipeline: pipeline, update: arguments.has("update"))
        do {
            try runner.run()
        } catch let error as CorpusLayoutError {
            Console.error("mailorders corpus: \(error)")
            return ExitCode.fatal
        } catch {
            Console.error("mailorders corpus: cannot read \(path): \(fileErrorReason(error))")
            return ExitCode.fatal
        }
        if arguments.has("json") {
            Console.out(runner.jsonReport(), json: true)
        } else {
            Console.out(runner.textReport())
        }
        if let junit = arguments.value("junit") {
            do {
                try runner.junitReport().write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                Console.error("mailorders corpus: cannot write \(junit): \(fileErrorReason(error))")
                return ExitCode.fatal
            }
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
            lines.append("FAIL \(result.name)")
            if let error = result.error { lines.append("  \(error)") }
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
            lines += written.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func jsonReport() -> String {
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
        let report: [String: Any] = [
            "passed": results.allSatisfy(\.passed), "fields": fields, "cases": cases, "written": written,
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
                case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
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
