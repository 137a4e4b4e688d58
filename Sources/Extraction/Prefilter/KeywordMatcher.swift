import Foundation

/// Finds the first of many keywords in UTF-8 text in one pass.
///
/// Text and keywords are folded the same way (see ``Folding``). ASCII keywords match only at
/// word boundaries, so the text is read a word at a time: each run of ASCII letters and digits
/// is measured and hashed eight bytes at a time, and only a run that is the first word of some
/// keyword is compared with those keywords. Keywords that start with any other byte (CJK, `#`,
/// `é`) are indexed by their first three folded bytes (two for two-byte keywords), so each such
/// position costs one bit test and, rarely, a few byte comparisons.
struct KeywordMatcher: Sendable {
    private struct Keyword: Sendable {
        var bytes: [UInt8]
        var text: String
        var boundaryAfter: Bool
        /// A weak word (`order`, `commande`) counts only when a number-like token follows.
        var needsNumber: Bool
        /// The length of the leading run of ASCII letters and digits: 0 for a keyword that starts
        /// with any other byte.
        var firstWordLength: Int
    }

    private let keywords: [Keyword]
    /// The tables ``firstMatch(in:html:)`` reads, in memory of their own.
    private let storage: Storage
    /// Whether some keyword that does not start with an ASCII letter or digit is two bytes long.
    private let hasShort: Bool

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
                    bytes: folded, text: word,
                    boundaryAfter: Folding.isWordByte(folded[folded.count - 1]), needsNumber: weak,
                    firstWordLength: folded.prefix(while: Folding.isWordByte).count))
        }
        self.keywords = keywords
        let wordKeywords = keywords.indices.filter { keywords[$0].firstWordLength > 0 }
        let otherKeywords = keywords.indices.filter { keywords[$0].firstWordLength == 0 }
        let (wordStart, wordIndex) = Self.group(wordKeywords) { index in
            keywords[index].bytes.withUnsafeBufferPointer {
                Self.wordBucket(Self.wordHash($0, from: 0, length: keywords[index].firstWordLength))
            }
        }
        var wordBits = [UInt64](repeating: 0, count: 1024)
        for index in wordKeywords {
            let bucket = keywords[index].bytes.withUnsafeBufferPointer {
                Self.wordBucket(Self.wordHash($0, from: 0, length: keywords[index].firstWordLength))
            }
            wordBits[bucket >> 6] |= 1 << UInt64(bucket & 63)
        }
        let firstWordLengths = keywords.map { Int32($0.firstWordLength) }
        let tailBytes: [UInt64] = keywords.map { keyword in
            keyword.bytes.dropFirst(keyword.firstWordLength).prefix(8).enumerated().reduce(UInt64(0)) {
                $0 | UInt64($1.element) << UInt64(8 * $1.offset)
            }
        }
        let tailMasks: [UInt64] = keywords.map { keyword in
            let lanes = min(8, keyword.bytes.count - keyword.firstWordLength)
            return lanes == 8 ? ~0 : (1 << UInt64(8 * lanes)) - 1
        }
        let (pairStart, pairIndex) = Self.group(otherKeywords) { Self.key(of: keywords[$0].bytes) }
        hasShort = otherKeywords.contains { keywords[$0].bytes.count == 2 }
        var flatStart: [Int32] = [0]
        for keyword in keywords { flatStart.append((flatStart.last ?? 0) + Int32(keyword.bytes.count)) }
        let flags: [UInt8] = keywords.map { ($0.boundaryAfter ? 2 : 0) | ($0.needsNumber ? 4 : 0) }
        var keyBits = [UInt64](repeating: 0, count: 1024)
        var shortBits = [UInt64](repeating: 0, count: 1024)
        // A second look before a slot is searched: bits of keywords exactly three bytes long (by
        // their three-byte key), and of the first four bytes of longer ones.
        var exactThreeBits = [UInt64](repeating: 0, count: 1024)
        var fourBits = [UInt64](repeating: 0, count: 1024)
        for index in otherKeywords {
            let bytes = keywords[index].bytes
            if bytes.count == 2 {
                let pair = Int(bytes[0]) << 8 | Int(bytes[1])
                shortBits[pair >> 6] |= 1 << UInt64(pair & 63)
                continue
            }
            let key = Self.key(of: bytes)
            keyBits[key >> 6] |= 1 << UInt64(key & 63)
            if bytes.count == 3 {
                exactThreeBits[key >> 6] |= 1 << UInt64(key & 63)
            } else {
                let four = Self.key(bytes[0], bytes[1], bytes[2], bytes[3])
                fourBits[four >> 6] |= 1 << UInt64(four & 63)
            }
        }
        storage = Storage(
            starts: pairStart, index: pairIndex, bytes: keywords.flatMap(\.bytes), offsets: flatStart,
            flags: flags, keyBits: keyBits + shortBits + exactThreeBits + fourBits, wordStart: wordStart,
            wordIndex: wordIndex, wordBits: wordBits, firstWordLengths: firstWordLengths,
            tailBytes: tailBytes, tailMasks: tailMasks)
    }

    /// Keyword indices grouped by a 16-bit key, in their order: `(start, index)` such that the
    /// keywords under key `k` are `index[start[k] ..< start[k + 1]]`.
    private static func group(_ members: [Int], by key: (Int) -> Int) -> ([Int32], [Int32]) {
        var counts = [Int32](repeating: 0, count: 65_537)
        let keys = members.map(key)
        for key in keys { counts[key] += 1 }
        var start = [Int32](repeating: 0, count: 65_537)
        var total: Int32 = 0
        for key in 0..<65_536 {
            start[key] = total
            total += counts[key]
        }
        start[65_536] = total
        var index = [Int32](repeating: 0, count: Int(total))
        var filled = start
        for (member, key) in zip(members, keys) {
            index[Int(filled[key])] = Int32(member)
            filled[key] += 1
        }
        return (start, index)
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

    /// One step of ``wordHash(_:from:length:)``: up to eight bytes, little-endian, zero-padded.
    @inline(__always)
    private static func mix(_ hash: UInt64, _ chunk: UInt64) -> UInt64 {
        (hash ^ chunk) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The start value of ``wordHash(_:from:length:)``.
    private static let wordHashSeed: UInt64 = 0x243F_6A88_85A3_08D3

    /// The 16-bit table slot of a word's hash: its top bits, where the multiplications mix
    /// every byte in.
    @inline(__always)
    private static func wordBucket(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 48) }

    /// The hash of `length` bytes at `start`, taken eight bytes at a time (the last chunk
    /// zero-padded): the same value ``wordRun(_:at:)`` computes while it measures a run.
    static func wordHash(_ text: UnsafeBufferPointer<UInt8>, from start: Int, length: Int) -> UInt64 {
        var hash = wordHashSeed
        var chunk: UInt64 = 0
        var lanes = 0
        for index in start..<(start + length) {
            chunk |= UInt64(text[index]) << UInt64(8 * lanes)
            lanes += 1
            if lanes == 8 {
                hash = mix(hash, chunk)
                chunk = 0
                lanes = 0
            }
        }
        if lanes > 0 { hash = mix(hash, chunk) }
        return hash
    }

    /// The run of ASCII letters and digits that starts at `start` (its first byte is one): its
    /// length and ``wordHash(_:from:length:)``. Eight bytes are tested at a time while eight
    /// remain; the tail is read byte by byte.
    @inline(__always)
    static func wordRun(_ text: UnsafeBufferPointer<UInt8>, at start: Int) -> (length: Int, hash: UInt64) {
        guard let base = text.baseAddress else { return (0, 0) }
        let count = text.count
        var hash = wordHashSeed
        var index = start
        while index &+ 8 <= count {
            let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let stops = ~SWAR.wordByteMask(chunk) & SWAR.high
            if stops == 0 {
                hash = mix(hash, chunk)
                index &+= 8
                continue
            }
            let lowest = stops & (0 &- stops)
            let lanes = lowest.trailingZeroBitCount >> 3
            // The lanes below the first stop: `lowest` is bit 8 × lanes + 7.
            if lanes > 0 { hash = mix(hash, chunk & ((lowest >> 7) &- 1)) }
            return (index &+ lanes &- start, hash)
        }
        var end = index
        while end < count, Folding.isWordByte(text[end]) { end &+= 1 }
        if end > index {
            var chunk: UInt64 = 0
            for lane in 0..<(end &- index) { chunk |= UInt64(text[index &+ lane]) << UInt64(8 * lane) }
            hash = mix(hash, chunk)
        }
        return (end &- start, hash)
    }

    /// The number of distinct folded keywords.
    var count: Int { keywords.count }

    /// The first keyword found in `text`, as written in the rules; `nil` when none occurs.
    /// - Parameters:
    ///   - text: UTF-8 text.
    ///   - html: whether `text` is HTML (tags are skipped, entities decoded).
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, html: Bool) -> String? {
        let folded = Folding.fold(text, html: html)
        let found = folded.withUnsafeBufferPointer { buffer in
            withExtendedLifetime(storage) {
                Self.firstMatch(folded: buffer, storage.tables, hasShort: hasShort)
            }
        }
        return found.map { keywords[$0].text }
    }

    /// The tables ``firstMatch(in:html:)`` reads, as buffers.
    private struct Tables {
        /// Keywords that start with an ASCII letter or digit, grouped by the ``wordBucket(_:)`` of
        /// their first word: the keywords a word may start are
        /// `wordIndex[wordStart[bucket] ..< wordStart[bucket + 1]]`.
        var wordStart: UnsafeBufferPointer<Int32>
        var wordIndex: UnsafeBufferPointer<Int32>
        /// One bit per ``wordBucket(_:)`` that holds a keyword: 8 KiB, so a word that starts no
        /// keyword costs one bit test.
        var wordBits: UnsafeBufferPointer<UInt64>
        /// Per keyword: ``Keyword/firstWordLength``.
        var firstWordLengths: UnsafeBufferPointer<Int32>
        /// Per keyword: up to eight of its bytes after its first word, little-endian, and the mask
        /// of the lanes they fill. A word such as `your` or `votre` starts dozens of keywords; one
        /// comparison of eight bytes turns most of them away.
        var tailBytes: UnsafeBufferPointer<UInt64>
        var tailMasks: UnsafeBufferPointer<UInt64>
        /// The other keywords grouped by ``key(_:_:_:)`` of their first three folded bytes (of
        /// their two bytes for two-byte keywords, under a key of their own): the keywords a
        /// position may start are `index[starts[key] ..< starts[key + 1]]`.
        var starts: UnsafeBufferPointer<Int32>
        var index: UnsafeBufferPointer<Int32>
        /// The folded keywords one after another; keyword `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
        var bytes: UnsafeBufferPointer<UInt8>
        var offsets: UnsafeBufferPointer<Int32>
        /// Per keyword: bit 1 word boundary after, bit 2 needs a number after.
        var flags: UnsafeBufferPointer<UInt8>
        /// For the keywords that do not start with an ASCII letter or digit: one bit per
        /// ``key(_:_:_:)`` of the first three folded bytes of a keyword of three bytes or more
        /// (words 0 ..< 1024), then one bit per pair of bytes (`a << 8 | b`) that is a whole
        /// two-byte keyword (words 1024 ..< 2048): 16 KiB that stay in the first-level cache, so
        /// most positions cost one hash and one bit test instead of two loads from the 256 KiB
        /// `starts`. Then the second look: one bit per three-byte key of a keyword of exactly
        /// three bytes (words 2048 ..< 3072), one per ``key(_:_:_:_:)`` of the first four bytes
        /// of a longer keyword (words 3072 ..< 4096).
        var keyBits: UnsafeBufferPointer<UInt64>
    }

    /// Owns the buffers of a ``Tables``: allocated once by the matcher's `init`, never written
    /// afterwards, freed with the last matcher that shares them.
    private final class Storage: @unchecked Sendable {
        let tables: Tables
        private let allocations: [UnsafeMutableRawPointer]

        init(
            starts: [Int32], index: [Int32], bytes: [UInt8], offsets: [Int32], flags: [UInt8],
            keyBits: [UInt64], wordStart: [Int32], wordIndex: [Int32], wordBits: [UInt64],
            firstWordLengths: [Int32], tailBytes: [UInt64], tailMasks: [UInt64]
        ) {
            var allocations: [UnsafeMutableRawPointer] = []
            func copy<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
                let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, array.count))
                _ = buffer.initialize(from: array)
                allocations.append(UnsafeMutableRawPointer(buffer.baseAddress!))
                return UnsafeBufferPointer(rebasing: buffer[0..<array.count])
            }
            tables = Tables(
                wordStart: copy(wordStart), wordIndex: copy(wordIndex), wordBits: copy(wordBits),
                firstWordLengths: copy(firstWordLengths), tailBytes: copy(tailBytes),
                tailMasks: copy(tailMasks), starts: copy(starts), index: copy(index), bytes: copy(bytes),
                offsets: copy(offsets), flags: copy(flags), keyBits: copy(keyBits))
            self.allocations = allocations
        }

        deinit {
            for allocation in allocations { allocation.deallocate() }
        }
    }

    private static func firstMatch(folded: UnsafeBufferPointer<UInt8>, _ tables: Tables, hasShort: Bool)
        -> Int?
    {
        let count = folded.count
        guard count >= 2 else { return nil }
        let keyBits = tables.keyBits
        let wordBits = tables.wordBits
        var position = 0
        while position < count {
            let a = folded[position]
            // No keyword starts with a space (they are trimmed): a third of the positions.
            if a == 0x20 {
                position &+= 1
                continue
            }
            if Folding.isWordByte(a) {
                // A word starts here (runs are taken whole, so the byte before is no letter or
                // digit): only the keywords whose first word it is can match.
                var length: Int
                var hash: UInt64
                // Most words are shorter than eight bytes: measured and hashed here at once.
                if position &+ 8 <= count, let base = folded.baseAddress {
                    let chunk = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                    let stops = ~SWAR.wordByteMask(chunk) & SWAR.high
                    if stops != 0 {
                        let lowest = stops & (0 &- stops)
                        length = lowest.trailingZeroBitCount >> 3
                        hash = mix(wordHashSeed, chunk & ((lowest >> 7) &- 1))
                    } else {
                        (length, hash) = wordRun(folded, at: position)
                    }
                } else {
                    (length, hash) = wordRun(folded, at: position)
                }
                let bucket = wordBucket(hash)
                if wordBits[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0,
                    let found = matchWord(bucket, length: length, at: position, in: folded, tables)
                {
                    return found
                }
                position &+= length
                // The space after a word: no keyword starts there.
                if position < count, folded[position] == 0x20 { position &+= 1 }
                continue
            }
            if position &+ 2 < count {
                let b = folded[position &+ 1]
                let c = folded[position &+ 2]
                let slotKey = key(a, b, c)
                let slotBit: UInt64 = 1 << UInt64(slotKey & 63)
                if keyBits[slotKey >> 6] & slotBit != 0 {
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
            }
            if hasShort, position &+ 1 < count {
                let pair = Int(a) << 8 | Int(folded[position &+ 1])
                if keyBits[1024 &+ (pair >> 6)] & (1 << UInt64(pair & 63)) != 0,
                    let found = matchSlot(
                        key(a, folded[position &+ 1], nil), at: position, in: folded, tables)
                {
                    return found
                }
            }
            position &+= 1
        }
        return nil
    }

    /// The first keyword whose first word is the `length`-byte run at `position` (hashed into
    /// `bucket`), with its word boundary after and the weak words' number checked.
    @inline(never)
    private static func matchWord(
        _ bucket: Int, length runLength: Int, at position: Int, in folded: UnsafeBufferPointer<UInt8>,
        _ tables: Tables
    ) -> Int? {
        let first = Int(tables.wordStart[bucket])
        let end = Int(tables.wordStart[bucket &+ 1])
        // The eight bytes after the word, zero-padded at the end of the text.
        let tailStart = position &+ runLength
        var tail: UInt64 = 0
        if tailStart &+ 8 <= folded.count, let base = folded.baseAddress {
            tail = UnsafeRawPointer(base + tailStart).loadUnaligned(as: UInt64.self)
        } else {
            for lane in 0..<(folded.count &- tailStart) {
                tail |= UInt64(folded[tailStart &+ lane]) << UInt64(8 * lane)
            }
        }
        for slot in first..<end {
            let keyword = Int(tables.wordIndex[slot])
            guard Int(tables.firstWordLengths[keyword]) == runLength,
                tail & tables.tailMasks[keyword] == tables.tailBytes[keyword],
                let found = match(keyword, at: position, in: folded, tables)
            else { continue }
            return found
        }
        return nil
    }

    /// The first keyword of slot `slotKey` that matches at `position`, word boundaries and the
    /// weak words' number checked.
    @inline(never)
    private static func matchSlot(
        _ slotKey: Int, at position: Int, in folded: UnsafeBufferPointer<UInt8>, _ tables: Tables
    ) -> Int? {
        let first = Int(tables.starts[slotKey])
        let end = Int(tables.starts[slotKey + 1])
        for slot in first..<end {
            if let found = match(Int(tables.index[slot]), at: position, in: folded, tables) { return found }
        }
        return nil
    }

    /// `keyword` when it matches at `position`: its bytes, the word boundary after it when it
    /// ends with a letter or digit, and a number after a weak word. (The boundary before is the
    /// caller's: a keyword that starts with a letter or digit is only tried where a word starts.)
    @inline(__always)
    private static func match(
        _ keyword: Int, at position: Int, in folded: UnsafeBufferPointer<UInt8>, _ tables: Tables
    ) -> Int? {
        let count = folded.count
        let start = Int(tables.offsets[keyword])
        let length = Int(tables.offsets[keyword + 1]) - start
        guard position + length <= count else { return nil }
        var offset = 0
        while offset < length, folded[position + offset] == tables.bytes[start + offset] { offset += 1 }
        guard offset == length else { return nil }
        let flag = tables.flags[keyword]
        if flag & 2 != 0, position + length < count, Folding.isWordByte(folded[position + length]) {
            return nil
        }
        return flag & 4 == 0 || numberFollows(folded, at: position + length) ? keyword : nil
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

    /// The high bit of every lane that is an ASCII letter or digit (``Folding/isWordByte(_:)``),
    /// exact for every lane: a lane with its high bit set is neither.
    @inline(__always)
    static func wordByteMask(_ word: UInt64) -> UInt64 {
        let low = word & ~high
        // Each sum stays below 0x100 in every lane, so no carry crosses into the next one.
        let atLeastZero = low &+ UInt64(0x80 - 0x30) &* ones
        let pastNine = low &+ UInt64(0x80 - 0x3A) &* ones
        let folded = low | UInt64(0x20) &* ones
        let atLeastA = folded &+ UInt64(0x80 - 0x61) &* ones
        let pastZ = folded &+ UInt64(0x80 - 0x7B) &* ones
        return ((atLeastZero & ~pastNine) | (atLeastA & ~pastZ)) & ~word & high
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
    /// 4 `0xC3`, 5 `<`, 6 `&`, 7 drop (a control character: NUL, the other C0 controls but
    /// white space, DEL), as rendering reads them (`TextSink` in MailDocument).
    private static let byteClass: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x41...0x5A: return 1
        case 0x20, 0x09, 0x0A, 0x0B, 0x0D, 0x0C: return 2
        case 0x00...0x1F, 0x7F: return 7
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
                    // no control byte (below 0x20, or DEL: in ASCII lanes, only 0x7F + 1 sets a
                    // high bit), no `<` or `&`, no two spaces in a row (bit tricks on a 64-bit
                    // word; the lanes are the bytes, lowest first).
                    while index &+ 8 <= count {
                        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                        let spaces = SWAR.equalMask(word, 0x20)
                        if word & SWAR.high != 0 || SWAR.hasLess(word, 0x20)
                            || (word &+ SWAR.ones) & SWAR.high != 0
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
                    case 3 where index + 1 < count && (text[index + 1] == 0xA0 || text[index + 1] == 0x85):
                        // U+00A0 NO-BREAK SPACE, U+0085 NEXT LINE
                        space()
                        index += 2
                    case 3 where index + 1 < count && text[index + 1] >= 0x80 && text[index + 1] < 0xA0:
                        // The other C1 controls: nothing.
                        index += 2
                    case 7:
                        index += 1
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
