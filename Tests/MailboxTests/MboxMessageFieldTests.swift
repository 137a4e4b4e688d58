import Foundation
import MIME
import Testing

@testable import Mailbox

/// The mbox reader knows a message's header fields by MIME's one list
/// (`Header.messageFieldNames`): a `From ` line without a date, in an mbox whose separators
/// are dated, separates messages only before one of them.
@Test(arguments: ["In-Reply-To: <1@example.com>", "References: <1@example.com>", "Bcc: c@example.com"])
func undatedSeparatorBeforeAnyMessageFieldStartsAMessage(_ field: String) throws {
    let folder = try TemporaryFolder()
    let mbox =
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: 1\n\nfirst\n\nFrom b\n\(field)\nSubject: 2\n\nsecond\n"
    let path = try folder.write("inbox.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.map(text) == ["Subject: 1\n\nfirst\n", "\(field)\nSubject: 2\n\nsecond\n"])
}

@Test func undatedFromLineBeforeOtherTextStaysInTheBody() throws {
    let folder = try TemporaryFolder()
    let mbox = "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: 1\n\nfirst\n\nFrom b\nPhone: 555\n"
    let path = try folder.write("inbox.mbox", mbox)
    let (messages, _) = collect(MessageSource(paths: [path]))
    #expect(messages.count == 1)
}

/// Blank lines between a separator and the header fields (the MIME parser skips them): the
/// separator still starts a message, however many there are.
@Test(arguments: [1, 3, 40, 5_000])
func blankLinesAfterASeparatorBeforeAMessageField(_ count: Int) throws {
    let folder = try TemporaryFolder()
    let blank = String(repeating: "\n", count: count)
    let mbox =
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: 1\n\nfirst\n\n"
        + "From b@example.com Mon Jan  1 00:00:00 2024\n\(blank)Subject: 2\n\nsecond\n"
    let path = try folder.write("inbox.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.map(text) == ["Subject: 1\n\nfirst\n", "\(blank)Subject: 2\n\nsecond\n"])
}

/// A dated `From ` line in a body, after a blank line, with blank lines and text after it,
/// stays in the body.
@Test func aFromLineBeforeBlankLinesAndTextStaysInTheBody() throws {
    let folder = try TemporaryFolder()
    let mbox =
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: 1\n\nfirst\n\n"
        + "From b@example.com Mon Jan  1 00:00:00 2024\n\n\nPhone: 555 0100\n"
    let path = try folder.write("inbox.mbox", mbox)
    let (messages, _) = collect(MessageSource(paths: [path]))
    #expect(messages.count == 1)
}

/// A single message with many blank lines before its header is read and parsed, with the
/// blank lines skipped; a file of blank lines alone is reported.
@Test func aMessageFileWithManyBlankLinesFirstIsReadAndParsed() throws {
    let folder = try TemporaryFolder()
    let blank = String(repeating: "\r\n", count: 5_000)
    let path = try folder.write("one.eml", blank + "Subject: Order 12345\r\n\r\nThanks\r\n")
    let empty = try folder.write("two.eml", blank)
    let (messages, problems) = collect(MessageSource(paths: [path, empty]))
    #expect(messages.count == 1)
    let message = try messages[0].parse().get()
    #expect(message.subject == "Order 12345")
    #expect(message.warnings.map(\.message) == ["5000 blank lines before the header section: skipped"])
    #expect(problems.map(\.origin.path) == [empty])
    #expect(problems.first?.reason.hasPrefix("only white space") == true)
}
