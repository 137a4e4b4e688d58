/// Several ``PhraseSet``s matched over a document's lines in one pass.
///
/// The phrases of every set are merged (each distinct folded phrase once, longest first, with
/// the sets it belongs to) and indexed by their first two bytes; a line is scanned once and
/// every occurrence of every phrase is recorded (``PhraseHits``). What one set's
/// ``PhraseSet/matches(in:limit:)`` would return for the line is then read from those
/// occurrences: the same matches, in the same order, with the same limit and overlap rule.
/// (A class: its tables are built once per language set and shared, never copied.)
final class PhraseIndex: Sendable {
    /// The sets, each at the position of its ``PhraseSet/id``.
    let sets: [PhraseSet]
    /// The merged phrases' bytes, back to back, longest phrase first.
    private let pool: [UInt8]
    private let offsets: [Int]
    private let lengths: [Int]
    /// Whether a phrase starts (ends) with a letter or digit of a Latin word, so that it
    /// needs a word boundary there.
    private let startsWord: [Bool]
    private let endsWord: [Bool]
    /// The sets each merged phrase belongs to, one bit per set.
    let setMasks: [UInt64]
    /// For each merged phrase and set, the phrase's index in the set (row by row).
    private let setIndices: [Int32]
    /// Phrases of two bytes or more by a hash of their first two bytes, in merged order: the
    /// phrases of bucket `b` are entries `bucketStarts[b]..<bucketStarts[b + 1]` of
    /// `bucketEntries`, three words an entry: the phrase's head and head mask (``heads``) and
    /// its index, so that a bucket is tried reading one array.
    private let bucketStarts: [Int32]
    private let bucketEntries: [UInt64]
    /// Per bucket, the phrases that need no word boundary before them (tried inside a word),
    /// entries as in ``bucketEntries``.
    private let freeStarts: [Int32]
    private let freeEntries: [UInt64]
    /// Per merged phrase, its bytes 8 to 15 (fewer for a shorter phrase, none for one of eight
    /// bytes or fewer) read as a little-endian word, then the mask of the bytes it has there:
    /// `tails[2 * p]` and `tails[2 * p + 1]`. A phrase of up to sixteen bytes whose first eight
    /// match is compared with the text's next eight bytes in one step.
    private let tails: [UInt64]
    /// One-byte phrases by their byte.
    private let singleByte: [Int32]
    /// A bit for the hash of every three-byte prefix a phrase can start a match with (for a
    /// two-byte phrase, its two bytes followed by any byte): a position whose next three bytes'
    /// bit is clear starts no match of two bytes or more.
    private let prefixBits: [UInt64]
    /// A bit for every pair of bytes a phrase of two bytes or more starts with (bit
    /// `first << 8 | second`): a position whose byte and the next are not such a pair starts
    /// no match of two bytes or more.
    private let pairBits: [UInt64]
    /// The scan's steps, one row of 256 per state (0 outside a Latin word, ``insideStep``
    /// inside one: the character before is a letter or digit of a Latin word), read at
    /// `state + byte`: the state after the byte (``insideStep`` or 0; a continuation byte of
    /// UTF-8 keeps the state), ``candidateStep`` when a phrase may start at the byte in that
    /// state (it starts a character, and a phrase that may start there, inside a word one
    /// that needs no word boundary before it, starts with it), and ``singleStep`` when the
    /// byte is a phrase of its own. A position that is no candidate, or whose byte is no phrase
    /// and starts no phrase with the next byte (``pairBits``), is passed over without looking
    /// at its buckets.
    private let steps: [UInt16]

    static let continuationClass: UInt8 = 1
    static let wordClass: UInt8 = 2
    static let freeClass: UInt8 = 4
    static let startClass: UInt8 = 8
    static let singleClass: UInt8 = 16

    static let candidateStep = 1
    static let singleStep = 2
    static let insideStep = 0x100

    /// At most this many occurrences of one set are recorded per line; the callers ask for
    /// fewer (64 at most).
    static let perSetLimit = 256
    static let bucketCount = 4096

    @inline(__always) static func bucket(_ first: UInt8, _ second: UInt8) -> Int {
        (Int(first) &* 31 &+ Int(second) &* 131) & (bucketCount - 1)
    }

    /// Bits in ``prefixBits``.
    static let prefixBitCount = 1 << 16

    @inline(__always) static func prefixHash(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int {
        let key = UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third)
        return Int((key &* 2_654_435_761) >> 16) & (prefixBitCount - 1)
    }

    /// - Parameter sets: the sets, each with its position as ``PhraseSet/id`` (at most 64).
    init(_ sets: [PhraseSet]) {
        precondition(sets.count <= 64)
        for (position, set) in sets.enumerated() { precondition(set.id == position) }
        self.sets = sets
        var members: [[UInt8]: [(set: Int, index: Int)]] = [:]
        var order: [[UInt8]] = []
        for (setIndex, set) in sets.enumerated() {
            for (phraseIndex, phrase) in set.phrases.enumerated() {
                if members[phrase.folded] == nil { order.append(phrase.folded) }
                members[phrase.folded, default: []].append((setIndex, phraseIndex))
            }
        }
        order.sort { $0.count > $1.count }
        var pool: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int] = []
        var startsWord: [Bool] = []
        var endsWord: [Bool] = []
        var setMasks: [UInt64] = []
        var setIndices = [Int32](repeating: -1, count: order.count * sets.count)
        var buckets = Array(repeating: [Int32](), count: Self.bucketCount)
        var single: [Int32] = []
        var singleByte = [Int32](repeating: -1, count: 256)
        var prefixBits = [UInt64](repeating: 0, count: Self.prefixBitCount / 64)
        var pairBits = [UInt64](repeating: 0, count: 65536 / 64)
        // Per merged phrase, its first eight bytes (fewer for a shorter phrase) read as a
        // little-endian word, then the mask of the bytes the phrase has: `heads[2 * p]` and
        // `heads[2 * p + 1]`. A phrase is compared with the text's next eight bytes in one step.
        var heads: [UInt64] = []
        var tails: [UInt64] = []
        var byteClasses = (0..<256).map { value -> UInt8 in
            let byte = UInt8(value)
            if byte & 0xC0 == 0x80 { return Self.continuationClass }
            return Text.wordAt([byte], 0) ? Self.wordClass : 0
        }
        func setPrefixBit(_ first: UInt8, _ second: UInt8, _ third: UInt8) {
            let hash = Self.prefixHash(first, second, third)
            prefixBits[hash >> 6] |= 1 << UInt64(hash & 63)
        }
        for (index, folded) in order.enumerated() {
            offsets.append(pool.count)
            lengths.append(folded.count)
            pool += folded
            startsWord.append(Text.wordAt(folded, 0))
            heads.append(Self.word(folded.prefix(8)))
            heads.append(Self.mask(length: folded.count))
            tails.append(Self.word(folded.dropFirst(8).prefix(8)))
            tails.append(folded.count > 8 ? Self.mask(length: folded.count - 8) : 0)
            byteClasses[Int(folded[0])] |= Self.startClass | (Text.wordAt(folded, 0) ? 0 : Self.freeClass)
            endsWord.append(Text.wordBefore(folded, folded.count))
            var mask: UInt64 = 0
            for member in members[folded] ?? [] {
                mask |= 1 << UInt64(member.set)
                setIndices[index * sets.count + member.set] = Int32(member.index)
            }
            setMasks.append(mask)
            if folded.count >= 2 {
                buckets[Self.bucket(folded[0], folded[1])].append(Int32(index))
                let pair = Int(folded[0]) << 8 | Int(folded[1])
                pairBits[pair >> 6] |= 1 << UInt64(pair & 63)
                if folded.count >= 3 {
                    setPrefixBit(folded[0], folded[1], folded[2])
                } else {
                    for third in UInt8.min...UInt8.max { setPrefixBit(folded[0], folded[1], third) }
                }
            } else {
                // Distinct phrases: at most one per byte.
                singleByte[Int(folded[0])] = Int32(index)
                byteClasses[Int(folded[0])] |= Self.singleClass
                single.append(Int32(index))
            }
        }
        var bucketStarts: [Int32] = []
        var bucketEntries: [UInt64] = []
        var freeStarts: [Int32] = []
        var freeEntries: [UInt64] = []
        for bucket in buckets {
            bucketStarts.append(Int32(bucketEntries.count / 3))
            freeStarts.append(Int32(freeEntries.count / 3))
            for phrase in bucket {
                let entry = [heads[2 * Int(phrase)], heads[2 * Int(phrase) + 1], UInt64(phrase)]
                bucketEntries += entry
                if !startsWord[Int(phrase)] { freeEntries += entry }
            }
        }
        bucketStarts.append(Int32(bucketEntries.count / 3))
        freeStarts.append(Int32(freeEntries.count / 3))
        self.pool = pool
        self.offsets = offsets
        self.lengths = lengths
        self.startsWord = startsWord
        self.endsWord = endsWord
        self.setMasks = setMasks
        self.setIndices = setIndices
        self.bucketStarts = bucketStarts
        self.bucketEntries = bucketEntries
        self.freeStarts = freeStarts
        self.freeEntries = freeEntries
        self.tails = tails
        self.singleByte = singleByte
        self.prefixBits = prefixBits
        self.pairBits = pairBits
        var steps = [UInt16](repeating: 0, count: 512)
        for state in [0, Self.insideStep] {
            for byte in 0..<256 {
                let byteClass = byteClasses[byte]
                var step = state
                if byteClass & Self.continuationClass == 0 {
                    step = byteClass & Self.wordClass != 0 ? Self.insideStep : 0
                    if byteClass & (state == 0 ? Self.startClass : Self.freeClass) != 0 {
                        step |= Self.candidateStep
                        if byteClass & Self.singleClass != 0 { step |= Self.singleStep }
                    }
                }
                steps[state + byte] = UInt16(step)
            }
        }
        self.steps = steps
    }

    /// The index of a merged phrase in a set, or -1.
    @inline(__always) func index(of phrase: Int, inSet set: Int) -> Int {
        Int(setIndices[phrase * sets.count + set])
    }

    func length(of phrase: Int) -> Int { lengths[phrase] }

    /// Every occurrence of every phrase in some lines of folded bytes, line after line: in
    /// order of position and, at one position, longest first. Each line's occurrences are
    /// appended to `phrases` and `starts` (positions from the line's start), where they begin
    /// to `lineStarts`, and the sets they belong to to `lineMasks`. Occurrences of a phrase
    /// all of whose sets already have ``perSetLimit`` occurrences in the line are left out.
    /// - Parameters:
    ///   - text: the folded bytes of the lines, and maybe more.
    ///   - lines: each line's range in `text`.
    func scan(
        _ text: [UInt8], lines: ArraySlice<Range<Int>>, phrases: inout [Int32], starts: inout [Int32],
        lineStarts: inout [Int], lineMasks: inout [UInt64]
    ) {
        // Per set, the line's occurrences once counted (see `record`), on the stack: no small
        // array is allocated and freed before the large ones.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: sets.count) { counts in
            counts.initialize(repeating: 0)
            text.withUnsafeBufferPointer { text in
                pool.withUnsafeBufferPointer { pool in
                    offsets.withUnsafeBufferPointer { offsets in
                        lengths.withUnsafeBufferPointer { lengths in
                            bucketStarts.withUnsafeBufferPointer { bucketStarts in
                                bucketEntries.withUnsafeBufferPointer { bucketEntries in
                                    freeStarts.withUnsafeBufferPointer { freeStarts in
                                        freeEntries.withUnsafeBufferPointer { freeEntries in
                                            prefixBits.withUnsafeBufferPointer { prefixBits in
                                                steps.withUnsafeBufferPointer { steps in
                                                    setMasks.withUnsafeBufferPointer { setMasks in
                                                        pairBits.withUnsafeBufferPointer { pairBits in
                                                            tails.withUnsafeBufferPointer { tails in
                                                                let buckets: Buckets = (
                                                                    bucketStarts, bucketEntries, freeStarts,
                                                                    freeEntries,
                                                                    prefixBits, steps, pairBits, tails
                                                                )
                                                                for range in lines {
                                                                    let first = phrases.count
                                                                    lineStarts.append(first)
                                                                    if !range.isEmpty {
                                                                        scan(
                                                                            UnsafeBufferPointer(
                                                                                rebasing: text[range]),
                                                                            pool: pool, offsets: offsets,
                                                                            lengths: lengths,
                                                                            buckets: buckets,
                                                                            phrases: &phrases,
                                                                            starts: &starts,
                                                                            counts: counts)
                                                                    }
                                                                    var mask: UInt64 = 0
                                                                    for slot in first..<phrases.count {
                                                                        mask |= setMasks[Int(phrases[slot])]
                                                                    }
                                                                    lineMasks.append(mask)
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private typealias Buckets = (
        starts: UnsafeBufferPointer<Int32>, entries: UnsafeBufferPointer<UInt64>,
        freeStarts: UnsafeBufferPointer<Int32>, freeEntries: UnsafeBufferPointer<UInt64>,
        prefixBits: UnsafeBufferPointer<UInt64>, steps: UnsafeBufferPointer<UInt16>,
        pairBits: UnsafeBufferPointer<UInt64>, tails: UnsafeBufferPointer<UInt64>
    )

    /// Up to eight bytes as a little-endian word: the first byte in the lowest bits.
    static func word(_ bytes: some Collection<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for (offset, byte) in bytes.prefix(8).enumerated() { word |= UInt64(byte) << UInt64(8 * offset) }
        return word
    }

    /// The mask of the first `length` bytes of a word (all of them from eight on).
    static func mask(length: Int) -> UInt64 {
        length >= 8 ? .max : (1 << UInt64(8 * length)) - 1
    }

    /// The eight bytes of the text from `position` as ``word(_:)`` reads them, with zeros
    /// past the end of the text.
    @inline(__always) static func word(at position: Int, in text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if position + 8 <= text.count, let base = text.baseAddress {
            return UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        }
        var word: UInt64 = 0
        var offset = 0
        while position + offset < text.count && offset < 8 {
            word |= UInt64(text[position + offset]) << UInt64(8 * offset)
            offset += 1
        }
        return word
    }

    private func scan(
        _ text: UnsafeBufferPointer<UInt8>, pool: UnsafeBufferPointer<UInt8>,
        offsets: UnsafeBufferPointer<Int>,
        lengths: UnsafeBufferPointer<Int>, buckets: Buckets,
        phrases: inout [Int32], starts: inout [Int32], counts: UnsafeMutableBufferPointer<Int>
    ) {
        let count = text.count
        guard let base = text.baseAddress, let steps = buckets.steps.baseAddress,
            let pairs = buckets.pairBits.baseAddress
        else { return }
        // The line's first occurrence; `counts` is read only from the line's
        // ``perSetLimit``-th occurrence on (before it, no set can have reached the limit).
        let lineFirst = phrases.count
        var counted = false
        // The state after the character before the position (``steps``): whether its lead
        // byte starts a character of a Latin word (not before the first character).
        var state = 0
        var position = 0
        while true {
            let next = Self.nextStart(
                base, count: count, from: position, steps: steps, pairs: pairs, state: state)
            guard next.position < count else { break }
            position = next.position
            state = next.after
            let insideWord = next.before != 0
            let first = base[position]
            if position + 1 < count {
                // Three bytes that start no phrase (``prefixBits``) are passed over before
                // their bucket is read (one cache line fewer).
                var open = true
                if position + 2 < count {
                    let hash = Self.prefixHash(first, text[position + 1], text[position + 2])
                    open = buckets.prefixBits[hash >> 6] & (1 << UInt64(hash & 63)) != 0
                }
                let bucket = Self.bucket(first, text[position + 1])
                let (from, to) =
                    !open
                    ? (0, 0)
                    : insideWord
                        ? (Int(buckets.freeStarts[bucket]), Int(buckets.freeStarts[bucket + 1]))
                        : (Int(buckets.starts[bucket]), Int(buckets.starts[bucket + 1]))
                let entries = insideWord ? buckets.freeEntries : buckets.entries
                var slot = from
                let word = from < to ? Self.word(at: position, in: text) : 0
                while slot < to {
                    let entry = 3 * slot
                    slot += 1
                    // The first eight bytes at once, the rest of a longer phrase byte by byte.
                    guard word & entries[entry + 1] == entries[entry] else { continue }
                    let phrase = Int(entries[entry + 2])
                    let length = lengths[phrase]
                    let end = position + length
                    guard end <= count else { continue }
                    if length > 8 {
                        // Bytes 8 to 15 at once, the rest of a longer phrase byte by byte.
                        guard
                            Self.word(at: position + 8, in: text) & buckets.tails[2 * phrase + 1]
                                == buckets.tails[2 * phrase]
                        else { continue }
                        let offset = offsets[phrase]
                        var matched = 16
                        while matched < length, text[position + matched] == pool[offset + matched] {
                            matched += 1
                        }
                        guard matched >= length else { continue }
                    }
                    record(
                        phrase, at: position, end: end, in: text, lineFirst: lineFirst, counted: &counted,
                        phrases: &phrases, starts: &starts, counts: counts)
                }
            }
            let single = Int(singleByte[Int(first)])
            if single >= 0, !(insideWord && startsWord[single]) {
                record(
                    single, at: position, end: position + 1, in: text, lineFirst: lineFirst,
                    counted: &counted, phrases: &phrases, starts: &starts, counts: counts)
            }
            position += 1
        }
    }

    /// The first position from `position` on whose byte may start a phrase there: a
    /// continuation byte of UTF-8 starts none (every phrase is whole characters), inside a
    /// word only a phrase that needs no word boundary before it may start, and a byte that is
    /// no phrase of its own starts one only with the next byte (``pairBits``).
    /// - Parameter state: the state before `position` (``steps``).
    /// - Returns: the position (`count` when there is none), the state before it (inside a
    ///   word: `Text.wordBefore(text, position)`) and the state after its character.
    /// (A function of its own, so that its short loop keeps everything in registers.)
    @inline(never)
    private static func nextStart(
        _ base: UnsafePointer<UInt8>, count: Int, from start: Int, steps: UnsafePointer<UInt16>,
        pairs: UnsafePointer<UInt64>, state: Int
    ) -> (position: Int, before: Int, after: Int) {
        var position = start
        var state = state
        while position < count {
            let step = Int(steps[state &+ Int(base[position])])
            if step & candidateStep != 0 {
                if step & singleStep != 0 { return (position, state, step & insideStep) }
                if position + 1 < count {
                    let pair = Int(base[position]) << 8 | Int(base[position + 1])
                    if pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 {
                        return (position, state, step & insideStep)
                    }
                }
            }
            state = step & insideStep
            position += 1
        }
        return (count, state, state)
    }

    /// Appends an occurrence when it ends on a word boundary (if the phrase needs one) and
    /// one of its sets has fewer than ``perSetLimit`` occurrences in the line.
    /// - Parameters:
    ///   - lineFirst: the line's first slot in `phrases`.
    ///   - counted: whether `counts` holds the line's occurrences per set (from the
    ///     ``perSetLimit``-th occurrence of the line on; before it every occurrence is kept).
    @inline(__always) private func record(
        _ phrase: Int, at position: Int, end: Int, in text: UnsafeBufferPointer<UInt8>, lineFirst: Int,
        counted: inout Bool, phrases: inout [Int32], starts: inout [Int32],
        counts: UnsafeMutableBufferPointer<Int>
    ) {
        if endsWord[phrase], end < text.count {
            let byte = text[end]
            let wordAfter = byte < 0x80 ? Text.isWordByte(byte) : (byte >= 0xC3 && byte < 0xE0)
            if wordAfter { return }
        }
        if phrases.count - lineFirst >= Self.perSetLimit {
            if !counted {
                // Every occurrence so far was kept: count them by set.
                counted = true
                for index in counts.indices { counts[index] = 0 }
                for slot in lineFirst..<phrases.count {
                    var mask = setMasks[Int(phrases[slot])]
                    while mask != 0 {
                        counts[mask.trailingZeroBitCount] += 1
                        mask &= mask - 1
                    }
                }
            }
            var mask = setMasks[phrase]
            var open = false
            while mask != 0 {
                let set = mask.trailingZeroBitCount
                mask &= mask - 1
                if counts[set] < Self.perSetLimit { open = true }
                counts[set] += 1
            }
            guard open else { return }
        }
        phrases.append(Int32(phrase))
        starts.append(Int32(position))
    }
}

/// The occurrences of a ``PhraseIndex``'s phrases in every line of a document.
final class PhraseHits: Sendable {
    let index: PhraseIndex
    private let phrases: [Int32]
    private let starts: [Int32]
    /// Where each line's occurrences begin in ``phrases``, and one past the last line.
    private let lineStarts: [Int]
    /// Per line, the sets with an occurrence in it (bit `i` for the set whose
    /// ``PhraseSet/id`` is `i`).
    private let lineMasks: [UInt64]

    /// Scans the given lines (for a document: all of them, so that positions are line numbers
    /// of ``DocumentText/lines``).
    convenience init(index: PhraseIndex, lines: [[UInt8]]) {
        var text: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(lines.count)
        for line in lines {
            ranges.append(text.count..<(text.count + line.count))
            text += line
        }
        self.init(index: index, text: text, lines: ranges[...])
    }

    /// Scans a document's lines, all of them or the first `lineCount`.
    convenience init(index: PhraseIndex, text: DocumentText, lineCount: Int? = nil) {
        let ranges = text.foldedRanges
        self.init(index: index, text: text.foldedText, lines: ranges.prefix(lineCount ?? ranges.count))
    }

    /// Scans lines of folded bytes.
    /// - Parameters:
    ///   - text: the folded bytes of the lines.
    ///   - lines: each line's range in `text`; positions are indices in `lines`, from 0.
    init(index: PhraseIndex, text: [UInt8], lines: ArraySlice<Range<Int>>) {
        self.index = index
        var phrases: [Int32] = []
        var starts: [Int32] = []
        // Room for a few occurrences a line, so that the arrays seldom grow.
        phrases.reserveCapacity(max(32, lines.count * 2))
        starts.reserveCapacity(max(32, lines.count * 2))
        var lineStarts: [Int] = []
        lineStarts.reserveCapacity(lines.count + 1)
        var lineMasks: [UInt64] = []
        lineMasks.reserveCapacity(lines.count)
        index.scan(
            text, lines: lines, phrases: &phrases, starts: &starts, lineStarts: &lineStarts,
            lineMasks: &lineMasks)
        lineStarts.append(phrases.count)
        self.phrases = phrases
        self.starts = starts
        self.lineStarts = lineStarts
        self.lineMasks = lineMasks
    }

    /// Whether the set's phrases are read from these occurrences.
    func covers(_ set: PhraseSet) -> Bool {
        set.id >= 0 && set.id < index.sets.count && index.sets[set.id].phrases.count == set.phrases.count
    }

    /// What `set.matches(in: <bytes of line>, limit: limit)` returns.
    /// - Parameters:
    ///   - set: one of the index's sets.
    ///   - line: the line's position in the lines scanned.
    ///   - limit: at most ``PhraseIndex/perSetLimit``.
    func matches(_ set: PhraseSet, line: Int, limit: Int) -> [(Int, Range<Int>)] {
        let bit: UInt64 = 1 << UInt64(set.id)
        var slot = lineStarts[line]
        let end = lineStarts[line + 1]
        var found: [(Int, Range<Int>)] = []
        found.reserveCapacity(min(limit, end - slot))
        // The end of the occurrences kept so far (they come in order of position): when none
        // overlaps another, they are already what resolving overlaps gives.
        var reach = 0
        var overlapping = false
        while slot < end, found.count < limit {
            let phrase = Int(phrases[slot])
            if index.setMasks[phrase] & bit != 0 {
                let start = Int(starts[slot])
                let length = index.length(of: phrase)
                if !found.isEmpty && start < reach { overlapping = true }
                reach = max(reach, start + length)
                found.append((index.index(of: phrase, inSet: set.id), start..<(start + length)))
            }
            slot += 1
        }
        return overlapping ? PhraseSet.resolveOverlaps(found) : found
    }

    /// Calls `body` with each match `matches(set, line: line, limit: limit)` returns, in
    /// order, until it returns false. When the line's first `limit` occurrences of the set do
    /// not overlap (almost always), they are those matches, read where they are stored:
    /// no array is built.
    func forEachMatch(
        _ set: PhraseSet, line: Int, limit: Int, _ body: (_ index: Int, _ range: Range<Int>) -> Bool
    ) {
        let bit: UInt64 = 1 << UInt64(set.id)
        let first = lineStarts[line]
        let end = lineStarts[line + 1]
        // First pass: whether any two of the first `limit` occurrences overlap, and where the
        // last of them is.
        var found = 0
        var reach = 0
        var last = first
        var slot = first
        while slot < end, found < limit {
            let phrase = Int(phrases[slot])
            slot += 1
            guard index.setMasks[phrase] & bit != 0 else { continue }
            let start = Int(starts[slot - 1])
            if found > 0 && start < reach {
                for (index, range) in matches(set, line: line, limit: limit) where !body(index, range) {
                    return
                }
                return
            }
            reach = max(reach, start + index.length(of: phrase))
            found += 1
            last = slot
        }
        slot = first
        while slot < last {
            let phrase = Int(phrases[slot])
            slot += 1
            guard index.setMasks[phrase] & bit != 0 else { continue }
            let start = Int(starts[slot - 1])
            guard body(index.index(of: phrase, inSet: set.id), start..<(start + index.length(of: phrase)))
            else {
                return
            }
        }
    }

    /// How many matches `matches(set, line: line, limit: limit)` returns, without building
    /// them when the line's first `limit` occurrences of the set do not overlap (then every
    /// one of them is a match).
    func matchCount(_ set: PhraseSet, line: Int, limit: Int) -> Int {
        let bit: UInt64 = 1 << UInt64(set.id)
        var found = 0
        // The end of the occurrences read so far (they come in order of position).
        var reach = 0
        for slot in lineStarts[line]..<lineStarts[line + 1] {
            let phrase = Int(phrases[slot])
            guard index.setMasks[phrase] & bit != 0 else { continue }
            if found == limit { break }
            let start = Int(starts[slot])
            if found > 0 && start < reach { return matches(set, line: line, limit: limit).count }
            reach = max(reach, start + index.length(of: phrase))
            found += 1
        }
        return found
    }

    /// Whether the line holds an occurrence of any set's phrases.
    func hasOccurrences(line: Int) -> Bool { lineStarts[line] < lineStarts[line + 1] }

    /// The sets with an occurrence in the line, one bit per set (bit `i` for the set whose
    /// ``PhraseSet/id`` is `i`).
    func setsPresent(line: Int) -> UInt64 { lineMasks[line] }

    /// The first line from `line` on that holds an occurrence of the set's phrases, or the
    /// number of lines scanned when none does.
    func nextLine(containing set: PhraseSet, from line: Int) -> Int {
        let bit: UInt64 = 1 << UInt64(set.id)
        return lineMasks.withUnsafeBufferPointer { masks in
            var line = line
            while line < masks.count && masks[line] & bit == 0 { line += 1 }
            return line
        }
    }

    /// Whether the line holds any occurrence of the set's phrases.
    func containsMatch(_ set: PhraseSet, line: Int) -> Bool {
        lineMasks[line] & (1 << UInt64(set.id)) != 0
    }
}
