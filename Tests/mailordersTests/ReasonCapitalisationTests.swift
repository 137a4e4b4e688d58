import Foundation
import Testing

/// The reasons given for skipped messages and the warnings of messages read with repairs start
/// with a lower-case letter, whichever stage gave them (mailbox reader, MIME parser, document
/// stage, extraction), in `scan`'s summary as in `extract`'s and `check`'s reports.
@Suite(.serialized) struct ReasonCapitalisationTests {
    /// A Maildir of messages that each make one stage give a reason or a warning.
    static func messyMaildir(in folder: URL) throws -> URL {
        let maildir = folder.appendingPathComponent("Maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let dated = "Mon Jan  1 00:00:00 2024"
        let rows = (0..<60).map { "<tr><td>Widget number \($0)</td><td>1</td><td>$10.00</td></tr>" }.joined()
        let files: [String: String] = [
            "empty": "",
            "noheader": "just some text\nwithout a header\n",
            "ctype": "Subject: x\nFrom: a@shop.example\nContent-Type: foo\n\nhello\n",
            "jsonld":
                "Subject: Your order A-1\nFrom: a@shop.example\nContent-Type: text/html\n\n"
                + "<script type=\"application/ld+json\">{\"@type\": \"Order\", \"orderNumber\": \"A-1\",}</script>"
                + "<p>Order number: A-1</p>\n",
            "html":
                "Subject: Your order 12345\nFrom: a@shop.example\nContent-Type: text/html\n\n<p>before</p>"
                + String(repeating: "<b>x</b>", count: 160_000) + "\n",
            "items":
                "Subject: Your order A-2\nFrom: a@shop.example\nContent-Type: text/html\n\n"
                + "<p>Thank you for your order!</p><p>Order number: A-2</p><table>\(rows)"
                + "<tr><td>Order total</td><td>$600.00</td></tr></table>\n",
            "noclose":
                "Subject: x\nFrom: a@shop.example\nContent-Type: multipart/mixed; boundary=b\n\n--b\n"
                + "Content-Type: text/plain\n\nhi\n",
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: maildir.appendingPathComponent("new/\(name)"))
        }
        try Data([0, 1, 2, 3, 4, 5, 6, 7, 0xFF, 0xFE] + [UInt8](repeating: 3, count: 500)).write(
            to: maildir.appendingPathComponent("new/binary"))
        // Beside the Maildir: a Maildir's file is one message, never read as an mbox.
        let mbox =
            "From a@shop.example \(dated)\nSubject: x\n\nbody\n\nFrom b@shop.example \(dated)\n"
            + "From c@shop.example \(dated)\nSubject: y\nContent-Length: 400\n\nz\n"
        try Data(mbox.utf8).write(to: messyMbox(in: folder))
        return maildir
    }

    /// The mbox ``messyMaildir(in:)`` writes beside the Maildir.
    static func messyMbox(in folder: URL) -> URL { folder.appendingPathComponent("messy.mbox") }

    static func startsLowerCase(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return !first.properties.isUppercase
    }

    /// A warning line without its `part 1.2: ` prefix.
    static func withoutPartPath(_ warning: String) -> String {
        guard warning.hasPrefix("part "), let colon = warning.range(of: ": ") else { return warning }
        return String(warning[colon.upperBound...])
    }

    @Test func reasonsAndWarningsStartWithALowerCaseLetter() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = try Self.messyMaildir(in: folder)
        let result = try CommandRunner.run([
            "scan", maildir.path, Self.messyMbox(in: folder).path, "--out",
            folder.appendingPathComponent("out").path, "--json", "--quiet",
        ])
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let reasons = (summary["skipped"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        let warnings = (summary["repaired"] as? [[String: Any]] ?? []).flatMap {
            ($0["warnings"] as? [String] ?? []).map(Self.withoutPartPath)
        }
        // Every stage had its say: the mailbox reader, the pipeline, MIME, the document stage and
        // extraction.
        for expected in [
            "empty file", "binary data", "no header field", "no message after the From line",
        ] {
            #expect(reasons.contains { $0.hasPrefix(expected) }, "\(expected): \(reasons)")
        }
        for expected in [
            "length 400 in Content-Length", "media type \"foo\" in Content-Type", "repaired JSON-LD block 1",
            "text/html part cut at byte", "more than 50 line items", "multipart has no closing boundary",
        ] {
            #expect(warnings.contains { $0.hasPrefix(expected) }, "\(expected): \(warnings)")
        }
        for text in reasons + warnings {
            #expect(Self.startsLowerCase(text), "\(text)")
        }
        // `extract` and `check` give the same reasons after the origin.
        for command in ["extract", "check"] {
            let report = try CommandRunner.run([
                command, maildir.appendingPathComponent("new").path, Self.messyMbox(in: folder).path,
            ])
            let lines = report.standardError.split(separator: "\n").map(String.init).filter {
                $0.contains(" skipped ") || $0.contains("warning: ")
            }
            #expect(!lines.isEmpty, "\(command): \(report.standardError)")
            for line in lines {
                let reason = line.range(
                    of: #"(at byte \d+|warning: \S+): (part [0-9.]+: )?"#, options: .regularExpression
                )
                .map { String(line[$0.upperBound...]) }
                #expect(reason.map(Self.startsLowerCase) == true, "\(command): \(line)")
            }
        }
    }
}
