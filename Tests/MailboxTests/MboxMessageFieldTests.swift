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
