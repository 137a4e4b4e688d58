import Foundation

/// ``Money``'s regular expression over UTF-8 bytes, for text whose characters it reads the
/// same way as the expression does.
///
/// The expression is `(?:(C)\s?-?\s?(N)(?:\s?(C))?|(N)\s?(C)(?!\s?\d))`, where `C` is a
/// currency (a symbol of ``Money/symbols``, or an ISO code of ``Money/codes`` with no ASCII
/// letter on either side) and `N` is a number:
/// `(\d{1,3}(?:[.,'\u00A0\u202F ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\d.,]*\d)`.
/// The matcher tries the same alternatives in the same order (greedy quantifiers first,
/// backtracking to shorter ones), so the same matches and groups come out. At one position at
/// most one currency fits, so the currency alternatives need no backtracking.
///
/// It reads text where `\d` is an ASCII digit and `\s` one of tab, line feed, form feed,
/// carriage return, space, U+00A0 and U+202F: other text (other decimal digits, spaces,
/// separators, control and format characters, unassigned scalars, a vertical tab, or more
/// than the expression reads) is left to the expression.
enum MoneyBytes {
    /// One match: its UTF-8 range and the five groups (nil when a group took no part), held in
    /// the match itself (no array allocated per match).
    struct Match {
        var range: Range<Int>
        var groups: (Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?)
    }

    /// The positions after `\s?` at `position`, in the order the expression tries them: after
    /// the space when there is one (else nil), then `position` itself.
    @inline(__always) static func afterOptionalSpace(
        _ bytes: UnsafeBufferPointer<UInt8>, at position: Int
    ) -> (Int?, Int) {
        (spaceLength(bytes, at: position).map { position + $0 }, position)
    }

    static let symbolBytes: [[UInt8]] = Money.symbols.map { Array($0.0.utf8) }

    /// The first bytes a currency can start with: each symbol's first byte and the capitals
    /// that start the ISO codes. At any other byte ``currencyLength(_:at:)`` answers at once.
    static let currencyFirstBytes: ByteSet = ByteSet(
        symbolBytes.compactMap(\.first) + Money.codes.compactMap { $0.utf8.first })

    /// The ISO codes of ``Money/codes`` keyed by their three bytes (first byte highest), each
    /// with the currency it names ("RMB" names "CNY"): a code is looked up without building an
    /// array or a string.
    static let codeKeys: [UInt32: String] = Dictionary(
        uniqueKeysWithValues: Money.codes.map { code in
            let bytes = Array(code.utf8)
            return (codeKey(bytes[0], bytes[1], bytes[2]), code == "RMB" ? "CNY" : code)
        })

    /// Three bytes as one key of ``codeKeys``.
    @inline(__always) static func codeKey(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> UInt32 {
        UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third)
    }

    /// The currency an ISO code at `range` names (``Money/code(for:defaultCurrency:)``: the code
    /// itself, "CNY" for "RMB"), or nil when the bytes are no code of ``Money/codes``.
    static func isoCode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count == 3 else { return nil }
        let start = range.lowerBound
        return codeKeys[codeKey(bytes[start], bytes[start + 1], bytes[start + 2])]
    }

    /// Positions in ``Money/symbols`` of the symbols ``Money/code(for:defaultCurrency:)`` reads
    /// with the email's currency: "$" (CAD, AUD, MXN) and "¥", "￥" (CNY).
    static let dollarSymbol = Money.symbols.firstIndex { $0.0 == "$" }
    static let yenSymbols = Money.symbols.indices.filter {
        Money.symbols[$0].0 == "¥" || Money.symbols[$0].0 == "￥"
    }

    /// ``Money/code(for:defaultCurrency:)`` for a currency a match found at `range` (an ISO code
    /// or a symbol of ``Money/symbols``), read from its bytes; nil for anything else (then the
    /// string is asked).
    ///
    /// An ISO code upper-cased is itself; no symbol upper-cased is a code (each holds "$", a
    /// point or a scalar outside ASCII), so a symbol's code is the one ``Money/symbols`` gives.
    static func currency(
        _ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, defaultCurrency: String?
    ) -> String? {
        if let code = isoCode(bytes, range) { return code }
        for (index, symbol) in symbolBytes.enumerated() where symbol.count == range.count {
            var offset = 0
            while offset < symbol.count && bytes[range.lowerBound + offset] == symbol[offset] { offset += 1 }
            guard offset == symbol.count else { continue }
            let code = Money.symbols[index].1
            if yenSymbols.contains(index) && defaultCurrency == "CNY" { return "CNY" }
            if index == dollarSymbol, let defaultCurrency, ["CAD", "AUD", "MXN"].contains(defaultCurrency) {
                return defaultCurrency
            }
            return code
        }
        return nil
    }

    /// Whether the matcher reads the text as the expression does.
    static func reads(_ text: String) -> Bool {
        var nonASCII = false
        let noVerticalTab = FieldText.withBytes(of: text) { bytes in
            for byte in bytes {
                if byte == 0x0B { return false }
                if byte >= 0x80 { nonASCII = true }
            }
            return true
        }
        guard noVerticalTab else { return false }
        // The expression searches the first 200,000 UTF-16 units only.
        guard text.utf8.count <= 200_000 else { return false }
        guard nonASCII else { return true }
        for scalar in text.unicodeScalars where !scalar.isASCII {
            if scalar.value == 0xA0 || scalar.value == 0x202F || isReadScalar(scalar) { continue }
            switch scalar.properties.generalCategory {
            case .decimalNumber, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
                .unassigned, .surrogate, .privateUse:
                return false
            default: continue
            }
        }
        return true
    }

    /// Whether a scalar beyond ASCII is one of the letters and signs emails are written in
    /// whose general category ``reads(_:)`` accepts, known without asking for it: Latin-1 and
    /// Latin Extended (U+00A1–U+024F but the soft hyphen U+00AD, a format character), kana
    /// (U+3041–U+3096, U+30A1–U+30FA), CJK ideographs (U+4E00–U+9FA5) and Hangul syllables
    /// (U+AC00–U+D7A3), all of them letters, marks-free signs or symbols assigned since
    /// Unicode 1.1. Any other scalar is asked (false).
    @inline(__always) static func isReadScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xA1...0xAC, 0xAE...0x24F: return true
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FA5, 0xAC00...0xD7A3: return true
        default: return false
        }
    }

    /// Every match, leftmost first and not overlapping, as the expression finds them.
    static func matches(in bytes: UnsafeBufferPointer<UInt8>) -> [Match] {
        var found: [Match] = []
        var start = 0
        while start < bytes.count {
            // A match starts on a character, never inside one.
            if bytes[start] & 0xC0 == 0x80 {
                start += 1
                continue
            }
            if let match = match(at: start, in: bytes) {
                found.append(match)
                start = match.range.upperBound
            } else {
                start += 1
            }
        }
        return found
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The length of the `\s` at a position, or nil.
    static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0: return 2
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xAF:
            return 3
        default: return nil
        }
    }

    /// The length of a thousands separator `[.,'\u00A0\u202F ]` at a position, or nil.
    static func groupSeparatorLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 0x2E, 0x2C, 0x27, 0x20: return 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0: return 2
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xAF:
            return 3
        default: return nil
        }
    }

    /// The length of the currency at a position, or nil.
    static func currencyLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let rest = bytes.count - index
        // Most bytes start no currency.
        guard rest > 0, currencyFirstBytes.contains(bytes[index]) else { return nil }
        for symbol in symbolBytes where symbol.count <= rest {
            var offset = 0
            while offset < symbol.count && bytes[index + offset] == symbol[offset] { offset += 1 }
            if offset == symbol.count { return symbol.count }
        }
        // (?<![A-Za-z])(?:codes)(?![A-Za-z])
        guard rest >= 3, index == 0 || !isLetter(bytes[index - 1]) else { return nil }
        guard rest == 3 || !isLetter(bytes[index + 3]) else { return nil }
        return codeKeys[codeKey(bytes[index], bytes[index + 1], bytes[index + 2])] != nil ? 3 : nil
    }

    /// `(?![\d.,]*\d)` at a position: no digit in the run of digits, points and commas there.
    static func numberEnds(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            if isDigit(byte) { return false }
            guard byte == 0x2E || byte == 0x2C else { break }
            position += 1
        }
        return true
    }

    /// The ends of the number `N` starting at a position, in the order the expression tries
    /// them (the lookahead included); `accept` is asked about each and the first end it
    /// accepts is returned.
    static func number(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, accept: (Int) -> Bool
    ) -> Int? {
        var digits = 0
        while start + digits < bytes.count && isDigit(bytes[start + digits]) { digits += 1 }
        guard digits > 0 else { return nil }
        // The optional decimal part after `end`: two digits, one digit, none.
        func withDecimals(_ end: Int) -> Int? {
            if end < bytes.count, bytes[end] == 0x2E || bytes[end] == 0x2C {
                if end + 2 < bytes.count, isDigit(bytes[end + 1]), isDigit(bytes[end + 2]),
                    numberEnds(bytes, at: end + 3), accept(end + 3)
                {
                    return end + 3
                }
                if end + 1 < bytes.count, isDigit(bytes[end + 1]), numberEnds(bytes, at: end + 2),
                    accept(end + 2)
                {
                    return end + 2
                }
            }
            if numberEnds(bytes, at: end), accept(end) { return end }
            return nil
        }
        // \d{1,3}(?:[sep]\d{3})+(?:[.,]\d{1,2})?
        for lead in stride(from: min(3, digits), through: 1, by: -1) {
            var groupEnds: [Int] = []
            var position = start + lead
            while let separator = groupSeparatorLength(bytes, at: position) {
                let first = position + separator
                guard first + 3 <= bytes.count, isDigit(bytes[first]), isDigit(bytes[first + 1]),
                    isDigit(bytes[first + 2])
                else { break }
                position = first + 3
                groupEnds.append(position)
            }
            for end in groupEnds.reversed() {
                if let found = withDecimals(end) { return found }
            }
        }
        // \d+(?:[.,]\d{1,2})?
        for count in stride(from: digits, through: 1, by: -1) {
            if let found = withDecimals(start + count) { return found }
        }
        return nil
    }

    /// The match at a position, or nil.
    static func match(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Match? {
        // (C)\s?-?\s?(N)(?:\s?(C))?
        if let currency = currencyLength(bytes, at: start) {
            let afterCurrency = start + currency
            // Each optional part is tried taken first, then left out (`choice` 0 and 1).
            let firstSpace = afterOptionalSpace(bytes, at: afterCurrency)
            for firstChoice in 0..<2 {
                guard let afterFirst = firstChoice == 0 ? firstSpace.0 : firstSpace.1 else { continue }
                let dash: Int? = afterFirst < bytes.count && bytes[afterFirst] == 0x2D ? afterFirst + 1 : nil
                for dashChoice in 0..<2 {
                    guard let afterDash = dashChoice == 0 ? dash : afterFirst else { continue }
                    let secondSpace = afterOptionalSpace(bytes, at: afterDash)
                    for secondChoice in 0..<2 {
                        guard let numberStart = secondChoice == 0 ? secondSpace.0 : secondSpace.1,
                            let numberEnd = number(bytes, at: numberStart, accept: { _ in true })
                        else { continue }
                        var end = numberEnd
                        var tail: Range<Int>?
                        if let space = spaceLength(bytes, at: numberEnd),
                            let trailing = currencyLength(bytes, at: numberEnd + space)
                        {
                            tail = (numberEnd + space)..<(numberEnd + space + trailing)
                        } else if let trailing = currencyLength(bytes, at: numberEnd) {
                            tail = numberEnd..<(numberEnd + trailing)
                        }
                        if let tail { end = tail.upperBound }
                        return Match(
                            range: start..<end,
                            groups: (start..<afterCurrency, numberStart..<numberEnd, tail, nil, nil))
                    }
                }
            }
        }
        // (N)\s?(C)(?!\s?\d)
        var found: (number: Int, currency: Range<Int>)?
        _ = number(bytes, at: start) { numberEnd in
            let currencyStart = afterOptionalSpace(bytes, at: numberEnd)
            for choice in 0..<2 {
                guard let currencyStart = choice == 0 ? currencyStart.0 : currencyStart.1,
                    let currency = currencyLength(bytes, at: currencyStart)
                else { continue }
                let end = currencyStart + currency
                // (?!\s?\d)
                if end < bytes.count, isDigit(bytes[end]) { continue }
                if let space = spaceLength(bytes, at: end), end + space < bytes.count,
                    isDigit(bytes[end + space])
                {
                    continue
                }
                found = (numberEnd, currencyStart..<end)
                return true
            }
            return false
        }
        guard let found else { return nil }
        return Match(
            range: start..<found.currency.upperBound,
            groups: (nil, nil, nil, start..<found.number, found.currency))
    }
}
