import Foundation
import Testing

/// `extract`, `inspect` and `check` read their inputs through one loop: an unreadable message is
/// reported with its path and skipped, the good ones are still processed, the exit status says so.
@Suite struct MessageLoopTests {
    static let good = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400001.M1P4242.mailhost:2,S"
    ).path

    func junkFile(in folder: URL) throws -> String {
        var junk = [UInt8](repeating: 0, count: 4096)
        for index in junk.indices { junk[index] = UInt8((index * 7919) & 0xFF) }
        let path = folder.appendingPathComponent("junk.eml").path
        try Data(junk).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [("extract", Int32(1)), ("inspect", Int32(1)), ("check", Int32(2))])
    func badInputsAreReportedAndTheGoodMessageIsStillRead(command: String, status: Int32) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = try junkFile(in: folder)
        let missing = folder.appendingPathComponent("missing.eml").path
        let result = try CommandRunner.run([command, junk, Self.good, missing])
        #expect(result.status == status)
        #expect(result.standardError.contains("mailorders \(command): skipped \(junk)"))
        #expect(
            result.standardError.contains("mailorders \(command): skipped \(missing): no such file")
        )
        switch command {
        case "extract": #expect(result.standardOutput.contains("\"orderNumber\""))
        case "inspect": #expect(result.standardOutput.contains(Self.good))
        default: #expect(result.standardOutput.contains("1764400001.M1P4242"))
        }
    }

    /// A bad message in an mbox is named the same way by every command: the mbox, the message's
    /// number in it, the byte offset, the reason.
    @Test func aBadMessageInAnMboxIsNamedAlikeByEveryCommand() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbox = folder.appendingPathComponent("inbox.mbox")
        let text = """
            From a@example.com Mon Jan  1 00:00:00 2024
            Subject: fine

            hello

            From b@example.com Mon Jan  1 00:00:01 2024
            \u{0}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{e}\u{f}\u{10}\u{11}

            """
        try Data(text.utf8).write(to: mbox)
        let expected = "\(mbox.path)#2 at byte 110: binary data after the From line"
        for command in ["extract", "inspect", "check"] {
            let result = try CommandRunner.run([command, mbox.path])
            #expect(
                result.standardError.contains("mailorders \(command): skipped \(expected)"),
                "\(command): \(result.standardError)")
        }
        let scan = try CommandRunner.run([
            "scan", mbox.path, "--out", folder.appendingPathComponent("out").path,
        ])
        #expect(scan.status == 1)
        #expect(scan.standardError.contains("  \(expected)"), "\(scan.standardError)")
    }

    /// A text file that is not mail (a README, a JSON file) is passed over by `check` and
    /// `inspect` as `scan` and `extract` pass it over: its header has no message field.
    @Test(arguments: [("extract", Int32(1)), ("inspect", Int32(1)), ("check", Int32(2))])
    func aTextFileThatIsNotMailIsSkipped(command: String, status: Int32) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.md")
        try Data("# Notes\n\nOrder number: NW-48213\nTracking: 1Z999AA10123456784\n".utf8).write(to: notes)
        let result = try CommandRunner.run([command, notes.path])
        #expect(result.status == status, "\(command)")
        #expect(
            result.standardError.contains(
                "mailorders \(command): skipped \(notes.path) at byte 0: no header field: not an Internet message"
            ),
            "\(result.standardError)")
        #expect(!result.standardOutput.contains("NW-48213"), "\(command)")
    }

    /// A From name that decodes to terminal escape sequences is printed visibly, never raw.
    @Test func terminalControlsFromAnEmailAreNotWrittenRaw() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("escape.eml")
        let email =
            "From: =?utf-8?Q?=1B[2J=1B]0;owned=07Shop?= <a@shop.example>\r\n"
            + "Subject: =?utf-8?Q?Order_=1B[31mred?=\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\n\r\nHello\r\n"
        try Data(email.utf8).write(to: path)
        for command in ["inspect", "extract"] {
            let result = try CommandRunner.run([command, path.path])
            #expect(!result.standardOutput.utf8.contains(0x1B))
            #expect(!result.standardOutput.utf8.contains(0x07))
            #expect(!result.standardError.utf8.contains(0x1B))
        }
        let inspected = try CommandRunner.run(["inspect", path.path])
        #expect(inspected.standardOutput.contains("\\u{1B}[2J"))
    }

    /// C1 controls and bidirectional overrides from an email: escaped on the terminal, and
    /// JSON output stays valid JSON with the same text.
    @Test func jsonOutputEscapesC1ControlsTheJSONWay() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("c1.eml")
        let email =
            "From: =?utf-8?Q?Shop=C2=9B31m_=E2=80=AEevil?= <a@shop.example>\r\n"
            + "Subject: Order 12345\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\n\r\nHello\r\n"
        try Data(email.utf8).write(to: path)
        let extracted = try CommandRunner.run(["extract", path.path])
        #expect(!extracted.standardOutput.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
        let line = try #require(extracted.standardOutput.split(separator: "\n").first)
        let extraction = try JSONSerialization.jsonObject(with: Data(line.utf8))
        #expect(extraction is [String: Any])
        let inspected = try CommandRunner.run(["inspect", "--json", path.path])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(inspected.standardOutput.utf8)) as? [String: Any])
        #expect(!object.isEmpty)
        let text = try CommandRunner.run(["inspect", path.path])
        #expect(text.standardOutput.contains("\\u{9B}31m"))
        #expect(text.standardOutput.contains("\\u{202E}evil"))
    }

    /// One NUL byte near the start of an order email does not make it binary junk.
    @Test func aStrayNULByteDoesNotLoseTheMessage() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.good)))
        // After "Subject: ", in the header section near the start of the file.
        let subject = Array("Subject: ".utf8)
        let start = try #require(
            bytes.indices.first { bytes[$0...].starts(with: subject) })
        bytes.insert(0, at: start + subject.count)
        let path = folder.appendingPathComponent("nul.eml")
        try Data(bytes).write(to: path)
        let result = try CommandRunner.run(["extract", path.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"orderNumber\""))
    }
}
