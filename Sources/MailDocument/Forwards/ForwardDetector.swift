import Foundation
import MIME

/// An inline-forwarded original found in rendered text.
public struct InlineForward: Sendable, Hashable {
    /// Which client's layout it matched.
    public var style: ForwardStyle
    /// The original sender, from the quoted `From:` (or translated) line.
    public var from: MailAddress?
    /// The quoted recipients.
    public var to: [MailAddress]
    /// The quoted date line as written.
    public var dateText: String?
    /// The quoted date, when it is in a format the detector knows.
    public var date: Date?
    /// The quoted subject.
    public var subject: String?
    /// UTF-8 offset in the scanned text where the forward marker (or header block) starts.
    public var markerOffset: Int
    /// The original's body: the lines after the quoted header block, quoting removed.
    public var body: String
    /// For each line of ``body``: its UTF-8 offset in ``body`` and the offset in the scanned
    /// text where the same characters are.
    public var lineMap: [LineMapping]

    /// Where one body line came from.
    public struct LineMapping: Sendable, Hashable {
        public var bodyOffset: Int
        public var sourceOffset: Int
        public var length: Int
    }
}

/// Recognises forwarded originals written inline by mail clients, in English, German,
/// French, Spanish, Japanese and Korean, quoted with `> ` or not.
///
/// - Gmail: `---------- Forwarded message ---------` then `From:`, `Date:`, `Subject:`, `To:`.
/// - Outlook: `-----Original Message-----`, or a header block `From:` … `Sent:` … `Subject:`
///   with no marker (usually after a line of underscores).
/// - Apple Mail: `Begin forwarded message:` then `From:`, `Subject:`, `Date:`, `To:`.
public enum ForwardDetector {
    enum Field { case from, date, sent, subject, to, cc }

    static let gmailMarkers = [
        "forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado",
        "転送されたメッセージ", "전달된 메시지", "forwarded message", "mensagem encaminhada", "messaggio inoltrato",
    ]
    static let outlookMarkers = [
        "original message", "ursprüngliche nachricht", "originalnachricht", "message d'origine",
        "message d’origine", "mensaje original", "元のメッセージ", "원본 메시지", "messaggio originale",
    ]
    static let appleMarkers = [
        "begin forwarded message", "anfang der weitergeleiteten e-mail",
        "anfang der weitergeleiteten nachricht",
        "début du message réexpédié", "début du message transféré", "inicio del mensaje reenviado",
        "転送されたメッセージ", "전달된 메시지", "以下転送メッセージ",
    ]
    static let labels: [String: Field] = [
        "from": .from, "von": .from, "de": .from, "差出人": .from, "送信者": .from, "보낸 사람": .from,
        "보낸사람": .from, "da": .from, "van": .from,
        "date": .date, "datum": .date, "fecha": .date, "日付": .date, "날짜": .date, "data": .date,
        "sent": .sent, "gesendet": .sent, "envoyé": .sent, "enviado": .sent, "enviado el": .sent,
        "送信日時": .sent, "보낸 날짜": .sent, "verzonden": .sent, "inviato": .sent,
        "subject": .subject, "betreff": .subject, "objet": .subject, "asunto": .subject, "件名": .subject,
        "제목": .subject, "oggetto": .subject, "onderwerp": .subject, "sujet": .subject,
        "to": .to, "an": .to, "à": .to, "a": .to, "para": .to, "宛先": .to, "받는 사람": .to, "받는사람": .to,
        "aan": .to,
        "cc": .cc, "kopie": .cc, "참조": .cc,
    ]

    private struct Line {
        var text: Substring
        /// UTF-8 offset of `text` in the scanned string.
        var offset: Int
        /// Number of `>` quote levels removed.
        var quoteDepth: Int
    }

    /// Finds the first inline-forwarded original in a rendered text.
    ///
    /// - Parameter text: Rendered plain or HTML text (lines separated by `\n`).
    /// - Returns: The original's quoted header fields and body, or `nil` when the text
    ///   forwards nothing recognisable.
    public static func detect(in text: String) -> InlineForward? {
        let lines = splitLines(text)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let lower = line.text.lowercased()
            var style: ForwardStyle?
            var headerStart = index + 1
            if isDashMarker(lower, names: gmailMarkers) {
                style = .gmail
            } else if isDashMarker(lower, names: outlookMarkers) {
                style = .outlook
            } else if isAppleMarker(lower) {
                style = .appleMail
            } else if case .some(.from) = field(of: line.text)?.0, hasSentOrDateNearby(lines, after: index) {
                style = lines[max(index - 1, 0)].text.hasPrefix("____") ? .outlook : .headerBlock
                if hasSentNearby(lines, after: index) { style = .outlook }
                headerStart = index
            }
            if let style, let forward = readHeaderBlock(lines, from: headerStart, style: style, marker: line)
            {
                return forward
            }
            index += 1
        }
        return nil
    }

    private static func splitLines(_ text: String) -> [Line] {
        var lines: [Line] = []
        var offset = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var content = raw
            var depth = 0
            var skipped = 0
            while let first = content.first, first == ">" || (first == " " && depth > 0) || first == "\t" {
                if first == ">" { depth += 1 }
                content = content.dropFirst()
                skipped += 1
            }
            var trailing = content
            while let last = trailing.last, last == " " || last == "\t" || last == "\r" {
                trailing = trailing.dropLast()
            }
            var leading = trailing
            var lead = 0
            while let first = leading.first, first == " " || first == "\t" {
                leading = leading.dropFirst()
                lead += 1
            }
            lines.append(Line(text: leading, offset: offset + skipped + lead, quoteDepth: depth))
            offset += raw.utf8.count + 1
        }
        return lines
    }

    private static func isDashMarker(_ lower: String, names: [String]) -> Bool {
        guard lower.hasPrefix("--") || lower.hasPrefix("—") else { return false }
        let core = lower.trimmingCharacters(in: CharacterSet(charactersIn: "-—– \t"))
        return names.contains(core)
    }

    private static func isAppleMarker(_ lower: String) -> Bool {
        var core = lower.trimmingSpaces()
        while let last = core.last, last == ":" || last == "：" || last == " " { core.removeLast() }
        return appleMarkers.contains(core)
    }

    /// The header field a line starts with (`From: x`, `De : x`, `差出人： x`), and its value.
    private static func field(of line: Substring) -> (Field, Substring)? {
        guard let colon = line.firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        let label = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        guard label.count <= 16, let field = labels[label] else { return nil }
        let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
        return (field, value)
    }

    private static func hasSentOrDateNearby(_ lines: [Line], after index: Int) -> Bool {
        var found = Set<String>()
        for next in (index + 1)..<min(lines.count, index + 6) {
            guard let (field, _) = field(of: lines[next].text) else { break }
            switch field {
            case .sent, .date: found.insert("date")
            case .subject: found.insert("subject")
            default: break
            }
        }
        return found.count == 2
    }

    private static func hasSentNearby(_ lines: [Line], after index: Int) -> Bool {
        for next in (index + 1)..<min(lines.count, index + 6) {
            guard let (field, _) = field(of: lines[next].text) else { return false }
            if field == .sent { return true }
        }
        return false
    }

    private static func readHeaderBlock(_ lines: [Line], from start: Int, style: ForwardStyle, marker: Line)
        -> InlineForward?
    {
        var index = start
        // Blank lines between the marker and the header block.
        while index < lines.count, index < start + 3, lines[index].text.isEmpty { index += 1 }
        var from: MailAddress?
        var to: [MailAddress] = []
        var dateText: String?
        var subject: String?
        var seen = 0
        var lastField: Field?
        while index < lines.count {
            let line = lines[index]
            if line.text.isEmpty { break }
            if let (field, value) = field(of: line.text) {
                seen += 1
                lastField = field
                let text = String(value)
                switch field {
                case .from: if from == nil { from = parseAddress(text) }
                case .date, .sent: if dateText == nil { dateText = text }
                case .subject: if subject == nil { subject = text }
                case .to: to = parseAddressList(text)
                case .cc: break
                }
            } else if lastField == .to || lastField == .cc {
                // A wrapped recipient list.
                if lastField == .to { to += parseAddressList(String(line.text)) }
            } else if lastField == .subject, seen >= 3, let current = subject {
                subject = current + " " + line.text
            } else {
                break
            }
            index += 1
            if seen > 12 { break }
        }
        guard from != nil, seen >= 2 else { return nil }
        // Body: the rest, quote markers of the marker's depth removed.
        var body: [UInt8] = []
        var map: [InlineForward.LineMapping] = []
        while index < lines.count, lines[index].text.isEmpty { index += 1 }
        var first = true
        while index < lines.count {
            let line = lines[index]
            if !first { body.append(0x0A) }
            first = false
            map.append(
                InlineForward.LineMapping(
                    bodyOffset: body.count, sourceOffset: line.offset, length: line.text.utf8.count))
            body.append(contentsOf: line.text.utf8)
            index += 1
        }
        while let last = body.last, last == 0x0A { body.removeLast() }
        return InlineForward(
            style: style, from: from, to: to, dateText: dateText, date: dateText.flatMap(parseDate),
            subject: subject,
            markerOffset: marker.offset, body: String(decoding: body, as: UTF8.self), lineMap: map)
    }

    /// Reads `Name <addr>`, `"Name" <addr>`, `Name [mailto:addr]`, `Name addr` or `addr`.
    static func parseAddress(_ text: String) -> MailAddress? {
        let trimmed = text.trimmingSpaces()
        var address: String?
        var name = trimmed
        if let open = trimmed.lastIndex(of: "<"), let close = trimmed[open...].firstIndex(of: ">") {
            address = String(trimmed[trimmed.index(after: open)..<close])
            name = String(trimmed[..<open])
        } else if let open = trimmed.range(of: "[mailto:"),
            let close = trimmed[open.upperBound...].firstIndex(of: "]")
        {
            address = String(trimmed[open.upperBound..<close])
            name = String(trimmed[..<open.lowerBound])
        } else if let token = trimmed.split(separator: " ").last(where: { $0.contains("@") }) {
            address = String(token)
            name = trimmed.replacingOccurrences(of: String(token), with: "")
        }
        guard var address = address?.trimmingSpaces(), address.contains("@") else { return nil }
        if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: "\"' \t"))
        return MailAddress(name: name.isEmpty ? nil : name, address: address)
    }

    private static func parseAddressList(_ text: String) -> [MailAddress] {
        text.split(whereSeparator: { $0 == ";" || $0 == "," }).compactMap { parseAddress(String($0)) }
    }

    /// Dates as Gmail, Outlook and Apple Mail write them in English, and RFC 5322 dates.
    static func parseDate(_ text: String) -> Date? {
        let cleaned = text.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(
            of: "\u{00A0}", with: " ")
        let formats = [
            "EEE, d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm Z", "d MMM yyyy HH:mm:ss Z",
            "EEE, MMM d, yyyy 'at' h:mm a", "EEE, MMM d, yyyy h:mm a", "EEEE, MMMM d, yyyy h:mm a",
            "MMMM d, yyyy 'at' h:mm:ss a zzz", "MMMM d, yyyy 'at' h:mm a", "EEEE, MMMM d, yyyy 'at' h:mm a",
            "d MMMM yyyy 'at' HH:mm:ss zzz", "d MMMM yyyy 'at' HH:mm zzz", "d MMMM yyyy 'at' HH:mm",
            "EEEE, d MMMM yyyy HH:mm", "EEE, d MMM yyyy 'at' HH:mm", "EEEE, MMMM d, yyyy h:mm:ss a",
            "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ssZ",
        ]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: cleaned.trimmingSpaces()) { return date }
        }
        return nil
    }
}
