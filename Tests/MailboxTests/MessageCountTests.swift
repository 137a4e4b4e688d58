import Foundation
import Testing

@testable import Mailbox

/// The total of `scan`'s progress bar is counted in messages: an mbox counts each message it
/// holds, however its bytes are cut into chunks.
@Suite struct MessageCountTests {
    static func count(_ text: String, chunk: Int) -> Int {
        let bytes = Array(text.utf8)
        var counter = MessageCounter()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start..<end].withUnsafeBytes { counter.feed($0) }
            start = end
        }
        counter.finish()
        return counter.count
    }

    static let mbox = """
        From orders@northwind.example Thu Nov 19 21:05:00 2026
        From: Northwind <orders@northwind.example>
        Subject: one

        Your order.
        >From the shop: thanks.

        From 10:00 to 12:00 we are closed.

        From john@example.com Mon Nov 16 09:00:00 2026
        wrote a quoted reply, not a separator.

        From shipping@northwind.example Fri Nov 20 08:00:00 2026
        Subject: two

        Shipped.

        From carrier@ups.example Sat, 21 Nov 2026 10:00:00 +0000
        X-Status: RO
        Subject: three

        Delivered.
        """

    @Test(arguments: [1, 2, 7, 64, 1 << 20])
    func anMboxCountsItsMessages(chunk: Int) {
        #expect(Self.count(Self.mbox, chunk: chunk) == 3)
        #expect(Self.count(Self.mbox.replacingOccurrences(of: "\n", with: "\r\n"), chunk: chunk) == 3)
        #expect(Self.count("\u{FEFF}" + Self.mbox, chunk: chunk) == 3)
    }

    @Test func oneMessageAndUndatedSeparators() {
        #expect(Self.count("Subject: hi\n\nFrom a@b Thu Nov 19 21:05:00 2026\nSubject: x\n", chunk: 5) == 1)
        #expect(Self.count("From  : Shop <shop@example.com>\nSubject: x\n", chunk: 3) == 1)
        #expect(Self.count("", chunk: 3) == 0)
        let undated = "From - \nSubject: a\n\nA.\n\nFrom - \nSubject: b\n\nB.\n"
        #expect(Self.count(undated, chunk: 4) == 2)
        // Undated lines count only where the first separator is undated too.
        let dated = "From a@b Thu Nov 19 21:05:00 2026\nSubject: a\n\nA.\n\nFrom - \nSubject: b\n"
        #expect(Self.count(dated, chunk: 4) == 1)
    }

    /// The mboxes of MimeKit's test data: the estimate is what the reader finds.
    @Test(arguments: [
        "simple.mbox.txt", "unmunged.mbox.txt", "issue1189.mbox.txt", "content-length.mbox.txt",
    ])
    func theEstimateMatchesTheReader(name: String) throws {
        let path = corpusMbox.appendingPathComponent(name).path
        try #require(FileManager.default.fileExists(atPath: path))
        var read = 0
        let source = MessageSource(paths: [path])
        while source.next() != nil { read += 1 }
        #expect(MessageCounter.count(atPath: path) == read)
    }

    /// A folder: each Maildir file one message (a `From ` envelope line and all), each mbox its
    /// messages, each other file one.
    @Test func aFolderCountsMessages() throws {
        let folder = try TemporaryFolder()
        try folder.write("mail/inbox.mbox", Self.mbox)
        try folder.write("mail/order.eml", "Subject: one\n\nHello.\n")
        try folder.write(
            "mail/box/cur/1.a:2,S",
            "From a@b Thu Nov 19 21:05:00 2026\nSubject: a\n\nFrom x Thu Nov 19 21:05:00 2026\nSubject: b\n")
        try folder.write("mail/box/new/2.b", "Subject: b\n\n")
        let source = MessageSource(paths: [folder.url.appendingPathComponent("mail").path])
        #expect(source.estimatedMessageCount() == 6)
        #expect(
            MessageSource(paths: [folder.url.appendingPathComponent("mail/inbox.mbox").path])
                .estimatedMessageCount() == 3)
        #expect(MessageSource(paths: ["-"]).estimatedMessageCount() == nil)
        #expect(source.estimatedMessageCount(shouldStop: { true }) == nil)
    }
}

/// The count agrees with what the reader splits where separators are followed by blank lines,
/// by fields other than a message's own, or by body text shaped like a field.
@Suite struct MessageCountReaderAgreementTests {
    static func readerCount(_ text: String) throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mailorders-count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("inbox.mbox").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let source = MessageSource(paths: [path])
        var messages = 0
        // Messages and the entries reported in their place (junk, empty messages): each is
        // one step of the progress bar.
        while source.next() != nil { messages += 1 }
        return messages
    }

    static let cases: [String] = [
        // A separator after a body line with no blank line, then blank lines, then the fields.
        "From a@x Mon Nov 23 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHi.\n"
            + "From b@x Mon Nov 23 11:00:00 2026\n\nFrom: b@x\nSubject: two\n\nHi.\n",
        // Thunderbird's keys field, empty and padded with spaces, among its fields.
        "From - Mon Nov 23 10:00:00 2026\nX-Mozilla-Status: 0001\nX-Mozilla-Keys:          \nFrom: a@x\n\nHi.\n\n"
            + "From - Mon Nov 23 11:00:00 2026\nX-Mozilla-Status: 0001\nX-Mozilla-Keys:   \nFrom: b@x\n\nHi.\n",
        // Blank lines between each separator and its header fields, and before the first.
        "\nFrom a@x Mon Nov 23 10:00:00 2026\n\n\nFrom: a@x\nSubject: one\n\nHi.\n\n"
            + "From b@x Mon Nov 23 11:00:00 2026\n\nFrom: b@x\nSubject: two\n\nHi.\n",
        // A quoted writer's line over `wrote: hi` in a body is no separator.
        "From a@x Mon Nov 23 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHi.\n\n"
            + "From john@example.com Mon Nov 16 09:00:00 2026\nwrote: hi\n\n"
            + "From b@x Mon Nov 23 11:00:00 2026\nFrom: b@x\nSubject: two\n\nHi.\n",
        // Thunderbird's own fields before the message's.
        "From - Mon Nov 23 10:00:00 2026\nX-Mozilla-Status: 0001\nX-Mozilla-Status2: 00000000\nFrom: a@x\n\nHi.\n\n"
            + "From - Mon Nov 23 11:00:00 2026\nX-Mozilla-Status: 0001\n X-Folded: yes\nSubject: two\n\nHi.\n",
    ]

    static let reportedCases: [String] = [
        // A mail client's field after the blank line, then the message's: a separator.
        "From a@x Tue Nov 24 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHello\n\n"
            + "From a@x Tue Nov 24 10:00:00 2026\n\nX-Mozilla-Status: 0001\nFrom: b@x\nSubject: two\n\nHello\n\n"
            + "From a@x Tue Nov 24 10:00:00 2026\nFrom: c@x\nSubject: three\n\nHello\n",
        // Junk before the first separator: reported, then the mbox is read.
        "garbage line\nFrom a@x Tue Nov 24 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHi.\n\n"
            + "From b@x Tue Nov 24 11:00:00 2026\nFrom: b@x\nSubject: two\n\nHi.\n",
        // A separator at the end of the mbox, after a blank line: an empty message, reported.
        "From a@x Tue Nov 24 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHi.\n\n"
            + "From b@x Tue Nov 24 11:00:00 2026\nFrom: b@x\nSubject: two\n\nHi.\n\n"
            + "From c@x Tue Nov 24 12:00:00 2026\n",
        // An empty message between two separators: reported.
        "From a@x Tue Nov 24 10:00:00 2026\nFrom: a@x\nSubject: one\n\nHi.\n\n"
            + "From b@x Tue Nov 24 11:00:00 2026\n\n"
            + "From c@x Tue Nov 24 12:00:00 2026\nFrom: c@x\nSubject: three\n\nHi.\n",
    ]

    @Test func aMailClientsFieldAfterBlankLinesStartsAMessage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mailorders-xm-\(UUID().uuidString).mbox"
        ).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.reportedCases[0].utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (messages, problems) = collect(MessageSource(paths: [path]))
        #expect(messages.count == 3)
        #expect(problems.isEmpty)
    }

    @Test(arguments: reportedCases) func countsWhatTheReaderReports(_ text: String) throws {
        let read = try Self.readerCount(text)
        for chunk in [1, 5, 64, 1 << 20] {
            #expect(MessageCountTests.count(text, chunk: chunk) == read)
        }
        #expect(read == 3)
    }

    @Test(arguments: cases) func countsWhatTheReaderReads(_ text: String) throws {
        let read = try Self.readerCount(text)
        for chunk in [1, 3, 7, 64, 1 << 20] {
            #expect(MessageCountTests.count(text, chunk: chunk) == read)
        }
        #expect(read >= 2)
    }
}
