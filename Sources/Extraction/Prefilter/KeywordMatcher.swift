import Foundation

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
    /// One bit per ``key(_:_:_:)`` of the first three folded bytes of a keyword of three bytes
    /// or more (words 0 ..< 1024), then one bit per pair of bytes (`a << 8 | b`) that is a whole
    /// two-byte keyword (words 1024 ..< 2048): 16 KiB that stay in the first-level cache, so
    /// most text positions cost one hash and one bit test instead of two loads from the
    /// 256 KiB `pairStart`. Then the second look: one bit per three-byte key of a keyword of
    /// exactly three bytes (words 2048 ..< 3072), one per ``key(_:_:_:_:)`` of the first four
    /// bytes of a longer keyword (words 3072 ..< 4096).
    private let keyBits: [UInt64]
    /// ``keyBits`` of the keywords that
    /// need no word boundary before them, for positions inside an ASCII word: nearly empty, as
    /// such keywords start with a byte that is not an ASCII letter or digit.
    private let innerBits: [UInt64]

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
        var keyBits = [UInt64](repeating: 0, count: 1024)
        var shortBits = [UInt64](repeating: 0, count: 1024)
        var innerBits = [UInt64](repeating: 0, count: 2048)
        for keyword in keywords {
            if keyword.bytes.count == 2 {
                let pair = Int(keyword.bytes[0]) << 8 | Int(keyword.bytes[1])
                shortBits[pair >> 6] |= 1 << UInt64(pair & 63)
                if !keyword.boundaryBefore { innerBits[1024 + (pair >> 6)] |= 1 << UInt64(pair & 63) }
            } else {
                let key = Self.key(of: keyword.bytes)
                keyBits[key >> 6] |= 1 << UInt64(key & 63)
                if !keyword.boundaryBefore { innerBits[key >> 6] |= 1 << UInt64(key & 63) }
            }
        }
        // A second look before a slot is searched: bits of keywords exactly three bytes long (by
        // their three-byte key), and of the first four bytes of longer ones.
        var exactThreeBits = [UInt64](repeating: 0, count: 1024)
        var fourBits = [UInt64](repeating: 0, count: 1024)
        for keyword in keywords where keyword.bytes.count >= 3 {
            let bytes = keyword.bytes
            if bytes.count == 3 {
                let key = Self.key(bytes[0], bytes[1], bytes[2])
                exactThreeBits[key >> 6] |= 1 << UInt64(key & 63)
            } else {
                let key = Self.key(bytes[0], bytes[1], bytes[2], bytes[3])
                fourBits[key >> 6] |= 1 << UInt64(key & 63)
            }
        }
        self.keyBits = keyBits + shortBits + exactThreeBits + fourBits
        self.innerBits = innerBits
    }

    /// The table slot of three bytes; two-byte keywords use `key(a, b, nil)`.
    @inline(__always)
    private static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8?) -> Int {
        guard let c else { return (Int(a) << 8 | Int(b)) ^ 0x5A5A }
        return (Int(a) &* 0x9E5 ^ Int(b) &* 0x3B ^ Int(c) &* 0x1F1F) & 0xFFFF
    }

    /// The ``keyBits`` bit (words 3072 ..< 4096) of a keyword's first four bytes.
    @inline(__always)
    private static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
        (Int(a) &* 0x2F1 ^ Int(b) &* 0x97 ^ Int(c) &* 0x1D3B ^ Int(d) &* 0x4F5) & 0xFFFF
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
                                keyBits.withUnsafeBufferPointer { keyBits in
                                    innerBits.withUnsafeBufferPointer { innerBits in
                                        Self.firstMatch(
                                            folded: buffer, starts: starts, index: index, bytes: bytes,
                                            offsets: offsets, flags: flags, keyBits: keyBits,
                                            innerBits: innerBits, hasShort: hasShort)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return found.map { keywords[$0].text }
    }

    /// The tables ``firstMatch(in:html:)`` reads, as buffers.
    private struct Tables {
        var starts: UnsafeBufferPointer<Int32>
        var index: UnsafeBufferPointer<Int32>
        var bytes: UnsafeBufferPointer<UInt8>
        var offsets: UnsafeBufferPointer<Int32>
        var flags: UnsafeBufferPointer<UInt8>
    }

    private static func firstMatch(
        folded: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int32>,
        index: UnsafeBufferPointer<Int32>,
        bytes: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<Int32>,
        flags: UnsafeBufferPointer<UInt8>, keyBits: UnsafeBufferPointer<UInt64>,
        innerBits: UnsafeBufferPointer<UInt64>, hasShort: Bool
    ) -> Int? {
        let count = folded.count
        guard count >= 2 else { return nil }
        let tables = Tables(starts: starts, index: index, bytes: bytes, offsets: offsets, flags: flags)
        var previousIsWord = false
        var position = 0
        // The slots are the same as without the bit tests; the tests only skip a slot that holds
        // no keyword that could match here (a two-byte keyword sharing a three-byte slot is
        // found by the two-byte test at the same position).
        while position &+ 2 < count {
            let a = folded[position]
            // No keyword starts with a space (they are trimmed): a third of the positions.
            if a == 0x20 {
                previousIsWord = false
                position &+= 1
                continue
            }
            let isWord = Folding.isWordByte(a)
            if previousIsWord && isWord {
                // Inside an ASCII word nothing starts: a keyword that may start after a letter
                // or digit (no word boundary before it) starts with a byte that is neither.
                position &+= 1
                while position &+ 2 < count, Folding.isWordByte(folded[position]) { position &+= 1 }
                continue
            }
            let b = folded[position &+ 1]
            // After an ASCII letter or digit only keywords without a word boundary before them.
            let bits = previousIsWord ? innerBits : keyBits
            previousIsWord = isWord
            let c = folded[position &+ 2]
            let slotKey = key(a, b, c)
            let slotBit: UInt64 = 1 << UInt64(slotKey & 63)
            if bits[slotKey >> 6] & slotBit != 0 {
                // Most slots that pass hold only longer keywords: their first four bytes decide.
                var worthSearching = true
                if position &+ 3 < count, keyBits[2048 &+ (slotKey >> 6)] & slotBit == 0 {
                    let fourKey = key(a, b, c, folded[position &+ 3])
                    worthSearching = keyBits[3072 &+ (fourKey >> 6)] & (1 << UInt64(fourKey & 63)) != 0
                }
                if worthSearching, let found = matchSlot(slotKey, at: position, in: folded, tables) {
                    return found
                }
            }
            if hasShort {
                let pair = Int(a) << 8 | Int(b)
                if bits[1024 &+ (pair >> 6)] & (1 << UInt64(pair & 63)) != 0,
                    let found = matchSlot(key(a, b, nil), at: position, in: folded, tables)
                {
                    return found
                }
            }
            position &+= 1
        }
        // The last pair: only two-byte keywords fit.
        if hasShort {
            let a = folded[position]
            let b = folded[position &+ 1]
            let bits = previousIsWord ? innerBits : keyBits
            let pair = Int(a) << 8 | Int(b)
            if bits[1024 &+ (pair >> 6)] & (1 << UInt64(pair & 63)) != 0 {
                return matchSlot(key(a, b, nil), at: position, in: folded, tables)
            }
        }
        return nil
    }

    /// The first keyword of slot `slotKey` that matches at `position`, word boundaries and the
    /// weak words' number checked.
    @inline(never)
    private static func matchSlot(
        _ slotKey: Int, at position: Int, in folded: UnsafeBufferPointer<UInt8>, _ tables: Tables
    ) -> Int? {
        let count = folded.count
        let first = Int(tables.starts[slotKey])
        let end = Int(tables.starts[slotKey + 1])
        guard first < end else { return nil }
        for slot in first..<end {
            let keyword = Int(tables.index[slot])
            let start = Int(tables.offsets[keyword])
            let length = Int(tables.offsets[keyword + 1]) - start
            guard position + length <= count else { continue }
            var offset = 0
            while offset < length, folded[position + offset] == tables.bytes[start + offset] { offset += 1 }
            guard offset == length else { continue }
            let flag = tables.flags[keyword]
            if flag & 1 != 0, position > 0, Folding.isWordByte(folded[position - 1]) { continue }
            if flag & 2 != 0, position + length < count, Folding.isWordByte(folded[position + length]) {
                continue
            }
            if flag & 4 == 0 || numberFollows(folded, at: position + length) { return keyword }
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

/// Bit tricks on eight bytes held in a `UInt64` (Hacker's Delight §6-1; the lanes are the bytes).
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of every lane equal to `byte`, exact when every lane is ASCII.
    @inline(__always)
    static func equalMask(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let t = word ^ (UInt64(byte) &* ones)
        return ~(((t & ~high) &+ ~high) | t) & high
    }

    /// Whether a lane is below `bound` (at most 128), exact when every lane is ASCII.
    @inline(__always)
    static func hasLess(_ word: UInt64, _ bound: UInt8) -> Bool {
        (word &- UInt64(bound) &* ones) & ~word & high != 0
    }

    /// `A`–`Z` lanes turned into `a`–`z`; every lane must be ASCII.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let atLeastA = word &+ UInt64(0x80 - 0x41) &* ones
        let aboveZ = word &+ UInt64(0x80 - 0x5B) &* ones
        return word | ((atLeastA & ~aboveZ & high) >> 2)
    }
}

/// The folding the prefilter matches in: lower-case ASCII and Latin-1 letters, one space for
/// every run of white space (and, in HTML, for every tag), common HTML entities decoded.
enum Folding {
    /// An ASCII letter or digit. (Two unsigned range checks: `| 0x20` maps `A`–`Z`, and only
    /// them, onto `a`–`z`.)
    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte &- 0x30) < 10 || ((byte | 0x20) &- 0x61) < 26
    }

    static func fold(_ bytes: [UInt8], html: Bool) -> [UInt8] {
        bytes.withUnsafeBufferPointer { fold($0, html: html) }
    }

    /// What ``fold(_:html:)`` does with a byte: 0 copy, 1 lower-case, 2 white space, 3 `0xC2`,
    /// 4 `0xC3`, 5 `<`, 6 `&`.
    private static let byteClass: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x41...0x5A: return 1
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C: return 2
        case 0xC2: return 3
        case 0xC3: return 4
        case 0x3C: return 5
        case 0x26: return 6
        default: return 0
        }
    }

    static func fold(_ text: UnsafeBufferPointer<UInt8>, html: Bool) -> [UInt8] {
        let count = text.count
        guard let base = text.baseAddress, count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count + 8) { out, initialized in
            var length = 0
            guard let target = out.baseAddress else { return }
            byteClass.withUnsafeBufferPointer { classes in
                var lastWasSpace = false
                var index = 0
                @inline(__always) func space() {
                    if !lastWasSpace {
                        out[length] = 0x20
                        length += 1
                        lastWasSpace = true
                    }
                }
                while index < count {
                    // Eight bytes at a time while a block of ASCII needs nothing but lower-casing:
                    // no control byte, no `<` or `&`, no two spaces in a row (bit tricks on a
                    // 64-bit word; the lanes are the bytes, lowest first).
                    while index &+ 8 <= count {
                        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                        let spaces = SWAR.equalMask(word, 0x20)
                        if word & SWAR.high != 0 || SWAR.hasLess(word, 0x20)
                            || SWAR.equalMask(word, 0x3C) != 0
                            || SWAR.equalMask(word, 0x26) != 0 || spaces & (spaces << 8) != 0
                            || (lastWasSpace && spaces & 0x80 != 0)
                        {
                            break
                        }
                        UnsafeMutableRawPointer(target + length).storeBytes(
                            of: SWAR.lowercased(word), as: UInt64.self)
                        length &+= 8
                        index &+= 8
                        lastWasSpace = word >> 56 == 0x20
                    }
                    guard index < count else { break }
                    let byte = text[index]
                    let kind = classes[Int(byte)]
                    if kind <= 1 {
                        // A run of bytes copied as they are or lower-cased: most of the text.
                        var next = byte
                        repeat {
                            out[length] = next | (classes[Int(next)] << 5)
                            length += 1
                            index += 1
                            guard index < count else { break }
                            next = text[index]
                        } while classes[Int(next)] <= 1
                        lastWasSpace = false
                        continue
                    }
                    switch kind {
                    case 2:
                        space()
                        index += 1
                    case 3 where index + 1 < count && text[index + 1] == 0xA0:
                        space()
                        index += 2
                    case 4 where index + 1 < count:
                        let next = text[index + 1]
                        out[length] = 0xC3
                        out[length + 1] = next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next
                        length += 2
                        lastWasSpace = false
                        index += 2
                    case 5 where html && index + 1 < count && startsTag(text[index + 1]):
                        // Skip the tag; a '<' that never closes is kept as text.
                        if let found = memchr(base + index + 1, 0x3E, count - index - 1) {
                            space()
                            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                        } else {
                            out[length] = byte
                            length += 1
                            lastWasSpace = false
                            index += 1
                        }
                    case 6 where html:
                        // An entity never decodes to more bytes than it takes, so `out` keeps up.
                        if let (decoded, entityLength) = entity(text, at: index) {
                            if decoded == [0x20] {
                                space()
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
            initialized = length
        }
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
    static func entity(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> ([UInt8], Int)? {
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
