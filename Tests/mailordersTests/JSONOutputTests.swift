import Foundation
import Testing

/// Every command's `--json` (and `check --format json`) writes only JSON on standard output,
/// without `--quiet` too: human text (the scan summary, warnings, progress) goes to standard
/// error.
@Suite(.serialized) struct JSONOutputTests {
    static let example = CommandRunner.repository.appendingPathComponent("examples/Maildir")

    /// Standard output is one JSON document, or (`lines`) one JSON object per line.
    static func expectJSON(_ result: CommandRunner.Output, lines: Bool = false, _ command: String) {
        let output = result.standardOutput
        #expect(!output.isEmpty, "\(command): nothing on standard output")
        let documents = lines ? output.split(separator: "\n").map(String.init) : [output]
        for document in documents {
            let parsed = try? JSONSerialization.jsonObject(with: Data(document.utf8))
            #expect(parsed != nil, "\(command): not JSON on standard output: \(document.prefix(300))")
        }
    }

    @Test func everyJSONOptionWritesOnlyJSONOnStandardOutput() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        let messages = try FileManager.default.contentsOfDirectory(
            at: Self.example.appendingPathComponent("cur"), includingPropertiesForKeys: nil
        ).map(\.path).sorted()

        let scan = try CommandRunner.run(["scan", Self.example.path, "--out", out.path, "--json"])
        #expect(scan.status == 0, "\(scan.standardError)")
        Self.expectJSON(scan, "scan --json")
        #expect(scan.standardError.contains("Read 13 messages"), "the summary is on standard error")
        // Again, with nothing new: still only JSON.
        Self.expectJSON(
            try CommandRunner.run(["scan", Self.example.path, "--out", out.path, "--json"]),
            "scan --json, again")

        for arguments in [
            ["orders", "--out", out.path, "--json"], ["orders", "--out", out.path, "--json", "--unlinked"],
        ] {
            Self.expectJSON(try CommandRunner.run(arguments), arguments.joined(separator: " "))
        }
        let bundles = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") && !$0.lastPathComponent.hasPrefix("mailorders") }
            .map(\.path)
        #expect(!bundles.isEmpty)
        Self.expectJSON(try CommandRunner.run(["validate", "--json"] + bundles), "validate --json")
        Self.expectJSON(try CommandRunner.run(["corpus", "Corpus", "--json"]), "corpus --json")
        Self.expectJSON(try CommandRunner.run(["extract"] + messages), lines: true, "extract")
        Self.expectJSON(
            try CommandRunner.run(["check", "--format", "json"] + messages), "check --format json")
        Self.expectJSON(
            try CommandRunner.run(["inspect", "--json"] + messages), lines: true, "inspect --json")
        for view in ["--text", "--links", "--structured"] {
            let inspected = try CommandRunner.run(["inspect", "--json", view] + messages)
            #expect(inspected.status == 0, "\(inspected.standardError)")
            Self.expectJSON(inspected, lines: true, "inspect --json \(view)")
            #expect(inspected.standardOutput.split(separator: "\n").count == messages.count)
        }
    }

    /// Standard output is one JSON object that names the fatal error (`error`, `exitCode` 2),
    /// as `scan --json` does; the exit status is 2 and standard error says it in words (those of
    /// `standardError` when given).
    @discardableResult
    static func expectFatalErrorJSON(
        _ result: CommandRunner.Output, _ command: String, saying words: String, standardError: String? = nil
    ) throws -> [String: Any] {
        #expect(result.status == 2, "\(command): \(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(command): not one JSON object on standard output: \(result.standardOutput.prefix(300))")
        let error = try #require(object["error"] as? String, "\(command): no error in \(object)")
        #expect(error.contains(words), "\(command): \(error)")
        #expect(object["exitCode"] as? Int == 2, "\(command)")
        #expect(result.standardError.contains(standardError ?? words), "\(command): \(result.standardError)")
        return object
    }

    /// `check --format json`, `corpus --json` and `orders --json` on fatal errors: a missing
    /// path, an unreadable rules folder, an output place that is not there.
    @Test func fatalErrorsAreReportedAsJSON() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing").path
        let message = Self.example.appendingPathComponent("cur/1764400002.M2P4242.mailhost:2,S").path

        // check: the usual document, with what was checked, and the error.
        let noRules = try Self.expectFatalErrorJSON(
            try CommandRunner.run(["check", "--format", "json", "--rules", missing, message]),
            "check --rules", saying: missing)
        #expect((noRules["reports"] as? [Any])?.isEmpty == true)
        let noFile = try Self.expectFatalErrorJSON(
            try CommandRunner.run(["check", "--format", "json", missing + ".eml"]), "check missing file",
            saying: "1 input could not be read",
            standardError: "skipped \(missing).eml: no such file")
        #expect((noFile["skipped"] as? [[String: Any]])?.first?["origin"] as? String == missing + ".eml")
        // A file that cannot be opened has no byte offset to report.
        #expect((noFile["skipped"] as? [[String: Any]])?.first?["byteOffset"] is NSNull)
        let noFolder = try Self.expectFatalErrorJSON(
            try CommandRunner.run(["check", "--format", "json", "--out", missing + "/report.json", message]),
            "check --out in a missing folder", saying: "cannot write \(missing)/report.json")
        #expect((noFolder["reports"] as? [Any])?.count == 1)
        #expect(!FileManager.default.fileExists(atPath: missing))
        try Self.expectFatalErrorJSON(
            try CommandRunner.run(["check", "--format", "json", "--out", folder.path, message]),
            "check --out a folder", saying: "it is a folder")

        // corpus: the usual report, not passed, and the error.
        let noCorpus = try Self.expectFatalErrorJSON(
            try CommandRunner.run(["corpus", missing, "--json"]), "corpus missing", saying: missing)
        #expect(noCorpus["passed"] as? Bool == false)
        #expect((noCorpus["cases"] as? [Any])?.isEmpty == true)
        try Self.expectFatalErrorJSON(
            try CommandRunner.run(["corpus", folder.path, "--json"]), "corpus without cases",
            saying: folder.path)
        try Self.expectFatalErrorJSON(
            try CommandRunner.run(["corpus", "Corpus", "--json", "--rules", missing]), "corpus --rules",
            saying: missing)
        let noJUnit = try Self.expectFatalErrorJSON(
            try CommandRunner.run(["corpus", "Corpus", "--json", "--junit", missing + "/corpus.xml"]),
            "corpus --junit in a missing folder", saying: "cannot write \(missing)/corpus.xml")
        #expect(noJUnit["passed"] as? Bool == false)
        #expect((noJUnit["cases"] as? [Any])?.isEmpty == false)

        // orders: an object that says it, instead of the list.
        try Self.expectFatalErrorJSON(
            try CommandRunner.run(["orders", "--out", missing, "--json"]), "orders --out missing",
            saying: "no order database at \(missing)/mailorders.sqlite")
        let notADatabase = folder.appendingPathComponent("notes.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: notADatabase)
        try Self.expectFatalErrorJSON(
            try CommandRunner.run(["orders", "--db", notADatabase.path, "--json", "--unlinked"]),
            "orders --db not a database", saying: "not a database")
    }

    /// Without a fatal error, `check` and `corpus` say so too: `error` is null and `exitCode`
    /// the exit status.
    @Test func jsonWithoutAFatalErrorHasANullError() throws {
        let message = Self.example.appendingPathComponent("cur/1764400002.M2P4242.mailhost:2,S").path
        let check = try CommandRunner.run(["check", "--format", "json", message])
        let checked = try #require(
            try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        #expect(checked["error"] is NSNull)
        #expect(checked["exitCode"] as? Int == Int(check.status))
        let corpus = try CommandRunner.run(["corpus", "Corpus", "--json"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(corpus.standardOutput.utf8)) as? [String: Any])
        #expect(report["error"] is NSNull)
        #expect(report["exitCode"] as? Int == Int(corpus.status))
    }

    /// `inspect --json --text --links --structured`: the views as one object per message.
    @Test func inspectViewsAsJSON() throws {
        let message = Self.example.appendingPathComponent("cur/1764400001.M1P4242.mailhost:2,S").path
        let result = try CommandRunner.run([
            "inspect", "--json", "--text", "--links", "--structured", message,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["origin"] as? String == message)
        let text = try #require(object["text"] as? [String: Any])
        #expect(text["subject"] is String)
        #expect((text["htmlText"] as? String ?? text["plainText"] as? String)?.isEmpty == false)
        let links = try #require(object["links"] as? [[String: Any]])
        #expect(links.allSatisfy { $0["href"] is String && $0["target"] is String && $0["hidden"] is Bool })
        let structured = try #require(object["structured"] as? [String: Any])
        #expect(structured["schemaOrg"] is [Any] && structured["attachedOrders"] is [Any])
        let onlyLinks = try CommandRunner.run(["inspect", "--json", "--links", message])
        let linksObject = try #require(
            try JSONSerialization.jsonObject(with: Data(onlyLinks.standardOutput.utf8)) as? [String: Any])
        #expect(Set(linksObject.keys) == ["origin", "links"])
    }
}
