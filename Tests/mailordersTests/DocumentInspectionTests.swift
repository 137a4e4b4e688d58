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
