import Foundation
import MIME
import Testing

@testable import Mailbox

/// `From ` lines in a body that are not separators (a time of day, a date with no blank line
/// before it, a stale `Content-Length` pointing at one) leave the message whole; separators
/// as real writers produce them still split, with any line ending.
@Suite struct MboxBodyFromLineTests {
    static let separator = "From MAILER-DAEMON Thu Nov 19 16:05:00 2026"

    func read(_ mbox: String) throws -> (messages: [RawMessage], problems: [SourceProblem]) {
        let folder = try TemporaryFolder()
        let path = try folder.write("inbox.mbox", bytes: Array(mbox.utf8))
        return collect(MessageSource(paths: [path]))
    }

    /// `mbox` with its LF line ends turned into `ending`.
    func withLineEnds(_ mbox: String, _ ending: String) -> String {
        mbox.replacingOccurrences(of: "\n", with: ending)
    }

    func message(_ subject: String, _ body: String) -> String {
        "From: Shop <orders@shop.example>\nSubject: \(subject)\n\n\(body)"
    }

    @Test func openingHoursInAFooterAreBodyText() throws {
        let first = message(
            "Your order #PH-60001 is confirmed",
            "Order number: PH-60001\n\nCustomer service\nFrom Monday to Friday 9:00-17:00\n"
                + "Phone: +1 555 0100\nEmail: help@pine.example\n\n(c) 2026 Pine Home\n")
        let second = message("Your order PH-60001 has shipped!", "Tracking number: 1ZA7X9250000000901\n")
        let (messages, problems) = try read(
            Self.separator + "\n" + first + "\n" + Self.separator + "\n" + second + "\n")
        #expect(problems.isEmpty)
        #expect(messages.map(text) == [first, second])
    }

    @Test func deliveryWindowBeforeATrackingNumberIsBodyText() throws {
        let first = message("Your order #E-10023 is confirmed", "Order number: E-10023\n")
        let second = message(
            "Your order E-10023 has shipped!",
            "Delivery window:\nFrom 10:00 to 12:00\nNote: please be home\n\n"
                + "Carrier: UPS\nTracking number: 1ZA7X9250000000063\n")
        let (messages, problems) = try read(
            Self.separator + "\n" + first + "\n" + Self.separator + "\n" + second + "\n")
        #expect(problems.isEmpty)
        #expect(messages.map(text) == [first, second])
        #expect(messages.last.map(text)?.contains("Tracking number: 1ZA7X9250000000063") == true)
    }

    @Test(arguments: ["", "\n"])
    func aTimeOfDayOnTheLastLineIsBodyText(_ trailing: String) throws {
        let body = "Order number: E-1\n(c) 2026 Elm Store\n\nFrom 10:00 to 12:00\n" + trailing
        let mbox = Self.separator + "\n" + message("Your order E-1 has shipped!", body)
        let (messages, problems) = try read(mbox)
        #expect(problems.isEmpty)
        #expect(messages.count == 1)
        #expect(messages.first.map(text)?.contains("From 10:00 to 12:00\n") == true)

        // Many such lines, each after a blank line.
        let many =
            Self.separator + "\nSubject: hi\n\n"
            + String(repeating: "From 10:00 to 12:00\n\n", count: 30) + "From 10:00 to 12:00\n" + trailing
        let (manyMessages, manyProblems) = try read(many)
        #expect(manyProblems.isEmpty)
        #expect(manyMessages.count == 1)
    }

    @Test func aStaleContentLengthPointingAtABodyLineIsIgnored() throws {
        let body =
            "Your order is on its way.\nDetails below.\nFrom 9:00 to 17:00 we deliver.\n"
            + "Order number: E-5\nTracking number: 1ZA7X9250000000152\n"
        // 41 bytes end the body right before `From 9:00 to 17:00`.
        let length = "Your order is on its way.\nDetails below.\n".utf8.count
        #expect(length == 41)
        let headers = "Subject: Your order E-5 has shipped!\nContent-Length: \(length)\n\n"
        let next = message("next", "second\n")
        let (messages, problems) = try read(
            Self.separator + "\n" + headers + body + "\n" + Self.separator + "\n" + next)
        #expect(problems.isEmpty)
        #expect(messages.map(text) == [headers + body, next])
        let stale = try #require(messages.first)
        #expect(stale.warnings.isEmpty)
        #expect(stale.repairs.count == 1)
        #expect(
            stale.repairs.first?.hasPrefix("length 41 in Content-Length does not end the message") == true)
        let parsed = try stale.parse().get()
        #expect(parsed.warnings.contains { $0.message.hasPrefix("length 41 in Content-Length") })
        #expect(messages.last?.repairs.isEmpty == true)

        // A length that lands on a separator still frames the message, `From ` lines and all.
        let framedBody = "From 9:00 to 17:00 we deliver.\n\n" + Self.separator + "\nSubject: quoted\n\nx\n"
        let framed = "Subject: framed\nContent-Length: \(framedBody.utf8.count)\n\n" + framedBody
        let (framedMessages, framedProblems) = try read(
            Self.separator + "\n" + framed + "\n" + Self.separator + "\n" + next)
        #expect(framedProblems.isEmpty)
        #expect(framedMessages.map(text) == [framed, next])
        #expect(framedMessages.allSatisfy { $0.repairs.isEmpty })
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func aDatedLineInsideAParagraphIsBodyText(_ ending: String) throws {
        let first = message("Your order #E-1 is confirmed", "Order number: E-1\n")
        let second = message(
            "Your order E-1 has shipped!",
            "Delivery slots:\nFrom 10:00 to 12:00 tomorrow\nFrom jamie@mail.example Thu Nov 19 10:00:00 2026\n"
                + "\n\nOrder number: E-1\nTracking number: 1ZA7X9250000000063\n")
        let mbox = Self.separator + "\n" + first + "\n" + Self.separator + "\n" + second + "\n"
        let (messages, problems) = try read(withLineEnds(mbox, ending))
        #expect(problems.isEmpty)
        // Bare CR line ends are read as LF.
        let expected = [first, second].map { withLineEnds($0, ending == "\r\n" ? "\r\n" : "\n") }
        #expect(messages.map(text) == expected)
        #expect(messages.allSatisfy { $0.warnings.isEmpty && $0.repairs.isEmpty })
    }

    static let realSeparators = [
        "From MAILER-DAEMON Fri Jul  8 12:08:34 2011",
        "From user@example.com Thu Nov 19 21:05:00 2026",
        "From user@example.com Thu, 19 Nov 2026 21:05:00 +0100",
        "From - Mon Jan  1 00:00:00 2001",
        "From user@example.com Thu Nov 19 21:05 2026",
        "From user@example.com Thu Nov 09 21:05:00 2026",
        "From 1844347792267117879@xxx Thu Nov 19 21:05:00 +0000 2026",
        "From user@example.com Thu Nov 19 21:05:00 2026 -0500",
        "From user@example.com Sat Jun  1 19:00:50 MET DST 1996",
    ]

    @Test(arguments: realSeparators)
    func realSeparatorsStillSplit(_ separator: String) throws {
        #expect(MboxReader.separatorShape(Array(separator.utf8)[...]) == .dated)
        let first = message("one", "first\n>From user@example.com Thu Nov 19 21:05:00 2026\nend\n")
        let second = message("two", "second\n")
        for ending in ["\n", "\r\n", "\r"] {
            // After a blank line, and right after the last body line when a header field follows.
            for gap in ["\n", ""] {
                let mbox = separator + "\n" + first + gap + separator + "\n" + second
                let (messages, problems) = try read(withLineEnds(mbox, ending))
                let lineEnd = ending == "\r\n" ? "\r\n" : "\n"
                #expect(problems.isEmpty, "\(separator) \(ending.debugDescription)")
                // `>From ` loses one `>` and splits nothing.
                let unquoted = first.replacingOccurrences(of: ">From", with: "From")
                #expect(
                    messages.map(text) == [unquoted, second].map { withLineEnds($0, lineEnd) },
                    "\(separator) \(ending.debugDescription) \(gap.debugDescription)")
            }
        }
    }

    @Test func separatorShapes() {
        let dated =
            Self.realSeparators + [
                "From sender@example.com Thu Nov 19 21:05:00 2026", "From a Mon Jan  1 00:00:00 2024",
                "From MAILER-DAEMON Fri Jul  8 12:08:34 2011 +0000", "From  Sat Nov 28 10:00 2026",
                "From ???@??? Mon Jan 01 00:00:00 2001",
                "From user@example.com Mon, 1 Jan 2001 00:00:00 +0000 (UTC)",
                "From \"Jamie Rivera\"@example.com Thu Nov 19 21:05:00 2026",
                "From user Thu Nov 19 21:05:00 2026 remote from host",
                "From user@example.com Thu Nov 19 21:05:00 2026\r",
            ]
        let undated = ["From -", "From - ", "From 1844347792267117879@xxx", "From MAILER-DAEMON", "From "]
        let neither = [
            "From Monday to Friday 9:00-17:00", "From 10:00 to 12:00", "From 9:00 to 17:00 we deliver.",
            "From 10:00 to 12:00 tomorrow", "From Russia with love", "From me to you",
            "From a Mon Jan 1 2024", "From a Thu Nov 19 21:05:00", "From a Thu Never 19 21:05:00 2026",
            "From a Thu Nov 19 25:05:00 2026", "From a Thu Nov 32 21:05:00 2026",
            "From a Thu Nov 19 21:05:00 2026 and later", "From Nov 19 2026 at 21:05 we are closed",
            "From jamie Thu Nov 19 21:05:00 2026 to Fri Nov 20 21:05:00 2026",
        ]
        for line in dated { #expect(MboxReader.separatorShape(Array(line.utf8)[...]) == .dated, "\(line)") }
        for line in undated {
            #expect(MboxReader.separatorShape(Array(line.utf8)[...]) == .undated, "\(line)")
        }
        for line in neither { #expect(MboxReader.separatorShape(Array(line.utf8)[...]) == nil, "\(line)") }
    }

    /// In an mbox whose separators are dated, a sender alone splits only before a message's
    /// own header fields (two writers' files joined), never before a line merely shaped like one.
    @Test func aSenderWithoutADateSplitsADatedMboxOnlyBeforeAMessagesFields() throws {
        let body = "first\n\nFrom b\nSubject: 2\n\nsecond\n"
        let (dated, datedProblems) = try read(
            "From a@example.com Thu Nov 19 21:05:00 2026\nSubject: 1\n\n" + body)
        #expect(datedProblems.isEmpty)
        #expect(dated.map(text) == ["Subject: 1\n\nfirst\n", "Subject: 2\n\nsecond\n"])
        let prose = "first\n\nFrom here\nPhone: +1 555 0100\n\nsecond\n"
        let (kept, keptProblems) = try read(
            "From a@example.com Thu Nov 19 21:05:00 2026\nSubject: 1\n\n" + prose)
        #expect(keptProblems.isEmpty)
        #expect(kept.map(text) == ["Subject: 1\n\n" + prose])
        let (undated, undatedProblems) = try read("From a\nSubject: 1\n\n" + body)
        #expect(undatedProblems.isEmpty)
        #expect(undated.map(text) == ["Subject: 1\n\nfirst\n", "Subject: 2\n\nsecond\n"])
    }

    /// A quoted reply's attribution: `From … 2026` then `wrote:` (a name and a colon with no
    /// value) is body text; a field with a value, or a message's own field, starts a message.
    @Test func aQuotedReplysFromLineFollowedByWroteStaysInTheBody() throws {
        let body = "Sounds good.\n\n" + Self.separator + "\nwrote:\n> Your order has shipped.\n"
        let (kept, keptProblems) = try read(Self.separator + "\nSubject: 1\n\n" + body)
        #expect(keptProblems.isEmpty)
        #expect(kept.map(text) == ["Subject: 1\n\n" + body])
        // Body text shaped like a field with a value, and no message field in its block.
        for line in ["wrote: hi", "Note: the parcel is at the depot", "wrote: hi\nCheers: Sam"] {
            let quoted = "Sounds good.\n\n" + Self.separator + "\n" + line + "\n> Your order has shipped.\n"
            let (whole, wholeProblems) = try read(Self.separator + "\nSubject: 1\n\n" + quoted)
            #expect(wholeProblems.isEmpty, "\(line)")
            #expect(whole.map(text) == ["Subject: 1\n\n" + quoted], "\(line)")
        }
        // A message whose header starts with many fields of its writer's before its own.
        let writerFields = (1...100).map { "X-Archive-\($0): kept" }.joined(separator: "\n")
        let (long, longProblems) = try read(
            Self.separator + "\nSubject: 1\n\nfirst\n\n" + Self.separator + "\n" + writerFields
                + "\nSubject: 2\n\nsecond\n")
        #expect(longProblems.isEmpty)
        #expect(long.count == 2)
        let (split, splitProblems) = try read(
            Self.separator + "\nSubject: 1\n\nfirst\n\n" + Self.separator
                + "\nX-Status: RO\nSubject: 2\n\nsecond\n")
        #expect(splitProblems.isEmpty)
        #expect(split.map(text) == ["Subject: 1\n\nfirst\n", "X-Status: RO\nSubject: 2\n\nsecond\n"])
    }

    /// A few junk bytes after a separator are reported, however short: a line with control
    /// bytes is no body text.
    @Test func shortJunkAfterASeparatorIsReportedNotGlued() throws {
        for junk in ["\u{0}\u{0}\u{0}", "ab\u{7}cd", "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}xyz"] {
            let (messages, problems) = try read(
                Self.separator + "\nSubject: 1\n\nfirst\n\n" + Self.separator + "\n" + junk + "\n")
            #expect(messages.map(text) == ["Subject: 1\n\nfirst\n"], "\(junk.debugDescription)")
            #expect(problems.map(\.origin.index) == [2], "\(junk.debugDescription)")
        }
    }

    @Test func aDatedLineAfterABlankLineSplitsOnlyBeforeAMessage() throws {
        // Text that is not a header section after it is body text of the message.
        let (messages, problems) = try read(
            Self.separator + "\nSubject: 1\n\nfirst\n\n" + Self.separator + "\nnot a header\n")
        #expect(messages.map(text) == ["Subject: 1\n\nfirst\n\n" + Self.separator + "\nnot a header\n"])
        #expect(problems.isEmpty)
        // Binary data after it is no body text: reported, not glued to the message.
        let (split, binaryProblems) = try read(
            Self.separator + "\nSubject: 1\n\nfirst\n\n" + Self.separator
                + "\n\u{0}\u{1}\u{2}\u{3}junk\u{0}\n")
        #expect(split.map(text) == ["Subject: 1\n\nfirst\n"])
        #expect(binaryProblems.first?.reason.hasPrefix("binary data after the From line") == true)
        // With no blank line before it and nothing after it, it is the body's last line.
        let (last, lastProblems) = try read(
            Self.separator + "\nSubject: 1\n\nfirst\n" + Self.separator + "\n")
        #expect(lastProblems.isEmpty)
        #expect(last.map(text) == ["Subject: 1\n\nfirst\n" + Self.separator + "\n"])
    }
}
