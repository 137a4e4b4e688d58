import Foundation
import Testing

@testable import MIME

/// Differential test against Python's standard `email` package (policy.default): the
/// subject, the From and To mailboxes and the decoded text of every text part of every
/// message in the public corpora.
struct DifferentialTests {
    /// One compared value of one message.
    struct Comparison {
        var file: String
        var field: String
        var ours: String
        var python: String
        var agrees: Bool { ours == python }
    }

    /// Disagreements investigated one by one, with why our answer is the right one.
    /// Keyed by `<corpus-relative path>|<field>`.
    static let explainedDisagreements: [String: String] = [:]

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Differential/python_email.py")

    /// Trailing blanks of lines and trailing blank lines are not decoding differences
    /// (Python keeps the transport's, RFC 2045 §6.7 rule 3 drops them).
    static func normalize(_ text: String) -> String {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = unified.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
            return String(line)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    static func runPython(_ files: [URL]) throws -> [String: [String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let list = files.map(\.path).joined(separator: "\n") + "\n"
        // Write from another thread so a full output pipe cannot dead-lock us.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(list.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var results: [String: [String: Any]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let path = object["path"] as? String
            else { continue }
            results[path] = object
        }
        return results
    }

    static func describe(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "<none>"
        case let text as String: return text
        case let list as [[String]]: return list.map { "\($0[0]) <\($0[1])>" }.joined(separator: ", ")
        case let object as [String: Any]: return "<python error \(object["error"] ?? "")>"
        case let list as [Any]:
            return list.map { item -> String in
                if let pair = item as? [String], pair.count == 2 { return "\(pair[0]) <\(pair[1])>" }
                return "\(item)"
            }.joined(separator: ", ")
        default: return "\(value ?? "")"
        }
    }

    static func compareAll() throws -> [Comparison] {
        let files = Corpora.messageFiles()
        let python = try runPython(files)
        let rootPath = Corpora.root.path + "/"
        var comparisons: [Comparison] = []
        for file in files {
            let relative = file.path.replacingOccurrences(of: rootPath, with: "")
            guard let theirs = python[file.path] else { continue }
            guard theirs["error"] == nil else { continue }
            let bytes = try [UInt8](Data(contentsOf: file))
            guard let message = try? Message(bytes: bytes) else {
                comparisons.append(Comparison(file: relative, field: "parse", ours: "<refused>", python: "<parsed>"))
                continue
            }
            comparisons.append(
                Comparison(
                    file: relative, field: "subject",
                    ours: (message.subject ?? "<none>").trimmingCharacters(in: .whitespaces),
                    python: describe(theirs["subject"]).trimmingCharacters(in: .whitespaces)))
            for (field, ours) in [("from", message.from), ("to", message.to)] {
                let text = ours.map { "\($0.name ?? "") <\($0.address)>" }.joined(separator: ", ")
                comparisons.append(Comparison(file: relative, field: field, ours: text, python: describe(theirs[field])))
            }
            let ourTexts = message.allPartsIncludingEncapsulated.filter {
                $0.contentType.type == "text" && $0.children.isEmpty
            }.map { normalize($0.text ?? "") }.filter { !$0.isEmpty }
            // Empty parts (doubled boundaries) are skipped on both sides: Python drops some.
            let theirTexts = (theirs["texts"] as? [Any] ?? []).map { item -> String in
                if let text = item as? String { return normalize(text) }
                return describe(item)
            }.filter { !$0.isEmpty }
            if ourTexts.count != theirTexts.count {
                comparisons.append(
                    Comparison(
                        file: relative, field: "text parts", ours: "\(ourTexts.count) parts",
                        python: "\(theirTexts.count) parts"))
                continue
            }
            for (index, (ours, theirs)) in zip(ourTexts, theirTexts).enumerated() {
                comparisons.append(Comparison(file: relative, field: "text \(index + 1)", ours: ours, python: theirs))
            }
        }
        return comparisons
    }

    @Test func agreesWithPythonEmailPackageOnCorpora() throws {
        let comparisons = try Self.compareAll()
        let agreeing = comparisons.filter(\.agrees).count
        let rate = Double(agreeing) / Double(max(1, comparisons.count))
        let disagreements = comparisons.filter { !$0.agrees }
        let messages = Set(comparisons.map(\.file)).count
        let messagesDisagreeing = Set(disagreements.map(\.file)).count
        print(
            "MIME differential: \(agreeing)/\(comparisons.count) values agree "
                + String(format: "(%.2f%%)", rate * 100)
                + "; \(messages - messagesDisagreeing)/\(messages) messages agree on every value")
        var unexplained: [String] = []
        for disagreement in disagreements {
            let key = "\(disagreement.file)|\(disagreement.field)"
            if Self.explainedDisagreements[key] == nil {
                // Show both from a little before the first difference.
                let ours = Array(disagreement.ours)
                let python = Array(disagreement.python)
                var first = 0
                while first < min(ours.count, python.count) && ours[first] == python[first] { first += 1 }
                let start = max(0, first - 40)
                let oursShown = String(ours[min(start, ours.count)...].prefix(160))
                let pythonShown = String(python[min(start, python.count)...].prefix(160))
                unexplained.append(
                    "\(key) (from character \(start))\n  ours:   \(oursShown.debugDescription)\n  python: \(pythonShown.debugDescription)"
                )
            }
        }
        if ProcessInfo.processInfo.environment["MIME_DIFF_VERBOSE"] != nil {
            print(unexplained.joined(separator: "\n"))
        }
        #expect(comparisons.count > 800)
        #expect(rate >= 0.99, "agreement \(rate) below the 99% goal")
        #expect(unexplained.isEmpty, "unexplained disagreements:\n\(unexplained.joined(separator: "\n"))")
    }
}
