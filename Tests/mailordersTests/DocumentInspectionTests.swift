import Foundation
import MIME
import MailDocument
import Testing

@testable import mailorders

private func htmlPart(_ html: String) -> BodyPart {
    BodyPart(
        path: "1.2", header: Header(), contentType: MediaType(type: "text", subtype: "html"),
        transferEncoding: .eightBit, text: html, charset: "utf-8")
}

private let sample = MailDocument(
    parts: MailDocument.Parts(
        subject: "Your order 1047",
        from: [MailAddress(name: "Shop", address: "orders@mail.shop.example.co.uk")],
        htmlBody: htmlPart(
            """
            <head><script type="application/ld+json">{"@type":"Order","orderNumber":"1047","seller":{"name":"Shop"},}</script></head>
            <div style="display:none">Shipped today</div><table><tr><td>Order</td><td>#1047</td></tr></table>
            <a href="https://t.example/c?url=https%3A%2F%2Fshop.example%2Fo%2F1047">View order</a>
            """)))

@Test func textInspectionShowsHeaderTextHiddenTextAndPreheader() {
    let output = inspectDocumentText(sample)
    #expect(output.contains("Subject: Your order 1047"))
    #expect(
        output.contains("From: Shop <orders@mail.shop.example.co.uk>  [registrable domain: example.co.uk]"))
    #expect(output.contains("Preheader: Shipped today"))
    #expect(output.contains("Order \u{2502} #1047"))
    #expect(output.contains("== hidden text in the HTML ==\nShipped today\n"))
}

@Test func linksInspectionShowsHrefAndUnwrappedTarget() {
    let output = inspectDocumentLinks(sample)
    #expect(output.contains("[html @12] \u{201C}View order\u{201D}"))
    #expect(output.contains("href:   https://t.example/c?url=https%3A%2F%2Fshop.example%2Fo%2F1047"))
    #expect(output.contains("target: https://shop.example/o/1047"))
}

@Test func structuredInspectionShowsNormalizedObjectsAndRepairs() {
    let output = inspectDocumentStructured(sample)
    #expect(output.contains("== schema.org Order #1 (jsonld) =="))
    #expect(output.contains("\"merchant\": {\n    \"name\": \"Shop\"\n  }"))
    #expect(output.contains("warning: part 1.2: repaired JSON-LD block 1: trailingComma"))
    #expect(inspectDocumentStructured(MailDocument()) == "(no schema.org data)\n")
}

/// An Outlook forward whose block names the shop without an address: the original's sender
/// is shown by its name, with no empty address.
@Test func inspectionShowsAForwardedSenderKnownByNameOnly() throws {
    let document = MailDocument(
        parts: MailDocument.Parts(
            subject: "FW: Your order 1047 has shipped",
            from: [MailAddress(name: "Jordan Lee", address: "jordan.lee@example.com")],
            textBody: BodyPart(
                path: "1", header: Header(), contentType: MediaType(type: "text", subtype: "plain"),
                transferEncoding: .eightBit,
                text: """
                    See below.

                    ________________________________
                    From: Shop
                    Sent: Tuesday, November 24, 2026 6:12 PM
                    To: Jordan Lee
                    Subject: Your order 1047 has shipped

                    Order number: 1047
                    """, charset: "utf-8")))
    #expect(document.forwardedOriginal?.sender?.name == "Shop")
    let text = inspectDocumentText(document)
    #expect(text.contains("  From: Shop\n"))
    #expect(!text.contains("Shop <>"))
    let json = inspectDocumentJSON(document, origin: "fw.eml", text: true, links: false, structured: false)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let forwarded = try #require((object["text"] as? [String: Any])?["forwardedOriginal"] as? [String: Any])
    #expect(forwarded["from"] as? [String: String] == ["name": "Shop"])
}

@Test func textInspectionEscapesWhatTheEmailNames() throws {
    // An attachment name with a carriage return, a line feed and a right-to-left override; a
    // subject with a line separator; an ESC sequence in the Message-ID.
    let raw = [
        "From: Shop <orders@shop.example>", "Subject: =?utf-8?q?s=E2=80=A8t?=", "Message-ID: <a\u{1B}[2J@x>",
        "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b", "",
        "--b", "Content-Type: text/plain", "", "Order 1047",
        "--b", "Content-Type: application/octet-stream",
        "Content-Disposition: attachment; filename=\"=?utf-8?q?a=0Db=E2=80=AEcod.exe=0AFAKE=3A_x?=\"", "",
        "x",
        "--b--",
    ].joined(separator: "\r\n")
    let output = inspectDocumentText(MailDocument(message: try Message(bytes: Array(raw.utf8))))
    #expect(!output.unicodeScalars.contains { [0x0D, 0x1B, 0x2028, 0x202E].contains($0.value) })
    #expect(output.contains("Attachment: a\\rb\\u{202E}cod.exe\\nFAKE: x application/octet-stream"))
    #expect(output.contains("Subject: s\\u{2028}t\n"))
    #expect(output.contains("Message-ID: <a\\u{1B}[2J@x>\n"))
    #expect(!output.contains("\nFAKE"))
}
