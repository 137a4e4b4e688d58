/// Finds many short phrases in UTF-8 text in one pass: carrier names, tracking labels,
/// labels of other numbers. ASCII letters compare without case unless an entry asks for
/// case; other bytes compare exactly.
struct KeywordScanner: Sendable {
    struct Entry: Sendable {
        var bytes: [UInt8]
        var caseSensitive: Bool
        var wordBoundaryStart: Bool
        var wordBoundaryEnd: Bool
        var tag: Int
    }

    struct Hit: Sendable, Hashable {
        var tag: Int
        var start: Int
        var end: Int
    }

    private var entries: [Entry] = []
    private var buckets: [[Int]] = Array(repeating: [], count: 256)

    /// Adds a phrase.
    /// - Parameters:
    ///   - phrase: the text to find; empty phrases are ignored.
    ///   - tag: returned with every hit.
    ///   - caseSensitive: compare ASCII letters exactly.
    ///   - wordBoundary: `nil` for automatic (ASCII alphanumeric ends need a non-alphanumeric
    ///     neighbour), `false` for none.
    mutating func add(_ phrase: String, tag: Int, caseSensitive: Bool = false, wordBoundary: Bool? = nil) {
        var bytes = Array(phrase.utf8)
        guard !bytes.isEmpty else { return }
        if !caseSensitive { bytes = bytes.map(Self.lower) }
        let automatic = wordBoundary ?? true
        let entry = Entry(
            bytes: bytes, caseSensitive: caseSensitive,
            wordBoundaryStart: automatic && Self.isAlphanumeric(bytes[0]),
            wordBoundaryEnd: automatic && Self.isAlphanumeric(bytes[bytes.count - 1]), tag: tag)
        entries.append(entry)
        buckets[Int(bytes[0])].append(entries.count - 1)
        if !caseSensitive, bytes[0] >= UInt8(ascii: "a"), bytes[0] <= UInt8(ascii: "z") {
            buckets[Int(bytes[0] - 32)].append(entries.count - 1)
        }
    }

    /// Every occurrence, ordered by start.
    func scan(_ text: [UInt8]) -> [Hit] {
        var hits: [Hit] = []
        let count = text.count
        var index = 0
        while index < count {
            let byte = text[index]
            let bucket = buckets[Int(byte)]
            if !bucket.isEmpty {
                for entryIndex in bucket {
                    let entry = entries[entryIndex]
                    let length = entry.bytes.count
                    guard index + length <= count else { continue }
                    var matches = true
                    for offset in 0..<length {
                        let textByte = text[index + offset]
                        let candidate = entry.caseSensitive ? textByte : Self.lower(textByte)
                        if candidate != entry.bytes[offset] {
                            matches = false
                            break
                        }
                    }
                    guard matches else { continue }
                    if entry.wordBoundaryStart, index > 0, Self.isAlphanumeric(text[index - 1]) { continue }
                    if entry.wordBoundaryEnd, index + length < count,
                        Self.isAlphanumeric(text[index + length])
                    {
                        continue
                    }
                    hits.append(Hit(tag: entry.tag, start: index, end: index + length))
                }
            }
            index += 1
        }
        return hits
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
