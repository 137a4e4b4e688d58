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
