// What `mailorders inspect --text / --links / --structured` print: pure functions from a
// document to text, so the command and its tests share them.
import Foundation
import MIME
import MailDocument

/// The document's header facts, its rendered texts (plain, HTML, hidden), the preheader,
/// attachments and warnings, then the forwarded original the same way, indented.
///
/// - Parameter document: A built mail document.
/// - Returns: Human-readable text ending in a newline.
func inspectDocumentText(_ document: MailDocument) -> String {
    var output = ""
    writeText(document, into: &output, depth: 0)
    return output
}

/// One line per link: where it is, its anchor text, the href and the unwrapped target.
///
/// - Parameter document: A built mail document.
/// - Returns: Human-readable text ending in a newline; forwarded originals' links follow.
func inspectDocumentLinks(_ document: MailDocument) -> String {
    var output = ""
    var current: MailDocument? = document
    var depth = 0
    while let document = current {
        let prefix = String(repeating: "  ", count: depth)
        if depth > 0 { output += "\(prefix)== links of the forwarded original ==\n" }
        if document.links.isEmpty { output += "\(prefix)(no links)\n" }
        for link in document.links {
            var flags = link.origin.rawValue
            if link.isHidden { flags += ", hidden" }
            output += "\(prefix)[\(flags) @\(link.position)] \(quoted(link.text))\n"
            output += "\(prefix)    href:   \(link.href)\n"
            if link.target != link.href { output += "\(prefix)    target: \(link.target)\n" }
        }
        current = document.forwardedOriginal
        depth += 1
    }
    return output
}

/// The schema.org objects (JSON-LD and microdata, normalized) and the attached orders, as
/// pretty JSON; JSON-LD repairs show among the warnings.
///
/// - Parameter document: A built mail document.
/// - Returns: Human-readable text ending in a newline.
func inspectDocumentStructured(_ document: MailDocument) -> String {
    var output = ""
    if document.structuredData.isEmpty {
        output += "(no schema.org data)\n"
    }
    for (index, object) in document.structuredData.enumerated() {
        output += "== schema.org \(object.type) #\(index + 1) (\(object.origin)) ==\n"
        output += object.jsonValue.jsonString(pretty: true) + "\n"
    }
    for order in document.attachedOrders {
        output += "== attached order \(order.filename ?? "(unnamed)") ==\n"
        output += order.order.jsonString(pretty: true) + "\n"
    }
    let jsonLDWarnings = document.warnings.filter {
        $0.message.hasPrefix("JSON-LD") || $0.message.contains("order bundle")
    }
    for warning in jsonLDWarnings { output += "warning: \(warning)\n" }
    return output
}

private func writeText(_ document: MailDocument, into output: inout String, depth: Int) {
    let prefix = String(repeating: "  ", count: depth)
    func line(_ text: String) { output += prefix + text + "\n" }
    func block(_ title: String, _ text: String) {
        line("== \(title) ==")
        for textLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line(String(textLine).replacingOccurrences(of: "\t", with: " \u{2502} "))
        }
    }
    if let subject = document.subject { line("Subject: \(subject)") }
    if let sender = document.sender {
        var from = sender.name.map { "\($0) <\(sender.address)>" } ?? sender.address
        if let registrable = sender.registrableDomain { from += "  [registrable domain: \(registrable)]" }
        line("From: \(from)")
    }
    if let date = document.date { line("Date: \(ISO8601DateFormatter().string(from: date))") }
    if !document.recipients.isEmpty {
        line("To: " + document.recipients.map(\.address).joined(separator: ", "))
    }
    if let messageID = document.messageID { line("Message-ID: \(messageID)") }
    if let preheader = document.preheader { line("Preheader: \(preheader)") }
    if let plain = document.plainText {
        block("text/plain", plain.text)
        if !plain.quotedText.isEmpty {
            block("quoted earlier message in the text/plain (not read)", plain.quotedText)
        }
    }
    if let html = document.htmlText {
        block("text/html (cells separated by \u{2502})", html.text)
        if !html.quotedText.isEmpty {
            block("quoted earlier message in the HTML (not read)", html.quotedText)
        }
        if !html.hiddenText.isEmpty { block("hidden text in the HTML", html.hiddenText) }
    }
    if document.plainText == nil && document.htmlText == nil { line("(no text body)") }
    let alts = document.images.compactMap(\.alt)
    if !alts.isEmpty { line("Image alt text: " + alts.map(quoted).joined(separator: ", ")) }
    for attachment in document.attachments {
        line(
            "Attachment: \(attachment.filename ?? "(unnamed)") \(attachment.contentType), \(attachment.size) bytes"
        )
    }
    for order in document.attachedOrders { line("Attached order: \(order.filename ?? "(unnamed)")") }
    for warning in document.warnings { line("warning: \(warning)") }
    if let original = document.forwardedOriginal {
        line("== forwarded original (\(document.forwardStyle?.rawValue ?? "forward")) ==")
        writeText(original, into: &output, depth: depth + 1)
    }
}

private func quoted(_ text: String) -> String { "\u{201C}\(text)\u{201D}" }
