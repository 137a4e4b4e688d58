import Foundation
import Testing

@testable import mailorders

/// Error messages are one plain sentence naming the path and the reason, never an `NSError`
/// dump.
@Suite struct ErrorMessageTests {
    /// No `NSError` text, and one line.
    func expectPlain(_ text: String, _ comment: Comment? = nil) {
        for dump in ["NSCocoaErrorDomain", "Error Domain=", "UserInfo=", "operation could not be completed"] {
            #expect(!text.contains(dump), comment ?? "\(text)")
        }
        let own = CommandRunner.withoutSanitizerReport(text)
        #expect(own.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(text)")
    }

    @Test func corpusNamesThePathAndTheReason() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.txt")
        try Data("x".utf8).write(to: file)
        let notAFolder = try CommandRunner.run(["corpus", file.path])
        #expect(notAFolder.status == 2)
        #expect(notAFolder.standardError.contains("cannot read \(file.path): it is a file"))
        expectPlain(notAFolder.standardError)

        let missing = try CommandRunner.run(["corpus", folder.appendingPathComponent("none").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("none: no such file or directory"))
        expectPlain(missing.standardError)

        // One case whose expected file is a folder: it cannot be read as a file.
        let corpus = folder.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(
            at: corpus.appendingPathComponent("a.expected.json"), withIntermediateDirectories: true)
        let example = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur")
        let first = try FileManager.default.contentsOfDirectory(atPath: example.path).sorted()[0]
        try FileManager.default.copyItem(
            at: example.appendingPathComponent(first), to: corpus.appendingPathComponent("a.eml"))
        let unreadable = try CommandRunner.run(["corpus", corpus.path])
        #expect(unreadable.status == 1)
        let line = try #require(
            unreadable.standardOutput.split(separator: "\n").first { $0.contains("a.expected.json") })
        #expect(line.contains("cannot read \(corpus.path)/a.expected.json: "), "\(line)")
        #expect(!line.contains("not valid extraction JSON"))
        expectPlain(String(line))

        let junit = try CommandRunner.run(["corpus", corpus.path, "--junit", "/nonexistent/x.xml"])
        #expect(junit.status == 2)
        #expect(junit.standardError.contains("cannot write /nonexistent/x.xml: no such file or directory"))
        expectPlain(junit.standardError)
    }

    /// `check` of a folder without email is no pass: exit 2, in every format.
    @Test func checkOfAFolderWithoutEmailFails() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["text", "json", "html"] {
            let result = try CommandRunner.run(["check", folder.path, "--format", format])
            #expect(result.status == 2, "\(format)")
            #expect(
                result.standardError.contains("mailorders check: no email found in \(folder.path)"),
                "\(format)")
            if format == "json" {
                let object =
                    try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
                #expect(object?["exitCode"] as? Int == 2)
                #expect((object?["error"] as? String)?.hasPrefix("no email found") == true)
            }
        }
    }

    /// A report that cannot be written says why in plain words.
    @Test func checkNamesWhyTheReportCannotBeWritten() throws {
        let message = CommandRunner.repository.appendingPathComponent(
            "examples/Maildir/cur/1764400002.M2P4242.mailhost:2,S"
        ).path
        let result = try CommandRunner.run(["check", message, "--out", "/nonexistent/report.txt"])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains("cannot write /nonexistent/report.txt: no such file or directory"))
        expectPlain(result.standardError)
    }

    /// A file given as the order database that is not one is named, with the reason.
    @Test func ordersNamesTheDatabaseItCannotRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notADatabase = folder.appendingPathComponent("notes.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: notADatabase)
        let result = try CommandRunner.run(["orders", "--db", notADatabase.path])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "cannot read the order store \(notADatabase.path): file is not a database (SQLite error 26)"),
            "\(result.standardError)")
        expectPlain(result.standardError)
    }

    /// A mailbox path that is not there stops the run before anything is created: a mistyped
    /// or unmounted path is not a message to skip.
    @Test func scanOfAMissingPathStopsBeforeCreatingTheOutputFolder() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no-such-Maildir").path
        let out = folder.appendingPathComponent("out")
        // A symbolic link to a missing file is as missing.
        let dangling = folder.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: missing)
        let linked = try CommandRunner.run(["scan", dangling.path, "--out", out.path])
        #expect(linked.status == 2)
        #expect(
            linked.standardError.contains("cannot read \(dangling.path): symbolic link to a missing file"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        for extra in [[String](), ["--json"]] {
            let result = try CommandRunner.run(["scan", missing, "--out", out.path] + extra)
            #expect(result.status == 2)
            #expect(result.standardError.contains("cannot read \(missing): no such file or directory"))
            expectPlain(result.standardError.components(separatedBy: "\n").first ?? "")
            #expect(!FileManager.default.fileExists(atPath: out.path))
            if !extra.isEmpty {
                let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
                let summary = try #require(object as? [String: Any])
                #expect(summary["messagesRead"] as? Int == 0)
                #expect((summary["error"] as? String)?.contains("no such file or directory") == true)
            }
        }
    }

    @Test func scanNamesWhyTheOutputFolderCannotBeMade() throws {
        let result = try CommandRunner.run(["scan", "examples/Maildir", "--out", "/proc/mailorders-test"])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "cannot create the output folder /proc/mailorders-test (--out): /proc does not allow new folders"
            ),
            "\(result.standardError)")
        expectPlain(result.standardError)
    }

    /// Standard input can be read once: `scan - -` is a usage error, not an empty second message.
    @Test func standardInputTwiceIsAUsageError() throws {
        let result = try CommandRunner.run(["scan", "-", "-", "--out", "/tmp/unused"], standardInput: Data())
        #expect(result.status == 64)
        #expect(result.standardError.contains("- (standard input) can be read only once"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/unused"))
    }

    /// A file name with a line break is shown as `\n` in check's error line, as scan shows it.
    @Test func checkKeepsAFileNameWithALineBreakOnItsLine() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("evil\nmailorders check: all good")
        try Data().write(to: file)
        let result = try CommandRunner.run(["check", file.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("evil\\nmailorders check: all good"), "\(result.standardError)")
        expectPlain(result.standardError)
    }

    /// The progress line counts emails and the parcels they mention, not orders.
    @Test func theProgressLineSaysWhatItCounts() {
        let progress = ProgressReporter(quiet: false, isTerminal: false)
        let line = progress.line(done: 900, orders: 805, shipments: 912, now: Date())
        #expect(line.hasSuffix(", 805 order emails, 912 parcel mentions"), "\(line)")
    }
}
