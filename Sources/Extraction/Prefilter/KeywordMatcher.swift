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
    /// Keyword indices grouped by ``key(_:_:_:)`` of their first three folded bytes (of their
    /// two bytes for two-byte keywords, under a key of their own): the keywords a position may
    /// start are `pairIndex[pairStart[key] ..< pairStart[key + 1]]`.
    private let pairStart: [Int32]
    private let pairIndex: [Int32]
    /// The folded keywords one after another; keyword `i` is `flatBytes[flatStart[i] ..< flatStart[i + 1]]`.
    private let flatBytes: [UInt8]
    private let flatStart: [Int32]
    /// Whether some keyword is only two bytes long.
    private let hasShort: Bool
    /// Per keyword: bit 0 word boundary before, bit 1 after, bit 2 needs a number after.
    private let flags: [UInt8]

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
        var counts = [Int32](repeating: 0, count: 65_537)
        for keyword in keywords { counts[Self.key(of: keyword.bytes)] += 1 }
        var pairStart = [Int32](repeating: 0, count: 65_537)
        var total: Int32 = 0
        for pair in 0..<65_536 {
            pairStart[pair] = total
            total += counts[pair]
        }
        pairStart[65_536] = total
        var pairIndex = [Int32](repeating: 0, count: Int(total))
        var filled = pairStart
        for (index, keyword) in keywords.enumerated() {
            let key = Self.key(of: keyword.bytes)
            pairIndex[Int(filled[key])] = Int32(index)
            filled[key] += 1
        }
        self.keywords = keywords
        hasShort = keywords.contains { $0.bytes.count == 2 }
        self.pairStart = pairStart
        self.pairIndex = pairIndex
        flatBytes = keywords.flatMap(\.bytes)
        var flatStart: [Int32] = [0]
        for keyword in keywords { flatStart.append((flatStart.last ?? 0) + Int32(keyword.bytes.count)) }
        self.flatStart = flatStart
        flags = keywords.map {
            ($0.boundaryBefore ? 1 : 0) | ($0.boundaryAfter ? 2 : 0) | ($0.needsNumber ? 4 : 0)
        }
    }

    /// The table slot of three bytes; two-byte keywords use `key(a, b, nil)`.
    @inline(__always)
    private static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8?) -> Int {
        guard let c else { return (Int(a) << 8 | Int(b)) ^ 0x5A5A }
        return (Int(a) &* 0x9E5 ^ Int(b) &* 0x3B ^ Int(c) &* 0x1F1F) & 0xFFFF
    }

    private static func key(of bytes: [UInt8]) -> Int {
        key(bytes[0], bytes[1], bytes.count > 2 ? bytes[2] : nil)
    }

    /// The number of distinct folded keywords.
    var count: Int { keywords.count }

    /// The first keyword found in `text`, as written in the rules; `nil` when none occurs.
    /// - Parameters:
    ///   - text: UTF-8 text.
    ///   - html: whether `text` is HTML (tags are skipped, entities decoded).
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, html: Bool) -> String? {
        let folded = Folding.fold(text, html: html)
        let found: Int? = folded.withUnsafeBufferPointer { buffer in
            pairStart.withUnsafeBufferPointer { starts in
                pairIndex.withUnsafeBufferPointer { index in
                    flatBytes.withUnsafeBufferPointer { bytes in
                        flatStart.withUnsafeBufferPointer { offsets in
                            flags.withUnsafeBufferPointer { flags in
                                Self.firstMatch(
                                    folded: buffer, starts: starts, index: index, bytes: bytes,
                                    offsets: offsets, flags: flags, hasShort: hasShort)
                            }
                        }
                    }
                }
            }
        }
        return found.map { keywords[$0].text }
    }

    private static func firstMatch(
        folded: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int32>,
        index: UnsafeBufferPointer<Int32>,
        bytes: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<Int32>,
        flags: UnsafeBufferPointer<UInt8>, hasShort: Bool
    ) -> Int? {
        let count = folded.count
        guard count >= 2 else { return nil }
        for position in 0..<(count - 1) {
            let a = folded[position]
            let b = folded[position + 1]
            for pass in 0..<2 {
                let slotKey: Int
                if pass == 0 {
                    guard position + 2 < count else { continue }
                    slotKey = key(a, b, folded[position + 2])
                } else {
                    guard hasShort else { continue }
                    slotKey = key(a, b, nil)
                }
                let first = Int(starts[slotKey])
                let end = Int(starts[slotKey + 1])
                guard first < end else { continue }
                for slot in first..<end {
                    let keyword = Int(index[slot])
                    let start = Int(offsets[keyword])
                    let length = Int(offsets[keyword + 1]) - start
                    guard position + length <= count else { continue }
                    var offset = 0
                    while offset < length, folded[position + offset] == bytes[start + offset] { offset += 1 }
                    guard offset == length else { continue }
                    let flag = flags[keyword]
                    if flag & 1 != 0, position > 0, Folding.isWordByte(folded[position - 1]) { continue }
                    if flag & 2 != 0, position + length < count, Folding.isWordByte(folded[position + length])
                    {
                        continue
                    }
                    if flag & 4 == 0 || numberFollows(folded, at: position + length) { return keyword }
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
        var out = [UInt8](repeating: 0, count: text.count + 8)
        var length = 0
        out.withUnsafeMutableBufferPointer { out in
            var lastWasSpace = false
            let count = text.count
            var index = 0
            while index < count {
                let byte = text[index]
                switch byte {
                case 0x41...0x5A:
                    out[length] = byte | 0x20
                    length += 1
                    lastWasSpace = false
                    index += 1
                case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                    if !lastWasSpace {
                        out[length] = 0x20
                        length += 1
                        lastWasSpace = true
                    }
                    index += 1
                case 0xC2 where index + 1 < count && text[index + 1] == 0xA0:
                    if !lastWasSpace {
                        out[length] = 0x20
                        length += 1
                        lastWasSpace = true
                    }
                    index += 2
                case 0xC3 where index + 1 < count:
                    let next = text[index + 1]
                    out[length] = 0xC3
                    out[length + 1] = next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next
                    length += 2
                    lastWasSpace = false
                    index += 2
                case 0x3C where html && index + 1 < count && startsTag(text[index + 1]):
                    // Skip the tag; a '<' that never closes is kept as text.
                    var end = index + 1
                    while end < count && text[end] != 0x3E { end += 1 }
                    if end < count {
                        if !lastWasSpace {
                            out[length] = 0x20
                            length += 1
                            lastWasSpace = true
                        }
                        index = end + 1
                    } else {
                        out[length] = byte
                        length += 1
                        lastWasSpace = false
                        index += 1
                    }
                case 0x26 where html:
                    // An entity never decodes to more bytes than it takes, so `out` keeps up.
                    if let (decoded, entityLength) = entity(text, at: index) {
                        if decoded == [0x20] {
                            if !lastWasSpace {
                                out[length] = 0x20
                                length += 1
                                lastWasSpace = true
                            }
                        } else {
                            for folded in fold(decoded, html: false) {
                                out[length] = folded
                                length += 1
                                lastWasSpace = false
                            }
                        }
                        index += entityLength
                    } else {
                        out[length] = byte
                        length += 1
                        lastWasSpace = false
                        index += 1
                    }
                default:
                    out[length] = byte
                    length += 1
                    lastWasSpace = false
                    index += 1
                }
            }
        }
        out.removeSubrange(length...)
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
