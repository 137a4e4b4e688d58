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
    }

    /// Every occurrence, ordered by start.
    func scan(_ text: [UInt8]) -> [Hit] {
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

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
