import CSystem
import Foundation
import MIME

/// Splits an mbox stream into messages (RFC 4155): a message starts after each separator
/// line, `From ` + sender + date (§2), e.g. `From MAILER-DAEMON Fri Jul  8 12:08:34 2011`.
///
/// - The first line of the mbox is its first separator, whatever follows `From ` — but a
///   colon after white space: `From  : Shop <shop@example.com>` is a header field in the
///   obsolete syntax (RFC 5322 §4.5), and a file that starts with it is one message.
/// - Further on, a line is a separator only when it has a separator's shape
///   (``separatorShape(_:)``): a sender token and a date with a month, a day, a time of day
///   and a year (asctime `Www Mmm dd hh:mm:ss yyyy`, with or without seconds, padding or a
///   time zone; RFC 5322 dates). A sender with no date (`From - `, Netscape's) counts only
///   in an mbox whose first separator has no date either. `From 10:00 to 12:00` is body text.
/// - A line of that shape splits only when the next line is a header field, or when the line
///   before it is blank (RFC 4155 §2: each message ends with an empty line) and what follows
///   cannot be body text; see ``isSeparator(at:afterBlankLine:)``. Any other `From ` line is
///   read as an unescaped body line: the message stays whole rather than losing its rest.
/// - `Content-Length` framing (mboxcl, mboxcl2) is used when the length lands on a line of a
///   separator's shape or on the end; a length that does not is ignored (a repair noted on
///   the message) and the message is framed by its separators.
/// - `>From ` lines (mboxrd, and mboxo's escaping) lose one `>`.
final class MboxReader {
    static let fromLine = FromLine.prefix
    private static let contentLength = Array("content-length:".utf8)

    private let stream: ChunkedReader
    private let path: String
    private let maxMessageBytes: Int
    /// Whether the input is standard input (see ``finalEndReason(now:)``).
    private let isStandardInput: Bool
    private var position = 0
    private var index = 0
    /// Whether a `From ` line with a sender and no date is a separator: set from the first
    /// separator line, the writer's way.
    private var acceptsUndated = false
    /// How long an mbox file must have been left unchanged before an unterminated last line
    /// is taken for the end of a complete message.
    static let settledAge: TimeInterval = 600

    /// - Parameters:
    ///   - stream: the input, positioned at the first separator.
    ///   - path: the file's path, or `-` for standard input.
    ///   - maxMessageBytes: the largest message read; bigger ones are reported and skipped.
    ///   - isStandardInput: the input is standard input, read once as a stream whatever it is
    ///     (a pipe, a terminal or a redirected file).
    init(stream: ChunkedReader, path: String, maxMessageBytes: Int, isStandardInput: Bool) {
        self.stream = stream
        self.path = path
        self.maxMessageBytes = maxMessageBytes
        self.isStandardInput = isStandardInput
    }

    /// Why a last line without a line end is how the input ends, not a message still being
    /// written, or `nil` when it may be the latter. Asked only for such a line.
    ///
    /// Standard input always qualifies, whether it is a pipe, a socket, a terminal or a
    /// redirected file: it is read once, as a stream, and cannot be read again by the next run.
    /// An mbox file qualifies once nobody has written to it for ``settledAge`` (`stat(2)` of its
    /// path): until then the message is left for the next run.
    private func finalEndReason(now: Date = Date()) -> String? {
        if isStandardInput {
            return "standard input ends without a line end; a stream cannot be read again,"
                + " so read as the end of the message"
        }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let modified = TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9
        guard now.timeIntervalSince1970 - modified >= Self.settledAge else { return nil }
        return "mbox ends without a line end; unchanged for \(Int(Self.settledAge / 60)) minutes or more,"
            + " so read as the end of the message"
    }

    /// The index of the next LF at or after `start`, reading more input as needed.
    private func lineFeed(from start: Int) -> Int? {
        var from = start
        while true {
            let count = stream.buffer.count
            if from < count {
                let found: Int? = stream.buffer.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress,
                        let hit = memchr(base + from, 0x0A, count - from)
                    else { return nil }
                    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if let found { return found }
            }
            if stream.atEnd { return nil }
            from = max(from, count)
            stream.fill(atLeast: count + ChunkedReader.chunkSize)
        }
    }

    /// Whether the line at `offset` starts like a separator: `From `, and not a `From` header
    /// field with white space before its colon (`From  : Shop`, RFC 5322 §4.5;
    /// ``FromLine/startsSeparator(_:)``).
    private func startsWithFrom(at offset: Int) -> Bool {
        stream.startsWithSeparator(at: offset)
    }

    func next() -> Result<RawMessage, SourceProblem>? {
        if position >= ChunkedReader.chunkSize {
            stream.drop(position)
            position = 0
        }
        // Find the next separator line; skip anything before it.
        while !startsWithFrom(at: position) {
            if position >= stream.buffer.count && stream.atEnd { return nil }
            guard let lineEnd = lineFeed(from: position) else {
                position = stream.buffer.count
                return nil
            }
            position = lineEnd + 1
        }
        if index == 0 {
            let firstEnd = lineFeed(from: position) ?? stream.buffer.count
            acceptsUndated = MboxReader.separatorShape(stream.buffer[position..<firstEnd]) != .dated
        }
        index += 1
        guard let separatorEnd = lineFeed(from: position) else {
            let origin = MessageOrigin(
                path: path, byteOffset: stream.bufferOffset + stream.buffer.count, index: index,
                isInMultiMessageFile: true)
            position = stream.buffer.count
            return .failure(
                SourceProblem(origin: origin, reason: "mbox ends after a From line: message missing"))
        }
        let messageStart = separatorEnd + 1
        let origin = MessageOrigin(
            path: path, byteOffset: stream.bufferOffset + messageStart, index: index,
            isInMultiMessageFile: true)
        // A separator right after a separator: no message between them (the next call reads
        // the second one's).
        if startsWithFrom(at: messageStart),
            acceptedShape(stream.buffer[messageStart..<(lineFeed(from: messageStart) ?? stream.buffer.count)])
                != nil
        {
            position = messageStart
            return .failure(
                SourceProblem(
                    origin: origin,
                    reason: "no message after the From line: followed directly by another From line"))
        }

        var repairs: [String] = []
        switch contentLengthFrame(messageStart: messageStart) {
        case .framed(let end, let next):
            let bytes = Array(stream.buffer[messageStart..<end])
            position = next
            return .success(RawMessage(origin: origin, bytes: bytes))
        case .ignored(let length):
            repairs.append(
                "length \(length) in Content-Length does not end the message at a From line or at the end of the mbox: "
                    + "ignored, the message ends at the next From line")
        case .absent:
            break
        }

        // Scan for the next line starting with `From `: a line feed followed by `From `, found
        // with one memmem(3) over the bytes read rather than line by line.
        var start = messageStart
        var scan = messageStart
        var end = 0
        var oversized = false
        while true {
            let count = stream.buffer.count
            let found: Int? = stream.buffer.withUnsafeBufferPointer { buffer in
                guard scan < count, let base = buffer.baseAddress else { return nil }
                return Self.lineFeedFrom.withUnsafeBufferPointer { needle in
                    guard let hit = memmem(base + scan, count - scan, needle.baseAddress, needle.count) else {
                        return nil
                    }
                    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
            }
            if let lineFeed = found {
                if startsWithFrom(at: lineFeed + 1)
                    && isSeparator(at: lineFeed + 1, afterBlankLine: endsBlankLine(at: lineFeed))
                {
                    end = lineFeed + 1
                    break
                }
                scan = lineFeed + 1
                continue
            }
            if stream.atEnd {
                end = stream.buffer.count
                break
            }
            // The last bytes may be the start of a line feed and `From ` that the next read ends.
            let kept = min(count - scan, Self.lineFeedFrom.count - 1)
            if count - start > maxMessageBytes {
                // Too large: keep scanning for the next separator without keeping bytes.
                oversized = true
                stream.drop(count - kept)
                start = 0
                scan = 0
            } else {
                scan = count - kept
            }
            stream.fill(atLeast: stream.buffer.count + ChunkedReader.chunkSize)
        }
        position = end
        if oversized || end - start > maxMessageBytes {
            return .failure(
                SourceProblem(
                    origin: origin, reason: "message larger than the \(maxMessageBytes)-byte limit"))
        }
        var slice = stream.buffer[start..<end]
        var warnings: [String] = []
        let atFileEnd = end == stream.buffer.count && stream.atEnd
        if atFileEnd, let last = slice.last, last != 0x0A {
            if let reason = finalEndReason() {
                repairs.append(reason)
            } else {
                warnings.append("mbox ends in the middle of a line: the last message may be truncated")
            }
        }
        // The blank line before the next separator belongs to the mbox, not the message.
        if slice.count >= 2 && slice.last == 0x0A {
            let withoutLast = slice.dropLast()
            let withoutCR = withoutLast.last == 0x0D ? withoutLast.dropLast() : withoutLast
            if withoutCR.last == 0x0A { slice = withoutLast.last == 0x0D ? withoutCR : withoutLast }
        }
        if !slice.contains(where: { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }) {
            return .failure(SourceProblem(origin: origin, reason: "empty message after a From line"))
        }
        // What follows a separator must begin like a message; binary data or text with no
        // header field is reported, not read (nor left glued to the message before). Blank
        // lines before the header section, which the MIME parser skips, are passed over here.
        // After a header section of text with a message field, only that section is looked at
        // (a body of UTF-16 text is no junk).
        let message = slice.drop { $0 == 0x0A || $0 == 0x0D }
        let headerEnd = MessageSource.headerSectionEnd(Array(message.prefix(65_536)))
        let head = (headerEnd.map { message.prefix($0) } ?? message).prefix(1024)
        if MessageSource.looksBinary(head) {
            return .failure(
                SourceProblem(
                    origin: origin,
                    reason: "binary data after the From line, not a message: \(slice.count) bytes skipped"))
        }
        if !MessageSource.startsLikeHeaderField(head) {
            return .failure(
                SourceProblem(
                    origin: origin,
                    reason:
                        "no header section after the From line, not a message: \(slice.count) bytes skipped"))
        }
        return .success(
            RawMessage(
                origin: origin, bytes: MboxReader.unescape(slice), warnings: warnings, repairs: repairs))
    }

    /// A line feed and `From `: where a separator line may start.
    private static let lineFeedFrom: [UInt8] = Array("\nFrom ".utf8)

    /// Whether the line that ends with the line feed at `lineFeed` is blank (LF or CRLF alone),
    /// as the line before a separator is.
    private func endsBlankLine(at lineFeed: Int) -> Bool {
        let buffer = stream.buffer
        guard lineFeed >= 1 else { return false }
        if buffer[lineFeed - 1] == 0x0A { return true }
        return lineFeed >= 2 && buffer[lineFeed - 1] == 0x0D && buffer[lineFeed - 2] == 0x0A
    }

    /// Whether the `From ` line at `offset`, inside what is read as a message, is a separator.
    ///
    /// The line must have a separator's shape (``separatorShape(_:)``): a sender and a date
    /// with a time of day and a year (RFC 4155 §2), or — in an mbox whose first separator is
    /// one — a sender alone. `From Monday to Friday 9:00-17:00` or `From 10:00 to 12:00` is
    /// body text wherever it stands. A line of that shape ends the message before it when the
    /// next line is a header field, or the next lines are blank and then a message's header
    /// fields (a message ahead of it that did not end with a blank line is not glued to this
    /// one), or when it follows a blank line, as separators do (RFC 4155
    /// §2: a message ends with an empty line) and what follows cannot be body text: blank lines
    /// and then a known message field, another separator, white space up to the end, binary
    /// data or a line with control bytes
    /// (``next()`` reports them). A header field is a known message field, or a field with a
    /// value followed in its block by a known message field (`wrote:` alone, `wrote: hi` or
    /// `Note: …` over body text are not one).
    /// Any other line of that shape, dated or not, is an unescaped line of the body: writers
    /// that quote (`>From `) never leave one, and reading it as body text keeps the message
    /// whole where a split would cut it in two (`From john@example.com Mon Nov 16 09:00:00
    /// 2026` over a quoted reply, in a text part with an HTML part after it).
    /// - Parameters:
    ///   - offset: where the `From ` line starts in the buffer.
    ///   - afterBlankLine: whether the line before it is blank.
    private func isSeparator(at offset: Int, afterBlankLine: Bool) -> Bool {
        let separatorEnd = lineFeed(from: offset) ?? stream.buffer.count
        let start = separatorEnd + 1
        stream.fill(atLeast: start + 1024)
        let buffer = stream.buffer
        guard acceptedShape(buffer[offset..<separatorEnd]) != nil else {
            // A sender alone in an mbox whose separators are dated (two writers' files joined):
            // a separator only before a message's own header fields.
            return MboxReader.separatorShape(buffer[offset..<separatorEnd]) == .undated
                && startsWithMessageField(buffer, at: start)
        }
        if start >= buffer.count { return afterBlankLine }
        if startsWithMessageField(buffer, at: start) { return true }
        if startsWithHeaderField(buffer, at: start) {
            // A field other than a message's own (`X-Status: RO`, or body text shaped like one,
            // `wrote: hi`, `Note: …`): a separator when a message field follows in the same
            // block of fields, as in every message an mbox holds.
            stream.fill(atLeast: start + 16384)
            if headerBlockHoldsMessageField(stream.buffer, from: start) { return true }
        }
        // Blank lines between the separator and a message's header fields (which the MIME
        // parser skips, with a warning): a separator, as before the fields themselves, even
        // where the message before did not end with a blank line.
        if start < buffer.count && (buffer[start] == 0x0A || buffer[start] == 0x0D) {
            stream.fill(atLeast: start + 16384)
            let window = stream.buffer
            var fieldStart = start
            while fieldStart < min(window.count, start + 16384),
                window[fieldStart] == 0x0A || window[fieldStart] == 0x0D
            {
                fieldStart += 1
            }
            if startsWithMessageField(window, at: fieldStart) { return true }
            // A mail client's own fields first (`X-Mozilla-Status: 0001`), then the message's.
            if startsWithHeaderField(window, at: fieldStart)
                && headerBlockHoldsMessageField(window, from: fieldStart)
            {
                return true
            }
        }
        guard afterBlankLine else { return false }
        let after = buffer[start..<min(buffer.count, start + 1024)]
        // A line with control bytes (NUL, a bell …) after it is no body text of a mail
        // message: junk after a separator, which ``next()`` reports.
        if Self.hasControlByte(after.prefix { $0 != 0x0A }) { return true }
        // Another separator next, right after it or after blank lines: an empty message, which
        // ``next()`` reports rather than glue this line to the message before.
        var rest = after
        while let lineEnd = rest.firstIndex(of: 0x0A),
            rest[..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
        {
            rest = rest[(lineEnd + 1)...]
        }
        if rest.starts(with: MboxReader.fromLine), let lineEnd = rest.firstIndex(of: 0x0A),
            acceptedShape(rest[..<lineEnd]) != nil
        {
            return true
        }
        let isWhiteSpace = { (byte: UInt8) in byte == 0x0A || byte == 0x0D || byte == 0x20 || byte == 0x09 }
        if stream.atEnd && after.endIndex == buffer.count && after.allSatisfy(isWhiteSpace) { return true }
        // Binary data up to the next `From ` line: binary data after a later separator is that
        // message's, not a sign that this line is one.
        return MessageSource.looksBinary(Self.nextFromLine(in: after).map { after[..<$0] } ?? after)
    }

    /// Where the first line of `bytes` after its first that starts with `From ` begins.
    static func nextFromLine(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while let lineFeed = bytes[index...].firstIndex(of: 0x0A) {
            index = lineFeed + 1
            if bytes[index...].starts(with: fromLine) { return index }
        }
        return nil
    }

    /// The shape of a `From ` line when this mbox takes that shape for a separator: a dated
    /// one always, an undated one when the mbox's first separator is undated too (the writer's
    /// way: Netscape's `From - `, some exports' `From 1844347792267117879@xxx`).
    private func acceptedShape(_ line: ArraySlice<UInt8>) -> SeparatorShape? {
        switch MboxReader.separatorShape(line) {
        case .dated: .dated
        case .undated: acceptsUndated ? .undated : nil
        case nil: nil
        }
    }

    /// Whether a header field starts at `start`: one of ``Header/messageFieldNames``, or any field
    /// name with a value on its line (`X-Mozilla-Status: 0001`). A name and a colon with
    /// nothing after them (`wrote:` under a quoted reply's `From … 2026` line) are body text.
    private func startsWithHeaderField(_ buffer: [UInt8], at start: Int) -> Bool {
        if startsWithMessageField(buffer, at: start) { return true }
        guard startsWithFieldName(buffer, at: start),
            let colon = buffer[start..<min(buffer.count, start + 80)].firstIndex(of: UInt8(ascii: ":"))
        else { return false }
        var index = colon + 1
        while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        return index < buffer.count && buffer[index] != 0x0A && buffer[index] != 0x0D
    }

    /// Whether the lines from `start` are header fields (RFC 5322 §2.2, folded lines included)
    /// up to a blank line, with one of ``Header/messageFieldNames`` among them: read within 16 KiB and
    /// 256 lines.
    private func headerBlockHoldsMessageField(_ buffer: [UInt8], from start: Int) -> Bool {
        let end = min(buffer.count, start + 16384)
        var line = start
        var lines = 0
        while line < end, lines < 256 {
            let byte = buffer[line]
            if byte == 0x0A || byte == 0x0D { return false }
            if byte != 0x20 && byte != 0x09 {
                if startsWithMessageField(buffer, at: line) { return true }
                guard startsWithFieldName(buffer, at: line) else { return false }
            }
            guard let lineEnd = buffer[line..<end].firstIndex(of: 0x0A) else { return false }
            line = lineEnd + 1
            lines += 1
        }
        return false
    }

    /// Whether the bytes hold a C0 control other than tab, line feed, form feed, carriage
    /// return and escape (which text may carry).
    static func hasControlByte(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0C && $0 != 0x0D && $0 != 0x1B }
    }

    /// Whether a header field name (printable ASCII but `:`, within 80 bytes), optional white
    /// space (RFC 5322 §4.5's obsolete syntax) and `:` start at `start`.
    private func startsWithFieldName(_ buffer: [UInt8], at start: Int) -> Bool {
        Self.fieldNameEnd(buffer[...], at: start) != nil
    }

    /// The end of the header field name that starts at `start` when a field starts there
    /// (``startsWithFieldName(_:at:)``): the name is `buffer[start..<end]`, and white space
    /// and `:` follow it.
    /// - Parameter buffer: bytes indexed as the text they are taken from (a slice keeps its
    ///   base's indices).
    static func fieldNameEnd(_ buffer: ArraySlice<UInt8>, at start: Int) -> Int? {
        var index = start
        var nameEnd: Int?
        while index < buffer.endIndex && index - start < 80 {
            let byte = buffer[index]
            if byte == UInt8(ascii: ":") { return index > start ? (nameEnd ?? index) : nil }
            if byte == 0x20 || byte == 0x09 {
                if index == start { return nil }
                nameEnd = nameEnd ?? index
            } else if byte < 0x20 || byte >= 0x7F || nameEnd != nil {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// Whether one of ``Header/messageFieldNames`` and `:` start at `start`: more than a line shaped
    /// like a field (`Phone: +1 555 0100` is not one).
    private func startsWithMessageField(_ buffer: [UInt8], at start: Int) -> Bool {
        guard let nameEnd = Self.fieldNameEnd(buffer[...], at: start) else { return false }
        let name = String(decoding: buffer[start..<nameEnd], as: UTF8.self).lowercased()
        return Header.messageFieldNames.contains(name)
    }

    /// What a separator line looks like.
    enum SeparatorShape {
        /// `From sender date` (RFC 4155 §2), ``isDatedSeparator(_:)``.
        case dated
        /// `From sender` or `From` alone, with no date: `From - `, `From 1844347792267117879@xxx`.
        case undated
    }

    /// The shape of a line that starts with `From `, or nil when it is not shaped like a
    /// separator (`From Monday to Friday 9:00-17:00`, `From Russia with love`, and the header
    /// field `From  : Shop <shop@example.com>`).
    static func separatorShape(_ line: ArraySlice<UInt8>) -> SeparatorShape? {
        guard FromLine.startsSeparator(line) else { return nil }
        let words = line.dropFirst(fromLine.count).split(whereSeparator: isBlank)
        if words.count <= 1 { return .undated }
        return isDatedSeparator(line) ? .dated : nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// Whether the line is an RFC 4155 separator with its date (§2): `From `, a sender — an
    /// addr-spec, `MAILER-DAEMON`, `-`, any one token without spaces, or none — and a date
    /// that has a month name, a day, a time of day and a four-digit year, each once, and no
    /// other word. The date is asctime's `Www Mmm dd hh:mm:ss yyyy` or a variant real writers
    /// produce: a day with or without padding, no seconds, a time zone (`+0100`, `PST`,
    /// `MET DST`) after the time or the year, RFC 5322's `Www, dd Mmm yyyy hh:mm:ss zone`;
    /// UUCP's `remote from host` may follow.
    /// E.g. `From MAILER-DAEMON Fri Jul  8 12:08:34 2011`,
    /// `From user@example.com Thu, 19 Nov 2026 21:05:00 +0100`.
    static func isDatedSeparator(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.starts(with: fromLine) else { return false }
        var words = Array(line.dropFirst(fromLine.count).split(whereSeparator: isBlank))
        if words.count >= 4, words[words.count - 3].elementsEqual("remote".utf8),
            words[words.count - 2].elementsEqual("from".utf8)
        {
            words.removeLast(3)
        }
        // A date has a time of day: most body lines fail here.
        guard words.count >= 4, words.contains(where: isTimeOfDay) else { return false }
        // A quoted local part may hold spaces: `"Jamie Rivera"@example.com`.
        var senderEnd = 1
        if words[0].first == UInt8(ascii: "\""),
            words[0].dropFirst().firstIndex(of: UInt8(ascii: "\"")) == nil
        {
            guard
                let closing = words.indices.dropFirst().first(where: {
                    words[$0].contains(UInt8(ascii: "\""))
                })
            else { return false }
            senderEnd = closing + 1
        }
        return isDate(words[senderEnd...]) || isDate(words[...])
    }

    /// Whether the words are a date, as ``isDatedSeparator(_:)`` describes.
    private static let weekdays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let months: Set<String> = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    private static func isDate(_ words: ArraySlice<ArraySlice<UInt8>>) -> Bool {
        var month: Int?
        var day: Int?
        var time: Int?
        var year: Int?
        var zones = 0
        for (position, word) in words.enumerated() {
            let text = String(decoding: word, as: UTF8.self)
            let name = (text.hasSuffix(",") ? String(text.dropLast()) : text).lowercased()
            if position == 0 && weekdays.contains(name) { continue }
            if months.contains(name) {
                guard month == nil else { return false }
                month = position
            } else if let number = number(word), word.count <= 2, (1...31).contains(number) {
                guard day == nil else { return false }
                day = position
            } else if number(word) != nil, word.count == 4 {
                guard year == nil else { return false }
                year = position
            } else if isTimeOfDay(word) {
                guard time == nil else { return false }
                time = position
            } else if time != nil && isZone(word) {
                zones += 1
            } else {
                return false
            }
        }
        guard let month, let day, time != nil, year != nil, zones <= 2 else { return false }
        return abs(month - day) == 1
    }

    /// The value of 1 to 4 ASCII digits.
    private static func number(_ word: ArraySlice<UInt8>) -> Int? {
        guard (1...4).contains(word.count), word.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return word.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `h:mm`, `hh:mm` or `hh:mm:ss`.
    private static func isTimeOfDay(_ word: ArraySlice<UInt8>) -> Bool {
        let parts = word.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let hour = number(parts[0]), parts[0].count <= 2, hour <= 24
        else { return false }
        for (index, part) in parts.enumerated().dropFirst() {
            guard part.count == 2, let value = number(part), value <= (index == 1 ? 59 : 60) else {
                return false
            }
        }
        return true
    }

    /// A time zone: `+0100`, `-05:00`, `UTC`, `PST`, `MET`, `DST`, or a comment `(CET)`.
    private static func isZone(_ word: ArraySlice<UInt8>) -> Bool {
        if word.first == UInt8(ascii: "("), word.last == UInt8(ascii: ")") { return word.count > 2 }
        if let sign = word.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let digits = word.dropFirst().filter { $0 != UInt8(ascii: ":") }
            return digits.count == 4 && number(digits[...]) != nil
        }
        return (1...5).contains(word.count) && word.allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// The offset of the first separator line in `head`: a line that starts with `From `
    /// after a line feed, has a separator's shape (``separatorShape(_:)``: dated, or a sender
    /// alone), and is followed by a header field line. Nil when there is none.
    static func firstSeparator(in head: ArraySlice<UInt8>) -> Int? {
        var index = head.startIndex
        while let lineFeed = head[index...].firstIndex(of: 0x0A) {
            let start = lineFeed + 1
            index = start
            guard head[start...].starts(with: fromLine),
                let separatorEnd = head[start...].firstIndex(of: 0x0A),
                separatorShape(head[start..<separatorEnd]) != nil
            else { continue }
            // Blank lines may stand between the separator and the header fields.
            var fieldStart = separatorEnd + 1
            while let lineEnd = head[fieldStart...].firstIndex(of: 0x0A),
                head[fieldStart..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            {
                fieldStart = lineEnd + 1
            }
            if MessageSource.startsWithHeaderField(Array(head[fieldStart...].prefix(1000))) {
                return start - head.startIndex
            }
        }
        return nil
    }

    /// What a message's `Content-Length` says about where it ends (mboxcl, mboxcl2).
    enum ContentLengthFrame: Equatable {
        /// No usable `Content-Length` field (none, not a number, over the message limit).
        case absent
        /// The body ends at `end`, and `next` is the next separator line or the end of the mbox.
        case framed(end: Int, next: Int)
        /// The length does not land on a separator line nor on the end of the mbox: it is stale
        /// or wrong, and the message is framed by its separators instead.
        case ignored(length: Int)
    }

    /// Where the header's `Content-Length` ends the message. It is trusted only when the byte
    /// after the body — past at most two line ends — is the end of the mbox or starts a line
    /// with a separator's shape (``separatorShape(_:)``), so that a stale length pointing at
    /// `From 9:00 to 17:00` in a body does not cut the message there.
    private func contentLengthFrame(messageStart: Int) -> ContentLengthFrame {
        var line = messageStart
        var length: Int?
        var bodyStart = 0
        while true {
            guard let lineEnd = lineFeed(from: line) else { return .absent }
            var contentEnd = lineEnd
            let buffer = stream.buffer
            if contentEnd > line && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if contentEnd == line {
                bodyStart = lineEnd + 1
                break
            }
            let prefix = MboxReader.contentLength
            if contentEnd - line > prefix.count, buffer[line] | 0x20 == 0x63 {
                var matches = true
                for offset in 0..<prefix.count where buffer[line + offset] | 0x20 != prefix[offset] {
                    matches = false
                    break
                }
                if matches {
                    let digits = buffer[(line + prefix.count)..<contentEnd].filter {
                        $0 != 0x20 && $0 != 0x09
                    }
                    length = Int(String(decoding: digits, as: UTF8.self))
                }
            }
            line = lineEnd + 1
            if line - messageStart > 1 << 20 { return .absent }
        }
        guard let length, length >= 0, length <= maxMessageBytes else { return .absent }
        let candidate = bodyStart + length
        stream.fill(atLeast: candidate + 8)
        guard candidate <= stream.buffer.count else { return .ignored(length: length) }
        var next = candidate
        for _ in 0..<2 {
            if next < stream.buffer.count && stream.buffer[next] == 0x0D { next += 1 }
            if next < stream.buffer.count && stream.buffer[next] == 0x0A { next += 1 }
        }
        if next == stream.buffer.count && stream.atEnd { return .framed(end: candidate, next: next) }
        if startsWithFrom(at: next) {
            let lineEnd = lineFeed(from: next) ?? stream.buffer.count
            if acceptedShape(stream.buffer[next..<lineEnd]) != nil {
                return .framed(end: candidate, next: next)
            }
        }
        return .ignored(length: length)
    }

    /// Whether any line starts with `>` (checked with memchr, so plain messages are copied once).
    private static func needsUnescaping(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var from = 0
            while from < buffer.count, let hit = memchr(base + from, 0x3E, buffer.count - from) {
                let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if position == 0 || buffer[position - 1] == 0x0A { return true }
                from = position + 1
            }
            return false
        }
    }

    /// Removes one `>` from lines matching `>+From ` (mboxrd; also right for mboxo).
    static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        if !needsUnescaping(bytes) { return Array(bytes) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var lineStart = true
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if lineStart && byte == UInt8(ascii: ">") {
                var look = index
                while look < bytes.endIndex && bytes[look] == UInt8(ascii: ">") { look += 1 }
                if bytes[look...].starts(with: fromLine) {
                    index += 1  // drop one `>`
                    lineStart = false
                    continue
                }
            }
            output.append(byte)
            lineStart = byte == 0x0A
            index += 1
        }
        return output
    }
}
