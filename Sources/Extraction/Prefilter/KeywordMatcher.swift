/// Finds the first of many keywords in UTF-8 text in one pass.
///
/// Text and keywords are folded the same way (see ``Folding``); keywords are indexed by their
/// first two folded bytes, so each text position costs one table look-up and, rarely, a few
/// byte comparisons. ASCII keywords match only at word boundaries.
struct KeywordMatcher: Sendable {
    private struct Keyword: Sendable {
        var bytes: [UInt8]
        var text: String
        var boundaryBefore: Bool
        var boundaryAfter: Bool
        /// A weak word (`order`, `commande`) counts only when a number-like token follows.
        var needsNumber: Bool
    }

    private let keywords: [Keyword]
    /// First two folded bytes → indices into `keywords`.
    private let buckets: [UInt16: [Int]]
    /// One bit per first byte that starts some keyword, to skip most positions at once.
    private let firstBytes: [Bool]

    /// - Parameters:
    ///   - words: words that count wherever they occur.
    ///   - weakWords: words that count only before a token of 4 or more letters, digits and
    ///     dashes holding a digit (`Order BZ-2026-560310`, `注文番号 12345`).
    init(words: [String], weakWords: [String] = []) {
        var seen = Set<[UInt8]>()
        var keywords: [Keyword] = []
        for (word, weak) in words.map({ ($0, false) }) + weakWords.map({ ($0, true) }) {
            var folded = Folding.fold(Array(word.utf8), html: false)
            while folded.first == 0x20 { folded.removeFirst() }
            while folded.last == 0x20 { folded.removeLast() }
            guard folded.count >= 2, seen.insert(folded).inserted else { continue }
            keywords.append(
                Keyword(
                    bytes: folded, text: word, boundaryBefore: Folding.isWordByte(folded[0]),
                    boundaryAfter: Folding.isWordByte(folded[folded.count - 1]), needsNumber: weak))
        }
        var buckets: [UInt16: [Int]] = [:]
        var firstBytes = [Bool](repeating: false, count: 256)
        for (index, keyword) in keywords.enumerated() {
            buckets[UInt16(keyword.bytes[0]) << 8 | UInt16(keyword.bytes[1]), default: []].append(index)
            firstBytes[Int(keyword.bytes[0])] = true
        }
        self.keywords = keywords
        self.buckets = buckets
        self.firstBytes = firstBytes
    }

    /// The number of distinct folded keywords.
    var count: Int { keywords.count }

    /// The first keyword found in `text`, as written in the rules; `nil` when none occurs.
    /// - Parameters:
    ///   - text: UTF-8 text.
    ///   - html: whether `text` is HTML (tags are skipped, entities decoded).
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, html: Bool) -> String? {
        let folded = Folding.fold(text, html: html)
        return folded.withUnsafeBufferPointer { firstMatch(folded: $0) }
    }

    private func firstMatch(folded: UnsafeBufferPointer<UInt8>) -> String? {
        let count = folded.count
        guard count >= 2 else { return nil }
        for position in 0..<(count - 1) {
            let first = folded[position]
            guard firstBytes[Int(first)] else { continue }
            guard let candidates = buckets[UInt16(first) << 8 | UInt16(folded[position + 1])] else {
                continue
            }
            for index in candidates {
                let keyword = keywords[index]
                let length = keyword.bytes.count
                guard position + length <= count else { continue }
                if keyword.boundaryBefore, position > 0, Folding.isWordByte(folded[position - 1]) { continue }
                if keyword.boundaryAfter, position + length < count,
                    Folding.isWordByte(folded[position + length])
                {
                    continue
                }
                var equal = true
                var offset = 2
                while offset < length {
                    if folded[position + offset] != keyword.bytes[offset] {
                        equal = false
                        break
                    }
                    offset += 1
                }
                if equal, !keyword.needsNumber || numberFollows(folded, at: position + length) {
                    return keyword.text
                }
            }
        }
        return nil
    }
}

/// Whether a number-like token (4+ of letters, digits, `-`, `/`, with a digit) follows
/// `index` after at most a few separators (` `, `:`, `#`, `.`, `，`-free ASCII only).
private func numberFollows(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    var position = index
    var skipped = 0
    while position < text.count, skipped < 4,
        [0x20, 0x3A, 0x23, 0x2E, 0x28].contains(text[position])
    {
        position += 1
        skipped += 1
    }
    var length = 0
    var digits = 0
    while position < text.count, length < 40 {
        let byte = text[position]
        if byte >= 0x30 && byte <= 0x39 {
            digits += 1
        } else if !(Folding.isWordByte(byte) || byte == 0x2D || byte == 0x2F) {
            break
        }
        length += 1
        position += 1
    }
    return length >= 4 && digits > 0
}

/// The folding the prefilter matches in: lower-case ASCII and Latin-1 letters, one space for
/// every run of white space (and, in HTML, for every tag), common HTML entities decoded.
enum Folding {
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }

    static func fold(_ bytes: [UInt8], html: Bool) -> [UInt8] {
        bytes.withUnsafeBufferPointer { fold($0, html: html) }
    }

    static func fold(_ text: UnsafeBufferPointer<UInt8>, html: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(text.count)
        var lastWasSpace = false
        func space() {
            if !lastWasSpace {
                out.append(0x20)
                lastWasSpace = true
            }
        }
        func append(_ byte: UInt8) {
            out.append(byte)
            lastWasSpace = false
        }
        let count = text.count
        var index = 0
        while index < count {
            let byte = text[index]
            switch byte {
            case 0x41...0x5A:
                append(byte | 0x20)
                index += 1
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                space()
                index += 1
            case 0xC2 where index + 1 < count && text[index + 1] == 0xA0:
                space()
                index += 2
            case 0xC3 where index + 1 < count:
                let next = text[index + 1]
                out.append(0xC3)
                out.append(next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next)
                lastWasSpace = false
                index += 2
            case 0x3C where html && index + 1 < count && startsTag(text[index + 1]):
                // Skip the tag; a '<' that never closes is kept as text.
                var end = index + 1
                while end < count && text[end] != 0x3E { end += 1 }
                if end < count {
                    space()
                    index = end + 1
                } else {
                    append(byte)
                    index += 1
                }
            case 0x26 where html:
                if let (decoded, length) = entity(text, at: index) {
                    if decoded == [0x20] {
                        space()
                    } else {
                        for byte in fold(decoded, html: false) { append(byte) }
                    }
                    index += length
                } else {
                    append(byte)
                    index += 1
                }
            default:
                append(byte)
                index += 1
            }
        }
        return out
    }

    private static func startsTag(_ byte: UInt8) -> Bool {
        isWordByte(byte) || byte == 0x2F || byte == 0x21 || byte == 0x3F
    }

    private static let named: [String: String] = [
        "nbsp": " ", "amp": "&", "quot": "\"", "apos": "'", "lt": "<", "gt": ">", "auml": "ä", "ouml": "ö",
        "uuml": "ü", "Auml": "ä", "Ouml": "ö", "Uuml": "ü", "szlig": "ß", "eacute": "é", "Eacute": "é",
        "egrave": "è", "agrave": "à", "acirc": "â", "ecirc": "ê", "icirc": "î", "ocirc": "ô", "ucirc": "û",
        "ccedil": "ç", "ntilde": "ñ", "aacute": "á", "iacute": "í", "oacute": "ó", "uacute": "ú",
        "atilde": "ã", "otilde": "õ", "ugrave": "ù", "ograve": "ò", "igrave": "ì", "euml": "ë",
        "iuml": "ï", "oelig": "œ", "ndash": "–", "mdash": "—", "rsquo": "’", "hellip": "…", "num": "#",
        "zwnj": "", "shy": "",
    ]

    /// The entity at `index` (`&name;`, `&#NNN;`, `&#xHH;`) as UTF-8 and its length.
    private static func entity(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> ([UInt8], Int)? {
        var end = index + 1
        while end < text.count, end - index <= 10, text[end] != 0x3B { end += 1 }
        guard end < text.count, text[end] == 0x3B, end > index + 1 else { return nil }
        let body = String(decoding: UnsafeBufferPointer(rebasing: text[(index + 1)..<end]), as: UTF8.self)
        let length = end - index + 1
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            if value == 0xA0 { return ([0x20], length) }
            return (Array(String(Character(scalar)).utf8), length)
        }
        guard let decoded = named[body] else { return nil }
        return (Array(decoded.utf8), length)
    }
}
