import Foundation
import MIME

/// An inline-forwarded original found in rendered text.
public struct InlineForward: Sendable, Hashable {
    /// Which client's layout it matched.
    public var style: ForwardStyle
    /// The original sender, from the quoted `From:` (or translated) line, when it holds an
    /// addr-spec.
    public var from: MailAddress?
    /// The original sender's display name when the `From:` line holds no addr-spec, only a
    /// name ("From: Northwind Outfitters", as Outlook writes a sender known to it); `nil` when
    /// ``from`` is known. Read only from an Outlook header block that has its `Sent:` (or a
    /// `Date:` with a time of day), `To:` and `Subject:` lines (in any of the detector's
    /// languages).
    public var fromName: String?
    /// The quoted recipients.
    public var to: [MailAddress]
    /// The quoted date line as written.
    public var dateText: String?
    /// The quoted date, when it is in a format the detector knows. A date written without a
    /// zone (Gmail's "Mon, Nov 23, 2026 at 10:15 AM") is read as UTC here; see
    /// ``dateHasZone``.
    public var date: Date?
    /// Whether the quoted date names its zone ("+0100", "PST"). Without one, the forwarding
    /// client wrote the time in its own zone, which the document builder takes from the
    /// forwarding message's Date field.
    public var dateHasZone = false
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
/// French, Spanish, Italian, Portuguese, Dutch, Japanese, Korean and Chinese (and Outlook's
/// header block in Polish, Russian, Turkish and Greek too), quoted with `> ` or not.
///
/// - Gmail: `---------- Forwarded message ---------` then `From:`, `Date:`, `Subject:`, `To:`.
/// - Outlook: `-----Original Message-----`, or a header block `From:` … `Sent:` … `Subject:`
///   with no marker (usually after a line of underscores).
/// - Apple Mail: `Begin forwarded message:` then `From:`, `Subject:`, `Date:`, `To:`.
/// - A bare block (Apple Mail's and Outlook for Mac's quote): `From:`, `Date:` with a time of
///   day, `To:`, `Subject:`, with no marker line.
public enum ForwardDetector {
    enum Field: Hashable { case from, date, sent, subject, to, cc }

    static let gmailMarkers = [
        "forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado",
        "転送されたメッセージ", "전달된 메시지", "forwarded message", "mensagem encaminhada", "messaggio inoltrato",
    ]
    static let outlookMarkers = [
        "original message", "ursprüngliche nachricht", "originalnachricht", "message d'origine",
        "message d’origine", "mensaje original", "元のメッセージ", "원본 메시지", "messaggio originale",
        "mensagem original", "原始邮件", "原始郵件",
    ]
    static let appleMarkers = [
        "begin forwarded message", "anfang der weitergeleiteten e-mail",
        "anfang der weitergeleiteten nachricht",
        "début du message réexpédié", "début du message transféré", "inicio del mensaje reenviado",
        "転送されたメッセージ", "전달된 메시지", "以下転送メッセージ",
    ]
    static let labels: [String: Field] = [
        "from": .from, "von": .from, "de": .from, "差出人": .from, "送信者": .from, "보낸 사람": .from,
        "보낸사람": .from, "da": .from, "van": .from, "发件人": .from, "寄件者": .from, "寄件人": .from,
        "date": .date, "datum": .date, "fecha": .date, "日付": .date, "날짜": .date, "data": .date,
        "sent": .sent, "gesendet": .sent, "envoyé": .sent, "enviado": .sent, "enviado el": .sent,
        "送信日時": .sent, "보낸 날짜": .sent, "verzonden": .sent, "inviato": .sent, "enviada em": .sent,
        "enviado em": .sent, "发送时间": .sent, "發送時間": .sent, "寄件日期": .sent, "日期": .date,
        "subject": .subject, "betreff": .subject, "objet": .subject, "asunto": .subject, "件名": .subject,
        "제목": .subject, "oggetto": .subject, "onderwerp": .subject, "sujet": .subject, "assunto": .subject,
        "主题": .subject, "主旨": .subject,
        "to": .to, "an": .to, "à": .to, "a": .to, "para": .to, "宛先": .to, "받는 사람": .to, "받는사람": .to,
        "aan": .to, "收件人": .to, "收件者": .to,
        "cc": .cc, "kopie": .cc, "참조": .cc, "抄送": .cc, "副本": .cc,
        // Outlook in Polish, Russian, Turkish and Greek.
        "od": .from, "от": .from, "kimden": .from, "από": .from,
        "wysłane": .sent, "отправлено": .sent, "gönderildi": .sent, "στάλθηκε": .sent,
        "do": .to, "кому": .to, "kime": .to, "προς": .to,
        "temat": .subject, "тема": .subject, "konu": .subject, "θέμα": .subject,
        "dw": .cc, "копия": .cc, "bilgi": .cc, "κοιν": .cc,
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
    /// - Parameters:
    ///   - text: Rendered plain or HTML text (lines separated by `\n`).
    ///   - isPlainText: Whether `text` is a text/plain rendition, whose client may have wrapped
    ///     a long "Subject:" line onto the next one. An HTML rendition has no such wraps: its
    ///     subject is one line, whatever follows it.
    /// - Returns: The original's quoted header fields and body, or `nil` when the text
    ///   forwards nothing recognisable.
    public static func detect(in text: String, isPlainText: Bool = true) -> InlineForward? {
        guard mayForward(text) else { return nil }
        return detectInAllLines(text, isPlainText: isPlainText)
    }

    /// ``detect(in:isPlainText:)`` without the ``mayForward(_:)`` scan: every line is examined.
    static func detectInAllLines(_ text: String, isPlainText: Bool = true) -> InlineForward? {
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
            if let style,
                let forward = readHeaderBlock(
                    lines, from: headerStart, style: style, marker: line, wrapsSubject: isPlainText)
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
            lines.append(strippedLine(raw, offset: offset))
            offset += raw.utf8.count + 1
        }
        return lines
    }

    /// One line without its quote markers and surrounding blanks.
    private static func strippedLine(_ raw: Substring, offset: Int) -> Line {
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
        return Line(text: leading, offset: offset + skipped + lead, quoteDepth: depth)
    }

    private static func isDashMarker(_ lower: String, names: [String]) -> Bool {
        guard lower.hasPrefix("--") || lower.hasPrefix("—") else { return false }
        // Trimmed by hand: a CharacterSet is not to be used from several threads at once.
        let isDash: (Character) -> Bool = { "-—– \t".contains($0) }
        let core = lower.drop(while: isDash).reversed().drop(while: isDash).reversed()
        return names.contains(String(core))
    }

    private static func isAppleMarker(_ lower: String) -> Bool {
        var core = lower.trimmingSpaces()
        while let last = core.last, last == ":" || last == "：" || last == " " { core.removeLast() }
        return appleMarkers.contains(core)
    }

    /// The most characters a header block's label (``labels``) is read with.
    static let longestLabel = 16

    /// The header field a line starts with (`From: x`, `De : x`, `差出人： x`), and its value.
    static func field(of line: Substring) -> (Field, Substring)? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\u{A0}" || $0 == "\u{3000}" }
        // A label has at most 16 characters: the colon is looked for only among the first
        // characters after the indentation, not along a whole long line.
        let start = line.drop(while: isSpace)
        guard let colon = start.prefix(Self.longestLabel + 16).firstIndex(where: { $0 == ":" || $0 == "：" })
        else { return nil }
        var end = colon
        while end > start.startIndex, isSpace(line[line.index(before: end)]) { end = line.index(before: end) }
        let label = String(line[start.startIndex..<end])
            .lowercased()
        guard label.count <= Self.longestLabel, let field = labels[label] else { return nil }
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

    private static func readHeaderBlock(
        _ lines: [Line], from start: Int, style: ForwardStyle, marker: Line, wrapsSubject: Bool
    )
        -> InlineForward?
    {
        var index = start
        // Blank lines between the marker and the header block.
        while index < lines.count, index < start + 3, lines[index].text.isEmpty { index += 1 }
        var from: MailAddress?
        var fromName: String?
        var to: [MailAddress] = []
        var dateText: String?
        var subject: String?
        var seen = 0
        var fields = Set<Field>()
        var lastField: Field?
        // The previous line's length in characters, and the subject's lines so far: in text/plain
        // a subject is wrapped onto a next line only when its line is long (a client wraps near
        // 76 characters), and onto two at most; a shorter one is whole, and so is every subject
        // of an HTML rendition, which has no wraps: the forwarded message's text that follows
        // it without a blank line (Outlook's HTML) is not the subject's.
        var previousLength = 0
        var subjectLines = 0
        while index < lines.count {
            let line = lines[index]
            if line.text.isEmpty { break }
            defer { previousLength = line.text.count }
            if let (field, value) = field(of: line.text) {
                seen += 1
                lastField = field
                fields.insert(field)
                let text = String(value)
                switch field {
                case .from:
                    if from == nil, fromName == nil {
                        from = parseAddress(text)
                        if from == nil { fromName = displayName(text) }
                    }
                case .date, .sent: if dateText == nil { dateText = text }
                case .subject:
                    if subject == nil {
                        subject = text
                        subjectLines = 1
                    }
                case .to: to = parseAddressList(text)
                case .cc: break
                }
            } else if lastField == .to || lastField == .cc {
                // A wrapped recipient list.
                if lastField == .to { to += parseAddressList(String(line.text)) }
            } else if wrapsSubject, lastField == .subject, seen >= 3, let current = subject,
                previousLength >= 70,
                subjectLines < 3
            {
                subject = current + " " + line.text
                subjectLines += 1
            } else {
                break
            }
            index += 1
            if seen > 12 { break }
        }
        // A sender without an address counts in Outlook's own block only: "From: Shop",
        // "Sent: …" (or a "Date: …" with a time of day, Outlook for Mac), "To: …", "Subject: …"
        // (a gift message's "From: Sam" / "Date: 17 November 2026" does not).
        if from != nil {
            fromName = nil
        } else if fromName == nil || !fields.isSuperset(of: [.to, .subject])
            || !(fields.contains(.sent) || (dateText.map(holdsTimeOfDay) ?? false))
        {
            return nil
        }
        guard seen >= 2 else { return nil }
        // A bare block (no marker line, no "Sent:") is Apple Mail's or Outlook for Mac's when it
        // has its "To:" line and a date with a time of day ("Date: Sunday, 29 November 2026 at
        // 10:00"); a gift message's "From: Sam" / "Date: 17 November 2026" / "Subject: Happy
        // birthday" in a shop's email is not one.
        if style == .headerBlock, !fields.contains(.to) || !(dateText.map(holdsTimeOfDay) ?? false) {
            return nil
        }
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
        let parsed = dateText.flatMap(parseDate)
        var forward = InlineForward(
            style: style, from: from, fromName: fromName, to: to, dateText: dateText,
            date: parsed?.date,
            subject: subject,
            markerOffset: marker.offset, body: String(decoding: body, as: UTF8.self), lineMap: map)
        forward.dateHasZone = parsed?.hasZone ?? false
        return forward
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

    /// Whether a date as written holds a time of day: one or two digits, a colon, two digits.
    static func holdsTimeOfDay(_ text: String) -> Bool {
        let digits = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool {
            index >= 0 && index < digits.count && digits[index] >= 0x30 && digits[index] <= 0x39
        }
        return digits.indices.contains { index in
            digits[index] == UInt8(ascii: ":") && isDigit(index - 1) && isDigit(index + 1)
                && isDigit(index + 2)
        }
    }

    /// A `From:` value without an addr-spec read as a display name: at most 100 characters,
    /// with a letter, quotes around it removed; `nil` otherwise.
    private static func displayName(_ text: String) -> String? {
        let name = text.trimmingSpaces().trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        guard !name.isEmpty, name.count <= 100, !name.contains("@"), name.contains(where: \.isLetter) else {
            return nil
        }
        return name
    }

    private static func parseAddressList(_ text: String) -> [MailAddress] {
        text.split(whereSeparator: { $0 == ";" || $0 == "," }).compactMap { parseAddress(String($0)) }
    }

    /// Dates as Gmail, Outlook and Apple Mail write them in English, and RFC 5322 dates.
    /// - Returns: the date, read as UTC when the text names no zone, and whether it named one.
    static func parseDate(_ text: String) -> (date: Date, hasZone: Bool)? {
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
        let text = cleaned.trimmingSpaces()
        if let date = ForwardDateParser.shared.parse(text, formats: formats) { return date }
        for (locale, formats) in localizedDateFormats {
            if let date = ForwardDateParser.shared.parse(text, formats: formats, locale: locale) {
                return date
            }
        }
        return nil
    }

    /// Dates as Gmail, Outlook and Apple Mail write them in a forwarded header block in the
    /// detector's other languages ("Gesendet: Sonntag, 29. November 2026 18:12", "Date : dim.
    /// 29 nov. 2026 à 18:12", "日付: 2026年11月29日(日) 18:12"), by ICU locale. None names a zone.
    static let localizedDateFormats: [(locale: String, formats: [String])] = [
        (
            "de_DE",
            [
                "EEEE, d. MMMM yyyy HH:mm", "EEE, d. MMM yyyy 'um' HH:mm 'Uhr'", "d. MMMM yyyy 'um' HH:mm",
                "EEEE, d. MMMM yyyy 'um' HH:mm",
            ]
        ),
        (
            "fr_FR",
            [
                "EEEE d MMMM yyyy HH:mm", "EEE d MMM yyyy 'à' HH:mm", "d MMMM yyyy 'à' HH:mm",
                "EEEE d MMMM yyyy 'à' HH:mm",
            ]
        ),
        (
            "es_ES",
            [
                "EEEE, d 'de' MMMM 'de' yyyy H:mm", "EEE, d MMM yyyy, H:mm", "d 'de' MMMM 'de' yyyy, H:mm",
                "EEE, d MMM yyyy 'a las' H:mm", "EEE, d MMM yyyy H:mm", "EEE'.', d MMM'.' yyyy H:mm",
            ]
        ),
        (
            "it_IT",
            ["EEEE d MMMM yyyy HH:mm", "EEE d MMM yyyy 'alle ore' HH:mm", "d MMMM yyyy 'alle ore' HH:mm"]
        ),
        (
            "pt_BR",
            [
                "EEEE, d 'de' MMMM 'de' yyyy HH:mm", "EEE, d 'de' MMM 'de' yyyy 'às' HH:mm",
                "d 'de' MMMM 'de' yyyy 'às' HH:mm",
            ]
        ),
        ("nl_NL", ["EEEE d MMMM yyyy HH:mm", "EEE d MMM yyyy 'om' HH:mm", "d MMMM yyyy 'om' HH:mm"]),
        ("ja_JP", ["yyyy年M月d日(E) H:mm", "yyyy年M月d日 H:mm", "yyyy/MM/dd H:mm"]),
        ("ko_KR", ["yyyy년 M월 d일 (E) a h:mm", "yyyy년 M월 d일 (E) H:mm", "yyyy년 M월 d일 H:mm"]),
        ("zh_CN", ["yyyy年M月d日周E H:mm", "yyyy年M月d日 H:mm", "yyyy年M月d日星期E H:mm"]),
    ]
}

/// One `DateFormatter` per forward date format, configured once: creating and configuring
/// a formatter costs far more than a parse. A lock keeps one thread at a time in them.
private final class ForwardDateParser: @unchecked Sendable {
    static let shared = ForwardDateParser()

    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    /// The date in `text` read with the first of `formats` that accepts it (in `locale`, UTC
    /// unless the format reads a zone), and whether that format reads a zone (`Z`, `z`).
    func parse(_ text: String, formats: [String], locale: String = "en_US_POSIX") -> (
        date: Date, hasZone: Bool
    )? {
        lock.lock()
        defer { lock.unlock() }
        for format in formats {
            let key = locale + " " + format
            let formatter: DateFormatter
            if let existing = formatters[key] {
                formatter = existing
            } else {
                formatter = DateFormatter()
                formatter.locale = Locale(identifier: locale)
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = format
                formatters[key] = formatter
            }
            if let date = formatter.date(from: text) {
                return (date, format.contains("Z") || format.contains("z"))
            }
        }
        return nil
    }
}

// MARK: - Scan for forward markers

extension ForwardDetector {
    /// Whether some line of `text` could start a forward: a dash marker, an Apple Mail
    /// marker or a `From:` line in one of the detector's languages.
    ///
    /// A necessary condition for ``detect(in:isPlainText:)`` finding anything, checked on UTF-8 bytes
    /// without building strings: lines of ASCII are compared byte by byte (ASCII case
    /// folding, the same trimming) with the ASCII markers and labels of the tables above;
    /// lines with other characters get the detector's own per-line tests. Text with CR LF
    /// pairs (which the detector does not split) is always examined in full.
    static func mayForward(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { mayForward($0) }
    }

    private static let asciiDashNames: [[UInt8]] = (gmailMarkers + outlookMarkers).filter(isASCII).map {
        Array($0.utf8)
    }
    private static let asciiAppleMarkers: [[UInt8]] = appleMarkers.filter(isASCII).map { Array($0.utf8) }
    private static let asciiFromLabels: [[UInt8]] = labels.filter { $0.value == .from && isASCII($0.key) }
        .map { Array($0.key.utf8) }
    /// The bytes of the ASCII `From` labels in either case, and blanks.
    private static let asciiFromLabelBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in asciiFromLabels.joined() + [0x20, 0x09] {
            table[Int(byte)] = true
            if byte >= 0x61 && byte <= 0x7A { table[Int(byte - 0x20)] = true }
        }
        return table
    }()

    private static func isASCII(_ string: String) -> Bool { string.utf8.allSatisfy { $0 < 0x80 } }

    private static func mayForward(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        var start = 0
        while start < count {
            var end = count
            if let hit = memchr(base + start, 0x0A, count - start) {
                end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                // A CR LF pair: the detector's lines (split on `\n` characters) differ from these.
                if end > start, bytes[end - 1] == 0x0D { return true }
            }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            var high: UInt8 = 0
            for byte in line { high |= byte }
            if high < 0x80 ? asciiLineMayStartForward(line) : nonASCIILineMayStartForward(line) {
                return true
            }
            start = end + 1
        }
        return false
    }

    /// Longest Apple Mail marker and `From` label, in UTF-8 bytes.
    private static let longestAppleMarker = appleMarkers.map(\.utf8.count).max() ?? 0
    private static let longestFromLabel = labels.filter { $0.value == .from }.map(\.key.utf8.count).max() ?? 0
    /// The first and last letters of the Apple Mail markers and `From` labels.
    private static let appleMarkerEnds = Set(appleMarkers.compactMap(Ends.init(of:)))
    private static let fromLabelEnds = Set(
        labels.filter { $0.value == .from }.map(\.key).compactMap(Ends.init(of:)))

    /// The first and last letters of a string, compared without case and without accents
    /// or other marks: the first and last scalars of its lower-cased canonical decomposition
    /// that are not marks. Strings equal after lower-casing (as Swift compares strings:
    /// canonical equivalence) have the same ends.
    struct Ends: Hashable {
        var first: Unicode.Scalar
        var last: Unicode.Scalar

        init?(of string: String) {
            let letters = Ends.decomposed(string)
            guard let first = letters.first, let last = letters.last else { return nil }
            self.first = first
            self.last = last
        }

        init(first: Unicode.Scalar, last: Unicode.Scalar) {
            self.first = Ends.decomposed(first).first ?? first
            self.last = Ends.decomposed(last).last ?? last
        }

        private static func decomposed(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
            if scalar.value < 0x80 {
                let value = scalar.value
                return [value >= 0x41 && value <= 0x5A ? Unicode.Scalar(value + 0x20) ?? scalar : scalar]
            }
            return decomposed(String(scalar))
        }

        private static func decomposed(_ string: String) -> [Unicode.Scalar] {
            string.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                switch $0.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: false
                default: true
                }
            }
        }
    }

    /// A line with characters beyond ASCII: the detector's own tests, run only when the
    /// line's shape allows a match: it starts with a dash, or it (or the label before its
    /// first colon) is short enough and begins and ends with the letters of an Apple Mail
    /// marker (of a `From` label).
    ///
    /// Lengths are bounded generously: a marker's characters may be written upper-case or
    /// decomposed (at most three times its UTF-8 length, e.g. Hangul as conjoining jamo),
    /// and blanks, punctuation and marks around it are not counted.
    private static func nonASCIILineMayStartForward(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = 0
        while first < line.count,
            line[first] == UInt8(ascii: ">") || line[first] == 0x20 || line[first] == 0x09
        {
            first += 1
        }
        guard first < line.count else { return false }
        var mayMatch =
            line[first] == UInt8(ascii: "-")
            || (first + 2 < line.count && line[first] == 0xE2 && line[first + 1] == 0x80
                && line[first + 2] == 0x94)
        if !mayMatch {
            mayMatch = coreMayBe(line, first, line.count, longest: longestAppleMarker, ends: appleMarkerEnds)
        }
        if !mayMatch {
            var colon = first
            while colon < line.count {
                let byte = line[colon]
                if byte == UInt8(ascii: ":") { break }
                if byte == 0xEF, colon + 2 < line.count, line[colon + 1] == 0xBC, line[colon + 2] == 0x9A {
                    break
                }
                colon += 1
            }
            mayMatch =
                colon < line.count
                && coreMayBe(line, first, colon, longest: longestFromLabel, ends: fromLabelEnds)
        }
        return mayMatch && lineMayStartForward(line)
    }

    /// Whether `line[start..<end]`, without the scalars around it that are not letters
    /// (blanks, colons, quote marks, punctuation, and anything that joins the character
    /// before it: combining marks, joiners, emoji modifiers), could be one of the strings
    /// `ends` were taken from, the longest of them `longest` UTF-8 bytes. Never trims more
    /// than the detector's own trimming leaves.
    private static func coreMayBe(
        _ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, longest: Int, ends: Set<Ends>
    ) -> Bool {
        var lower = start
        var upper = end
        var firstScalar: Unicode.Scalar?
        while lower < upper {
            let (scalar, length) = scalarAt(line, lower)
            guard isAroundCore(scalar) else {
                firstScalar = scalar
                break
            }
            lower += length
        }
        guard let firstScalar else { return false }
        var lastScalar = firstScalar
        while upper > lower {
            var lead = upper - 1
            while lead > lower, line[lead] & 0xC0 == 0x80 { lead -= 1 }
            let (scalar, _) = scalarAt(line, lead)
            guard isAroundCore(scalar) else {
                lastScalar = scalar
                break
            }
            upper = lead
        }
        guard upper - lower <= 3 * longest else { return false }
        return ends.contains(Ends(first: firstScalar, last: lastScalar))
    }

    private static func isAroundCore(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            let folded = value | 0x20
            return !(folded >= 0x61 && folded <= 0x7A)
        }
        // U+0E33 and U+0EB3 are letters that join the character before them.
        if value == 0x0E33 || value == 0x0EB3 { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return properties.isGraphemeExtend
        default:
            return true
        }
    }

    /// The scalar starting at `index` of valid UTF-8, and its length in bytes.
    private static func scalarAt(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(line[index])
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= line.count else { return (" ", 1) }
        var value = length == 1 ? lead : lead & (0xFF >> UInt32(length + 1))
        for offset in 1..<length {
            value = value << 6 | UInt32(line[index + offset] & 0x3F)
        }
        return (Unicode.Scalar(value) ?? " ", length)
    }

    /// The detector's own tests of one line (markers and a `From:` field), without looking
    /// at the lines around it.
    private static func lineMayStartForward(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = String(decoding: bytes, as: UTF8.self)
        let line = strippedLine(raw[...], offset: 0)
        let lower = line.text.lowercased()
        if isDashMarker(lower, names: gmailMarkers) || isDashMarker(lower, names: outlookMarkers)
            || isAppleMarker(lower)
        {
            return true
        }
        if case .some(.from) = field(of: line.text)?.0 { return true }
        return false
    }

    /// The same tests for a line of ASCII, on its bytes.
    private static func asciiLineMayStartForward(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var end = line.count
        while start < end, line[start] == UInt8(ascii: ">") || line[start] == 0x20 || line[start] == 0x09 {
            start += 1
        }
        while end > start, isASCIIWhitespace(line[end - 1]) { end -= 1 }
        guard start < end else { return false }
        // `--- Forwarded message ---`: the core between the dashes and blanks.
        if line[start] == UInt8(ascii: "-") {
            var coreStart = start
            var coreEnd = end
            while coreStart < coreEnd, isDashOrBlank(line[coreStart]) { coreStart += 1 }
            while coreEnd > coreStart, isDashOrBlank(line[coreEnd - 1]) { coreEnd -= 1 }
            if matchesFolded(line, coreStart, coreEnd, asciiDashNames) { return true }
        }
        // `Begin forwarded message:`.
        var appleEnd = end
        while appleEnd > start, line[appleEnd - 1] == UInt8(ascii: ":") || line[appleEnd - 1] == 0x20 {
            appleEnd -= 1
        }
        if matchesFolded(line, start, appleEnd, asciiAppleMarkers) { return true }
        // `From: …`: the label before the first colon (bytes other than those of the
        // labels and blanks before a colon rule the line out).
        var colon = start
        while colon < end, asciiFromLabelBytes[Int(line[colon])] { colon += 1 }
        guard colon < end, line[colon] == UInt8(ascii: ":") else { return false }
        var labelStart = start
        var labelEnd = colon
        while labelStart < labelEnd, line[labelStart] == 0x20 || line[labelStart] == 0x09 { labelStart += 1 }
        while labelEnd > labelStart, line[labelEnd - 1] == 0x20 || line[labelEnd - 1] == 0x09 {
            labelEnd -= 1
        }
        return matchesFolded(line, labelStart, labelEnd, asciiFromLabels)
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isDashOrBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == 0x20 || byte == 0x09
    }

    /// Whether `line[start..<end]`, ASCII letters folded to lower case, is one of `names`.
    private static func matchesFolded(
        _ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ names: [[UInt8]]
    ) -> Bool {
        let length = end - start
        guard length > 0 else { return false }
        search: for name in names where name.count == length {
            for offset in 0..<length {
                var byte = line[start + offset]
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if byte != name[offset] { continue search }
            }
            return true
        }
        return false
    }
}
