import Foundation
import Testing

@testable import MIME

@Test func parsesNestedMultipartsIgnoringPreambleAndEpilogue() throws {
    let message = try parse(
        crlf(
            "Content-Type: multipart/mixed; boundary=outer", "", "preamble text", "--outer",
            "Content-Type: multipart/alternative; boundary=\"inner b\"", "", "--inner b",
            "Content-Type: text/plain; charset=utf-8", "", "plain body", "--inner b",
            "Content-Type: text/html; charset=utf-8", "", "<p>html body</p>", "--inner b--", "", "--outer",
            "Content-Type: application/pdf; name=\"invoice.pdf\"", "Content-Transfer-Encoding: base64",
            "Content-Disposition: attachment", "", "JVBERi0x", "--outer--", "epilogue text"))
    #expect(message.allParts.map(\.path) == ["1", "1.1", "1.1.1", "1.1.2", "1.2"])
    #expect(message.textBody?.text == "plain body")
    #expect(message.htmlBody?.text == "<p>html body</p>")
    #expect(message.attachments.map(\.filename) == ["invoice.pdf"])
    #expect(message.attachments.first?.decodedBytes() == Array("%PDF-1".utf8))
    #expect(message.warnings.isEmpty)
}

@Test func prefersLastAlternativeOfEachType() throws {
    let message = try parse(
        crlf(
            "Content-Type: multipart/alternative; boundary=b", "", "--b", "Content-Type: text/plain", "",
            "first",
            "--b", "Content-Type: text/plain", "", "better", "--b--"))
    #expect(message.textBody?.text == "better")
}

@Test func toleratesMissingFinalBoundary() throws {
    let message = try parse(
        "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\none\n--b\n\ntwo\n")
    #expect(message.root.children.map(\.text) == ["one", "two\n"])
    #expect(message.warnings.contains { $0.message.contains("closing boundary") })
}

@Test func nestedPartReusingParentBoundaryDoesNotLoseText() throws {
    let message = try parse(
        "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: multipart/alternative; boundary=b\n\n"
            + "--b\nContent-Type: text/plain\n\ninner text\n--b--\n--b--\n")
    #expect(message.allParts.contains { $0.text == "inner text" })
    #expect(message.warnings.contains { $0.message.contains("reuses") })
}

@Test func findsBoundariesWithoutMultipartHeader() throws {
    let message = try parse(
        "Subject: x\n\n--abc\nContent-Type: text/plain\n\nhello\n--abc\nContent-Type: text/html\n\n<b>hi</b>\n--abc--\n"
    )
    #expect(message.root.contentType.essence == "multipart/mixed")
    #expect(message.textBody?.text == "hello")
    #expect(message.htmlBody?.text == "<b>hi</b>")
}

@Test func sniffsHTMLWithoutContentType() throws {
    let message = try parse("Subject: x\n\n  <!DOCTYPE html><html><body>Order</body></html>\n")
    #expect(message.root.contentType.essence == "text/html")
    #expect(message.htmlBody != nil)
}

@Test func parsesMessageRFC822AsNestedMessage() throws {
    let message = try parse(
        crlf(
            "Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: message/rfc822", "",
            "Subject: inner", "From: Inner <inner@example.com>", "", "inner body", "--b--"))
    let part = try #require(message.allParts.last)
    #expect(part.encapsulatedMessage?.subject == "inner")
    #expect(part.encapsulatedMessage?.from.first?.address == "inner@example.com")
    #expect(part.encapsulatedMessage?.root.path == "1.1.1")
    #expect(message.allPartsIncludingEncapsulated.compactMap(\.text) == ["inner body"])
}

@Test func digestPartsDefaultToMessageRFC822() throws {
    let message = try parse(
        "Content-Type: multipart/digest; boundary=d\n\n--d\n\nSubject: one\n\nfirst\n--d--\n")
    #expect(message.root.children.first?.contentType.essence == "message/rfc822")
    #expect(message.root.children.first?.encapsulatedMessage?.subject == "one")
}

@Test func decodesBase64WithWhitespaceAndGarbage() {
    #expect(TransferCoding.decodeBase64(Array("SGVs\r\nbG8g!!d29y\tbGQ=".utf8)) == Array("Hello world".utf8))
    #expect(TransferCoding.decodeBase64(Array("SGVsbG8".utf8)) == Array("Hello".utf8))
    #expect(TransferCoding.decodeBase64(Array("SGk= trailing junk".utf8)) == Array("Hi".utf8))
    var ignored = -1
    _ = TransferCoding.decodeBase64(Array("SGVs\r\nbG8g d29y\tbGQ=\n".utf8), ignored: &ignored)
    #expect(ignored == 0)
    _ = TransferCoding.decodeBase64(Array("SGVs\r\nbG8g!!d29ybGQ=".utf8), ignored: &ignored)
    #expect(ignored == 2)
    // "SGVsbG8" is 7 characters: 5 bytes and 2 bits left, nothing lost; 5 characters lose one.
    _ = TransferCoding.decodeBase64(Array("SGVsbG8".utf8), ignored: &ignored)
    #expect(ignored == 0)
    _ = TransferCoding.decodeBase64(Array("SGVsb".utf8), ignored: &ignored)
    #expect(ignored == 1)
}

@Test func damagedBase64TextIsReadWithAWarning() throws {
    let message = try parse(
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\nSGVsbG8gb3JkZXI*gMTIzNDU!!!\n"
    )
    #expect(message.root.text?.hasPrefix("Hello order") == true)
    #expect(message.warnings.contains { $0.message.contains("base64 body is damaged: 4 bytes") })
    let clean = try parse(
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\nSGVsbG8gb3JkZXIgMTIzNDU=\n"
    )
    #expect(clean.root.text == "Hello order 12345")
    #expect(clean.warnings.isEmpty)
}

@Test func asciiUnderAnUnknownOrWideCharsetIsReadWithAWarning() throws {
    let klingon = try parse("Content-Type: text/plain; charset=x-klingon-9\n\nHello order 12345\n")
    #expect(klingon.root.text == "Hello order 12345\n")
    #expect(klingon.root.charset == "us-ascii")
    #expect(
        klingon.warnings.map(\.message) == [
            "unknown charset x-klingon-9: the text is ASCII, read as us-ascii"
        ])
    for label in ["utf-16", "UTF-16LE", "utf-32"] {
        let wide = try parse("Content-Type: text/plain; charset=\(label)\n\nHello order 12345\n")
        #expect(wide.root.text == "Hello order 12345\n")
        #expect(
            wide.warnings.contains { $0.message.contains("does not fit the bytes (ASCII without NUL bytes)") }
        )
    }
    // Real UTF-16 (NUL bytes beside ASCII) is decoded as declared, without a warning.
    var utf16 = Array("Content-Type: text/plain; charset=utf-16le\n\n".utf8)
    utf16 += Array("Hi 注文".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let real = try parse(utf16)
    #expect(real.root.text == "Hi 注文")
    #expect(real.warnings.isEmpty)
    // UTF-16 without a byte order mark: big-endian as RFC 2781 says, little-endian when
    // the NUL bytes say so (with a warning).
    for (bytes, warned) in [
        (Array("Hi 注文".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, false),
        (Array("Hi 注文".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, true),
    ] {
        let noMark = try parse(Array("Content-Type: text/plain; charset=utf-16\n\n".utf8) + bytes)
        #expect(noMark.root.text == "Hi 注文")
        #expect(noMark.warnings.contains { $0.message.contains("little-endian") } == warned)
    }
    // A known label over ASCII: nothing to say.
    let known = try parse("Content-Type: text/plain; charset=koi8-u\n\nHello\n")
    #expect(known.warnings.isEmpty)
}

@Test func decodesQuotedPrintableLeniently() {
    let input = "caf=c3=a9 =\r\nsoft=\nbreak bad=ZZ end=\nx  \r\nkeep =3D"
    #expect(
        String(decoding: TransferCoding.decodeQuotedPrintable(Array(input.utf8)), as: UTF8.self)
            == "café softbreak bad=ZZ endx\r\nkeep =")
}

@Test func treatsUnknownTransferEncodingAs8bitWithWarning() throws {
    let message = try parse(
        "Content-Transfer-Encoding: x-weird\nContent-Type: text/plain; charset=utf-8\n\nplain ü")
    #expect(message.root.text == "plain ü")
    #expect(message.warnings.contains { $0.message.contains("x-weird") })
}

@Test func unwrapsFormatFlowed() throws {
    let message = try parse(
        "Content-Type: text/plain; format=flowed; delsp=no\n\nThis is a \nflowed line.\n> quoted \n> more\n-- \nsig\n"
    )
    #expect(message.root.text == "This is a flowed line.\n> quoted more\n-- \nsig\n")
    let delsp = try parse("Content-Type: text/plain; format=flowed; delsp=yes\n\nJoin \ned\n")
    #expect(delsp.root.text == "Joined\n")
}

@Test func decodesTextInKoreanJapaneseChineseAndWesternCharsets() throws {
    let korean = try parse(
        "Content-Type: text/plain; charset=ks_c_5601-1987\nContent-Transfer-Encoding: base64\n\nvsiz58fPvLy/5CDB1rmu"
    )
    #expect(korean.root.text == "안녕하세요 주문")
    #expect(korean.root.charset == "windows-949")
    var japanese = Array("Content-Type: text/plain; charset=ISO-2022-JP\n\n".utf8)
    japanese += [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x38, 0x6C, 0x1B, 0x28, 0x42]
    // NEC row 13 (circled digit one), a CP50221 extension.
    japanese += [0x20, 0x1B, 0x24, 0x42, 0x2D, 0x21, 0x1B, 0x28, 0x42]
    #expect(try parse(japanese).root.text == "日本語 ①")
    let chinese = try parse(
        "Content-Type: text/plain; charset=gb2312\nContent-Transfer-Encoding: base64\n\n1uzpRrv5tqm1pQ==")
    #expect(chinese.root.text == "朱镕基订单")
    var western = Array("Content-Type: text/plain; charset=iso-8859-1\n\n".utf8)
    western += [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x35, 0x20, 0x93, 0x71, 0x94]
    #expect(try parse(western).root.text == "Café €5 “q”")
}

/// JIS X 0201 Roman (`ESC ( J`) writes the yen sign at 0x5C and the overline at 0x7E: a
/// price "¥1,200" arrives as `\1,200`. ASCII (`ESC ( B`) keeps the backslash and the tilde,
/// before and after, and so does a JIS X 0208 trail byte 0x5C (本).
@Test func iso2022JPReadsJISRomanYenSignsAndOverlines() throws {
    var japanese = Array("Content-Type: text/plain; charset=ISO-2022-JP\n\n".utf8)
    japanese += Array("a\\b~ ".utf8)
    // 日本 (JIS X 0208), then " \1,200 ~" in JIS-Roman, then " \ ~" in ASCII, then ① (NEC).
    japanese += [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x4A]
    japanese += Array(" \\1,200 ~".utf8) + [0x1B, 0x28, 0x42] + Array(" \\ ~ ".utf8)
    japanese += [0x1B, 0x24, 0x42, 0x2D, 0x21, 0x1B, 0x28, 0x42]
    #expect(try parse(japanese).root.text == "a\\b~ 日本 ¥1,200 ‾ \\ ~ ①")
}

/// A UTF-16 body's 0x0D bytes are no line ends: "\r\0" and the low byte of U+010D (č)
/// reach the charset decoder unchanged, with no bare-CR repair; a message whose header
/// section ends its lines with bare CRs is still read as lines.
@Test func aUTF16BodyKeepsItsCarriageReturnBytes() throws {
    var message = Array("Subject: x\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n".utf8)
    message += Array("Dvořák č\r\nend".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    let parsed = try parse(message)
    #expect(parsed.root.text == "Dvořák č\r\nend" || parsed.root.text == "Dvořák č\nend")
    #expect(!parsed.warnings.contains { $0.message.contains("bare CR") }, "\(parsed.warnings)")
    let mac = try parse(Array("Subject: old\rFrom: a@b.example\r\rHello\rthere\r".utf8))
    #expect(mac.subject == "old")
    #expect(mac.warnings.contains { $0.message.contains("bare CR") })
}

/// UTF-8 text labelled UTF-16 (no NUL byte, valid UTF-8 with letters beyond ASCII) is read
/// as UTF-8, with a warning, not turned into ideographs.
@Test func utf8LabelledUTF16IsReadAsUTF8() throws {
    var lying = Array("Content-Type: text/plain; charset=utf-16le\n\n".utf8)
    lying += Array("Größe M, 2 × 24,00 €, order AC-1".utf8)
    let parsed = try parse(lying)
    #expect(parsed.root.text == "Größe M, 2 × 24,00 €, order AC-1")
    #expect(parsed.warnings.contains { $0.message.contains("UTF-8 without NUL bytes") }, "\(parsed.warnings)")
}

@Test func detectsUnknownOrLyingCharsetsWithWarning() throws {
    var unknown = Array("Content-Type: text/plain; charset=x-no-such-charset\n\n".utf8)
    unknown += Array("Grüße aus München".utf8)
    let message = try parse(unknown)
    #expect(message.root.text == "Grüße aus München")
    #expect(message.warnings.contains { $0.message.contains("unknown charset") })
    var lying = Array("Content-Type: text/plain; charset=utf-8\n\n".utf8)
    lying += [
        0x47, 0x72, 0xFC, 0xDF, 0x65, 0x20, 0x61, 0x75, 0x73, 0x20, 0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E,
    ]
    let lyingMessage = try parse(lying)
    #expect(lyingMessage.root.text == "Grüße aus München")
    #expect(!lyingMessage.warnings.isEmpty)
}

@Test func readsRFC2231ContinuationsCharsetsAndLanguage() throws {
    let message = try parse(
        crlf(
            "Content-Type: application/octet-stream;", " name*0*=utf-8'en'%E2%82%AC%20;",
            " name*1=\"rates \";",
            " name*2*=%C3%BC.txt", "Content-Disposition: attachment; filename*=iso-8859-1''r%E9sum%E9.pdf",
            "", "x"))
    #expect(message.root.contentType.parameters["name"] == "€ rates ü.txt")
    #expect(message.root.filename == "résumé.pdf")
}

@Test func decodesRFC2047InQuotedFilenames() throws {
    let message = try parse(
        "Content-Type: application/pdf; name=\"=?UTF-8?B?7KO866y4IO2ZleyduC5wZGY=?=\"\n\nx")
    #expect(message.root.filename == "주문 확인.pdf")
}

@Test func acceptsLFCRLFAndBareCRLineEndings() throws {
    for separator in ["\n", "\r\n", "\r"] {
        let text = [
            "Subject: s", "Content-Type: multipart/mixed; boundary=b", "", "--b", "", "one", "--b--", "",
        ]
        .joined(separator: separator)
        let message = try parse(text)
        #expect(message.subject == "s")
        #expect(message.root.children.first?.text == "one")
    }
}

@Test func limitsNestingDepthWithoutCrashing() throws {
    var text = ""
    for level in 0..<200 { text += "Content-Type: multipart/mixed; boundary=b\(level)\n\n--b\(level)\n" }
    text += "Content-Type: text/plain\n\ndeep\n"
    let message = try parse(text)
    #expect(message.warnings.contains { $0.message.contains("nesting") })
}

@Test func limitsPartCount() throws {
    var text = "Content-Type: multipart/mixed; boundary=b\n\n"
    for index in 0..<100 { text += "--b\n\npart \(index)\n" }
    text += "--b--\n"
    var limits = MIMELimits()
    limits.maxParts = 10
    let message = try Message(bytes: Array(text.utf8), limits: limits)
    #expect(message.allParts.count == 10)
    #expect(message.warnings.contains { $0.message.contains("parts") })
}

@Test func missingBoundaryParameterFallsBackToText() throws {
    let message = try parse("Content-Type: multipart/mixed\n\nsome text")
    #expect(message.root.text == "some text")
    #expect(!message.warnings.isEmpty)
}
