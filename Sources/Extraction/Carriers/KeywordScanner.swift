/// Finds many short phrases in UTF-8 text in one pass: carrier names, tracking labels,
/// labels of other numbers. ASCII letters compare without case unless an entry asks for
/// case; other bytes compare exactly.
struct KeywordScanner: Sendable {
    struct Hit: Sendable, Hashable {
        var tag: Int
        var start: Int
        var end: Int
    }

    /// All phrases' bytes, back to back (lower-cased unless case-sensitive).
    private var pool: [UInt8] = []
    private var offsets: [Int] = []
    private var lengths: [Int] = []
    private var caseSensitive: [Bool] = []
    private var boundaryStart: [Bool] = []
    private var boundaryEnd: [Bool] = []
    private var tags: [Int] = []
    /// Entry indices by first byte, while adding.
    private var buckets: [[Int]] = Array(repeating: [], count: 256)
    /// The same, flattened for scanning: entries of byte `b` are
    /// `bucketEntries[bucketStarts[b]..<bucketStarts[b + 1]]`. Entries that need a word
    /// boundary before them come first in each bucket, `bucketFree[b]` marks where the others
    /// start: inside a word only those are tried.
    private var bucketStarts: [Int] = Array(repeating: 0, count: 257)
    private var bucketFree: [Int] = Array(repeating: 0, count: 256)
    private var bucketEntries: [Int] = []
    /// The entries again, by a hash of their first byte and their lower-cased second byte
    /// (``pairBucket(_:_:)``), so that a position tries only phrases that can start there.
    /// Each bucket lists, per first byte, the entries in the order of the first-byte bucket
    /// above (hits at one position come out in the same order); the entries that need a word
    /// boundary before them come first, `pairFree[b]` marks where the others start. Slots
    /// carry their entry's data (`Int32`) so the scan reads one array per slot.
    private var pairStarts: [Int32] = []
    private var pairFree: [Int32] = []
    private var pairSlots: [Slot] = []
    /// Per pair bucket: bit 0 when it has a slot, bit 1 when it has a slot of a phrase that
    /// needs no word boundary before it; ``nextStart(_:from:count:flags:pairs:later:insideWord:)``
    /// passes over positions whose bucket has nothing to try.
    private var pairFlags: [UInt8] = []
    /// Per pair bucket, in the low 32 bits: bit `b & 31` for each lower-cased third byte `b` of
    /// its phrases, so that a position whose third byte is none of theirs tries no slot; all
    /// bits set when the bucket has a phrase of two bytes (``thirdByteBit(_:)``). In the high
    /// 32 bits the same for the fourth bytes; all bits set when the bucket has a phrase of two
    /// or three bytes. One word per bucket: both are read with one load. A bucket without a
    /// slot has no bit set.
    private var pairLater: [UInt64] = []
    /// Whether some phrase is one byte long: those scanners keep the first-byte scan.
    private var hasOneBytePhrase = false
    /// Whether every phrase starts with an ASCII letter or digit and needs a word boundary
    /// before it, or starts with a byte of `C0`–`FF` (a UTF-8 lead byte): then a phrase can
    /// start only at the start of a word or at such a byte, and the scan goes from one of
    /// those to the next eight bytes at a time
    /// (``nextStartByWords(_:from:count:flags:pairs:later:insideWord:)``).
    private(set) var startsAtWordsOrLeadBytes = false
    /// Per byte: bit 0 when it is an ASCII letter or digit, bit 1 when some phrase that
    /// needs no word boundary before it starts with it (only those are tried inside a word),
    /// bit 2 when some phrase starts with it.
    private var byteFlags: [UInt8] = Array(repeating: 0, count: 256)

    /// One entry as the pair buckets hold it.
    private struct Slot: Sendable {
        var offset: Int32
        var length: Int32
        var tag: Int32
        var caseSensitive: Bool
        var boundaryEnd: Bool
        /// The phrase's first eight bytes (as stored in the pool) and the mask of the bytes it
        /// has, as ``PhraseIndex/word(_:)`` and ``PhraseIndex/mask(length:)`` give them.
        var head: UInt64
        var headMask: UInt64
    }

    static let pairBucketCount = 4096

    /// The bit of a phrase's or a text's third (or fourth) byte in ``pairLater``: ASCII letters
    /// compare without case (each letter has a bit of its own), other bytes share bits.
    @inline(__always) static func thirdByteBit(_ byte: UInt8) -> UInt32 {
        UInt32(1) &<< UInt32(lower(byte) & 31)
    }

    /// The pair bucket of a first byte (as written) and a lower-cased second byte.
    @inline(__always) static func pairBucket(_ first: UInt8, _ second: UInt8) -> Int {
        (Int(first) &<< 4) ^ Int(second)
    }

    /// Adds a phrase.
    /// - Parameters:
    ///   - phrase: the text to find; empty phrases are ignored.
    ///   - tag: returned with every hit.
    ///   - caseSensitive: compare ASCII letters exactly.
    ///   - wordBoundary: whether ASCII alphanumeric ends need a non-alphanumeric neighbour.
    mutating func add(
        _ phrase: String, tag: Int, caseSensitive sensitive: Bool = false, wordBoundary: Bool = true
    ) {
        var bytes = Array(phrase.utf8)
        guard !bytes.isEmpty else { return }
        if !sensitive { bytes = bytes.map(Self.lower) }
        let index = tags.count
        offsets.append(pool.count)
        lengths.append(bytes.count)
        pool += bytes
        caseSensitive.append(sensitive)
        boundaryStart.append(wordBoundary && Self.isAlphanumeric(bytes[0]))
        boundaryEnd.append(wordBoundary && Self.isAlphanumeric(bytes[bytes.count - 1]))
        tags.append(tag)
        buckets[Int(bytes[0])].append(index)
        if !sensitive, bytes[0] >= UInt8(ascii: "a"), bytes[0] <= UInt8(ascii: "z") {
            buckets[Int(bytes[0] - 32)].append(index)
        }
    }

    /// Prepares the added phrases for scanning; call once after the last ``add(_:tag:caseSensitive:wordBoundary:)``.
    mutating func seal() {
        bucketEntries = []
        for byte in 0..<256 {
            bucketStarts[byte] = bucketEntries.count
            bucketEntries += buckets[byte].filter { boundaryStart[$0] }
            bucketFree[byte] = bucketEntries.count
            bucketEntries += buckets[byte].filter { !boundaryStart[$0] }
        }
        bucketStarts[256] = bucketEntries.count
        hasOneBytePhrase = lengths.contains(1)
        startsAtWordsOrLeadBytes = (0..<tags.count).allSatisfy { entry in
            let first = pool[offsets[entry]]
            return first >= 0xC0 || (Self.isAlphanumeric(first) && boundaryStart[entry])
        }
        for byte in 0..<256 {
            byteFlags[byte] =
                (Self.isAlphanumeric(UInt8(byte)) ? 1 : 0)
                | (bucketFree[byte] < bucketStarts[byte + 1] ? 2 : 0)
                | (bucketStarts[byte] < bucketStarts[byte + 1] ? 4 : 0)
        }
        var bound = Array(repeating: [Slot](), count: Self.pairBucketCount)
        var thirds = Array(repeating: UInt32(0), count: Self.pairBucketCount)
        var fourths = thirds
        var free = Array(repeating: [Slot](), count: Self.pairBucketCount)
        for byte in 0..<256 {
            for slot in bucketStarts[byte]..<bucketStarts[byte + 1] {
                let entry = bucketEntries[slot]
                guard lengths[entry] >= 2 else { continue }
                let start = offsets[entry]
                let item = Slot(
                    offset: Int32(start), length: Int32(lengths[entry]), tag: Int32(tags[entry]),
                    caseSensitive: caseSensitive[entry], boundaryEnd: boundaryEnd[entry],
                    head: PhraseIndex.word(pool[start..<(start + min(8, lengths[entry]))]),
                    headMask: PhraseIndex.mask(length: lengths[entry]))
                let bucket = Self.pairBucket(UInt8(byte), Self.lower(pool[offsets[entry] + 1]))
                if slot < bucketFree[byte] { bound[bucket].append(item) } else { free[bucket].append(item) }
                thirds[bucket] |= lengths[entry] == 2 ? .max : Self.thirdByteBit(pool[start + 2])
                fourths[bucket] |= lengths[entry] <= 3 ? .max : Self.thirdByteBit(pool[start + 3])
            }
        }
        pairLater = (0..<Self.pairBucketCount).map { UInt64(thirds[$0]) | UInt64(fourths[$0]) << 32 }
        pairStarts = []
        pairFree = []
        pairSlots = []
        for bucket in 0..<Self.pairBucketCount {
            pairStarts.append(Int32(pairSlots.count))
            pairSlots += bound[bucket]
            pairFree.append(Int32(pairSlots.count))
            pairSlots += free[bucket]
        }
        pairStarts.append(Int32(pairSlots.count))
        pairFlags = (0..<Self.pairBucketCount).map { bucket in
            (pairStarts[bucket] < pairStarts[bucket + 1] ? 1 : 0)
                | (pairFree[bucket] < pairStarts[bucket + 1] ? 2 : 0)
        }
    }

    /// Every occurrence, ordered by start; at one start, in the order the phrases were added
    /// (those needing a word boundary before them first).
    func scan(_ text: [UInt8]) -> [Hit] {
        text.withUnsafeBufferPointer { scan($0) }
    }

    /// The hits of ``scan(_:)`` in bytes the caller holds (a string's own, read in place).
    func scan(_ text: UnsafeBufferPointer<UInt8>) -> [Hit] {
        if hasOneBytePhrase { return scanByFirstByte(Array(text)) }
        var hits: [Hit] = []
        pool.withUnsafeBufferPointer { pool in
            pairStarts.withUnsafeBufferPointer { starts in
                pairFree.withUnsafeBufferPointer { free in
                    pairSlots.withUnsafeBufferPointer { slots in
                        byteFlags.withUnsafeBufferPointer { flags in
                            pairFlags.withUnsafeBufferPointer { pairs in
                                pairLater.withUnsafeBufferPointer { later in
                                    scanPairs(
                                        text, pool, starts, free, slots, flags, pairs, later, into: &hits)
                                }
                            }
                        }
                    }
                }
            }
        }
        return hits
    }

    private func scanPairs(
        _ text: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>,
        _ starts: UnsafeBufferPointer<Int32>, _ free: UnsafeBufferPointer<Int32>,
        _ slots: UnsafeBufferPointer<Slot>, _ flags: UnsafeBufferPointer<UInt8>,
        _ pairs: UnsafeBufferPointer<UInt8>,
        _ later: UnsafeBufferPointer<UInt64>,
        into hits: inout [Hit]
    ) {
        let count = text.count
        guard count >= 2, let base = text.baseAddress, let flagBase = flags.baseAddress,
            let pairBase = pairs.baseAddress
        else { return }
        var insideWord = false
        var index = 0
        while true {
            let next =
                startsAtWordsOrLeadBytes
                ? Self.nextStartByWords(
                    base, from: index, count: count, flags: flagBase, pairs: pairBase, later: later,
                    insideWord: insideWord)
                : Self.nextStart(
                    base, from: index, count: count, flags: flagBase, pairs: pairBase, later: later,
                    insideWord: insideWord)
            guard next.index < count - 1 else { break }
            index = next.index
            insideWord = next.insideWord
            defer { index += 1 }
            let first = text[index]
            let flag = flags[Int(first)]
            let bucket = Self.pairBucket(first, Self.lower(text[index + 1]))
            var slot = Int(insideWord ? free[bucket] : starts[bucket])
            insideWord = flag & 1 != 0
            let slotEnd = Int(starts[bucket + 1])
            guard slot < slotEnd else { continue }
            // ``nextStart(_:from:count:flags:pairs:later:insideWord:)`` passed over positions
            // whose third or fourth byte no phrase of the bucket has.
            let word = PhraseIndex.word(at: index, in: text)
            let lowered = Self.lower(word: word)
            while slot < slotEnd {
                let entry = slots[slot]
                slot += 1
                let length = Int(entry.length)
                guard index + length <= count else { continue }
                // The first eight bytes at once, the rest of a longer phrase byte by byte.
                guard (entry.caseSensitive ? word : lowered) & entry.headMask == entry.head else { continue }
                let offset = Int(entry.offset)
                var position = 8
                if entry.caseSensitive {
                    while position < length, text[index + position] == pool[offset + position] {
                        position += 1
                    }
                } else {
                    while position < length, Self.lower(text[index + position]) == pool[offset + position] {
                        position += 1
                    }
                }
                guard position >= length else { continue }
                if entry.boundaryEnd, index + length < count, Self.isAlphanumeric(text[index + length]) {
                    continue
                }
                // Room for the hits a text of this length usually has, at its first hit: the
                // list is not grown hit by hit (a text without a hit allocates nothing).
                if hits.capacity == 0 { hits.reserveCapacity(Self.expectedHits(count)) }
                hits.append(Hit(tag: Int(entry.tag), start: index, end: index + length))
            }
        }
    }

    /// How many hits to make room for in a text of `count` bytes: one every 32 bytes (order
    /// emails name labels and carriers densely), at least 16 and at most 4,096.
    static func expectedHits(_ count: Int) -> Int { min(max(16, count / 32), 4_096) }

    /// The first position from `start` before `count - 1` where a phrase may start: a byte
    /// some phrase starts with, and inside a word one a boundary-free phrase starts with,
    /// whose pair bucket (with the next byte) has such a phrase, and whose third and fourth
    /// bytes (when the bucket has no shorter phrase) are among the bucket's phrases' third
    /// and fourth bytes (``pairLater``). Returns it (`count - 1` when there
    /// is none) with whether the byte before it is part of a word. (A function of its own,
    /// so that its short loop keeps everything in registers: a position only the third or
    /// fourth byte rules out costs a few instructions here, not a return to the scan.)
    ///
    /// Reads `text[start..<count]` only: the third and fourth bytes are read when
    /// `index + 2 < count` and `index + 3 < count`.
    @inline(never)
    private static func nextStart(
        _ text: UnsafePointer<UInt8>, from start: Int, count: Int, flags: UnsafePointer<UInt8>,
        pairs: UnsafePointer<UInt8>,
        later: UnsafeBufferPointer<UInt64>,
        insideWord: Bool
    ) -> (index: Int, insideWord: Bool) {
        let end = count - 1
        var index = start
        var inside = insideWord
        while index < end {
            let byte = text[index]
            let flag = flags[Int(byte)]
            if flag & (inside ? 2 : 4) != 0 {
                let bucket = pairBucket(byte, lower(text[index + 1]))
                if pairs[bucket] & (inside ? 2 : 1) != 0 {
                    // No phrase of the bucket has this third byte, or this fourth byte (or
                    // there is no room for them): none is tried.
                    let third = UInt32(truncatingIfNeeded: later[bucket])
                    if third == .max { return (index, inside) }
                    if index + 2 < count, third & thirdByteBit(text[index + 2]) != 0 {
                        let fourth = UInt32(truncatingIfNeeded: later[bucket] &>> 32)
                        if fourth == .max { return (index, inside) }
                        if index + 3 < count, fourth & thirdByteBit(text[index + 3]) != 0 {
                            return (index, inside)
                        }
                    }
                }
            }
            inside = flag & 1 != 0
            index += 1
        }
        return (end, inside)
    }

    /// ``nextStart(_:from:count:flags:pairs:later:insideWord:)`` for a scanner whose phrases
    /// all start at the start of a word or at a UTF-8 lead byte (``startsAtWordsOrLeadBytes``):
    /// it passes over no position where a phrase starts (where it stops, the scan's slots
    /// compare whole phrases and their word boundaries), and reads far fewer positions.
    ///
    /// Only those positions are tried: eight bytes are read at a time, and the first such
    /// position in them (a letter or digit after a byte that is neither, or a byte of
    /// `C0`–`FF`) is found by bit masks, without a test per byte. There the third and fourth
    /// bytes are tested against the pair bucket's (``pairLater``, one load; a bucket without a
    /// slot has no bit), as one condition: a branch taken only where a phrase may start (the
    /// slots, tried there, compare whole phrases and their word boundaries). The last bytes,
    /// where the eight bytes and the three after a position do not fit, are read byte by byte.
    @inline(never)
    private static func nextStartByWords(
        _ text: UnsafePointer<UInt8>, from start: Int, count: Int, flags: UnsafePointer<UInt8>,
        pairs: UnsafePointer<UInt8>, later: UnsafeBufferPointer<UInt64>, insideWord: Bool
    ) -> (index: Int, insideWord: Bool) {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = start
        // Bit 7 set when the byte before `index` is an ASCII letter or digit.
        var before: UInt64 = insideWord ? 0x80 : 0
        guard let table = later.baseAddress else {
            return nextStart(
                text, from: start, count: count, flags: flags, pairs: pairs, later: later,
                insideWord: insideWord)
        }
        // Each position of the eight read has its three following bytes in the text.
        while index + 11 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(text + index).loadUnaligned(as: UInt64.self))
            let seven = word & (0x7F &* ones)
            let ascii = ~word & high
            let digits = (seven &+ (0x50 &* ones)) & ~(seven &+ (0x46 &* ones)) & ascii
            let folded = seven | (0x20 &* ones)
            let letters = (folded &+ (0x1F &* ones)) & ~(folded &+ (0x05 &* ones)) & ascii
            let words = digits | letters
            // Lead bytes: bits 7 and 6 both set.
            let leads = word & (word &<< 1) & high
            let wordsBefore = (words &<< 8) | before
            let starts = (words & ~wordsBefore) | leads
            guard starts != 0 else {
                before = (words &>> 56) & 0x80
                index &+= 8
                continue
            }
            let shift = UInt64(starts.trailingZeroBitCount & ~7)
            let position = index &+ Int(shift &>> 3)
            let bucket = pairBucket(text[position], lower(text[position &+ 1]))
            // The third and fourth bytes' bits against the bucket's, both halves at once.
            let wanted =
                UInt64(thirdByteBit(text[position &+ 2])) | UInt64(thirdByteBit(text[position &+ 3])) &<< 32
            let found = table[bucket] & wanted
            if nonZero(UInt32(truncatingIfNeeded: found)) & nonZero(UInt32(truncatingIfNeeded: found &>> 32))
                != 0
            {
                return (position, wordsBefore &>> shift & 0x80 != 0)
            }
            // On from the byte after it, which has it before it.
            before = words &>> shift & 0x80
            index = position &+ 1
        }
        return nextStart(
            text, from: index, count: count, flags: flags, pairs: pairs, later: later, insideWord: before != 0
        )
    }

    /// 1 when `value` is not zero, else 0, without a branch.
    @inline(__always) private static func nonZero(_ value: UInt32) -> UInt32 {
        (value | (0 &- value)) &>> 31
    }

    /// ``scan(_:)`` by first-byte buckets alone: for scanners with one-byte phrases, and the
    /// reference the pair buckets are tested against.
    func scanByFirstByte(_ text: [UInt8]) -> [Hit] {
        var hits: [Hit] = []
        text.withUnsafeBufferPointer { text in
            pool.withUnsafeBufferPointer { pool in
                bucketStarts.withUnsafeBufferPointer { starts in
                    bucketEntries.withUnsafeBufferPointer { entries in
                        lengths.withUnsafeBufferPointer { lengths in
                            offsets.withUnsafeBufferPointer { offsets in
                                scan(text, pool, starts, entries, lengths, offsets, into: &hits)
                            }
                        }
                    }
                }
            }
        }
        return hits
    }

    private func scan(
        _ text: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>,
        _ starts: UnsafeBufferPointer<Int>,
        _ entries: UnsafeBufferPointer<Int>, _ lengths: UnsafeBufferPointer<Int>,
        _ offsets: UnsafeBufferPointer<Int>,
        into hits: inout [Hit]
    ) {
        let count = text.count
        for index in 0..<count {
            let first = Int(text[index])
            let insideWord = index > 0 && Self.isAlphanumeric(text[index - 1])
            var slot = insideWord ? bucketFree[first] : starts[first]
            let slotEnd = starts[first + 1]
            while slot < slotEnd {
                let entry = entries[slot]
                slot += 1
                let length = lengths[entry]
                guard index + length <= count else { continue }
                let offset = offsets[entry]
                let sensitive = caseSensitive[entry]
                var position = 1
                while position < length {
                    let byte = text[index + position]
                    if (sensitive ? byte : Self.lower(byte)) != pool[offset + position] { break }
                    position += 1
                }
                guard position >= length else { continue }
                if boundaryEnd[entry], index + length < count, Self.isAlphanumeric(text[index + length]) {
                    continue
                }
                hits.append(Hit(tag: tags[entry], start: index, end: index + length))
            }
        }
    }

    /// ``lower(_:)`` applied to each byte of a word.
    @inline(__always) static func lower(word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let seven = word & (0x7F * ones)
        // Bit 7 of a byte: set when the byte is `A`…`Z` (the low seven bits are 0x41…0x5A and
        // the byte itself is below 0x80); the sums cannot carry into the next byte.
        let upper = (seven &+ (0x3F * ones)) & ~(seven &+ (0x25 * ones)) & ~word & (0x80 * ones)
        return word | (upper >> 2)
    }

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
