import Foundation
import Testing

@testable import MIME

/// `=` padding inside base64 data: chunks encoded separately and concatenated (RFC 2045 §6.8
/// says padding ends the data, so what follows is decoded as a run of its own, with a warning).
@Suite struct Base64PaddingTests {
    func decode(_ text: String) -> (text: String, repairs: Base64Repairs) {
        var repairs = Base64Repairs()
        let bytes = TransferCoding.decodeBase64(Array(text.utf8), repairs: &repairs)
        return (String(decoding: bytes, as: UTF8.self), repairs)
    }

    /// Each chunk encoded on its own, joined without a line break.
    static func chunked(_ chunks: [String], separator: String = "") -> String {
        chunks.map { Data($0.utf8).base64EncodedString() }.joined(separator: separator)
    }

    /// A text part whose base64 body is `=` padding alone decodes to nothing: that is reported,
    /// where an empty body is not.
    @Test func aBodyOfPaddingAloneIsReported() throws {
        let head = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        let padding = try Message(bytes: Array((head + "====\r\n==\r\n").utf8))
        #expect(padding.textBody?.text == "")
        #expect(
            padding.warnings.map(\.message).contains("base64 body holds no data: nothing but `=` padding"))
        let empty = try Message(bytes: Array((head + "\r\n").utf8))
        #expect(!empty.warnings.map(\.message).contains { $0.hasPrefix("base64 body") })
        let fine = try Message(bytes: Array((head + "SGk=\r\n").utf8))
        #expect(fine.warnings.isEmpty)
    }

    @Test func chunksJoinedOnOneLineAreEachDecoded() {
        #expect(decode("SGk=SGVsbG8=").text == "HiHello")
        #expect(decode("SGk=SGVsbG8=").repairs == Base64Repairs(ignored: 0, runsAfterPadding: 1))
        #expect(decode("QQ==QUJD").text == "AABC")
        #expect(decode("QQ==QUJD").repairs.runsAfterPadding == 1)
        let order = ["Order ", "#NW-48213", " shipped with UPS, tracking ", "1ZA7X9252601815900", "."]
        let chunked = Self.chunked(order)
        #expect(chunked.dropLast().contains("="))
        #expect(decode(chunked).text == order.joined())
        #expect(decode(chunked).repairs.ignored == 0)
        // A chunk whose length is a multiple of three needs no padding: nothing shows where it ends.
        let padded = order.dropLast().filter { $0.utf8.count % 3 != 0 }.count
        #expect(padded > 0)
        #expect(decode(chunked).repairs.runsAfterPadding == padded)
    }

    @Test func chunksOnLinesOfTheirOwnAreEachDecoded() {
        let lines = Self.chunked(["Order 1", "2345 shipped ", "today."], separator: "\r\n") + "\r\n"
        #expect(decode(lines).text == "Order 12345 shipped today.")
        #expect(decode(lines).repairs == Base64Repairs(ignored: 0, runsAfterPadding: 2))
        // White space that starts the next line does not end anything.
        #expect(decode("QQ==\n  \tQUJD\n").text == "AABC")
        #expect(decode("QQ==\n  \tQUJD\n").repairs == Base64Repairs(ignored: 0, runsAfterPadding: 1))
    }

    @Test func wellFormedBodiesNeedNoRepair() {
        for text in [
            "SGVsbG8gd29ybGQ=\r\n", "SGVs\r\nbG8g d29y\tbGQ=\n", "QUJD\nREVG\n", "QQ==\n", "QQ==\r\n\r\n", "",
        ] {
            #expect(decode(text).repairs == Base64Repairs(), "\(text)")
        }
        #expect(decode("SGVsbG8gd29ybGQ=\r\n").text == "Hello world")
    }

    @Test func textAfterThePaddingOnItsLineIsSkippedAndCounted() {
        #expect(decode("SGk= trailing junk").text == "Hi")
        #expect(decode("SGk= trailing junk").repairs == Base64Repairs(ignored: 12, runsAfterPadding: 0))
        // The next line is data again.
        #expect(decode("SGk= junk\nSGk=").text == "HiHi")
        #expect(decode("SGk= junk\nSGk=").repairs == Base64Repairs(ignored: 4, runsAfterPadding: 1))
    }

    @Test func oneCharacterBeforeThePaddingIsNotAByte() {
        #expect(decode("QUJDR=QUJD").text == "ABCABC")
        #expect(decode("QUJDR=QUJD").repairs == Base64Repairs(ignored: 1, runsAfterPadding: 1))
    }

    @Test func extraPaddingIsPadding() {
        #expect(decode("QQ===QUJD").text == "AABC")
        #expect(decode("QQ===QUJD").repairs == Base64Repairs(ignored: 0, runsAfterPadding: 1))
    }

    @Test func textPartWithChunkedBase64IsReadWholeWithARepairWarning() throws {
        let order = ["Your order NW-48213 has shipped.\r\n", "Tracking number: ", "1ZA7X9252601815900\r\n"]
        let message = try parse(
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                + Self.chunked(order) + "\r\n")
        #expect(
            message.root.text == "Your order NW-48213 has shipped.\nTracking number: 1ZA7X9252601815900\n")
        let warnings = message.warnings.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("padding inside the data") == true)
        #expect(warnings.first?.contains("3 separately encoded runs") == true)
        #expect(message.warnings.first?.partPath != nil)
        #expect(!warnings.contains { $0.contains("damaged") })
    }

    @Test func encapsulatedMessageInChunkedBase64IsParsedWithAWarning() throws {
        let inner = "Subject: inner\r\n\r\nTracking 1ZA7X9252601815900\r\n"
        let split = inner.index(inner.startIndex, offsetBy: 10)
        let body = Self.chunked([String(inner[..<split]), String(inner[split...])])
        let message = try parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=b", "", "--b",
                "Content-Type: message/rfc822", "Content-Transfer-Encoding: base64", "", body, "--b--", ""))
        let encapsulated = try #require(message.root.children.first?.encapsulatedMessage)
        #expect(encapsulated.subject == "inner")
        #expect(encapsulated.root.text?.contains("1ZA7X9252601815900") == true)
        #expect(message.warnings.contains { $0.message.contains("padding inside the data") })
    }
}
