// What `mailorders inspect --text / --links / --structured` print: pure functions from a
// document to text, so the command and its tests share them.
import Foundation
import MIME
import MailDocument
import Mailbox

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
            output += "\(prefix)[\(flags) @\(link.position)] \(TerminalText.oneLine(quoted(link.text)))\n"
            output += "\(prefix)    href:   \(TerminalText.oneLine(link.href))\n"
            if link.target != link.href {
                output += "\(prefix)    target: \(TerminalText.oneLine(link.target))\n"
            }
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
        output += "== attached order \(TerminalText.oneLine(order.filename ?? "(unnamed)")) ==\n"
        output += order.order.jsonString(pretty: true) + "\n"
    }
    for warning in structuredDataWarnings(document) {
        output += "warning: \(TerminalText.oneLine("\(warning)"))\n"
    }
    return output
}

private func writeText(_ document: MailDocument, into output: inout String, depth: Int) {
    let prefix = String(repeating: "  ", count: depth)
    // Every line is written with its control functions, line separators and bidirectional
    // controls escaped (``TerminalText/oneLine(_:)``): header fields, attachment names and
    // warnings come from the email, and one must not forge a line or move the cursor.
    func line(_ text: String) { output += prefix + TerminalText.oneLine(text) + "\n" }
    func block(_ title: String, _ text: String) {
        line("== \(title) ==")
        for textLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line(String(textLine).replacingOccurrences(of: "\t", with: " \u{2502} "))
        }
    }
    if let subject = document.subject { line("Subject: \(subject)") }
    if let sender = document.sender {
        // A forwarded sender may be known by its name only (an Outlook block's "From: Shop").
        var from =
            sender.name.map { sender.address.isEmpty ? $0 : "\($0) <\(sender.address)>" } ?? sender.address
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

/// `inspect --json` with `--text`, `--links` or `--structured`: the views asked for, as one
/// JSON object (one line) per message, so that standard output holds only JSON.
///
/// `{"origin", "text": {…}, "links": […], "structured": {…}}`, each view only when asked for:
/// - `text`: `subject`, `from` (`name`, `address`), `date` (RFC 3339), `messageID`,
///   `preheader`, `plainText`, `plainQuotedText`, `htmlText` (table cells separated by tabs),
///   `htmlQuotedText`, `htmlHiddenText`, `imageAltTexts`, `attachments` (`filename`,
///   `contentType`, `size` in bytes), `attachedOrders` (file names), `warnings`, and
///   `forwardedOriginal` (`style` and the same keys) when there is one; keys without a value
///   are left out.
/// - `links`: per link `origin` (`html` or `plain`), `hidden`, `position` (UTF-8 offset in its
///   rendition), `text`, `href`, `target` (the unwrapped click-tracker target) and `forwarded`
///   (0 for the email itself, 1 for its forwarded original …).
/// - `structured`: `schemaOrg` (per object `type`, `origin` and `properties`), `attachedOrders`
///   (`filename`, `order`) and the JSON-LD and order bundle `warnings`.
///
/// - Parameters:
///   - document: A built mail document.
///   - origin: Where the message came from (`inbox.mbox#3`).
///   - text: Include the `text` view.
///   - links: Include the `links` view.
///   - structured: Include the `structured` view.
/// - Returns: One line of JSON, ending in a newline.
func inspectDocumentJSON(
    _ document: MailDocument, origin: String, text: Bool, links: Bool, structured: Bool
) -> String {
    var pairs: [(String, InspectionJSON)] = [("origin", .string(origin))]
    if text { pairs.append(("text", textJSON(document))) }
    if links {
        var values: [InspectionJSON] = []
        var current: MailDocument? = document
        var depth = 0
        while let document = current {
            for link in document.links {
                values.append(
                    .object([
                        ("origin", .string(link.origin.rawValue)), ("hidden", .bool(link.isHidden)),
                        ("position", .number(link.position)), ("text", .string(link.text)),
                        ("href", .string(link.href)), ("target", .string(link.target)),
                        ("forwarded", .number(depth)),
                    ]))
            }
            current = document.forwardedOriginal
            depth += 1
        }
        pairs.append(("links", .array(values)))
    }
    if structured {
        let schemaOrg: [InspectionJSON] = document.structuredData.map { object in
            .object([
                ("type", .string(object.type)), ("origin", .string(object.origin)),
                ("properties", .raw(object.jsonValue.jsonString())),
            ])
        }
        let orders: [InspectionJSON] = document.attachedOrders.map { order in
            var fields: [(String, InspectionJSON)] = []
            if let filename = order.filename { fields.append(("filename", .string(filename))) }
            fields.append(("order", .raw(order.order.jsonString())))
            return .object(fields)
        }
        let warnings = structuredDataWarnings(document)
        pairs.append(
            (
                "structured",
                .object([
                    ("schemaOrg", .array(schemaOrg)), ("attachedOrders", .array(orders)),
                    ("warnings", .array(warnings.map { .string($0.description) })),
                ])
            ))
    }
    var output = ""
    InspectionJSON.object(pairs).render(into: &output)
    return output + "\n"
}

/// The `text` view of ``inspectDocumentJSON(_:origin:text:links:structured:)`` for one document.
private func textJSON(_ document: MailDocument) -> InspectionJSON {
    var pairs: [(String, InspectionJSON)] = []
    func add(_ key: String, _ value: String?) {
        if let value, !value.isEmpty { pairs.append((key, .string(value))) }
    }
    add("subject", document.subject)
    if let sender = document.sender {
        var from: [(String, InspectionJSON)] = []
        if let name = sender.name, !name.isEmpty { from.append(("name", .string(name))) }
        // Absent for a forwarded sender known by its name only (an Outlook block's "From: Shop").
        if !sender.address.isEmpty { from.append(("address", .string(sender.address))) }
        pairs.append(("from", .object(from)))
    }
    add("date", document.date.map(rfc3339))
    add("messageID", document.messageID)
    add("preheader", document.preheader)
    add("plainText", document.plainText?.text)
    add("plainQuotedText", document.plainText?.quotedText)
    add("htmlText", document.htmlText?.text)
    add("htmlQuotedText", document.htmlText?.quotedText)
    add("htmlHiddenText", document.htmlText?.hiddenText)
    let alts = document.images.compactMap(\.alt)
    if !alts.isEmpty { pairs.append(("imageAltTexts", .array(alts.map { .string($0) }))) }
    if !document.attachments.isEmpty {
        pairs.append(
            (
                "attachments",
                .array(
                    document.attachments.map { attachment in
                        var fields: [(String, InspectionJSON)] = []
                        if let filename = attachment.filename {
                            fields.append(("filename", .string(filename)))
                        }
                        fields.append(("contentType", .string(attachment.contentType)))
                        fields.append(("size", .number(attachment.size)))
                        return .object(fields)
                    })
            ))
    }
    if !document.attachedOrders.isEmpty {
        pairs.append(
            ("attachedOrders", .array(document.attachedOrders.map { .string($0.filename ?? "") })))
    }
    if !document.warnings.isEmpty {
        pairs.append(("warnings", .array(document.warnings.map { .string($0.description) })))
    }
    if let original = document.forwardedOriginal {
        var forwarded: [(String, InspectionJSON)] = [
            ("style", .string(document.forwardStyle?.rawValue ?? "forward"))
        ]
        if case .object(let fields) = textJSON(original) { forwarded += fields }
        pairs.append(("forwardedOriginal", .object(forwarded)))
    }
    return .object(pairs)
}

/// The document's warnings about its structured data, which `inspect --structured` shows:
/// JSON-LD blocks repaired or unreadable, order bundles unreadable.
private func structuredDataWarnings(_ document: MailDocument) -> [DocumentWarning] {
    document.warnings.filter { $0.message.contains("JSON-LD block") || $0.message.contains("order bundle") }
}
