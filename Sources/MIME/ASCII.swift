import Foundation

/// Byte-level ASCII helpers for hot paths (Foundation's string functions bridge to
/// NSString and cost far more than the parsing around them).
enum ASCII {
    /// Whether two strings are equal ignoring ASCII case.
    static func equalsIgnoringCase(_ left: String, _ right: String) -> Bool {
        let a = left.utf8
        let b = right.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard lower(x) == lower(y) else { return false }
        }
        return true
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// `text` without leading and trailing white space as `CharacterSet.whitespaces` has it
    /// (Unicode `Zs` and tab). Foundation's trimming runs only when an end is not a visible
    /// ASCII character (`!` … `~`), which no white space is: most names need none.
    static func trimmingWhitespace(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20,
            last < 0x7F
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The bytes without leading and trailing blanks (and the extra bytes given).
    static func trim<C: BidirectionalCollection<UInt8>>(_ bytes: C, also extra: [UInt8] = []) -> C.SubSequence
    {
        var slice = bytes[...]
        while let first = slice.first, isBlank(first) || extra.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, isBlank(last) || extra.contains(last) { slice = slice.dropLast() }
        return slice
    }

    /// Lower-cased, trimmed text of the bytes.
    static func lowercasedTrimmed<C: BidirectionalCollection<UInt8>>(_ bytes: C, also extra: [UInt8] = [])
        -> String
    {
        String(decoding: trim(bytes, also: extra).map(lower), as: UTF8.self)
    }

    /// Trimmed text of the bytes.
    static func trimmed<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> String {
        String(decoding: trim(bytes), as: UTF8.self)
    }
}
