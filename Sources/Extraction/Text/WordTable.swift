/// Sets of whole words looked up word by word in folded text: what each set's ``PhraseSet``
/// matches in a line, counted, when every word is made only of characters of Latin words.
///
/// A phrase that starts and ends with a letter or digit of a Latin word matches only on word
/// boundaries (``Text/wordAt(_:_:)``, ``Text/wordBefore(_:_:)``); when all its characters are
/// such letters or digits, its matches in valid UTF-8 are exactly the words of the text (the
/// longest runs of those characters) equal to it, and they never overlap. So a line is read
/// once, word by word, and each word is looked up in one hash table of every set's words.
/// (A class: built once per ``Extractor`` and shared.)
final class WordTable: Sendable {
    /// The number of sets (bit `i` of a mask for set `i`).
    let setCount: Int
    /// The table's slots: a word's first eight bytes, its next eight (little-endian, zeros past
    /// its end), its length (0 for an empty slot) and its sets' mask, four entries a slot.
    private let slots: [UInt64]
    /// `slots.count / 4 - 1`: the slot count is a power of two.
    private let slotMask: Int
    /// The longest word, in bytes (at most 16).
    private let longest: Int
    /// A bit for the ``filterKey(_:_:length:)`` of every word: a word of the text whose bit is
    /// clear is none of the words, and is not looked up.
    private let filterBits: [UInt64]
    /// Per byte: ``wordLead`` when it starts a character of a Latin word, ``continuation`` for a
    /// UTF-8 continuation byte, 0 otherwise.
    private let classes: [UInt8]

    static let wordLead: UInt8 = 1
    static let continuation: UInt8 = 2

    /// - Parameter sets: the folded words of each set (at most 64 sets).
    /// - Returns: nil when a word is empty, longer than 16 bytes, or holds a character that is
    ///   not a letter or digit of a Latin word (its matches would not be whole words).
    init?(_ sets: [[[UInt8]]]) {
        guard sets.count <= 64 else { return nil }
        var masks: [[UInt8]: UInt64] = [:]
        var order: [[UInt8]] = []
        for (set, words) in sets.enumerated() {
            for word in words {
                guard !word.isEmpty, word.count <= 16, Self.isLatinWord(word) else { return nil }
                if masks[word] == nil { order.append(word) }
                masks[word, default: 0] |= 1 << UInt64(set)
            }
        }
        var slotCount = 16
        while slotCount < order.count * 4 { slotCount *= 2 }
        var slots = [UInt64](repeating: 0, count: slotCount * 4)
        var filterBits = [UInt64](repeating: 0, count: 65536 / 64)
        for word in order {
            let key = Self.filterKey(word[0], word.count > 1 ? word[1] : 0, length: word.count)
            filterBits[key >> 6] |= 1 << UInt64(key & 63)
            let (low, high) = (Self.word(word.prefix(8)), Self.word(word.dropFirst(8)))
            var slot = Self.hash(low, high, word.count) & (slotCount - 1)
            while slots[4 * slot + 2] != 0 { slot = (slot + 1) & (slotCount - 1) }
            slots[4 * slot] = low
            slots[4 * slot + 1] = high
            slots[4 * slot + 2] = UInt64(word.count)
            slots[4 * slot + 3] = masks[word] ?? 0
        }
        self.setCount = sets.count
        self.slots = slots
        self.slotMask = slotCount - 1
        self.longest = order.map(\.count).max() ?? 0
        self.filterBits = filterBits
        self.classes = (0..<256).map { value in
            let byte = UInt8(value)
            if byte & 0xC0 == 0x80 { return Self.continuation }
            return Text.wordAt([byte], 0) ? Self.wordLead : 0
        }
    }

    /// Whether every character of the bytes is a letter or digit of a Latin word.
    static func isLatinWord(_ bytes: [UInt8]) -> Bool {
        bytes.indices.allSatisfy { bytes[$0] & 0xC0 == 0x80 || Text.wordAt(bytes, $0) }
    }

    /// Up to eight bytes as a little-endian word: the first byte in the lowest bits.
    private static func word(_ bytes: some Collection<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for (offset, byte) in bytes.prefix(8).enumerated() { word |= UInt64(byte) << UInt64(8 * offset) }
        return word
    }

    /// A word's key in ``filterBits``: its first two bytes (the second 0 for a one-byte word)
    /// and its length, 16 bits.
    @inline(__always) static func filterKey(_ first: UInt8, _ second: UInt8, length: Int) -> Int {
        (Int(first) << 8 | Int(second)) ^ (length &* 0x2F1)
    }

    @inline(__always) private static func hash(_ low: UInt64, _ high: UInt64, _ length: Int) -> Int {
        let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 40)
    }

    /// Adds to `counts[i]` how many words of set `i` each line holds, at most `limit` a line:
    /// for each line, `set.matches(in: line, limit: limit).count` of set `i`'s ``PhraseSet``.
    /// - Parameters:
    ///   - text: folded bytes, valid UTF-8 except that the text may end inside a character.
    ///   - lines: each line's range in `text`.
    ///   - counts: one count per set.
    func count(in text: [UInt8], lines: ArraySlice<Range<Int>>, limit: Int, into counts: inout [Int]) {
        // Per set, the line's count so far, on the stack (no small array allocated and freed).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: setCount) { lineCounts in
            lineCounts.initialize(repeating: 0)
            text.withUnsafeBufferPointer { text in
                slots.withUnsafeBufferPointer { slots in
                    filterBits.withUnsafeBufferPointer { filterBits in
                        classes.withUnsafeBufferPointer { classes in
                            guard let base = text.baseAddress, let classes = classes.baseAddress else {
                                return
                            }
                            for range in lines where !range.isEmpty {
                                var found: UInt64 = 0
                                var position = range.lowerBound
                                while true {
                                    let word = Self.nextWord(
                                        base, from: position, end: range.upperBound, classes: classes)
                                    guard word.lowerBound < word.upperBound else { break }
                                    position = word.upperBound
                                    guard word.count <= longest else { continue }
                                    let key = Self.filterKey(
                                        base[word.lowerBound], word.count > 1 ? base[word.lowerBound + 1] : 0,
                                        length: word.count)
                                    guard filterBits[key >> 6] & (1 << UInt64(key & 63)) != 0 else {
                                        continue
                                    }
                                    var sets = lookUp(text, word, slots: slots)
                                    found |= sets
                                    while sets != 0 {
                                        lineCounts[sets.trailingZeroBitCount] += 1
                                        sets &= sets - 1
                                    }
                                }
                                while found != 0 {
                                    let set = found.trailingZeroBitCount
                                    counts[set] += min(lineCounts[set], limit)
                                    lineCounts[set] = 0
                                    found &= found - 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The first word from `position` on (empty at `end` when there is none), `position` being
    /// outside a word: it starts at the first byte that starts a character of a Latin word,
    /// and ends at the first byte after it that is neither such a byte nor a continuation byte.
    /// (A function of its own, so that its short loops keep everything in registers.)
    @inline(never)
    private static func nextWord(
        _ base: UnsafePointer<UInt8>, from position: Int, end: Int, classes: UnsafePointer<UInt8>
    ) -> Range<Int> {
        var start = position
        while start < end && classes[Int(base[start])] != wordLead { start += 1 }
        var after = start
        while after < end && classes[Int(base[after])] != 0 { after += 1 }
        return start..<after
    }

    /// The sets of the word at `range` (at most 16 bytes), 0 when it is none of the words.
    @inline(__always) private func lookUp(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, slots: UnsafeBufferPointer<UInt64>
    ) -> UInt64 {
        let length = range.count
        let low = PhraseIndex.word(at: range.lowerBound, in: text) & PhraseIndex.mask(length: length)
        let high =
            length > 8
            ? PhraseIndex.word(at: range.lowerBound + 8, in: text) & PhraseIndex.mask(length: length - 8) : 0
        var slot = Self.hash(low, high, length) & slotMask
        while true {
            let stored = Int(slots[4 * slot + 2])
            if stored == 0 { return 0 }
            if stored == length && slots[4 * slot] == low && slots[4 * slot + 1] == high {
                return slots[4 * slot + 3]
            }
            slot = (slot + 1) & slotMask
        }
    }
}
