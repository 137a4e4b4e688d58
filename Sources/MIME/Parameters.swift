import Foundation

/// Structured values with parameters: Content-Type (RFC 2045 §5.1), Content-Disposition
/// (RFC 2183), with RFC 2231 continuations, charsets and percent-encoding.
enum ParameterParser {
    /// A value such as `text/plain` followed by `; name=value` parameters.
    struct Parsed {
        var value: String
        /// Lower-cased names, decoded values.
        var parameters: [String: String]
    }

    /// Parses `value; name=value; name*0*=charset'lang'%XX…`.
    ///
    /// RFC 2231 sections are joined in order and percent-decoded in their charset;
    /// plain values that carry RFC 2047 encoded-words (as many mailers send in `name`
    /// and `filename`) are decoded too. Unquoted values with spaces are read up to the
    /// next `;`.
    static func parse(_ bytes: [UInt8]) -> Parsed {
        var index = 0
        let count = bytes.count
        func skipBlanksAndComments() {
            while index < count {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
                    index += 1
                } else if byte == UInt8(ascii: "(") {
                    var depth = 0
                    while index < count {
                        let inner = bytes[index]
                        if inner == UInt8(ascii: "\\") {
                            index += 2
                            continue
                        }
                        if inner == UInt8(ascii: "(") { depth += 1 }
                        if inner == UInt8(ascii: ")") {
                            depth -= 1
                            if depth == 0 {
                                index += 1
                                break
                            }
                        }
                        index += 1
                    }
                } else {
                    break
                }
            }
        }
        skipBlanksAndComments()
        let valueStart = index
        while index < count && bytes[index] != UInt8(ascii: ";") { index += 1 }
        var valueBytes = bytes[valueStart..<index]
        if let comment = valueBytes.firstIndex(of: UInt8(ascii: "(")) { valueBytes = valueBytes[..<comment] }
        // A missing `;` before the first parameter (`multipart/mixed boundary="x"`).
        if let blank = valueBytes.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }),
            valueBytes[blank...].contains(UInt8(ascii: "="))
        {
            valueBytes = valueBytes[..<blank]
            index = blank
        }
        let value = ASCII.trimmed(valueBytes)

        // Raw parameters: name -> value, with RFC 2231 sections kept apart.
        var plain: [String: [UInt8]] = [:]
        var order: [String] = []
        var sections: [String: [Int: (value: [UInt8], extended: Bool)]] = [:]
        while index < count {
            // At a `;` (or garbage): skip separators.
            while index < count
                && (bytes[index] == UInt8(ascii: ";") || bytes[index] == 0x20 || bytes[index] == 0x09)
            {
                index += 1
            }
            skipBlanksAndComments()
            guard index < count else { break }
            let nameStart = index
            while index < count && bytes[index] != UInt8(ascii: "=") && bytes[index] != UInt8(ascii: ";") {
                index += 1
            }
            guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
            let name = ASCII.lowercasedTrimmed(bytes[nameStart..<index])
            index += 1
            while index < count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
            var raw: [UInt8] = []
            if index < count && bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < count && bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") && index + 1 < count {
                        index += 1
                    }
                    raw.append(bytes[index])
                    index += 1
                }
                index += 1
                // Anything after the closing quote up to `;` is dropped.
                while index < count && bytes[index] != UInt8(ascii: ";") { index += 1 }
            } else {
                let start = index
                while index < count && bytes[index] != UInt8(ascii: ";") { index += 1 }
                var slice = bytes[start..<index]
                while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
                raw = Array(slice)
            }
            guard !name.isEmpty else { continue }
            if let star = name.firstIndex(of: "*") {
                let base = String(name[..<star])
                let rest = name[name.index(after: star)...]
                if rest.isEmpty {
                    sections[base, default: [:]][0] = (raw, true)
                } else {
                    let extended = rest.hasSuffix("*")
                    let number = Int(extended ? rest.dropLast() : rest) ?? 0
                    if number < 1000 { sections[base, default: [:]][number] = (raw, extended) }
                }
                if !order.contains(base) { order.append(base) }
            } else if plain[name] == nil {
                plain[name] = raw
                if !order.contains(name) { order.append(name) }
            }
        }

        var parameters: [String: String] = [:]
        for name in order {
            if let parts = sections[name], !parts.isEmpty {
                parameters[name] = joinSections(parts)
            } else if let raw = plain[name] {
                parameters[name] =
                    name == "boundary" ? String(decoding: raw, as: UTF8.self) : decodePlain(raw)
            }
        }
        return Parsed(value: value, parameters: parameters)
    }

    /// Joins RFC 2231 sections (§3, §4): the first extended section names the charset.
    private static func joinSections(_ parts: [Int: (value: [UInt8], extended: Bool)]) -> String {
        var charset: String?
        var joined: [UInt8] = []
        for number in parts.keys.sorted() {
            guard let part = parts[number] else { continue }
            var value = part.value[...]
            if part.extended {
                if number == parts.keys.min() {
                    // charset'language'value
                    if let firstQuote = value.firstIndex(of: UInt8(ascii: "'")) {
                        let rest = value[(firstQuote + 1)...]
                        if let secondQuote = rest.firstIndex(of: UInt8(ascii: "'")) {
                            let label = String(decoding: value[..<firstQuote], as: UTF8.self)
                            if !label.isEmpty { charset = label }
                            value = value[(secondQuote + 1)...]
                        }
                    }
                }
                joined += PercentEncoding.decode(value)
            } else {
                joined += value
            }
        }
        if charset == nil, EncodedWords.containsEncodedWordStart(joined) {
            return EncodedWords.decode(joined)
        }
        return Charsets.decode(joined, label: charset ?? "utf-8").text
    }

    private static func decodePlain(_ raw: [UInt8]) -> String {
        if EncodedWords.containsEncodedWordStart(raw) { return EncodedWords.decode(raw) }
        return Charsets.decodeRawHeader(raw).text
    }

    /// Parses a Content-Type value into a ``MediaType``; nil when it has no `type/subtype`.
    static func mediaType(_ bytes: [UInt8]) -> MediaType? {
        let parsed = parse(bytes)
        let value = Array(parsed.value.utf8)
        guard let slash = value.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let type = ASCII.lowercasedTrimmed(value[..<slash])
        let subtype = ASCII.lowercasedTrimmed(value[(slash + 1)...])
        guard !type.isEmpty, !subtype.isEmpty, !type.utf8.contains(0x20), !subtype.utf8.contains(0x20) else {
            return nil
        }
        return MediaType(type: type, subtype: subtype, parameters: parsed.parameters)
    }
}
