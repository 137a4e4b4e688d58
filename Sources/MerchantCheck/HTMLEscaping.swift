import Foundation

/// Escaping for HTML text and attribute values (HTML Living Standard §13.1.2.6, §13.2.5).
enum HTMLEscaping {
    /// Escapes `&`, `<`, `>`, `"` and `'`: safe in text and in quoted attribute values. Control
    /// characters, which HTML does not allow in its input (HTML Living Standard §13.2.3.5,
    /// "control-character-in-input-stream"), are written visibly as `\u{1B}`, as the command line
    /// shows them on a terminal: C0 controls but tab, line feed and carriage return, DEL and
    /// the C1 controls (U+0080–U+009F), and the noncharacters. NUL becomes U+FFFD.
    static func escape(_ text: String) -> String {
        // Noncharacters (U+FDD0–U+FDEF, U+FFFE and U+FFFF of every plane) are no text either.
        func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
            (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
        }
        if text.unicodeScalars.contains(where: isNoncharacter) {
            return escape(shownVisibly(text, where: isNoncharacter))
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        func visible(_ value: UInt8) {
            output += Array("\\u{\(String(value, radix: 16, uppercase: true))}".utf8)
        }
        var utf8 = text.utf8.makeIterator()
        var pending: UInt8? = nil
        while let byte = pending ?? utf8.next() {
            pending = nil
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            case UInt8(ascii: "\""): output += Array("&quot;".utf8)
            case UInt8(ascii: "'"): output += Array("&#39;".utf8)
            case 0: output += [0xEF, 0xBF, 0xBD]
            case 0x09, 0x0A, 0x0D: output.append(byte)
            case 0x01...0x1F, 0x7F: visible(byte)
            case 0xC2:
                // U+0080–U+009F are C2 80 … C2 9F in UTF-8.
                guard let next = utf8.next() else {
                    output.append(byte)
                    break
                }
                if (0x80...0x9F).contains(next) {
                    visible(next)
                } else {
                    output.append(byte)
                    pending = next
                }
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension HTMLEscaping {
    /// ``escape(_:)`` for a value taken from an email and shown as text in the report (a
    /// subject, a sender, a found value): the bidirectional embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069), which would make the browser show the text around them
    /// in another order ("Trojan Source", CVE-2021-42574), are written visibly as `\u{202E}`,
    /// as the command line shows them on a terminal.
    static func escapeValue(_ text: String) -> String {
        func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
            (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isBidiControl) else { return escape(text) }
        return escape(shownVisibly(text, where: isBidiControl))
    }

    /// The text with each scalar that `shown` picks written as `\u{…}` (upper-case hex).
    static func shownVisibly(_ text: String, where shown: (Unicode.Scalar) -> Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if shown(scalar) {
                result.append(
                    contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

/// Wraps found values in `<mark>` inside the text of an email's HTML, and drops what must not
/// reach the preview: `<script>` elements and `<meta http-equiv="refresh">`.
///
/// Only text between tags is touched; the values are matched in their escaped form against
/// the source text, so no email content is ever unescaped. Raw-text elements (`script`,
/// `style`, `textarea`, `title`) and comments are copied or dropped whole.
enum HTMLMarker {
    /// The HTML with each occurrence of the values in text wrapped in `<mark class="mo-found">`.
    static func mark(html: String, values: [String]) -> String {
        let needles = Set(values.filter { $0.count >= 2 }.map { HTMLEscaping.escape($0) })
            .sorted { $0.count > $1.count }
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var index = 0
        var textStart = 0

        func flushText(upTo end: Int) {
            guard textStart < end else { return }
            let text = String(decoding: bytes[textStart..<end], as: UTF8.self)
            output += Array(markText(text, needles: needles).utf8)
        }

        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            // A comment, a doctype or processing instruction, a tag, or a bare '<' in text.
            if starts(bytes, at: index, with: "<!--") {
                flushText(upTo: index)
                let end = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                output += bytes[index..<end]
                index = end
                textStart = index
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            let isTag =
                isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!")
                || next == UInt8(ascii: "?")
            guard isTag else {
                index += 1
                continue
            }
            flushText(upTo: index)
            let tagEnd = endOfTag(bytes, from: index)
            let tag = Array(bytes[index..<tagEnd])
            let name = tagName(tag)
            index = tagEnd
            if name == "script" {
                // Dropped with its content.
                index = endOfRawText(bytes, element: "script", from: index)
            } else if name == "meta", lowercasedASCII(tag).contains("refresh") {
                // Dropped.
            } else if ["style", "textarea", "title", "xmp", "noscript"].contains(name) {
                let end = endOfRawText(bytes, element: name, from: index)
                output += tag
                output += bytes[index..<end]
                index = end
            } else {
                output += tag
            }
            textStart = index
        }
        flushText(upTo: bytes.count)
        return String(decoding: output, as: UTF8.self)
    }

    /// Escaped plain text with the values wrapped in `<mark>`.
    static func mark(plainText: String, values: [String]) -> String {
        let needles = Set(values.filter { $0.count >= 2 }.map { HTMLEscaping.escape($0) })
            .sorted { $0.count > $1.count }
        return markText(HTMLEscaping.escape(plainText), needles: needles)
    }

    /// Wraps needles found in a text node (source form), ignoring ASCII case, never inside a
    /// character reference.
    private static func markText(_ text: String, needles: [String]) -> String {
        guard !needles.isEmpty, !text.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let folded = bytes.map(ByteSearch.lowercased)
        var ranges: [Range<Int>] = []
        for needle in needles {
            let key = Array(needle.utf8).map(ByteSearch.lowercased)
            var start = 0
            while let found = ByteSearch.find(key, in: folded, from: start) {
                let range = found..<found + key.count
                start = range.upperBound
                if ranges.contains(where: { $0.overlaps(range) })
                    || insideReference(bytes, at: range.lowerBound)
                    || insideReference(bytes, at: range.upperBound)
                {
                    continue
                }
                ranges.append(range)
                if ranges.count >= 200 { break }
            }
        }
        guard !ranges.isEmpty else { return text }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + ranges.count * 32)
        var cursor = 0
        for range in ranges {
            output += bytes[cursor..<range.lowerBound]
            output += Array("<mark class=\"mo-found\">".utf8)
            output += bytes[range]
            output += Array("</mark>".utf8)
            cursor = range.upperBound
        }
        output += bytes[cursor...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether a byte offset falls strictly inside a character reference such as `&amp;`.
    private static func insideReference(_ bytes: [UInt8], at position: Int) -> Bool {
        var cursor = position - 1
        var steps = 0
        while cursor >= 0, steps < 12 {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ";") { return false }
            if byte == UInt8(ascii: "&") {
                return bytes[position..<min(bytes.count, position + 12)].contains(UInt8(ascii: ";"))
            }
            let isNameByte =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: "#")
            if !isNameByte { return false }
            cursor -= 1
            steps += 1
        }
        return false
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        let prefixBytes = Array(prefix.utf8)
        guard index + prefixBytes.count <= bytes.count else { return false }
        return Array(bytes[index..<index + prefixBytes.count]) == prefixBytes
    }

    private static func find(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let needleBytes = Array(needle.utf8)
        guard let first = needleBytes.first, start < bytes.count else { return nil }
        var index = start
        while index + needleBytes.count <= bytes.count {
            if bytes[index] == first, Array(bytes[index..<index + needleBytes.count]) == needleBytes {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The index after the `>` closing the tag that starts at `start`, skipping quoted values.
    private static func endOfTag(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // Quotes only open inside attribute values (after '=').
                var back = index - 1
                while back > start, bytes[back] == 0x20 || bytes[back] == 0x09 || bytes[back] == 0x0A {
                    back -= 1
                }
                if bytes[back] == UInt8(ascii: "=") { quote = byte }
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The lower-cased element name of a start tag (empty for end tags and declarations).
    private static func tagName(_ tag: [UInt8]) -> String {
        guard tag.count > 1, isASCIILetter(tag[1]) else { return "" }
        var name: [UInt8] = []
        for byte in tag.dropFirst() {
            guard isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") else {
                break
            }
            name.append(byte | 0x20)
        }
        return String(decoding: name, as: UTF8.self)
    }

    private static func lowercasedASCII(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { isASCIILetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The index after the end tag of a raw-text element (`</script>`), or the end.
    private static func endOfRawText(_ bytes: [UInt8], element: String, from start: Int) -> Int {
        let closing = Array("</\(element)".utf8)
        var index = start
        while index + closing.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "<"),
                zip(bytes[index..<index + closing.count], closing).allSatisfy({
                    ($0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0)) == $1
                })
            {
                return endOfTag(bytes, from: index)
            }
            index += 1
        }
        return bytes.count
    }
}

/// Byte-level search for the checker's hot paths (`memchr` and `memcmp`).
enum ByteSearch {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The first offset of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, start >= 0, start + needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { key -> Int? in
                guard let base = hay.baseAddress, let keyBase = key.baseAddress else { return nil }
                let first = Int32(needle[0])
                let last = hay.count - key.count
                var offset = start
                while offset <= last {
                    guard let hit = memchr(base + offset, first, last - offset + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, keyBase, key.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
