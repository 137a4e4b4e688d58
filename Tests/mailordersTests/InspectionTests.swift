import Foundation
import MIME
import Testing

@testable import mailorders

private let sample = """
    Message-ID: <order-1@shop.example>
    Subject: =?utf-8?q?Your_order_=E2=84=9642?=
    From: "Shop, Example" <orders@shop.example>
    To: a@example.com, B <b@example.com>
    Date: Tue, 1 Jul 2003 10:52:37 +0200
    Content-Type: multipart/mixed; boundary=b

    --b
    Content-Type: text/plain; charset=iso-8859-1
    Content-Transfer-Encoding: quoted-printable

    Caf=E9 "order"
    --b
    Content-Type: application/pdf; name="invoice.pdf"
    Content-Disposition: attachment
    Content-Transfer-Encoding: base64

    JVBERi0x
    --b
    Content-Type: text/plain

    no closing boundary
    """

@Test func inspectionJSONHasTheDocumentedKeys() throws {
    let message = try Message(bytes: Array(sample.utf8))
    let output = inspectMessage(message, origin: "inbox.mbox#3", json: true)
    #expect(output.hasSuffix("}\n"))
    #expect(!output.dropLast().contains("\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect(object["origin"] as? String == "inbox.mbox#3")
    #expect(object["messageID"] as? String == "<order-1@shop.example>")
    #expect(object["subject"] as? String == "Your order №42")
    #expect(object["date"] as? String == "2003-07-01T08:52:37Z")
    let from = try #require(object["from"] as? [[String: String]])
    #expect(from == [["name": "Shop, Example", "address": "orders@shop.example"]])
    #expect((object["to"] as? [[String: String]])?.count == 2)
    let parts = try #require(object["parts"] as? [[String: Any]])
    #expect(parts.map { $0["path"] as? String } == ["1", "1.1", "1.2", "1.3"])
    #expect(parts[1]["text"] as? String == "Café \"order\"")
    #expect(parts[1]["charset"] as? String == "windows-1252")
    #expect(parts[1]["transferEncoding"] as? String == "quoted-printable")
    #expect(parts[2]["filename"] as? String == "invoice.pdf")
    #expect(parts[2]["size"] as? Int == 6)
    #expect(parts[2]["text"] == nil)
    let warnings = try #require(object["warnings"] as? [String])
    #expect(warnings.contains { $0.contains("closing boundary") })
}

@Test func inspectionTextShowsTheTreeThenWarnings() throws {
    let message = try Message(bytes: Array(sample.utf8))
    let output = inspectMessage(message, origin: "order.eml", json: false)
    #expect(output.hasPrefix("origin: order.eml\n"))
    #expect(output.contains("subject: Your order №42"))
    #expect(output.contains("from: Shop, Example <orders@shop.example>"))
    #expect(output.contains("  1 multipart/mixed 7bit"))
    #expect(output.contains("    1.2 application/pdf base64 attachment filename=\"invoice.pdf\" 6 bytes"))
    #expect(output.contains("      | Café \"order\""))
    let warnings = try #require(output.range(of: "warnings:"))
    #expect(output[warnings.upperBound...].contains("part 1: multipart has no closing boundary"))
}

@Test func inspectionWorksOnEveryCorpusFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora/mime")
    let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    var count = 0
    for case let url as URL in enumerator where ["eml", "msg"].contains(url.pathExtension) {
        let message = try Message(bytes: [UInt8](Data(contentsOf: url)))
        let json = inspectMessage(message, origin: url.lastPathComponent, json: true)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "\(url.path)")
        #expect(!inspectMessage(message, origin: url.lastPathComponent, json: false).isEmpty)
        count += 1
    }
    #expect(count > 280)
}

@Test func inspectionTextShowsAnOriginWithLineBreaksOnOneLine() throws {
    let message = try Message(bytes: Array(sample.utf8))
    let output = inspectMessage(message, origin: "md/cur/new\nline\ttab\rcr", json: false)
    #expect(output.hasPrefix("origin: md/cur/new\\nline\\ttab\\rcr\n"))
}

@Test func inspectionTextEscapesTheControlFunctionsOfTheMessage() throws {
    // Encoded-words that decode to a tab, a line feed and ESC sequences; a file name with a
    // carriage return; a body line that would clear the screen.
    let hostile = """
        Message-ID: <a\u{1B}[2J@shop.example>
        Subject: =?utf-8?q?Order_=1B]0;owned=07_shipped?=
        From: =?utf-8?q?Kim=09Lee=0AX?= <kim@example.com>
        To: =?utf-8?q?B=1B[31m?= <b@example.com>
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: text/plain

        \tindented\u{1B}[2J line
        --b
        Content-Type: application/pdf; name="=?utf-8?q?a=0Db.pdf?="
        Content-Disposition: attachment

        %PDF
        --b--
        """
    let message = try Message(bytes: Array(hostile.utf8))
    let output = inspectMessage(message, origin: "order.eml", json: false)
    #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D })
    #expect(output.contains("message-id: <a\\u{1B}[2J@shop.example>\n"))
    #expect(output.contains("subject: Order \\u{1B}]0;owned\\u{7} shipped\n"))
    #expect(output.contains("from: Kim\\tLee\\nX <kim@example.com>\n"))
    #expect(output.contains("to: B\\u{1B}[31m <b@example.com>\n"))
    #expect(output.contains("filename=\"a\\rb.pdf\""))
    // A body's tab stays a tab; its escape sequence is shown, not acted on.
    #expect(output.contains("| \tindented\\u{1B}[2J line\n"))
    // Each line of the tree is one line of the message's: no line break came from a value.
    #expect(!output.contains("\nX <kim"))
}
