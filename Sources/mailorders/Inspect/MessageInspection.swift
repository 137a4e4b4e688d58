import Foundation
import MIME
import MailDocument
import Mailbox

/// Renders one parsed message for `mailorders inspect`: the MIME tree as indented text,
/// or one JSON object.
///
/// The JSON object has the keys `origin`, `messageID`, `subject`, `from`, `to`, `date`
/// (RFC 3339, UTC), `parts` and `warnings`; a key whose value is unknown is left out.
/// Each part has `path`, `contentType`, `charset`, `transferEncoding`, `disposition`,
/// `filename`, `size` (decoded bytes) and, for text parts, `text`. Parts of encapsulated
/// messages follow the `message/rfc822` part that holds them.
/// - Parameters:
///   - message: the parsed message.
///   - origin: where it came from, e.g. `inbox.mbox#3`.
///   - json: JSON instead of the text tree.
/// - Returns: the rendering, ending with a newline.
func inspectMessage(_ message: Message, origin: String, json: Bool) -> String {
    json ? inspectionJSON(message, origin: origin) + "\n" : inspectionText(message, origin: origin)
}

func rfc3339(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
}

private func describe(_ address: MailAddress) -> String {
    guard let name = address.name, !name.isEmpty else { return TerminalText.oneLine(address.address) }
    return TerminalText.oneLine("\(name) <\(address.address)>")
}

/// A line of a body part's text as the tree shows it: tabs kept, every other control function
/// escaped as ``TerminalText/oneLine(_:)`` writes it (an email's text must not move the cursor,
/// recolour or retitle the reader's terminal).
private func shownBodyLine(_ line: Substring) -> String {
    line.split(separator: "\t", omittingEmptySubsequences: false).map { TerminalText.oneLine(String($0)) }
        .joined(separator: "\t")
}

/// The text tree. Everything taken from the message (header field values, parameters, body
/// text, warnings) is written with its control functions escaped (``TerminalText/oneLine(_:)``).
private func inspectionText(_ message: Message, origin: String) -> String {
    var lines: [String] = ["origin: \(TerminalText.oneLine(origin))"]
    if let id = message.messageID { lines.append("message-id: \(TerminalText.oneLine(id))") }
    if let subject = message.subject { lines.append("subject: \(TerminalText.oneLine(subject))") }
    let from = message.from
    if !from.isEmpty { lines.append("from: " + from.map(describe).joined(separator: ", ")) }
    let to = message.to
    if !to.isEmpty { lines.append("to: " + to.map(describe).joined(separator: ", ")) }
    if let date = message.date { lines.append("date: \(rfc3339(date))") }
    lines.append("parts:")
    for part in message.allPartsIncludingEncapsulated {
        let depth = part.path.split(separator: ".").count
        let indent = String(repeating: "  ", count: depth)
        var summary = "\(indent)\(part.path) \(TerminalText.oneLine(part.contentType.essence))"
        if let charset = part.charset { summary += " charset=\(TerminalText.oneLine(charset))" }
        summary += " \(TerminalText.oneLine(part.transferEncoding.name))"
        if let disposition = part.disposition { summary += " \(TerminalText.oneLine(disposition))" }
        if let filename = part.filename { summary += " filename=\"\(TerminalText.oneLine(filename))\"" }
        if part.contentType.type != "multipart" { summary += " \(part.decodedBytes().count) bytes" }
        lines.append(summary)
        if let text = part.text {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("\(indent)  | \(shownBodyLine(line))")
            }
        }
    }
    if !message.warnings.isEmpty {
        lines.append("warnings:")
        for warning in message.warnings { lines.append("  \(TerminalText.oneLine("\(warning)"))") }
    }
    return lines.joined(separator: "\n") + "\n"
}

/// A JSON value with its keys kept in insertion order, as `inspect --json` writes it.
indirect enum InspectionJSON {
    case string(String)
    case number(Int)
    case bool(Bool)
    case array([InspectionJSON])
    case object([(String, InspectionJSON)])
    /// JSON text written as it is (a value serialized elsewhere).
    case raw(String)

    func render(into output: inout String) {
        switch self {
        case .string(let value): output += quote(value)
        case .number(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .raw(let text): output += text
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.render(into: &output)
            }
            output += "]"
        case .object(let pairs):
            output += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { output += "," }
                output += quote(pair.0) + ":"
                pair.1.render(into: &output)
            }
            output += "}"
        }
    }

    private func quote(_ value: String) -> String {
        JSONText.quoted(value)
    }
}

func addressesJSON(_ addresses: [MailAddress]) -> InspectionJSON {
    .array(
        addresses.map { address in
            var pairs: [(String, InspectionJSON)] = []
            if let name = address.name, !name.isEmpty { pairs.append(("name", .string(name))) }
            pairs.append(("address", .string(address.address)))
            return .object(pairs)
        })
}

private func inspectionJSON(_ message: Message, origin: String) -> String {
    var pairs: [(String, InspectionJSON)] = [("origin", .string(origin))]
    if let id = message.messageID { pairs.append(("messageID", .string(id))) }
    if let subject = message.subject { pairs.append(("subject", .string(subject))) }
    pairs.append(("from", addressesJSON(message.from)))
    pairs.append(("to", addressesJSON(message.to)))
    if let date = message.date { pairs.append(("date", .string(rfc3339(date)))) }
    let parts: [InspectionJSON] = message.allPartsIncludingEncapsulated.map { part in
        var fields: [(String, InspectionJSON)] = [
            ("path", .string(part.path)), ("contentType", .string(part.contentType.essence)),
        ]
        if let charset = part.charset { fields.append(("charset", .string(charset))) }
        fields.append(("transferEncoding", .string(part.transferEncoding.name)))
        if let disposition = part.disposition { fields.append(("disposition", .string(disposition))) }
        if let filename = part.filename { fields.append(("filename", .string(filename))) }
        fields.append(("size", .number(part.decodedBytes().count)))
        if let text = part.text { fields.append(("text", .string(text))) }
        return .object(fields)
    }
    pairs.append(("parts", .array(parts)))
    pairs.append(("warnings", .array(message.warnings.map { .string($0.description) })))
    var output = ""
    InspectionJSON.object(pairs).render(into: &output)
    return output
}
