import Foundation
import Testing

@testable import MIME

@Test func unfoldsFoldedFieldsAndKeepsTheBlank() throws {
    let message = try parse(crlf("Subject: a long", "\tsubject line", " folded twice", "", "body"))
    #expect(message.subject == "a long\tsubject line folded twice")
}

@Test func toleratesBlanksBeforeTheColon() throws {
    let message = try parse(crlf("Subject   : obsolete", "From: a@example.com", "", "body"))
    #expect(message.subject == "obsolete")
    #expect(message.from.first?.address == "a@example.com")
}

@Test func acceptsRawUTF8InHeaders() throws {
    let message = try parse("Subject: Bestellbestätigung №42\nFrom: Jöhn <jöhn@exämple.de>\n\nx")
    #expect(message.subject == "Bestellbestätigung №42")
    #expect(message.from.first?.name == "Jöhn")
    #expect(message.warnings.isEmpty)
}

@Test func guessesAndFlagsRawLatin1InHeaders() throws {
    var bytes = Array("Subject: Die Hasen und die Fr".utf8)
    bytes += [0xF6] + Array("sche\n\nbody".utf8)
    let message = try parse(bytes)
    #expect(message.subject == "Die Hasen und die Frösche")
    #expect(message.warnings.contains { $0.message.contains("8-bit") })
}

@Test func decodesBAndQEncodedWords() throws {
    let message = try parse(
        "Subject: =?UTF-8?B?44GU5rOo5paH?= and =?iso-8859-1?q?caf=E9_cr=E8me?=\n\nx")
    #expect(message.subject == "ご注文 and café crème")
}

@Test func dropsWhitespaceBetweenAdjacentEncodedWordsOnly() throws {
    let message = try parse("Subject: =?utf-8?q?a?=  \t =?utf-8?q?b?= c =?utf-8?q?d?=\n\nx")
    #expect(message.subject == "ab c d")
}

@Test func decodesCharacterSplitAcrossEncodedWords() throws {
    // U+00E9 is C3 A9 in UTF-8; each word carries one byte.
    let message = try parse("Subject: =?utf-8?Q?caf=C3?= =?utf-8?Q?=A9?=\n\nx")
    #expect(message.subject == "café")
    // A Korean syllable split across two B words in CP949.
    let korean = try parse("Subject: =?ks_c_5601-1987?B?wQ==?= =?ks_c_5601-1987?B?1rmu?=\n\nx")
    #expect(korean.subject == "주문")
}

@Test func decodesGluedAndEmptyEncodedWordsLeniently() throws {
    let message = try parse("Subject: Order=?utf-8?q?_confirmed?=!=?utf-8?q??= done\n\nx")
    #expect(message.subject == "Order confirmed! done")
}

@Test func leavesMalformedEncodedWordsAsText() throws {
    let message = try parse("Subject: =?utf-8?x?abc?= and =?broken\n\nx")
    #expect(message.subject == "=?utf-8?x?abc?= and =?broken")
}

/// What decoding a shown field's encoded-words guessed or dropped is a warning of the
/// message, as an unknown body charset is; clean encoded-words give none.
@Test func encodedWordRepairsAreWarnings() throws {
    let bogus = try parse("Subject: =?x-bogus?B?R3LDvMOfZQ==?=\n\nx")
    #expect(bogus.subject == "Grüße")
    #expect(
        bogus.warnings.contains {
            $0.message.hasPrefix("Subject: encoded-word =?x-bogus?B?R3LDvMOfZQ==?=: ")
        },
        "\(bogus.warnings)")
    let empty = try parse("Subject: Order =?utf-8?B?!!!?= 12\n\nx")
    #expect(
        empty.warnings.map(\.message) == [
            "Subject: encoded-word =?utf-8?B?!!!?= holds no decodable text: dropped"
        ])
    let stray = try parse("Subject: =?UTF-8?B?I0FDLTQ0MDAx!!?=\n\nx")
    #expect(stray.subject == "#AC-44001")
    #expect(
        stray.warnings.map(\.message) == [
            "Subject: encoded-word =?UTF-8?B?I0FDLTQ0MDAx!!?= holds characters outside base64: decoded without them"
        ])
    let notUTF8 = try parse("From: =?utf-8?Q?=FF=FE?= <a@b.example>\n\nx")
    #expect(notUTF8.warnings.contains { $0.message.hasPrefix("From: encoded-word =?utf-8?Q?=FF=FE?=") })
    let clean = try parse(
        "Subject: =?utf-8?B?R3LDvMOfZQ==?= =?iso-8859-1?Q?=80_5?=\nTo: =?utf-8?Q?J=C3=BCrgen?= <j@x.example>\n\nx"
    )
    #expect(clean.warnings.isEmpty, "\(clean.warnings)")
}

/// A UTF-8 encoded-word whose bytes are not UTF-8 keeps its declared charset: each ill-formed
/// sequence is a U+FFFD, with a warning, and first bytes that look like a UTF-16 byte order
/// mark do not turn it into ideographs.
@Test func aUTF8EncodedWordWithBytesThatAreNotUTF8KeepsItsCharset() throws {
    let bom = try parse("Subject: =?UTF-8?Q?=FF=FE?=\n\nx")
    #expect(bom.subject == "\u{FFFD}\u{FFFD}")
    #expect(
        bom.warnings.map(\.message) == [
            "Subject: encoded-word =?UTF-8?Q?=FF=FE?=: bytes are not utf-8: 2 ill-formed sequences replaced by U+FFFD"
        ])
    let text = try parse("Subject: =?UTF-8?Q?=FF=FEOrder_A-10023_shipped?=\n\nx")
    #expect(text.subject == "\u{FFFD}\u{FFFD}Order A-10023 shipped")
    let big = try parse("Subject: =?utf-8?B?/v9PcmRlcg==?= A-10023\n\nx")
    #expect(big.subject == "\u{FFFD}\u{FFFD}Order A-10023")
}

/// Real mail labels Latin-1 text UTF-8: bytes that are not UTF-8 but read as a legacy
/// charset as a whole are still read in it, with a warning; only the byte-order-mark guess is
/// refused.
@Test func aLatin1EncodedWordLabelledUTF8IsStillRepaired() throws {
    let latin = try parse("Subject: =?utf-8?Q?Gr=FC=DFe_aus_M=FCnchen?=\n\nx")
    #expect(latin.subject == "Grüße aus München")
    #expect(
        latin.warnings.contains {
            $0.message.hasPrefix(
                "Subject: encoded-word =?utf-8?Q?Gr=FC=DFe_aus_M=FCnchen?=: bytes are not utf-8")
        }, "\(latin.warnings)")
    // UTF-16 with its NUL bytes is told by them.
    let utf16 = try parse("Subject: =?utf-8?B?//5PAHIAZABlAHIA?=\n\nx")
    #expect(utf16.subject == "Order" || utf16.subject == "\u{FEFF}Order")
}

@Test func decodesKoreanJapaneseChineseAndWesternSubjects() throws {
    #expect(try parse("Subject: =?ks_c_5601-1987?B?wda5riDIrsDO?=\n\nx").subject == "주문 확인")
    #expect(try parse("Subject: =?EUC-KR?B?wda5riDIrsDO?=\n\nx").subject == "주문 확인")
    #expect(
        try parse("Subject: =?ISO-2022-JP?B?GyRCJDRDbUo4JCIkaiQsJEgkJiQ0JDYkJCReJDkbKEI=?=\n\nx").subject
            == "ご注文ありがとうございます")
    #expect(try parse("Subject: =?gb2312?B?xPq1xLaptaU=?=\n\nx").subject == "您的订单")
    // 镕 is not in GB 2312 but real mail labelled gb2312 carries GBK.
    #expect(try parse("Subject: =?gb2312?B?1uzpRrv5tqm1pQ==?=\n\nx").subject == "朱镕基订单")
    #expect(try parse("Subject: =?iso-8859-1?Q?=80_5_=93quoted=94?=\n\nx").subject == "€ 5 “quoted”")
}

@Test func readsMessageIDsInReplyToAndReferences() throws {
    let message = try parse(
        crlf(
            "Message-ID:  <abc@example.com> ", "In-Reply-To: <p@example.com> (comment)",
            "References: <1@x> <2@x>", "\t<3@x>", "", ""))
    #expect(message.messageID == "<abc@example.com>")
    #expect(message.inReplyTo == ["<p@example.com>"])
    #expect(message.references == ["<1@x>", "<2@x>", "<3@x>"])
}

@Test func limitsHeaderFieldCount() throws {
    var text = ""
    for index in 0..<50 { text += "X-Field-\(index): \(index)\n" }
    var limits = MIMELimits()
    limits.maxHeaderFields = 10
    let message = try Message(bytes: Array((text + "\nbody").utf8), limits: limits)
    #expect(message.header.fields.count == 10)
    #expect(message.warnings.contains { $0.message.contains("header fields") })
    #expect(message.root.text == "body")
}

@Test func refusesEmptyAndBinaryInputAndOversizedMessages() {
    #expect(throws: MIMEError.self) { try Message(bytes: []) }
    #expect(throws: MIMEError.self) { try Message(bytes: [0, 1, 2, 0xFF, 0, 0]) }
    var limits = MIMELimits()
    limits.maxMessageBytes = 10
    #expect(throws: MIMEError.self) {
        try Message(bytes: Array("Subject: x\n\n0123456789".utf8), limits: limits)
    }
}

@Test func readsTextWithoutHeaderAsBody() throws {
    let message = try parse("This is a simple message not having headers.\nThe whole text is body.")
    #expect(message.header.fields.isEmpty)
    #expect(message.root.text == "This is a simple message not having headers.\nThe whole text is body.")
}

/// `From  :` (white space before the colon, RFC 5322 §4.5) as the first line is the From
/// field, not an mbox separator line to skip; `From ` with a sender is still skipped.
@Test func aFirstFromFieldWithBlanksBeforeTheColonIsAFieldNotASeparator() throws {
    for first in [
        "From  : Shop <shop@example.com>", "From\t: Shop <shop@example.com>",
        "From : Shop <shop@example.com>",
    ] {
        let message = try parse(crlf(first, "Subject: Your order", "", "body"))
        #expect(message.from.first?.address == "shop@example.com", "\(first)")
        #expect(message.subject == "Your order", "\(first)")
    }
    let separated = try parse(
        crlf("From shop@example.com Mon Jan  1 00:00:00 2024", "Subject: x", "", "body"))
    #expect(separated.from.isEmpty)
    #expect(separated.subject == "x")
}

/// Blank lines before the header section (a file saved with a line break first) are dropped
/// when a header field follows them, with a warning; otherwise the message is read as before.
@Suite struct LeadingBlankLineTests {
    @Test(arguments: [("\n", 1), ("\r\n\r\n", 2), ("\n\r\n\n", 3)])
    func blankLinesBeforeTheHeaderAreSkipped(blank: String, lines: Int) throws {
        let text = blank + "From: Shop <orders@shop.example>\r\nSubject: Order 12345\r\n\r\nThanks\r\n"
        let message = try Message(bytes: Array(text.utf8))
        #expect(message.subject == "Order 12345")
        #expect(message.from.first?.address == "orders@shop.example")
        #expect(
            message.warnings.first?.message
                == "\(lines) blank line\(lines == 1 ? "" : "s") before the header section: skipped")
        #expect(message.textBody?.text == "Thanks\n")
    }

    @Test func aBlankLineBeforeTextThatIsNoHeaderFieldStays() throws {
        let message = try Message(bytes: Array("\nJust some text, no field here\nsecond line\n".utf8))
        #expect(message.header.fields.isEmpty)
        #expect(message.warnings.allSatisfy { !$0.message.contains("blank line") })
    }

    @Test(arguments: [16, 17, 1_000, 200_000])
    func anyNumberOfBlankLinesIsSkipped(count: Int) throws {
        let text = String(repeating: "\r\n", count: count) + "Subject: Order 12345\r\n\r\nThanks\r\n"
        #expect(Message.leadingBlankLines(Array(text.utf8))?.lines == count)
        let message = try Message(bytes: Array(text.utf8))
        #expect(message.subject == "Order 12345")
        #expect(message.warnings.first?.message == "\(count) blank lines before the header section: skipped")
        #expect(message.textBody?.text == "Thanks\n")
    }

    @Test func blankLinesOfSpacesAndTabsCountAndTheFieldAfterThemIsKept() {
        let bytes = Array("\n  \n\t\r\nSubject  : x\n".utf8)
        let found = Message.leadingBlankLines(bytes)
        #expect(found?.lines == 3)
        #expect(found.map { String(decoding: bytes[$0.end...], as: UTF8.self) } == "Subject  : x\n")
        #expect(Message.leadingBlankLines(Array("\n: x\n".utf8)) == nil)
        #expect(Message.leadingBlankLines(Array("\n  Subject: x\n".utf8)) == nil)
        #expect(Message.leadingBlankLines(Array("Subject: x\n".utf8)) == nil)
        #expect(Message.leadingBlankLines(Array("\n\n\n".utf8)) == nil)
    }

    @Test func blankLinesBeforeTextThatIsNoHeaderFieldStay() throws {
        let text = String(repeating: "\n", count: 40) + "Just some text, no field here\n"
        let message = try Message(bytes: Array(text.utf8))
        #expect(message.header.fields.isEmpty)
        #expect(message.warnings.allSatisfy { !$0.message.contains("blank line") })
    }

    @Test(arguments: ["\n", "\r\n", " \t\n"])
    func aMessageOfBlankLinesOnlyIsEmpty(_ line: String) {
        #expect(throws: MIMEError.self) {
            try Message(bytes: Array(String(repeating: line, count: 5_000).utf8))
        }
        #expect(Message.leadingBlankLines(Array(String(repeating: line, count: 5_000).utf8)) == nil)
    }
}
