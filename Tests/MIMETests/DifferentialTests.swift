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
        var agrees: Bool { ours == python || DifferentialTests.matchesAroundReplacements(ours, python) }
    }

    /// Where Python put U+FFFD for bytes it could not decode (it does not guess charsets),
    /// any text of ours fills the gap: the rest must match exactly, in order.
    static func matchesAroundReplacements(_ ours: String, _ python: String) -> Bool {
        guard python.contains("\u{FFFD}") else { return false }
        let pieces = python.split(separator: "\u{FFFD}", omittingEmptySubsequences: false)
        var rest = Substring(ours)
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
                // Each replacement stands for at least one character.
                continue
            }
            if index == pieces.count - 1 {
                return rest.count > piece.count && rest.hasSuffix(piece) || (piece.isEmpty && !rest.isEmpty)
            }
            if piece.isEmpty { continue }
            guard let found = rest.dropFirst().range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// Display names compare with blank runs collapsed (RFC 5322 §3.2.2: folding white
    /// space in a phrase is not significant).
    static func collapseBlanks(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Disagreements investigated one by one, with why our answer is the right one.
    /// Keyed by `<corpus-relative path>|<field>`.
    static let explainedDisagreements: [String: String] = [
        "apache-james-mime4j/core/src/test/resources/mimetools-testmsgs/german.msg|from":
            commentName,
        "apache-james-mime4j/core/src/test/resources/mimetools-testmsgs/not-mime.msg|from":
            commentName,
        "mikel-mail/spec/fixtures/emails/multipart_report_emails/multi_address_bounce1.eml|from":
            commentName,
        "mikel-mail/spec/fixtures/emails/multipart_report_emails/multi_address_bounce2.eml|from":
            commentName,
        "apache-james-mime4j/core/src/test/resources/mimetools-testmsgs/multi-2gifs-base64.msg|text 1":
            b64Rfc822,
        "apache-james-mime4j/core/src/test/resources/testmsgs/bad-newlines-multiple-parts-base64.msg|text 1":
            b64Rfc822,
        "apache-james-mime4j/core/src/test/resources/testmsgs/base64encoded-rfc822message-nested.msg|text 1":
            b64Rfc822,
        "apache-james-mime4j/core/src/test/resources/testmsgs/base64encoded-rfc822message.msg|text 1":
            b64Rfc822,
        "stalwartlabs-mail-parser/resources/eml/rfc/008.eml|text parts":
            b64Rfc822,
        "apache-james-mime4j/core/src/test/resources/testmsgs/multipartemptypart.msg|text parts":
            emptyPartEpilogue,
        "apache-james-mime4j/core/src/test/resources/testmsgs/obsolete.msg|subject":
            obsColon,
        "apache-james-mime4j/core/src/test/resources/testmsgs/obsolete.msg|text 1":
            obsColonBody,
        "mikel-mail/spec/fixtures/emails/rfc2822/example13.eml|text 1":
            obsColonBody,
        "mikel-mail/spec/fixtures/emails/rfc2822/example13.eml|from":
            obsColon,
        "apache-james-mime4j/core/src/test/resources/testmsgs/very-long-boundary.msg|text parts":
            boundaryTrailingSpace,
        "apache-james-mime4j/core/src/test/resources/testmsgs/very-very-long-boundary.msg|text parts":
            boundaryTrailingSpace,
        "apache-james-mime4j/core/src/test/resources/testmsgs/weird-boundary.msg|text parts":
            boundaryTrailingSpace,
        "mikel-mail/spec/fixtures/emails/attachment_emails/attachment_pdf_non_ascii.eml|text 1":
            utf8UnderLatinLabel,
        "mikel-mail/spec/fixtures/emails/attachment_emails/attachment_pdf_non_ascii_lf.eml|text 1":
            utf8UnderLatinLabel,
        "mikel-mail/spec/fixtures/emails/error_emails/content_transfer_encoding_7-bit.eml|text 1":
            utf8UnderLatinLabel,
        "mikel-mail/spec/fixtures/emails/error_emails/content_transfer_encoding_7-bit.eml|text 2":
            utf8UnderLatinLabel,
        "mikel-mail/spec/fixtures/emails/error_emails/bad_subject.eml|from":
            encodedWordsGlued,
        "mikel-mail/spec/fixtures/emails/error_emails/content_transfer_encoding_empty.eml|text 1":
            big5LabelUtf8Bytes,
        "mikel-mail/spec/fixtures/emails/error_emails/missing_body.eml|to":
            angleRouteGarbage,
        "mikel-mail/spec/fixtures/emails/mime_emails/raw_email_with_illegal_boundary.eml|text parts":
            illegalUnquotedBoundary,
        "mikel-mail/spec/fixtures/emails/plain_emails/raw_email_bad_time.eml|text parts":
            illegalUnquotedBoundary,
        "mikel-mail/spec/fixtures/emails/plain_emails/mix_caps_content_type.eml|from":
            bareNameAddress,
        "mikel-mail/spec/fixtures/emails/plain_emails/raw_email10.eml|text 1":
            xUnknownCharset,
        "mikel-mail/spec/fixtures/emails/plain_emails/raw_email_multiple_from.eml|from":
            missingComma,
        "mikel-mail/spec/fixtures/emails/plain_emails/raw_email_multiple_from.eml|to":
            missingComma,
        "mikel-mail/spec/fixtures/emails/plain_emails/raw_email_with_at_display_name.eml|to":
            atInDisplayName,
        "stalwartlabs-mail-parser/resources/eml/malformed/019.eml|subject":
            corruptFieldName,
        "stalwartlabs-mail-parser/resources/eml/malformed/019.eml|to":
            corruptFieldName,
        "stalwartlabs-mail-parser/resources/eml/malformed/019.eml|text parts":
            corruptFieldName,
        "stalwartlabs-mail-parser/resources/eml/thirdparty/003.eml|text 4":
            qpTrailingBlanks,
        "stalwartlabs-mail-parser/resources/eml/thirdparty/009.eml|text parts":
            messagePartial,
    ]

    static let commentName =
        "An old-style `address (Full Name)` mailbox: the comment is the only display name given, and mainstream clients show it; Python drops comments (RFC 5322 §3.4, obsolete form in RFC 822 §6.1)."
    static let b64Rfc822 =
        "A base64-encoded message/rfc822 part: RFC 2046 §5.2.1 forbids the encoding, but senders use it; we decode and parse the inner message, Python leaves the base64 text as the body."
    static let emptyPartEpilogue =
        "The only part between the boundaries is empty; Python's feedparser wrongly puts the epilogue text ('Epilogue') into that part."
    static let obsColon =
        "Blanks before the colon of a field name are the obsolete syntax RFC 5322 §4.5 requires readers to accept; Python ends the header section there and reads the fields as body."
    static let boundaryTrailingSpace =
        "The boundary ends in spaces and a line that lacks them is body text, not a delimiter (the corpus's own expected structure says so); Python strips trailing blanks from delimiter lines and splits there."
    static let utf8UnderLatinLabel =
        "The part is labelled iso-8859-1 but its 8-bit bytes are well-formed UTF-8 sequences (e.g. C3 82): a mislabel we detect and warn about; Python decodes Latin-1 mojibake."
    static let encodedWordsGlued =
        "Encoded-words that split words mid-way ('MySurvey' + '.com'): whitespace between adjacent encoded-words is dropped (RFC 2047 §6.2); Python keeps a blank between them."
    static let big5LabelUtf8Bytes =
        "Labelled big5 but the bytes are not valid Big5 and are valid UTF-8 (the fixture was re-encoded); we decode UTF-8 with a warning, Python produces Big5 mojibake."
    static let angleRouteGarbage =
        "`<Undisclosed-Recipient:@mailman.enron.com;>` is no valid address; we keep local part and domain, Python keeps only the local part. Neither is more right; the message is spam-era garbage."
    static let illegalUnquotedBoundary =
        "An unquoted boundary containing `=` (illegal in a token, RFC 2045 §5.1) that Outlook sends; we read it up to the `;` as mainstream clients do and find the parts; Python finds no boundary and no text."
    static let bareNameAddress =
        "`From: Big Bug bb@bug.com` (no angle brackets): the words before the bare address are its display name; Python glues every word into one quoted local part."
    static let xUnknownCharset =
        "charset=X-UNKNOWN: we detect the charset (ICU) with a warning; Python raises LookupError and decodes nothing."
    static let missingComma =
        "Two bare addresses separated by a blank (a missing comma): we return both mailboxes; Python returns only the first."
    static let atInDisplayName =
        "`Mikel@Lindsaar <raasdnil@gmail.com>`: an unquoted @ in the display name; the angle address is the mailbox, as mainstream clients read it; Python takes the display name as the address."
    static let obsColonBody =
        "Same message as the obsolete-syntax header case: Python's header section ends early, so its body text starts with header lines."
    static let corruptFieldName =
        "The first line `Fro :uMmlti Sender <…>` is an (obsolete-syntax) field with a corrupt name; we keep reading the header section, so Subject, To and the multipart structure are found; Python treats the whole message as body."
    static let messagePartial =
        "message/partial is a fragment to be reassembled (RFC 2046 §5.2.2), not a message; Python parses the fragment as a nested message and reports its inner text part."
    static let qpTrailingBlanks =
        "`Content-Transfer-Encoding: quoted-printable` followed by blanks: the value is still quoted-printable; Python does not recognise it and leaves the text encoded."

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Differential/python_email.py")

    /// Trailing blanks of lines and trailing blank lines are not decoding differences
    /// (Python keeps the transport's, RFC 2045 §6.7 rule 3 drops them).
    static func normalize(_ text: String) -> String {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
            of: "\r", with: "\n")
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
                comparisons.append(
                    Comparison(file: relative, field: "parse", ours: "<refused>", python: "<parsed>"))
                continue
            }
            comparisons.append(
                Comparison(
                    file: relative, field: "subject",
                    ours: (message.subject ?? "<none>").trimmingCharacters(in: .whitespaces),
                    python: describe(theirs["subject"]).trimmingCharacters(in: .whitespaces)))
            for (field, ours) in [("from", message.from), ("to", message.to)] {
                let text = ours.map { "\(collapseBlanks($0.name ?? "")) <\($0.address)>" }.joined(
                    separator: ", ")
                var python = describe(theirs[field])
                if let list = theirs[field] as? [[String]] {
                    python = list.map { "\(collapseBlanks($0[0])) <\($0[1])>" }.joined(separator: ", ")
                }
                comparisons.append(Comparison(file: relative, field: field, ours: text, python: python))
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
                comparisons.append(
                    Comparison(file: relative, field: "text \(index + 1)", ours: ours, python: theirs))
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
        let explained = disagreements.count - unexplained.count
        let reviewedRate = Double(agreeing + explained) / Double(max(1, comparisons.count))
        print(
            "MIME differential: \(explained) disagreements reviewed (Python wrong or unsupported); "
                + String(format: "%.2f%%", reviewedRate * 100) + " agree or are reviewed")
        #expect(comparisons.count > 800)
        // Raw agreement may only go down with a new reviewed entry; 99% is the goal for
        // agreement plus reviewed disagreements.
        #expect(rate >= 0.97, "raw agreement \(rate) fell")
        #expect(reviewedRate >= 0.99, "agreement \(reviewedRate) below the 99% goal")
        #expect(unexplained.isEmpty, "unexplained disagreements:\n\(unexplained.joined(separator: "\n"))")
    }
}
