import Foundation
import Testing

@testable import Mailbox

/// A `From ` separator that is not followed by a message is reported (file, byte offset,
/// reason), never glued onto the message before it.
@Suite struct MboxSeparatorTests {
    static let dated = "Mon Jan  1 00:00:00 2024"

    /// The byte offset just after the first occurrence of `line` + LF in `mbox`.
    func offset(after line: String, in mbox: [UInt8]) throws -> Int {
        let needle = Array((line + "\n").utf8)
        let start = try #require(
            (0...(mbox.count - needle.count)).first { mbox[$0..<($0 + needle.count)].elementsEqual(needle) })
        return start + needle.count
    }

    /// The mbox's first separator, of the same kind as `separator`: a separator with no date
    /// counts only in an mbox whose first separator has none either.
    func first(like separator: String) -> String {
        separator.hasSuffix(Self.dated) ? "From a@example.com \(Self.dated)" : "From a"
    }

    func read(_ bytes: [UInt8]) throws -> (messages: [RawMessage], problems: [SourceProblem], path: String) {
        let folder = try TemporaryFolder()
        let path = try folder.write("inbox.mbox", bytes: bytes)
        let (messages, problems) = collect(MessageSource(paths: [path]))
        return (messages, problems, path)
    }

    @Test(arguments: ["From b@example.com \(dated)", "From b"])
    func separatorFollowedByAnotherSeparatorIsAnEmptyMessage(_ separator: String) throws {
        let mbox = Array(
            (first(like: separator) + "\nSubject: 1\n\nfirst\n\n" + separator + "\n"
                + "From c@example.com \(Self.dated)\nSubject: 3\n\nthird\n").utf8)
        let (messages, problems, path) = try read(mbox)
        #expect(messages.map(text) == ["Subject: 1\n\nfirst\n", "Subject: 3\n\nthird\n"])
        #expect(messages.map(\.origin.index) == [1, 3])
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.origin.path == path)
        #expect(problem.origin.index == 2)
        #expect(problem.origin.byteOffset == (try offset(after: separator, in: mbox)))
        #expect(problem.reason.contains("followed directly by another From line"))
    }

    @Test(arguments: ["From b@example.com \(dated)", "From b"])
    func separatorFollowedByBlankLinesAndAnotherSeparatorIsAnEmptyMessage(_ separator: String) throws {
        for blank in ["\n", "\n\n", "   \n", "\r\n", " \t\r\n\n"] {
            let mbox = Array(
                (first(like: separator) + "\nSubject: 1\n\nfirst\n\n" + separator + "\n" + blank
                    + "From c@example.com \(Self.dated)\nSubject: 3\n\nthird\n").utf8)
            let (messages, problems, _) = try read(mbox)
            #expect(
                messages.map(text) == ["Subject: 1\n\nfirst\n", "Subject: 3\n\nthird\n"],
                "\(blank.debugDescription)")
            #expect(messages.map(\.origin.index) == [1, 3], "\(blank.debugDescription)")
            #expect(problems.map(\.origin.index) == [2], "\(blank.debugDescription)")
            #expect(problems.first?.reason == "empty message after a From line", "\(blank.debugDescription)")
        }
    }

    @Test(arguments: ["From b@example.com \(dated)", "From b"])
    func separatorFollowedByNothingButTheEndIsAnEmptyMessage(_ separator: String) throws {
        for ending in ["\n", "\n\n", "\r\n\r\n", "\n \n\t\n"] {
            let mbox = Array(
                (first(like: separator) + "\nSubject: 1\n\nfirst\n\n" + separator + ending).utf8)
            let (messages, problems, _) = try read(mbox)
            #expect(messages.map(text) == ["Subject: 1\n\nfirst\n"], "\(ending.debugDescription)")
            #expect(problems.map(\.origin.index) == [2], "\(ending.debugDescription)")
            #expect(problems.first?.reason == "empty message after a From line", "\(ending.debugDescription)")
        }
    }

    @Test(arguments: ["From b@example.com \(dated)", "From b"])
    func separatorFollowedByBinaryDataIsReportedAndSkipped(_ separator: String) throws {
        var binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for index in 0..<600 { binary.append(UInt8((index * 7919) & 0xFF)) }
        // No line feed followed by `From ` inside the junk.
        binary = binary.map { $0 == 0x0A ? 0x00 : $0 }
        let mbox =
            Array((first(like: separator) + "\nSubject: 1\n\nfirst\n\n" + separator + "\n").utf8)
            + binary
            + Array("\n\nFrom c@example.com \(Self.dated)\nSubject: 3\n\nthird\n".utf8)
        let (messages, problems, path) = try read(mbox)
        #expect(messages.map(text) == ["Subject: 1\n\nfirst\n", "Subject: 3\n\nthird\n"])
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.origin.path == path)
        #expect(problem.origin.index == 2)
        #expect(problem.origin.byteOffset == (try offset(after: separator, in: mbox)))
        #expect(problem.reason.hasPrefix("binary data after the From line, not a message"))
    }

    /// A dated `From ` line after a blank line, followed by text that is no header section,
    /// is an unescaped line of the body (a quoted reply's "From … wrote"): the message keeps
    /// it and everything after it, up to the next real separator.
    @Test func datedFromLineFollowedByTextThatIsNotAHeaderSectionStaysInTheBody() throws {
        let separator = "From b@example.com \(Self.dated)"
        let mbox = Array(
            (first(like: separator) + "\nSubject: 1\n\nfirst\n\n" + separator
                + "\nthis line is not a header field\nnor is this one\n\n"
                + "From c@example.com \(Self.dated)\nSubject: 3\n\nthird\n").utf8)
        let (messages, problems, _) = try read(mbox)
        #expect(
            messages.map(text) == [
                "Subject: 1\n\nfirst\n\n" + separator
                    + "\nthis line is not a header field\nnor is this one\n",
                "Subject: 3\n\nthird\n",
            ])
        #expect(problems.isEmpty)
    }

    /// Binary data after the next separator is that message's junk: it does not make an
    /// unescaped `From … 2026` line of the body before it a separator. The good message keeps
    /// its order number; the junk is reported on its own.
    @Test func junkAfterTheNextSeparatorDoesNotSplitTheBodyBeforeIt() throws {
        let quoted = "From john@example.com \(Self.dated)"
        let junk = String(decoding: (0..<256).map { UInt8($0) }.filter { $0 != 0x0A }, as: UTF8.self)
        let mbox = Array(
            (first(like: "From shop@example.com \(Self.dated)") + "\nSubject: Order Y1-1\n\n"
                + "Thanks for your order!\n\n" + quoted + "\nwrote: hi\nOrder number: Y1-1\n\n"
                + "From x@y \(Self.dated)\n" + junk + "\n").utf8)
        let (messages, problems, _) = try read(mbox)
        #expect(
            messages.map(text) == [
                "Subject: Order Y1-1\n\nThanks for your order!\n\n" + quoted
                    + "\nwrote: hi\nOrder number: Y1-1\n"
            ])
        #expect(problems.count == 1)
        #expect(problems.first?.origin.index == 2)
    }

    @Test func fromLinesInABodyStillDoNotSplitIt() throws {
        let body = [
            "Hello,", "From me", "and the rest of us.", "", "From 10:00 to 12:00 we are closed.", "see you",
            "",
            "From here", "", "on we go.", "", "From Russia with love", "",
        ].joined(separator: "\n")
        let mbox = Array(
            ("From a@example.com \(Self.dated)\nSubject: 1\n\n" + body + "\n\n"
                + "From c@example.com \(Self.dated)\nSubject: 2\n\nsecond\n").utf8)
        let (messages, problems, _) = try read(mbox)
        #expect(problems.isEmpty)
        #expect(messages.map(text) == ["Subject: 1\n\n" + body + "\n", "Subject: 2\n\nsecond\n"])
    }

    @Test func datedSeparatorShape() {
        let yes = [
            "From sender@example.com Thu Nov 19 21:05:00 2026", "From a Mon Jan  1 00:00:00 2024",
            "From MAILER-DAEMON Fri Jul  8 12:08:34 2011 +0000", "From  Sat Nov 28 10:00 2026",
        ]
        let no = [
            "From 10:00 to 12:00 we are closed", "From me", "From Russia with love",
            "From a Mon Jan 1 2024", "From a Thu Nov 19 21:05:00", "From a Thu Never 19 21:05:00 2026",
        ]
        for line in yes { #expect(MboxReader.isDatedSeparator(Array(line.utf8)[...]), "\(line)") }
        for line in no { #expect(!MboxReader.isDatedSeparator(Array(line.utf8)[...]), "\(line)") }
    }
}

/// A separator whose line feed and `From ` are split between two reads of the file.
@Suite struct MboxSeparatorAcrossReadsTests {
    /// An mbox whose second separator line's `\nFrom ` starts `shift` bytes before the end of
    /// the first read (1 MiB).
    func mbox(shift: Int) -> [UInt8] {
        let head = Array("From a@example.com Mon Jan  1 00:00:00 2024\nSubject: first\n\n".utf8)
        let tail = Array("\nFrom b@example.com Mon Jan  1 00:00:01 2024\nSubject: second\n\nbody\n".utf8)
        // The blank line before the separator ends the first message's body.
        let fill = ChunkedReader.chunkSize - shift - head.count - 1
        let body = (0..<fill).map { $0 % 64 == 63 ? UInt8(ascii: "\n") : UInt8(ascii: "x") }
        return head + body + [UInt8(ascii: "\n")] + tail
    }

    @Test(arguments: 0...7) func separatorSplitBetweenReadsIsFound(shift: Int) throws {
        let folder = try TemporaryFolder()
        let bytes = mbox(shift: shift)
        let path = try folder.write("split.mbox", bytes: bytes)
        let (messages, problems) = collect(MessageSource(paths: [path]))
        #expect(problems.isEmpty)
        #expect(messages.count == 2)
        #expect(messages.last.map(text) == "Subject: second\n\nbody\n")
        #expect(messages.last?.origin.byteOffset == ChunkedReader.chunkSize - shift + 45)
    }

    @Test(arguments: 0...7) func separatorSplitBetweenReadsEndsAMessageOverTheLimit(shift: Int) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("split.mbox", bytes: mbox(shift: shift))
        let (messages, problems) = collect(MessageSource(paths: [path], maxMessageBytes: 1000))
        #expect(problems.map(\.reason) == ["message larger than the 1000-byte limit"])
        #expect(messages.map(text) == ["Subject: second\n\nbody\n"])
    }
}
