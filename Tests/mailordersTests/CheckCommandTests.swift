import Foundation
import Testing

/// `mailorders check` through the built binary: formats, files, exit status.
@Suite(.serialized) struct CheckCommandTests {
    static let shipped = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400002.M2P4242.mailhost:2,S"
    ).path

    @Test func aGoodShippingEmailHasNoErrors() throws {
        let result = try CommandRunner.run(["check", Self.shipped, "--expect", "shipping"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("1ZA7X9252601815900"))
        #expect(result.standardOutput.contains("order.json"))
    }

    /// A forwarded email is judged by the original it forwards: the merchant's name, order
    /// number, carrier and tracking link are there, and its sender is the shop's domain.
    @Test func aForwardedEmailIsJudgedByItsOriginal() throws {
        let corpus = CommandRunner.repository.appendingPathComponent("Corpus")
        let forwarded = corpus.appendingPathComponent("en-forwarded-attachment-evri.eml").path
        let result = try CommandRunner.run(["check", forwarded, "--format", "json"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let report = try #require((document["reports"] as? [[String: Any]])?.first)
        let codes = Set((report["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String })
        #expect(codes.isDisjoint(with: ["MO101", "MO102", "MO202", "MO203", "MO204"]), "\(codes)")
        #expect((report["sender"] as? [String: Any])?["domain"] as? String == "brambleandfinch.example")
        // The shop's own email beside one forwarded from another address: one sending domain.
        let both = try CommandRunner.run([
            "check", "--format", "json",
            corpus.appendingPathComponent("en-ca-maple-loom-shipped-purolator.eml").path,
            corpus.appendingPathComponent("en-forwarded-outlook-maple-loom-canada-post.eml").path,
        ])
        #expect(!both.standardOutput.contains("MO401"), "\(both.standardOutput)")
    }

    /// A forward of a reply ("Fwd: Re: …") is judged by the reply it forwards, which is read
    /// without its thread's subject; the report shows the reply's subject as quoted, beside
    /// the reply's sender.
    @Test func aForwardedReplyKeepsItsSubjectInTheReport() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fwd-re.eml")
        try Data(
            """
            From: Sam <sam@mail.example>
            To: dana@mail.example
            Subject: Fwd: Re: Your order NW-48213 has shipped!
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8

            FYI

            ---------- Forwarded message ---------
            From: Anna Becker <anna@mail.example>
            Date: Mon, Nov 16, 2026 at 6:00 PM
            Subject: Re: Your order NW-48213 has shipped!
            To: <orders@northwind-outfitters.example>

            It has not arrived.

            """.utf8
        ).write(to: file)
        let result = try CommandRunner.run(["check", file.path, "--format", "json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let report = try #require((document["reports"] as? [[String: Any]])?.first)
        #expect(report["subject"] as? String == "Re: Your order NW-48213 has shipped!", "\(report)")
        #expect(
            (report["sender"] as? [String: Any])?["address"] as? String == "anna@mail.example", "\(report)")
    }

    @Test func theWrongExpectedKindIsAnError() throws {
        let result = try CommandRunner.run([
            "check", Self.shipped, "--expect", "delivery", "--format", "json",
        ])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["hasErrors"] as? Bool == true)
        #expect(result.standardOutput.contains("MO601"))
        // The fix is about the kind expected: a delivery update, not a shipping confirmation.
        let reports = try #require(object["reports"] as? [[String: Any]])
        let findings = try #require(reports.first?["findings"] as? [[String: Any]])
        let fix = try #require(findings.first { $0["code"] as? String == "MO601" }?["fix"] as? String)
        #expect(fix.contains("a delivery update"))
        #expect(fix.contains("Your package was delivered"))
        #expect(!fix.contains("shipped"))
        let text = try CommandRunner.run(["check", Self.shipped, "--expect", "confirmation"])
        #expect(text.standardOutput.contains("Thank you for your order"))
        #expect(!text.standardOutput.contains("e.g. \"Your order has shipped\""))
    }

    @Test func writesASelfContainedHTMLReport() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.html")
        let result = try CommandRunner.run(["check", Self.shipped, "--format", "html", "--out", report.path])
        #expect(result.status == 0, "\(result.standardError)")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("<iframe"))
        #expect(html.contains("sandbox=\"\""))
        #expect(!html.contains("<script src"))
    }

    /// The fix for an email of another kind than expected quotes words of the email's own
    /// language: German ones for a German confirmation checked as a shipping email.
    @Test func theWrongKindFixQuotesWordsOfTheEmailsLanguage() throws {
        let german = CommandRunner.repository.appendingPathComponent(
            "Corpus/de-waldkauz-bestellbestaetigung-iso-8859-15.eml"
        ).path
        let result = try CommandRunner.run(["check", german, "--expect", "shipping"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("MO601"))
        #expect(result.standardOutput.contains("\"wurde versandt\""))
        #expect(!result.standardOutput.contains("Your order has shipped"))
    }

    @Test func anUnreadableInputExitsTwoAndBadOptionsSixtyFour() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.eml")
        try Data().write(to: empty)
        let result = try CommandRunner.run(["check", empty.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("empty.eml"))
        // Nothing read, nothing reported: no empty summary table that looks like a clean run.
        #expect(result.standardOutput.isEmpty)
        let missing = try CommandRunner.run(["check", folder.appendingPathComponent("missing.eml").path])
        #expect(missing.status == 2)
        #expect(
            missing.standardError.contains("missing.eml") && missing.standardError.contains("no such file"))
        #expect(missing.standardOutput.isEmpty)
        // One readable file among unreadable ones is still reported, and the run says files were skipped.
        let mixed = try CommandRunner.run(["check", empty.path, Self.shipped])
        #expect(mixed.status == 2)
        #expect(mixed.standardOutput.contains("1ZA7X9252601815900"))
        #expect(try CommandRunner.run(["check", Self.shipped, "--format", "pdf"]).status == 64)
        #expect(try CommandRunner.run(["check", Self.shipped, "--expect", "refund"]).status == 64)
        let toFolder = try CommandRunner.run([
            "check", Self.shipped, "--format", "html", "--out", folder.path,
        ])
        #expect(toFolder.status == 2)
        #expect(toFolder.standardError.contains("it is a folder; --out takes a file name"))
        #expect(toFolder.standardError.contains("report.html"))
        #expect(try CommandRunner.run(["check", Self.shipped, "--out", ""]).status == 64)
    }

    /// `--format json` and `--format html` list every input that could not be read, with its
    /// origin, byte offset and reason, as standard error does; when none could be read, the
    /// document lists them all.
    @Test func jsonAndHTMLListTheInputsNotRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.eml").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let notes = folder.appendingPathComponent("notes.md").path
        try Data("# Notes\n\nOrder number: NW-48213\n".utf8).write(to: URL(fileURLWithPath: notes))
        let mbox = folder.appendingPathComponent("box.mbox").path
        // The second message is empty: its offset is the byte after its From line.
        let upToSecond =
            "From a@b.example Thu Nov 19 16:05:00 2026\nSubject: one\n\nhello\n\n"
            + "From b@c.example Thu Nov 19 16:05:00 2026\n"
        try Data((upToSecond + "\n").utf8).write(to: URL(fileURLWithPath: mbox))
        let inputs = [empty, notes, mbox, mbox + "#5", Self.shipped]

        let result = try CommandRunner.run(["check", "--format", "json"] + inputs)
        #expect(result.status == 2)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((object["reports"] as? [Any])?.count == 2)
        let skipped = try #require(object["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["origin"] as? String } == [empty, notes, mbox + "#2", mbox + "#5"])
        #expect(skipped.map { $0["byteOffset"] as? Int } == [0, 0, upToSecond.utf8.count, nil])
        #expect(skipped[3]["byteOffset"] is NSNull)
        #expect(
            skipped.map { $0["reason"] as? String } == [
                "empty file", "no header field: not an Internet message", "empty message after a From line",
                "\(mbox) is an mbox of 2 messages, it has no message 5",
            ])
        // Standard error says the same, one line each.
        #expect(
            result.standardError.contains("skipped \(mbox)#2 at byte \(upToSecond.utf8.count): empty message")
        )

        let report = folder.appendingPathComponent("report.html")
        let html = try CommandRunner.run(["check", "--format", "html", "--out", report.path] + inputs)
        #expect(html.status == 2)
        let page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.contains("4 inputs not read"))
        #expect(
            page.contains(
                "<td>\(mbox)#2</td><td>\(upToSecond.utf8.count)</td><td>empty message after a From line</td>")
        )
        #expect(page.contains("<td>\(notes)</td><td>0</td><td>no header field: not an Internet message</td>"))

        // Nothing read: the document lists what was not read, not a clean empty report.
        let none = try CommandRunner.run(["check", "--format", "json", empty])
        #expect(none.status == 2)
        let noneObject = try #require(
            try JSONSerialization.jsonObject(with: Data(none.standardOutput.utf8)) as? [String: Any])
        #expect((noneObject["reports"] as? [Any])?.isEmpty == true)
        #expect((noneObject["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "empty file")
    }

    @Test func severalFilesGetASummary() throws {
        let cur = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur").path
        let files = try FileManager.default.contentsOfDirectory(atPath: cur).sorted().prefix(3).map {
            cur + "/" + $0
        }
        let result = try CommandRunner.run(["check"] + files)
        #expect(result.status == 0 || result.status == 1)
        #expect(result.standardOutput.lowercased().contains("summary"))
    }
}
