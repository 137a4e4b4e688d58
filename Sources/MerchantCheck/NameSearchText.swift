import Foundation

/// A text prepared for looking up many names in it, with the meaning of
/// ``EmailText/containsName(_:in:)`` and without asking Foundation to search the whole text
/// for each name.
///
/// Foundation's search ignoring case and diacritics folds the text afresh, character by
/// character, on every call: about 80 ms for each name in an email of 1.5 MB, and `check`
/// asks for a few hundred names (every carrier's). Here the text is folded once, a Unicode
/// scalar at a time: ASCII letters lower-cased, every other scalar as Foundation folds it
/// alone (`String.folding(options: [.caseInsensitive, .diacriticInsensitive])`, which takes
/// `é` to `e`, `ß` to `ss`, the Kelvin sign U+212A to `k`), without combining marks (`e` and
/// U+0301 fold as `é` does). A name is looked up as bytes in that folding, and only a line
/// holding it is searched by ``EmailText/containsName(_:in:)`` itself, so the answer is
/// that function's: a name holds no line break, so a match never spans one, and both ends of
/// a line are word boundaries, as in the whole text. An all-capital ASCII name, which matches
/// its case, is looked up as it is written. A name with `ß` (or `ẞ`) is searched in the whole
/// text by ``EmailText/containsName(_:in:)``: Foundation's search finds `ß` in `S` followed by
/// any letter above ASCII, such as the Kelvin sign or `İ`, which its own folding does not
/// give, and the byte search must never rule out a name that search finds.
struct NameSearchText {
    /// The text's UTF-8.
    private let bytes: [UInt8]
    /// Where each line of ``bytes`` starts: 0, then the offset after each line feed.
    private let lineStarts: [Int]
    /// The folded text; its line feeds are the text's, one for one.
    private let folded: [UInt8]
    /// Where each line of ``folded`` starts.
    private let foldedLineStarts: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var cache: [UInt32: [UInt8]] = [:]
        (folded, foldedLineStarts, lineStarts) = Self.fold(bytes, cache: &cache)
    }

    /// Whether `name` appears in the text as ``EmailText/containsName(_:in:)`` finds it.
    func containsName(_ name: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !bytes.isEmpty, EmailText.namesSomething(trimmed) else { return false }
        let text = { String(decoding: bytes, as: UTF8.self) }
        // A name across lines is searched in the whole text (no name in the rules is), and so
        // is a name with a sharp s (see the type's description).
        if trimmed.utf8.contains(0x0A) || trimmed.unicodeScalars.contains(where: { $0 == "ß" || $0 == "ẞ" }) {
            return EmailText.containsName(trimmed, in: text())
        }
        let key: [UInt8]
        let haystack: [UInt8]
        let starts: [Int]
        if EmailText.isAllCapitals(trimmed) {
            (key, haystack, starts) = (Array(trimmed.utf8), bytes, lineStarts)
        } else {
            var cache: [UInt32: [UInt8]] = [:]
            (key, haystack, starts) = (
                Self.fold(Array(trimmed.utf8), cache: &cache).folded, folded, foldedLineStarts
            )
        }
        // A name that folds to nothing (default-ignorable scalars and marks): every position
        // would be a hit of the byte search.
        guard !key.isEmpty else { return EmailText.containsName(trimmed, in: text()) }
        var from = 0
        while let hit = ByteSearch.find(key, in: haystack, from: from) {
            let line = Self.line(holding: hit, starts: starts)
            let start = lineStarts[line]
            let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
            if EmailText.containsName(trimmed, in: String(decoding: bytes[start..<end], as: UTF8.self)) {
                return true
            }
            guard line + 1 < starts.count else { return false }
            from = starts[line + 1]
        }
        return false
    }

    /// The index of the line that holds `offset`: the last start at or before it.
    private static func line(holding offset: Int, starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// `utf8` folded a scalar at a time (see the type's description), where each of its lines
    /// starts, and where each line of `utf8` starts.
    /// - Parameter cache: the folding of each scalar above ASCII met so far.
    private static func fold(_ utf8: [UInt8], cache: inout [UInt32: [UInt8]])
        -> (folded: [UInt8], lineStarts: [Int], sourceLineStarts: [Int])
    {
        var folded: [UInt8] = []
        folded.reserveCapacity(utf8.count)
        var lineStarts = [0]
        var sourceLineStarts = [0]
        utf8.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let byte = input[offset]
                if byte < 0x80 {
                    folded.append(ByteSearch.lowercased(byte))
                    offset += 1
                    if byte == 0x0A {
                        lineStarts.append(folded.count)
                        sourceLineStarts.append(offset)
                    }
                    continue
                }
                // A valid sequence (the bytes come from a String): the lead byte gives its length.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                var value = UInt32(byte & (0x7F >> length))
                for next in input[(offset + 1)..<min(offset + length, input.count)] {
                    value = value << 6 | UInt32(next & 0x3F)
                }
                offset += length
                if let known = cache[value] {
                    folded.append(contentsOf: known)
                } else {
                    let scalarFolded = foldScalar(value)
                    cache[value] = scalarFolded
                    folded.append(contentsOf: scalarFolded)
                }
            }
        }
        return (folded, lineStarts, sourceLineStarts)
    }

    /// One scalar above ASCII as Foundation folds it alone, without combining marks, in UTF-8.
    private static func foldScalar(_ value: UInt32) -> [UInt8] {
        guard let scalar = Unicode.Scalar(value) else { return [] }
        let folding = String(Character(scalar)).folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var result: [UInt8] = []
        for part in folding.unicodeScalars
        where ![.nonspacingMark, .enclosingMark].contains(part.properties.generalCategory) {
            result.append(contentsOf: String(part).utf8)
        }
        return result
    }
}
