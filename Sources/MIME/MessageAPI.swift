import Foundation

/// Limits that keep a hostile message from exhausting memory, time or the stack.
///
/// A message beyond ``maxMessageBytes`` is refused; every other limit truncates what is
/// parsed and records a ``MIMEWarning``, so the rest of the message is still usable.
public struct MIMELimits: Sendable, Hashable {
    /// How deep multiparts and encapsulated messages may nest (each level counts one).
    /// Deeper content is kept as an undecoded part.
    public var maxNestingDepth: Int = 32
    /// Header fields kept per header section; later fields are ignored.
    public var maxHeaderFields: Int = 2_000
    /// Bytes of one header section; later lines are ignored.
    public var maxHeaderBytes: Int = 1 << 20
    /// Body parts per message, all levels together; later parts are skipped.
    public var maxParts: Int = 2_000
    /// Bytes kept of one unfolded header field (RFC 5322 §2.1.1 allows 998 per line;
    /// real mail folds far longer fields); the rest is dropped.
    public var maxLineLength: Int = 256 << 10
    /// The largest message accepted, 64 MiB: bigger ones are refused by the parser and
    /// skipped (with their origin) by mailbox sources.
    public var maxMessageBytes: Int = 64 << 20
    /// Warnings kept per message.
    public var maxWarnings: Int = 200

    public init() {}
    public static let `default` = MIMELimits()
}

extension Message {
    /// Parses one message from its bytes (LF, CRLF or bare CR line endings).
    ///
    /// Header fields are split and unfolded (RFC 5322 §2.2), the part tree is built
    /// (RFC 2046 §5), transfer encodings are undone (RFC 2045 §6) and every text part is
    /// decoded to ``BodyPart/text`` with its charset. Anything repaired or guessed is in
    /// ``warnings``.
    /// - Parameters:
    ///   - bytes: the whole message, header and body.
    ///   - limits: resource limits; see ``MIMELimits``.
    /// - Throws: ``MIMEError`` when the message is empty, larger than
    ///   ``MIMELimits/maxMessageBytes``, or has no header field at all.
    public init(bytes: [UInt8], limits: MIMELimits = .default) throws(MIMEError) {
        guard bytes.count <= limits.maxMessageBytes else {
            throw MIMEError(
                reason:
                    "message of \(bytes.count) bytes is larger than the \(limits.maxMessageBytes)-byte limit")
        }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw MIMEError(byteOffset: 0, reason: "empty message")
        }
        var input = bytes
        var lineEndingWarning: MIMEWarning?
        // Judged on the header section: a body of UTF-16 text holds 0x0D bytes that are no
        // line ends ("\r\0", the low byte of U+010D); a message with bare CR line ends (old Mac
        // OS mail) has them in its header section too. The whole message is asked first (one
        // memchr pass): most messages have none, and their header section is not looked for.
        if Message.hasBareCR(bytes),
            Message.hasBareCR(Array(bytes.prefix(Message.headerSectionLength(bytes))))
        {
            input = Message.normalizeBareCR(bytes)
            lineEndingWarning = MIMEWarning(message: "bare CR line endings read as line breaks")
        }
        // Blank lines before a header section (a file saved with a line break first) would make
        // the whole message a body with no header (RFC 5322 §2.1: the header section comes
        // first); they are dropped when a header field follows them.
        var leadingWarning: MIMEWarning?
        if let blank = Message.leadingBlankLines(input) {
            input.removeFirst(blank.end)
            leadingWarning = MIMEWarning(
                message:
                    "\(blank.lines) blank line\(blank.lines == 1 ? "" : "s") before the header section: skipped"
            )
        }
        var parser = BodyParser(limits: limits)
        var message = try parser.parseMessage(input, path: "1", depth: 0, boundaries: [], requireHeader: true)
        if let leadingWarning { message.warnings.insert(leadingWarning, at: 0) }
        if let lineEndingWarning { message.warnings.insert(lineEndingWarning, at: 0) }
        self = message
    }

    /// The blank lines at the start of `bytes` — lines of nothing but spaces and tabs, ended by
    /// LF or CRLF — as their count and the offset after them, when a header field (`Name:`,
    /// RFC 5322 §2.2, white space before the colon allowed, §4.5) follows them; `nil` otherwise.
    ///
    /// Any number of blank lines is skipped: one pass over them, and the field name after them
    /// is looked for within 998 bytes (the line limit of RFC 5322 §2.1.1), so the time is linear
    /// in the message's size and nothing is copied.
    static func leadingBlankLines(_ bytes: [UInt8]) -> (lines: Int, end: Int)? {
        var index = 0
        var lines = 0
        var lineStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 {
                index += 1
            } else if byte == 0x0A {
                index += 1
                lines += 1
                lineStart = index
            } else if byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                index += 2
                lines += 1
                lineStart = index
            } else {
                break
            }
        }
        guard lines > 0 else { return nil }
        let start = lineStart
        var end = start
        while end < bytes.count && end - start < 998 && bytes[end] > 0x20 && bytes[end] < 0x7F
            && bytes[end] != 0x3A
        {
            end += 1
        }
        guard end > start else { return nil }
        while end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09) { end += 1 }
        return end < bytes.count && bytes[end] == 0x3A ? (lines, start) : nil
    }

    /// The length of the header section `bytes` start with, its ending blank line included
    /// (`\n\n`, `\r\n\r\n` or `\r\r`), within the first 64 KiB; that much when none ends there.
    static func headerSectionLength(_ bytes: [UInt8]) -> Int {
        let limit = Swift.min(bytes.count, 65_536)
        var index = 0
        while index + 1 < limit {
            let byte = bytes[index]
            if byte == 0x0A && bytes[index + 1] == 0x0A { return index + 2 }
            if byte == 0x0D && bytes[index + 1] == 0x0D { return index + 2 }
            if byte == 0x0D && index + 3 < limit && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D
                && bytes[index + 3] == 0x0A
            {
                return index + 4
            }
            index += 1
        }
        return limit
    }

    private static func hasBareCR(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var index = 0
            while index < buffer.count, let found = memchr(base + index, 0x0D, buffer.count - index) {
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if position + 1 >= buffer.count || buffer[position + 1] != 0x0A { return true }
                index = position + 2
            }
            return false
        }
    }

    private static func normalizeBareCR(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                output.append(0x0A)
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// The decoded Subject (RFC 5322 §3.6.5, RFC 2047).
    public var subject: String? { header["Subject"] }
    /// The mailboxes of From (RFC 5322 §3.6.2).
    public var from: [MailAddress] { addresses("From") }
    /// The mailboxes of To, with group members (RFC 5322 §3.6.3).
    public var to: [MailAddress] { addresses("To") }
    /// The mailboxes of Cc.
    public var cc: [MailAddress] { addresses("Cc") }
    /// The mailboxes of Reply-To.
    public var replyTo: [MailAddress] { addresses("Reply-To") }
    /// The mailbox of Sender, when given.
    public var sender: MailAddress? { addresses("Sender").first }
    /// The Date field (RFC 5322 §3.3, obsolete and common broken forms accepted);
    /// `nil` when absent or unreadable.
    public var date: Date? { header["Date"].flatMap(DateParser.parse) }
    /// The zone the Date field was written in (the `zone` of RFC 5322 §3.3: `+0900` is
    /// `TimeZone(secondsFromGMT: 32400)`), for reading the sender's calendar day ("today",
    /// "tomorrow"); UTC when the field names no zone, `nil` when there is no readable Date.
    public var dateTimeZone: TimeZone? { dateAndTimeZone?.timeZone ?? nil }
    /// ``date`` and ``dateTimeZone`` from one reading of the Date field; the zone is `nil`
    /// when its offset is not a real one (beyond ±18 hours), the instant is kept.
    public var dateAndTimeZone: (date: Date, timeZone: TimeZone?)? {
        header["Date"].flatMap(DateParser.parseWithOffset).map {
            ($0.date, TimeZone(secondsFromGMT: $0.offsetMinutes * 60))
        }
    }
    /// The Message-ID with its angle brackets, e.g. `<1234@example.com>` (RFC 5322 §3.6.4).
    public var messageID: String? {
        guard let raw = header.rawValue("Message-ID") else { return nil }
        if let first = Message.messageIDs(raw).first { return first }
        let trimmed = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
    /// The message identifiers of In-Reply-To (RFC 5322 §3.6.4), with angle brackets.
    public var inReplyTo: [String] { header.rawValue("In-Reply-To").map(Message.messageIDs) ?? [] }
    /// The message identifiers of References, oldest first, with angle brackets.
    public var references: [String] { header.rawValue("References").map(Message.messageIDs) ?? [] }

    /// The preferred text/plain body (multipart/alternative rules, RFC 2046 §5.1.4): the
    /// last plain alternative, else the first inline text/plain part.
    public var textBody: BodyPart? { Message.preferred(root, subtype: "plain") }
    /// The preferred text/html body, chosen as ``textBody`` is.
    public var htmlBody: BodyPart? { Message.preferred(root, subtype: "html") }

    /// The inline text/plain parts that continue ``textBody``: its later siblings (or, when it
    /// is one of a multipart/alternative, the alternative's) in the multipart/mixed (or other
    /// non-alternative multipart) that holds it, of type text/plain, not attachments and
    /// without a file name, in order. The parts of a multipart/mixed are
    /// shown one after the other (RFC 2046 §5.1.3): mail clients split a body around an
    /// attachment into such parts ("see the invoice attached" / invoice.pdf / "Order number:
    /// A-10023"). Empty when ``textBody`` is the only one.
    public var furtherTextBodies: [BodyPart] {
        guard let first = textBody else { return [] }
        let parts = allParts
        func parent(of path: String) -> BodyPart? {
            let components = path.split(separator: ".")
            guard components.count > 1 else { return nil }
            let parentPath = components.dropLast().joined(separator: ".")
            return parts.first { $0.path == parentPath }
        }
        // The body's alternatives are one body: what follows them in the multipart/mixed that
        // holds them continues it ([text | html], invoice.pdf, text).
        var anchor = first.path
        var holder = parent(of: anchor)
        while let alternative = holder, alternative.contentType.subtype == "alternative" {
            anchor = alternative.path
            holder = parent(of: anchor)
        }
        guard let parent = holder, parent.contentType.type == "multipart",
            let index = parent.children.firstIndex(where: { $0.path == anchor })
        else { return [] }
        return parent.children[(index + 1)...].filter { part in
            part.contentType.type == "text" && part.contentType.subtype == "plain"
                && part.disposition != "attachment" && part.filename == nil && part.text != nil
        }
    }

    /// Parts that are attachments: leaves that are not the chosen text bodies and have an
    /// `attachment` disposition, a file name, or a non-text type; encapsulated messages
    /// count as attachments.
    public var attachments: [BodyPart] {
        let chosen = Set([textBody?.path, htmlBody?.path].compactMap { $0 } + furtherTextBodies.map(\.path))
        return allParts.filter { part in
            guard part.children.isEmpty, part.contentType.type != "multipart" else { return false }
            if chosen.contains(part.path) { return false }
            if part.disposition == "attachment" || part.filename != nil { return true }
            return part.contentType.type != "text"
        }
    }

    /// Every part, depth first, including the root, not descending into encapsulated messages.
    public var allParts: [BodyPart] {
        var result: [BodyPart] = []
        func visit(_ part: BodyPart) {
            result.append(part)
            for child in part.children { visit(child) }
        }
        visit(root)
        return result
    }

    /// Every part depth first, descending into encapsulated messages (their root follows
    /// the `message/rfc822` part that holds them).
    public var allPartsIncludingEncapsulated: [BodyPart] {
        var result: [BodyPart] = []
        func visit(_ part: BodyPart) {
            result.append(part)
            if let inner = part.encapsulatedMessage { visit(inner.root) }
            for child in part.children { visit(child) }
        }
        visit(root)
        return result
    }

    private func addresses(_ name: String) -> [MailAddress] {
        header.fields.filter { ASCII.equalsIgnoringCase($0.name, name) }
            .flatMap { AddressParser.parse($0.rawValue) }
    }

    /// Parses the mailboxes of any address field (`From`, `Resent-To`, `Delivered-To`…).
    /// - Parameter name: the field name, compared case-insensitively.
    /// - Returns: the mailboxes of every field of that name, in order.
    public func addresses(of name: String) -> [MailAddress] { addresses(name) }

    static func messageIDs(_ raw: [UInt8]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "<") {
                var end = index + 1
                while end < raw.count && raw[end] != UInt8(ascii: ">") && raw[end] != UInt8(ascii: "<") {
                    end += 1
                }
                if end < raw.count && raw[end] == UInt8(ascii: ">") {
                    let inner = raw[(index + 1)..<end].filter { $0 != 0x20 && $0 != 0x09 }
                    if !inner.isEmpty { result.append("<" + String(decoding: inner, as: UTF8.self) + ">") }
                    index = end + 1
                    continue
                }
                index = end
                continue
            }
            index += 1
        }
        return result
    }

    private static func preferred(_ part: BodyPart, subtype: String) -> BodyPart? {
        if part.contentType.type == "multipart" {
            if part.contentType.subtype == "alternative" {
                for child in part.children.reversed() {
                    if let found = preferred(child, subtype: subtype) { return found }
                }
                return nil
            }
            for child in part.children {
                if let found = preferred(child, subtype: subtype) { return found }
            }
            return nil
        }
        if part.contentType.type == "text" && part.contentType.subtype == subtype
            && part.disposition != "attachment" && part.text != nil
        {
            return part
        }
        return nil
    }
}

extension Header {
    /// The first field of that name, its value unfolded and RFC 2047-decoded.
    public subscript(name: String) -> String? {
        rawValue(name).map { EncodedWords.decode($0) }
    }

    /// All fields of that name, decoded.
    public func values(_ name: String) -> [String] {
        fields.filter { ASCII.equalsIgnoringCase($0.name, name) }.map {
            EncodedWords.decode($0.rawValue)
        }
    }
}

extension BodyPart {
    /// The body with its transfer encoding undone (RFC 2045 §6).
    /// - Returns: the decoded bytes (for text parts, before charset conversion).
    public func decodedBytes() -> [UInt8] { TransferCoding.decode(rawBody, encoding: transferEncoding) }
}
