import Foundation
import Testing

/// A file name with a line feed, a carriage return, a tab or an escape sequence stays on its
/// line, escaped, in the text `check`, `corpus`, `scan` and `extract` print; JSON keeps it
/// as it is.
@Suite struct FileNameEscapeTests {
    static let hostile = "order\n\r\t\u{1B}[2J\u{9B}1m.eml"
    static let shown = #"order\n\r\t\u{1B}[2J\u{9B}1m.eml"#

    static let confirmation = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400001.M1P4242.mailhost:2,S")

    /// No line of `text` holds a control character but the line feeds between lines.
    static func expectNoControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = text.unicodeScalars.filter {
            $0.value != 0x0A && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
        }
        #expect(controls.isEmpty, "\(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func checkTextShowsTheNameEscaped() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(Self.hostile)
        try FileManager.default.copyItem(at: Self.confirmation, to: file)
        let second = folder.appendingPathComponent("plain.eml")
        try FileManager.default.copyItem(at: Self.confirmation, to: second)
        let result = try CommandRunner.run(["check", file.path, second.path])
        #expect(result.status <= 1, "\(result.standardError)")
        let escapedPath = folder.path + "/" + Self.shown
        let lines = result.standardOutput.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix(escapedPath + ": ") }, "\(lines.prefix(3))")
        // The summary table's row.
        #expect(lines.contains { $0.hasPrefix(escapedPath + "  ") }, "\(lines.suffix(5))")
        Self.expectNoControls(result.standardOutput)
        Self.expectNoControls(result.standardError)
        // JSON names the file as it is.
        let json = try CommandRunner.run(["check", file.path, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let reports = try #require(object["reports"] as? [[String: Any]])
        #expect(reports.first?["origin"] as? String == file.path)
    }

    @Test func extractAndCheckSayASkippedFileEscaped() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(Self.hostile)
        try Data("no header here\n".utf8).write(to: file)
        for command in ["extract", "check"] {
            let result = try CommandRunner.run([command, file.path])
            #expect(result.status != 0)
            #expect(
                result.standardError.hasPrefix(
                    "mailorders \(command): skipped \(folder.path)/\(Self.shown) at byte 0: "),
                "\(result.standardError.debugDescription)")
            Self.expectNoControls(result.standardError)
        }
    }

    @Test func scanSummaryShowsTheNameEscaped() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mailbox = folder.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mailbox, withIntermediateDirectories: true)
        // A message over nothing but a separator: skipped, with its origin.
        let mbox = mailbox.appendingPathComponent(Self.hostile)
        try Data("From a@b.example Thu Nov 19 21:05:00 2026\n\n".utf8).write(to: mbox)
        let result = try CommandRunner.run([
            "scan", mailbox.path, "--out", folder.appendingPathComponent("orders").path,
        ])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("  \(mailbox.path)/\(Self.shown)#1"), "\(result.standardError)")
        Self.expectNoControls(result.standardError)
    }

    @Test func corpusShowsACaseNameEscaped() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "case\t\u{1B}]0;title\u{07}"
        try FileManager.default.copyItem(
            at: Self.confirmation, to: folder.appendingPathComponent(name + ".eml"))
        try Data(#"{"kind": "refund"}"#.utf8).write(
            to: folder.appendingPathComponent(name + ".expected.json"))
        let result = try CommandRunner.run(["corpus", folder.path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(#"FAIL case\t\u{1B}]0;title\u{7}"#), "\(result.standardOutput)")
        Self.expectNoControls(result.standardOutput)
    }

    /// A fatal error line names its path escaped too.
    @Test func corpusErrorLineShowsThePathEscaped() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no\tsuch\ncorpus").path
        let result = try CommandRunner.run(["corpus", missing])
        #expect(result.status == 2)
        #expect(result.standardError.contains(#"no\tsuch\ncorpus"#), "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "\n").count == 2, "\(result.standardError)")
        Self.expectNoControls(result.standardError)
    }
}
