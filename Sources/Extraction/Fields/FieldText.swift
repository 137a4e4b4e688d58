import Foundation
import MailDocument

/// A set of Unicode scalars to trim, with its ASCII members in a table: the same trimming as
/// Foundation's `trimmingCharacters(in:)` without asking the character set about ASCII scalars.
///
/// Foundation trims UTF-16 code units, not characters: a scalar of the set is trimmed even
/// when a combining mark follows it, and a scalar beyond U+FFFF (two surrogate code units,
/// never members of the sets built here) never is.
struct TrimSet: Sendable {
    /// Bit `n % 8` of byte `n / 8`: whether scalar `n` of the Basic Multilingual Plane is in
    /// the set (Foundation's `bitmapRepresentation`, plane 0). Read once when the set is made:
    /// a `CharacterSet` itself is not asked from several threads at once, which Foundation on
    /// Linux does not survive (its lazily built internal tables race).
    private let plane0: [UInt8]
    /// Bit `n` of word `n / 64`: whether ASCII scalar `n` is in the set.
    private let ascii: (UInt64, UInt64)

    /// The set, its members read from `characterSet`'s bitmap.
    init(_ characterSet: CharacterSet) {
        var bitmap = [UInt8](characterSet.bitmapRepresentation.prefix(8192))
        if bitmap.count < 8192 { bitmap += [UInt8](repeating: 0, count: 8192 - bitmap.count) }
        plane0 = bitmap
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in 0..<128 where bitmap[value >> 3] & (1 << UInt8(value & 7)) != 0 {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
        ascii = (low, high)
    }

    /// Whether an ASCII byte (below 0x80) is in the set.
    @inline(__always) func containsASCII(_ byte: UInt8) -> Bool {
        byte < 64 ? ascii.0 & (1 << UInt64(byte)) != 0 : ascii.1 & (1 << UInt64(byte & 63)) != 0
    }

    /// Whether a scalar is trimmed: in the set, and one UTF-16 code unit.
    @inline(__always) func contains(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return containsASCII(UInt8(scalar.value)) }
        let value = Int(scalar.value)
        return value <= 0xFFFF && plane0[value >> 3] & (1 << UInt8(value & 7)) != 0
    }

    /// `text.trimmingCharacters(in: characterSet)`: the text without the scalars of the set at
    /// either end.
    func trimming(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        // Most texts start and end with an ASCII scalar outside the set.
        if first < 0x80 && last < 0x80 && !containsASCII(first) && !containsASCII(last) { return text }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !contains($0) }),
            let end = scalars.lastIndex(where: { !contains($0) })
        else { return "" }
        return String(scalars[start...end])
    }

    /// Whether every scalar of the text is trimmed (`trimming(text).isEmpty`).
    func containsAll(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { contains($0) }
    }
}

/// Byte-level tests on strings.
enum FieldText {
    /// `String(text.prefix(count))`: the text itself when it has no more than `count` UTF-8
    /// bytes (a character takes at least one byte).
    static func prefix(_ text: String, characters count: Int) -> String {
        text.utf8.count <= count ? text : String(text.prefix(count))
    }

    /// `body` over the text's UTF-8 bytes: read in place when the text stores them
    /// contiguously (as native strings do), else copied.
    @inline(__always) static func withBytes<Result>(
        of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether the text is all ASCII: its bytes read in place when it stores them
    /// contiguously (as native strings and their substrings do).
    @inline(__always) static func isASCII(_ text: some StringProtocol) -> Bool {
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) {
            return ascii
        }
        return text.utf8.allSatisfy { $0 < 0x80 }
    }
}

extension FieldText {
    /// Whether an ASCII byte is space to ``Text/trimmed(_:)`` (tab, line feed, vertical tab,
    /// form feed, carriage return, space).
    @inline(__always) static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// `Text.trimmed(String(decoding: bytes[range], as: UTF8.self))`, the range clamped to the
    /// bytes as ``TextLine/string(_:)`` clamps it.
    ///
    /// ASCII bytes decode to themselves whatever surrounds them, so ASCII space at either end
    /// is dropped byte by byte; when the bytes left start and end with ASCII, they are the
    /// trimmed text. Otherwise ``Text/trimmed(_:)`` decides about the other scalars.
    static func trimmedString(_ bytes: some ZeroBasedBytes, _ range: Range<Int>) -> String {
        var lower = max(0, min(range.lowerBound, bytes.count))
        var upper = max(lower, min(range.upperBound, bytes.count))
        while lower < upper && isASCIISpace(bytes[lower]) { lower += 1 }
        while upper > lower && isASCIISpace(bytes[upper - 1]) { upper -= 1 }
        guard lower < upper else { return "" }
        let text = bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[lower..<upper]), as: UTF8.self)
        }
        if bytes[lower] < 0x80 && bytes[upper - 1] < 0x80 { return text }
        return Text.trimmed(text)
    }

    /// Whether `Text.trimmed(String(decoding: bytes[range], as: UTF8.self))` is empty, the
    /// range clamped as in ``trimmedString(_:_:)``.
    static func isBlank(_ bytes: some ZeroBasedBytes, _ range: Range<Int>) -> Bool {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        var index = lower
        while index < upper {
            let byte = bytes[index]
            if byte >= 0x80 {
                return Text.trimmed(String(decoding: bytes[lower..<upper], as: UTF8.self)).isEmpty
            }
            if !isASCIISpace(byte) { return false }
            index += 1
        }
        return true
    }
}

extension FieldText {
    /// The text with full-width ASCII forms (U+FF01–U+FF5E: "２５０－１２３", "ＡＢ") read as
    /// ASCII, when it holds a full-width digit or Latin letter; otherwise the text itself.
    /// Japanese, Chinese and Korean emails print order numbers in either width; the number
    /// is the same (Unicode's compatibility decomposition of these forms, UAX #15).
    static func narrowedFullWidth(_ text: String) -> String {
        // Full-width forms are U+FF01–U+FF5E: EF BC 81 … EF BD 9E in UTF-8. Order numbers
        // are read from a value's first 120 characters, at most 480 bytes.
        let mayHold =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                guard let base = bytes.baseAddress else { return false }
                return memchr(base, 0xEF, min(bytes.count, 480)) != nil
            } ?? text.utf8.contains(0xEF)
        guard mayHold,
            text.unicodeScalars.contains(where: {
                (0xFF10...0xFF19).contains($0.value) || (0xFF21...0xFF3A).contains($0.value)
                    || (0xFF41...0xFF5A).contains($0.value)
            })
        else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                scalars.append(ascii)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether every scalar of the text is ``SimpleScalars/isStandalone(_:)``: then its
    /// characters are its scalars, and no two of them are canonically equivalent.
    @inline(__always) static func isSimple(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(SimpleScalars.isStandalone)
    }

    /// A fixed prefix or suffix, with whether it is ``isSimple(_:)`` worked out once.
    struct Affix: Sendable {
        let text: String
        let isSimple: Bool
        /// The number of characters.
        let count: Int
        /// The UTF-8 bytes.
        let bytes: [UInt8]
        /// Whether no ``FieldText/isSimple(_:)`` text starts or ends with the affix: it is one
        /// scalar, not ``SimpleScalars/isStandalone(_:)``, that is its own canonical
        /// decomposition ("㈜"). A simple text's first or last character is one standalone
        /// scalar, and no standalone scalar decomposes to a single scalar other than itself,
        /// so none is canonically equivalent to such an affix.
        let outsideSimpleText: Bool

        init(_ text: String) {
            self.text = text
            isSimple = FieldText.isSimple(text)
            count = text.count
            bytes = Array(text.utf8)
            let scalars = Array(text.unicodeScalars)
            outsideSimpleText =
                scalars.count == 1 && !SimpleScalars.isStandalone(scalars[0])
                && text.decomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(scalars)
        }
    }

    /// ``hasSuffix(_:_:simple:)`` for a suffix whose simplicity is known; byte by byte, last
    /// byte first, when both are simple.
    static func hasSuffix(_ text: String, _ suffix: Affix, simple: Bool) -> Bool {
        if simple && suffix.outsideSimpleText { return false }
        guard simple && suffix.isSimple else { return text.hasSuffix(suffix.text) }
        let needle = suffix.bytes
        var text = text
        return text.withUTF8 { bytes in
            guard needle.count <= bytes.count else { return false }
            let start = bytes.count - needle.count
            var index = needle.count - 1
            while index >= 0 {
                if bytes[start + index] != needle[index] { return false }
                index -= 1
            }
            return true
        }
    }

    /// ``hasPrefix(_:_:simple:)`` for a prefix whose simplicity is known.
    static func hasPrefix(_ text: String, _ prefix: Affix, simple: Bool) -> Bool {
        if simple && prefix.outsideSimpleText { return false }
        guard simple && prefix.isSimple else { return text.hasPrefix(prefix.text) }
        return text.utf8.starts(with: prefix.text.utf8)
    }

    /// `text.hasSuffix(suffix)`; byte by byte when both are ``isSimple(_:)`` (characters then
    /// compare as their scalars do).
    /// - Parameter simple: whether `text` is ``isSimple(_:)``, known to the caller.
    static func hasSuffix(_ text: String, _ suffix: String, simple: Bool) -> Bool {
        guard simple && isSimple(suffix) else { return text.hasSuffix(suffix) }
        let count = suffix.utf8.count
        guard count <= text.utf8.count else { return false }
        return text.utf8.suffix(count).elementsEqual(suffix.utf8)
    }

    /// `text.hasPrefix(prefix)`; byte by byte when both are ``isSimple(_:)``.
    /// - Parameter simple: whether `text` is ``isSimple(_:)``, known to the caller.
    static func hasPrefix(_ text: String, _ prefix: String, simple: Bool) -> Bool {
        guard simple && isSimple(prefix) else { return text.hasPrefix(prefix) }
        return text.utf8.starts(with: prefix.utf8)
    }
}

/// The host of a web URL read from its bytes, for the URLs nearly every email link is.
enum WebURLHost {
    /// What ``read(_:)`` found.
    enum Outcome: Equatable {
        /// The URL parses, and this is its host as written (not lower-cased).
        case host(Substring)
        /// The bytes do not decide: ask Foundation.
        case undecided
    }

    /// The host of `url` when it is `http://` or `https://` (any case) followed by a host of
    /// ASCII letters, digits, dots and hyphens (no user, no port, no IP literal, no punycode
    /// `xn--`, which Foundation decodes), and the
    /// rest is made only of characters RFC 3986 allows in a path, query and fragment
    /// (§3.3–3.5: unreserved, sub-delims, `:`, `@`, `/`, `?`, `%` with two hex digits) with at
    /// most one `#`. Such a URL parses with `URLComponents(string:)` and `URL(string:)`, and
    /// its host is the host written. Anything else is ``Outcome/undecided``.
    static func read(_ url: String) -> Outcome {
        var url = url
        let range: Range<Int>? = url.withUTF8 { bytes in hostRange(bytes) }
        guard let range else { return .undecided }
        let utf8 = url.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return .host(Substring(utf8[lower..<utf8.index(lower, offsetBy: range.count)]))
    }

    /// The byte range of the host, when ``read(_:)`` decides.
    private static func hostRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        // "http://" or "https://", in any case.
        guard bytes.count > 7, bytes[0] | 0x20 == 0x68, bytes[1] | 0x20 == 0x74, bytes[2] | 0x20 == 0x74,
            bytes[3] | 0x20 == 0x70
        else { return nil }
        var index = 4
        if bytes[index] | 0x20 == 0x73 { index += 1 }
        guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"),
            bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        index += 3
        let hostStart = index
        // Foundation decodes punycode labels (`xn--`): their host is not the one written.
        var punycode = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            guard isHostByte(byte) else { return nil }
            if byte == UInt8(ascii: "-"), index >= hostStart + 3, bytes[index - 1] == UInt8(ascii: "-"),
                bytes[index - 2] | 0x20 == 0x6E, bytes[index - 3] | 0x20 == 0x78
            {
                punycode = true
            }
            index += 1
        }
        let hostEnd = index
        guard hostStart < hostEnd, !punycode else { return nil }
        // Path, query and fragment.
        var fragments = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
                else {
                    return nil
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                fragments += 1
                if fragments > 1 { return nil }
            } else if !isPathByte(byte) {
                return nil
            }
            index += 1
        }
        return hostStart..<hostEnd
    }

    /// `URLComponents(string: url)?.host`, read from the bytes when ``read(_:)`` decides.
    static func componentsHost(_ url: String) -> String? {
        if case .host(let host) = read(url) { return String(host) }
        return URLComponents(string: url)?.host
    }

    /// `URL(string: url)?.host`, read from the bytes when ``read(_:)`` decides.
    static func urlHost(_ url: String) -> String? {
        if case .host(let host) = read(url) { return String(host) }
        return URL(string: url)?.host
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        KeywordScanner.isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// Unreserved, sub-delims, `:`, `@`, `/` and `?` (RFC 3986 §2.2, §2.3, §3.3–3.4).
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if KeywordScanner.isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}

extension FieldText {
    /// Whether `needle` occurs among `haystack`'s bytes (``Text/containsBytes(_:in:)`` over
    /// bytes read in place); an empty needle always does.
    static func containsBytes(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        needle.withUnsafeBufferPointer { containsBytes($0, in: haystack) }
    }

    /// ``containsBytes(_:in:)`` for a needle read in place too.
    static func containsBytes(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}

extension FieldText {
    /// Whether a scalar beyond ASCII is one that `lowercased()` leaves as it is, from ranges
    /// without upper-case letters: Latin-1 signs and small letters (U+00A0–U+00BF, U+00D7,
    /// U+00DF–U+00FF), general punctuation (U+2010–U+2027, U+2030–U+205E), currency signs
    /// (U+20A0–U+20C0), CJK symbols, kana, ideographs and Hangul syllables (U+3000–U+303F,
    /// U+3041–U+30FF, U+3400–U+4DBF, U+4E00–U+9FFF, U+AC00–U+D7A3), and full-width forms other
    /// than the capitals (U+FF01–U+FF20, U+FF3B–U+FF65, U+FFE0–U+FFE6). Any other scalar may
    /// change (false).
    @inline(__always) static func isCaseless(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xA0...0xBF, 0xD7, 0xDF...0xFF: return true
        case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0: return true
        case 0x3000...0x303F, 0x3041...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
        case 0xFF01...0xFF20, 0xFF3B...0xFF65, 0xFFE0...0xFFE6: return true
        default: return false
        }
    }

    /// `text.lowercased()`. `String.lowercased()` maps each scalar on its own; when every
    /// scalar beyond ASCII is ``isCaseless(_:)``, only A–Z change, and they are lower-cased
    /// byte by byte (the same length, no Unicode case mapping asked per scalar).
    static func lowercased(_ text: String) -> String {
        if !isASCII(text) {
            guard text.unicodeScalars.allSatisfy({ $0.isASCII || isCaseless($0) }) else {
                return text.lowercased()
            }
        }
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map(KeywordScanner.lower), as: UTF8.self)
    }

    /// `Text.collapsed(text)`: runs of white space made one space, none at either end. For
    /// ``isSimple(_:)`` text (which ``Text/collapsed(_:)`` reads scalar by scalar) the white
    /// space scalars are the tab, the space, U+00A0 (C2 A0) and U+3000 (E3 80 80), found among
    /// the bytes (no continuation byte is C2, E3, a tab or a space); the rest is copied as
    /// bytes into one buffer.
    static func collapsed(_ text: String) -> String {
        guard isSimple(text) else { return Text.collapsed(text) }
        var text = text
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var pendingSpace = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var spaceLength = 0
                if byte == 0x09 || byte == 0x20 {
                    spaceLength = 1
                } else if byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0 {
                    spaceLength = 2
                } else if byte == 0xE3 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && bytes[index + 2] == 0x80
                {
                    spaceLength = 3
                }
                if spaceLength > 0 {
                    pendingSpace = !result.isEmpty
                    index += spaceLength
                    continue
                }
                if pendingSpace {
                    result.append(0x20)
                    pendingSpace = false
                }
                result.append(byte)
                index += 1
            }
            return String(decoding: result, as: UTF8.self)
        }
    }
}
