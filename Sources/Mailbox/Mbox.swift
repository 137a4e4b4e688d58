import Foundation
import MIME

/// Splits an mbox stream into messages (RFC 4155): a message starts after each line that
/// begins with `From `. `Content-Length` framing (mboxcl2) is used when the length lands
/// on the next `From ` line or the end; `>From ` lines (mboxrd, and mboxo's escaping)
/// lose one `>`.
final class MboxReader {
    static let fromLine = Array("From ".utf8)
    private static let contentLength = Array("content-length:".utf8)

    private let stream: ChunkedReader
    private let path: String
    private let maxMessageBytes: Int
    private var position = 0
    private var index = 0

    init(stream: ChunkedReader, path: String, maxMessageBytes: Int) {
        self.stream = stream
        self.path = path
        self.maxMessageBytes = maxMessageBytes
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

    private func startsWithFrom(at offset: Int) -> Bool {
        stream.fill(atLeast: offset + 5)
        let buffer = stream.buffer
        guard offset + 5 <= buffer.count else { return false }
        return buffer[offset] == 0x46 && buffer[offset + 1] == 0x72 && buffer[offset + 2] == 0x6F
            && buffer[offset + 3] == 0x6D && buffer[offset + 4] == 0x20
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
        if startsWithFrom(at: messageStart) {
            position = messageStart
            return .failure(
                SourceProblem(
                    origin: origin, reason: "From line followed directly by another From line: no message"))
        }

        if let (end, next) = contentLengthFrame(messageStart: messageStart) {
            let bytes = Array(stream.buffer[messageStart..<end])
            position = next
            return .success(RawMessage(origin: origin, bytes: bytes))
        }

        // Scan for the next line starting with `From `.
        var start = messageStart
        var scan = messageStart
        var end = 0
        var oversized = false
        while true {
            let count = stream.buffer.count
            let found: Int? = stream.buffer.withUnsafeBufferPointer { buffer in
                guard scan < count, let base = buffer.baseAddress,
                    let hit = memchr(base + scan, 0x0A, count - scan)
                else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
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
            if count - start > maxMessageBytes {
                // Too large: keep scanning for the next separator without keeping bytes.
                oversized = true
                stream.drop(count)
                start = 0
                scan = 0
            } else {
                scan = count
            }
            stream.fill(atLeast: stream.buffer.count + ChunkedReader.chunkSize)
        }
        position = end
        if oversized || end - start > maxMessageBytes {
            return .failure(
                SourceProblem(
                    origin: origin, reason: "message larger than the \(maxMessageBytes)-byte limit: skipped"))
        }
        var slice = stream.buffer[start..<end]
        var warnings: [String] = []
        let atFileEnd = end == stream.buffer.count && stream.atEnd
        if atFileEnd, let last = slice.last, last != 0x0A {
            warnings.append("mbox ends in the middle of a line: the last message may be truncated")
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
        // header field is reported, not read (nor left glued to the message before).
        let head = slice.prefix(1024)
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
        return .success(RawMessage(origin: origin, bytes: MboxReader.unescape(slice), warnings: warnings))
    }

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
    /// An unescaped `From Russia with love` in a body is followed by text, a real separator by
    /// the next message's header (or nothing, at the end). A separator that is followed by
    /// something else — another From line, nothing but white space up to the end, binary data,
    /// text that is not a header section — still ends the message before it when its shape
    /// leaves no doubt (RFC 4155 §2: a sender and a date, ``isDatedSeparator(_:)``), or when it
    /// follows a blank line, as separators do, and what comes next cannot be body text (another
    /// From line, white space to the end, binary data). ``next()`` then reports what follows it.
    /// - Parameters:
    ///   - offset: where the `From ` line starts in the buffer.
    ///   - afterBlankLine: whether the line before it is blank.
    private func isSeparator(at offset: Int, afterBlankLine: Bool) -> Bool {
        guard let separatorEnd = lineFeed(from: offset) else { return true }
        let start = separatorEnd + 1
        stream.fill(atLeast: start + 1024)
        let buffer = stream.buffer
        // `From sender` alone, or with a date holding a time of day (RFC 4155 §2).
        let line = buffer[offset..<separatorEnd]
        let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }).count
        if words > 2 && !MboxReader.containsTimeOfDay(line) { return false }
        if start >= buffer.count { return true }
        if startsWithFieldName(buffer, at: start) { return true }
        if MboxReader.isDatedSeparator(line) { return true }
        guard afterBlankLine else { return false }
        let after = buffer[start..<min(buffer.count, start + 1024)]
        if after.starts(with: MboxReader.fromLine) { return true }
        let isWhiteSpace = { (byte: UInt8) in byte == 0x0A || byte == 0x0D || byte == 0x20 || byte == 0x09 }
        if stream.atEnd && after.endIndex == buffer.count && after.allSatisfy(isWhiteSpace) { return true }
        return MessageSource.looksBinary(after)
    }

    /// Whether a header field name (printable ASCII but `:`, within 80 bytes) and `:` start
    /// at `start`.
    private func startsWithFieldName(_ buffer: [UInt8], at start: Int) -> Bool {
        var index = start
        while index < buffer.count && index - start < 80 {
            let byte = buffer[index]
            if byte == UInt8(ascii: ":") { return index > start }
            if byte <= 0x20 || byte >= 0x7F { return false }
            index += 1
        }
        return false
    }

    /// Whether the line is an RFC 4155 separator with its date: `From`, an optional sender,
    /// then an asctime date — day of the week, month, day, `hh:mm[:ss]` — and a four-digit
    /// year after it, e.g. `From sender@example.com Thu Nov 19 21:05:00 2026`.
    static func isDatedSeparator(_ line: ArraySlice<UInt8>) -> Bool {
        let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard words.first == "From" else { return false }
        let weekdays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let months: Set<String> = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ]
        guard
            let day = (1...2).first(where: { $0 < words.count && weekdays.contains(words[$0].lowercased()) }),
            day + 3 < words.count, months.contains(words[day + 1].lowercased())
        else { return false }
        let isDigit = { (character: Character) in character >= "0" && character <= "9" }
        let date = words[day + 2]
        guard (1...2).contains(date.count), date.allSatisfy(isDigit) else { return false }
        let time = words[day + 3].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(time.count),
            time.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(isDigit) })
        else { return false }
        return words[(day + 4)...].contains { $0.count == 4 && $0.allSatisfy(isDigit) }
    }

    /// The offset of the first separator line in `head`: a line that starts with `From `
    /// after a line feed, holds a sender alone or a date with a time of day (RFC 4155 §2),
    /// and is followed by a header field line. Nil when there is none.
    static func firstSeparator(in head: ArraySlice<UInt8>) -> Int? {
        var index = head.startIndex
        while let lineFeed = head[index...].firstIndex(of: 0x0A) {
            let start = lineFeed + 1
            index = start
            guard head[start...].starts(with: fromLine),
                let separatorEnd = head[start...].firstIndex(of: 0x0A)
            else { continue }
            let line = head[start..<separatorEnd]
            let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }).count
            guard words <= 2 || containsTimeOfDay(line) else { continue }
            if MessageSource.startsWithHeaderField(Array(head[(separatorEnd + 1)...].prefix(1000))) {
                return start - head.startIndex
            }
        }
        return nil
    }

    /// Whether the bytes hold `d:dd`, as the date of a separator line does.
    static func containsTimeOfDay(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while index + 2 < line.endIndex {
            if line[index + 1] == UInt8(ascii: ":"), (0x30...0x39).contains(line[index]),
                (0x30...0x39).contains(line[index + 2])
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// The message end and the next separator's position when the header's
    /// Content-Length frames the message exactly (mboxcl2).
    private func contentLengthFrame(messageStart: Int) -> (Int, Int)? {
        var line = messageStart
        var length: Int?
        var bodyStart = 0
        while true {
            guard let lineEnd = lineFeed(from: line) else { return nil }
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
            if line - messageStart > 1 << 20 { return nil }
        }
        guard let length, length >= 0, length <= maxMessageBytes else { return nil }
        let candidate = bodyStart + length
        stream.fill(atLeast: candidate + 8)
        let buffer = stream.buffer
        guard candidate <= buffer.count else { return nil }
        var next = candidate
        for _ in 0..<2 {
            if next < buffer.count && buffer[next] == 0x0D { next += 1 }
            if next < buffer.count && buffer[next] == 0x0A { next += 1 }
        }
        if next == buffer.count && stream.atEnd { return (candidate, next) }
        if startsWithFrom(at: next) { return (candidate, next) }
        return nil
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
