import Foundation
import MailDocument

/// Telling an order number from the other numbers near an order label.
enum OrderNumberToken {
    /// Characters an order number is made of.
    static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "-" || character == "_"
            || character == "/"
            || character == "."
    }

    /// The order number at the start of a labelled value, or nil when what follows the label
    /// is not one (a word, a date, a phone number, a price).
    /// - Parameters:
    ///   - value: the text after the label.
    ///   - fillers: folded words skipped before the value ("is", "no.").
    ///   - minimumLength: the shortest number accepted.
    static func extract(from value: String, fillers: Set<String>, minimumLength: Int) -> String? {
        extract(from: value, fillers: FillerWords(fillers), minimumLength: minimumLength)
    }

    /// ``extract(from:fillers:minimumLength:)`` with the fillers' longest length known.
    /// - Parameter minimumLength: the shortest number accepted; nil to take the token that
    ///   would be tested, however implausible (``token(from:fillers:)``).
    static func extract(from value: String, fillers: FillerWords, minimumLength: Int?) -> String? {
        if let fast = extractASCII(from: value, fillers: fillers, minimumLength: minimumLength) {
            return fast
        }
        if let scalars = extractScalars(from: value, fillers: fillers, minimumLength: minimumLength) {
            return scalars
        }
        return extractCharacters(from: value, fillers: fillers.words, minimumLength: minimumLength)
    }

    /// A short order number that is the whole value after a strong order-number label
    /// ("Order number: 42", "Order #7", "Bestellnummer: HX-3"), or nil.
    ///
    /// ``extract(from:fillers:minimumLength:)`` wants three digits or more, so that numbers
    /// merely near an order word (quantities, "2 of 3", prices) are not taken; a new shop's
    /// first orders have shorter numbers. Such a number is taken only when nothing but filler
    /// words ("is", "no.") stands before it in the value and nothing but closing punctuation
    /// after it, or another label ("Total:", also after a separator such as `|`). Shapes
    /// accepted (ASCII): one to four digits, not all zeros (four digits that
    /// read as a year are refused by ``isPlausible(_:minimumLength:)`` but not here: after a
    /// strong label, "Order number: 2026" is an order number); or two to five capital letters
    /// and digits, with at least one of each, in at most two groups joined by one hyphen
    /// (`AB12`, `HX-3`; `2pcs` is a quantity).
    /// - Parameters:
    ///   - value: the text after the label (``LabelledValue/value``).
    ///   - fillers: folded words skipped before the value.
    static func shortLabelled(_ value: String, fillers: Set<String>) -> String? {
        guard value.utf8.count <= 64 else { return nil }
        var words = value.split(separator: " ", omittingEmptySubsequences: true)
        var skipped = 0
        while words.count > 1, skipped < 3, fillers.contains(words[0].lowercased()) {
            words.removeFirst()
            skipped += 1
        }
        // Another label right after it ("Order number: OL-1 Total: $10.00", "OL-3 | Total:", one
        // line of a layout read as one): the number's value ends there.
        if words.count > 1 {
            let next = words.dropFirst().first { !$0.allSatisfy { "|·•/-–—,;".contains($0) } }
            if let next, next.hasSuffix(":") || next.hasSuffix("：") { words = [words[0]] }
        }
        guard words.count == 1 else { return nil }
        var token = Array(words[0].utf8)
        while let last = token.last,
            [
                UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ")"),
                UInt8(ascii: "!"), UInt8(ascii: ";"),
            ].contains(last)
        {
            token.removeLast()
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isLetter(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        let digits = token.filter(isDigit).count
        let letters = token.filter(isLetter).count
        let hyphens = token.filter { $0 == UInt8(ascii: "-") }.count
        guard digits + letters + hyphens == token.count, digits >= 1 else { return nil }
        if letters == 0 && hyphens == 0 {
            guard token.count <= 4, token.contains(where: { $0 != 0x30 }) else { return nil }
        } else {
            guard letters >= 1, hyphens <= 1, (2...5).contains(token.count),
                token.first != UInt8(ascii: "-"), token.last != UInt8(ascii: "-")
            else { return nil }
        }
        return String(decoding: token, as: UTF8.self)
    }

    /// ``extract(from:fillers:minimumLength:)`` over Unicode scalars, for a value whose first
    /// 121 scalars are all ``SimpleScalars/isStandalone(_:)``: then every scalar there is one
    /// `Character`, so the 120-character prefix is the first 120 scalars and splitting,
    /// trimming and testing scalars is the same as doing so with characters.
    ///
    /// Words that are not ASCII are lower-cased as the character path does (`lowercased()`),
    /// so fillers compare the same.
    /// - Returns: nil when another scalar comes first (the character path decides); else the outcome.
    static func extractScalars(from value: String, fillers: Set<String>, minimumLength: Int) -> String?? {
        extractScalars(from: value, fillers: FillerWords(fillers), minimumLength: minimumLength)
    }

    /// ``extractScalars(from:fillers:minimumLength:)`` with the fillers' longest length known.
    static func extractScalars(from value: String, fillers: FillerWords, minimumLength: Int?) -> String?? {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(min(value.utf8.count, 121))
        for scalar in value.unicodeScalars {
            guard SimpleScalars.isStandalone(scalar) else { return nil }
            if scalars.count == 120 { break }
            scalars.append(scalar)
        }
        func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\u{00A0}" || scalar == "\t"
        }
        // The word starting at or after `from`.
        func word(from: Int) -> Range<Int>? {
            var index = from
            while index < scalars.count && isSeparator(scalars[index]) { index += 1 }
            guard index < scalars.count else { return nil }
            let start = index
            while index < scalars.count && !isSeparator(scalars[index]) { index += 1 }
            return start..<index
        }
        // A word with more characters than the longest filler has bytes is none.
        func isFiller(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
            // Each scalar here lower-cases to one character (other than `:`, `：`, `#`), and a
            // filler has no more characters than bytes.
            var kept = 0
            for scalar in word where scalar != ":" && scalar != "：" && scalar != "#" { kept += 1 }
            return kept <= fillers.longest && fillers.words.contains(foldedFiller(word))
        }
        var next = 0
        var skipped = 0
        var chosen: Range<Int>?
        while let found = word(from: next) {
            if skipped < 3 && isFiller(scalars[found]) {
                skipped += 1
                next = found.upperBound
                continue
            }
            chosen = found
            break
        }
        guard let chosen else { return .some(nil) }
        var start = chosen.lowerBound
        while start < chosen.upperBound, isOpening(scalars[start]) { start += 1 }
        var tokenEnd = start
        while tokenEnd < chosen.upperBound, scalars[tokenEnd].isASCII,
            isTokenByte(UInt8(scalars[tokenEnd].value))
        {
            tokenEnd += 1
        }
        // A token glued to something else (a price, an email address, CJK text) is not a number we trust.
        if tokenEnd < chosen.upperBound {
            let next = scalars[tokenEnd]
            if !isClosing(next) && !isCJK(next) { return .some(nil) }
        }
        while tokenEnd > start, scalars[tokenEnd - 1].isASCII,
            isTrailingByte(UInt8(scalars[tokenEnd - 1].value))
        {
            tokenEnd -= 1
        }
        let token = String(decoding: scalars[start..<tokenEnd].map { UInt8($0.value) }, as: UTF8.self)
        return .some(plausible(token, minimumLength: minimumLength))
    }

    /// A word as the character path compares it with the fillers: lower-cased, without `:`,
    /// `：` and `#`.
    ///
    /// The scalars are dropped before lower-casing: each standalone scalar lower-cases to one
    /// character on its own (the standard library maps scalar by scalar), and only these
    /// three are those characters.
    static func foldedFiller(_ word: ArraySlice<Unicode.Scalar>) -> String {
        var ascii = true
        let text = String(unsafeUninitializedCapacity: word.count * 4) { buffer in
            var count = 0
            for scalar in word where scalar != ":" && scalar != "：" && scalar != "#" {
                if scalar.isASCII {
                    buffer[count] = KeywordScanner.lower(UInt8(scalar.value))
                    count += 1
                } else {
                    ascii = false
                    UTF8.encode(scalar) { byte in
                        buffer[count] = byte
                        count += 1
                    }
                }
            }
            return count
        }
        // (``FieldText/lowercased(_:)`` is `lowercased()`, without the case mapping for
        // scalars that have no case.)
        return ascii ? text : FieldText.lowercased(text)
    }

    /// Whether a scalar is one of `#＃:：(（[【`, dropped before an order number.
    @inline(__always) private static func isOpening(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "#", "＃", ":", "：", "(", "（", "[", "【": true
        default: false
        }
    }

    /// Whether a scalar is one of `)）]】,，;。.、!`, which may follow an order number.
    @inline(__always) private static func isClosing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ")", "）", "]", "】", ",", "，", ";", "。", ".", "、", "!": true
        default: false
        }
    }

    /// ``isCJK(_:)`` for a character of one scalar.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x9FFF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
            || (0xFF00...0xFFEF).contains(scalar.value)
    }

    /// ``extract(from:fillers:minimumLength:)`` over the value's leading ASCII bytes, when
    /// they decide it.
    ///
    /// Printable ASCII bytes and tabs before any other byte are one `Character` each (the last
    /// of them excepted when something else follows: a combining mark would join it), so
    /// splitting, trimming and testing them is the same as doing so with characters. When the
    /// first 121 bytes are all such, the whole 120-character prefix is known; otherwise the
    /// known part ends before the last ASCII byte, and any step that needs to look further
    /// gives up.
    /// - Returns: nil when the leading ASCII bytes do not decide; else the outcome.
    static func extractASCII(from value: String, fillers: Set<String>, minimumLength: Int) -> String?? {
        extractASCII(from: value, fillers: FillerWords(fillers), minimumLength: minimumLength)
    }

    /// ``extractASCII(from:fillers:minimumLength:)`` with the fillers' longest length known.
    static func extractASCII(from value: String, fillers: FillerWords, minimumLength: Int?) -> String?? {
        var value = value
        return value.withUTF8 { all -> String?? in
            var known = 0
            while known < all.count && known < 121 {
                let byte = all[known]
                guard (byte >= 0x20 && byte < 0x7F) || byte == 0x09 else { break }
                known += 1
            }
            // Whether the known bytes reach the end of the 120-character prefix.
            let complete = known == min(all.count, 121)
            let end = complete ? min(all.count, 120) : known - 1
            guard end >= 0 else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: all.prefix(end))
            func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            // The word starting at or after `from`: its range, and whether its end is known.
            func word(from: Int) -> (range: Range<Int>, closed: Bool)? {
                var index = from
                while index < bytes.count && isSeparator(bytes[index]) { index += 1 }
                guard index < bytes.count else { return nil }
                let start = index
                while index < bytes.count && !isSeparator(bytes[index]) { index += 1 }
                return (start..<index, index < bytes.count || complete)
            }
            var next = 0
            var skipped = 0
            var chosen: (range: Range<Int>, closed: Bool)?
            while true {
                guard let found = word(from: next) else {
                    // No further word: the value has none (complete), or it is beyond what is known.
                    return complete ? .some(nil) : nil
                }
                if skipped < 3 {
                    guard found.closed else { return nil }
                    // The word lower-cased without `:` and `#`, written straight into the
                    // string (a short one is kept inline, with nothing allocated).
                    let word = UnsafeBufferPointer(rebasing: bytes[found.range])
                    var length = 0
                    for byte in word where byte != UInt8(ascii: ":") && byte != UInt8(ascii: "#") {
                        length += 1
                    }
                    // A filler equal to ASCII text has at least as many bytes: a longer word is
                    // none, and is not hashed.
                    let folded =
                        length > fillers.longest
                        ? ""
                        : String(unsafeUninitializedCapacity: word.count) { buffer in
                            var length = 0
                            for byte in word where byte != UInt8(ascii: ":") && byte != UInt8(ascii: "#") {
                                buffer[length] = KeywordScanner.lower(byte)
                                length += 1
                            }
                            return length
                        }
                    if length <= fillers.longest && fillers.words.contains(folded) {
                        skipped += 1
                        next = found.range.upperBound
                        continue
                    }
                }
                chosen = found
                break
            }
            guard let chosen else { return nil }
            var start = chosen.range.lowerBound
            let wordEnd = chosen.range.upperBound
            while start < wordEnd, isOpeningByte(bytes[start]) { start += 1 }
            var tokenEnd = start
            while tokenEnd < wordEnd, isTokenByte(bytes[tokenEnd]) { tokenEnd += 1 }
            if tokenEnd == wordEnd && !chosen.closed { return nil }
            // A token glued to something else (a price, an email address) is not a number we trust.
            if tokenEnd < wordEnd, !isClosingByte(bytes[tokenEnd]) { return .some(nil) }
            while tokenEnd > start, isTrailingByte(bytes[tokenEnd - 1]) { tokenEnd -= 1 }
            let trimmed = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[start..<tokenEnd]), as: UTF8.self)
            return .some(plausible(trimmed, minimumLength: minimumLength))
        }
    }

    /// Whether a byte is one of `#:([`, dropped before an order number read from ASCII.
    @inline(__always) static func isOpeningByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "#") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "(")
            || byte == UInt8(ascii: "[")
    }

    /// Whether a byte is one of `)],;.!`, which may follow an order number read from ASCII.
    @inline(__always) static func isClosingByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "."),
            UInt8(ascii: "!"):
            true
        default: false
        }
    }

    /// Whether a byte is one of `.-_/`, cut from the end of an order number.
    @inline(__always) static func isTrailingByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "/")
    }

    /// ASCII letters, digits, `-`, `_`, `/` and `.`: ``isTokenCharacter(_:)`` for one byte.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        KeywordScanner.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".")
    }

    /// ``extract(from:fillers:minimumLength:)`` character by character, for any text.
    static func extractCharacters(from value: String, fillers: Set<String>, minimumLength: Int?) -> String? {
        var words = value.prefix(120).split(
            maxSplits: 5, omittingEmptySubsequences: true,
            whereSeparator: { $0 == " " || $0 == "\u{00A0}" || $0 == "\t" }
        )[...]
        var skipped = 0
        while let first = words.first, skipped < 3,
            fillers.contains(first.lowercased().filter { !":：#".contains($0) })
        {
            words = words.dropFirst()
            skipped += 1
        }
        guard var word = words.first.map(String.init) else { return nil }
        while let first = word.first, "#＃:：(（[【".contains(first) { word.removeFirst() }
        let token = String(word.prefix(while: isTokenCharacter))
        // A token glued to something else (a price, an email address, CJK text) is not a number we trust.
        let rest = word.dropFirst(token.count)
        if let next = rest.first, !")）]】,，;。.、!".contains(next) && !isCJK(next) { return nil }
        let trimmed = String(token.reversed().drop(while: { ".-_/".contains($0) }).reversed())
        return plausible(trimmed, minimumLength: minimumLength)
    }

    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return (0x3000...0x9FFF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
            || (0xFF00...0xFFEF).contains(scalar.value)
    }

    /// Whether a token can be an order number: long enough, with digits, and not shaped like
    /// a date, a time, a phone number or a price.
    /// The token when it ``isPlausible(_:minimumLength:)`` (any token when `minimumLength` is
    /// nil), else nil.
    static func plausible(_ token: String, minimumLength: Int?) -> String? {
        guard let minimumLength else { return token }
        return isPlausible(token, minimumLength: minimumLength) ? token : nil
    }

    /// The token ``extract(from:fillers:minimumLength:)`` tests at the start of a value, before
    /// the test: `extract(from: value, fillers: fillers, minimumLength: m)` is this token when
    /// `isPlausible(token, minimumLength: m)`, else nil (the minimum length plays no other
    /// part), so a value read for several minimum lengths is read once.
    static func token(from value: String, fillers: FillerWords) -> String? {
        extract(from: value, fillers: fillers, minimumLength: nil)
    }

    /// The token's length as ``isPlausible(_:minimumLength:)`` counts it (bytes for an ASCII
    /// token without a carriage return, else characters) when the token is plausible with no
    /// minimum length, else nil: `isPlausible(token, minimumLength: m)` is
    /// `plausibleLength(token).map { $0 >= m } ?? false`, the minimum length playing no other
    /// part, so a token is tested once for several minimum lengths.
    static func plausibleLength(_ token: String) -> Int? {
        if let plausible = isPlausibleASCII(token, minimumLength: 0) {
            return plausible ? token.utf8.count : nil
        }
        return isPlausibleCharacters(token, minimumLength: 0) ? token.count : nil
    }

    static func isPlausible(_ token: String, minimumLength: Int) -> Bool {
        if let plausible = isPlausibleASCII(token, minimumLength: minimumLength) { return plausible }
        return isPlausibleCharacters(token, minimumLength: minimumLength)
    }

    /// ``isPlausible(_:minimumLength:)`` over the bytes of an ASCII token without a carriage
    /// return (each byte one character; ASCII digits are its only numbers); nil for another token.
    static func isPlausibleASCII(_ token: String, minimumLength: Int) -> Bool? {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isSeparator(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
        }
        var digits = 0
        var allDigits = true
        for byte in token.utf8 {
            guard byte < 0x80 && byte != 0x0D else { return nil }
            if isDigit(byte) {
                digits += 1
            } else if !isSeparator(byte) {
                allDigits = false
            }
        }
        let count = token.utf8.count
        guard count >= minimumLength, count <= 40 else { return false }
        guard digits >= 3 || (digits >= 1 && count >= 6) else { return false }
        if let first = token.utf8.first, isSeparator(first) { return false }
        // With another byte than digits and separators, the token is no date, phone number or
        // price, and no year (`Int` reads at most a sign before digits; "+999" is no year).
        if !allDigits { return true }
        return token.utf8.withContiguousStorageIfAvailable { bytes in
            !DigitGroups(bytes).looksLikeDateOrPhoneOrPriceOrYear
        } ?? !DigitGroups(Array(token.utf8)).looksLikeDateOrPhoneOrPriceOrYear
    }

    /// The runs of digits of a token made of ASCII digits and the separators `-`, `.` and `/`
    /// (the groups ``isPlausibleCharacters(_:minimumLength:)`` splits it into), read from its
    /// bytes without building a string per group: how many there are, the length and value
    /// of the first four, and what the separators are.
    struct DigitGroups {
        /// The number of groups.
        private(set) var count = 0
        /// The lengths of the first four groups (0 past ``count``).
        private var lengths: (Int, Int, Int, Int) = (0, 0, 0, 0)
        /// The values of the first four groups as `Int(_:)` reads their digits: nil when one
        /// does not fit in an `Int`.
        private var values: (Int?, Int?, Int?, Int?) = (0, 0, 0, 0)
        /// The first separator byte, and whether every separator byte is the same.
        private var separator: UInt8?
        private var oneSeparator = true
        /// Whether a point is among the separators.
        private var hasPoint = false
        /// The token's length in bytes.
        private let byteCount: Int

        /// - Parameter bytes: the token; only ASCII digits and `-`, `.`, `/`.
        init(_ bytes: some Collection<UInt8>) {
            byteCount = bytes.count
            var length = 0
            var value: Int? = 0
            for byte in bytes {
                if byte >= 0x30 && byte <= 0x39 {
                    length += 1
                    if let current = value {
                        let (times, overflow) = current.multipliedReportingOverflow(by: 10)
                        let (sum, carry) = times.addingReportingOverflow(Int(byte - 0x30))
                        value = overflow || carry ? nil : sum
                    }
                    continue
                }
                if let separator, separator != byte { oneSeparator = false }
                if separator == nil { separator = byte }
                if byte == UInt8(ascii: ".") { hasPoint = true }
                if length > 0 { close(length: length, value: value) }
                length = 0
                value = 0
            }
            if length > 0 { close(length: length, value: value) }
        }

        private mutating func close(length: Int, value: Int?) {
            switch count {
            case 0: (lengths.0, values.0) = (length, value)
            case 1: (lengths.1, values.1) = (length, value)
            case 2: (lengths.2, values.2) = (length, value)
            case 3: (lengths.3, values.3) = (length, value)
            default: break
            }
            count += 1
        }

        /// What ``isPlausibleCharacters(_:minimumLength:)`` refuses an all-digit token for: a
        /// date (`20261124`, `2026-11-24`, `24.11.2026`), a phone number (groups of 3-3-4 digits
        /// and the like), a price (digits, a point, two digits) or a year alone (1900–2100).
        var looksLikeDateOrPhoneOrPriceOrYear: Bool {
            if looksLikeDate { return true }
            switch (count, lengths.0, lengths.1, lengths.2, lengths.3) {
            case (3, 3, 3, 4, _), (3, 3, 4, 4, _), (4, 1, 3, 3, 4), (3, 2, 4, 4, _), (3, 2, 3, 4, _),
                (3, 4, 3, 4, _):
                return true
            default: break
            }
            if count == 2 && hasPoint && lengths.1 == 2 { return true }
            if count == 1 && byteCount == 4 && lengths.0 == 4, let year = values.0,
                (1900...2100).contains(year)
            {
                return true
            }
            return false
        }

        private var looksLikeDate: Bool {
            if count == 1 && lengths.0 == 8, let whole = values.0 {
                let year = whole / 10_000
                let month = whole / 100 % 100
                let day = whole % 100
                return (1990...2100).contains(year) && (1...12).contains(month) && (1...31).contains(day)
            }
            guard count == 3, oneSeparator, let first = values.0, let second = values.1, let third = values.2
            else { return false }
            if lengths.0 == 4 { return (1...12).contains(second) && (1...31).contains(third) }
            if lengths.2 == 4 || lengths.2 == 2, lengths.0 <= 2, lengths.1 <= 2 {
                return (1...31).contains(first) && (1...31).contains(second)
            }
            return false
        }
    }

    /// ``isPlausible(_:minimumLength:)`` character by character, for any token.
    static func isPlausibleCharacters(_ token: String, minimumLength: Int) -> Bool {
        guard token.count >= minimumLength, token.count <= 40 else { return false }
        let digits = token.filter(\.isNumber).count
        guard digits >= 3 || (digits >= 1 && token.count >= 6) else { return false }
        if token.hasPrefix("-") || token.hasPrefix(".") || token.hasPrefix("/") { return false }
        let groups = token.split(whereSeparator: { "-./".contains($0) }).map(String.init)
        let allDigits = groups.allSatisfy { $0.allSatisfy(\.isNumber) }
        if allDigits && looksLikeDate(groups, separators: token.filter { "-./".contains($0) }) {
            return false
        }
        if allDigits && looksLikePhone(groups) { return false }
        // A price: digits, a point, two digits.
        if groups.count == 2 && allDigits && token.contains(".") && groups[1].count == 2 { return false }
        // A year alone.
        if groups.count == 1 && token.count == 4, let year = Int(token), (1900...2100).contains(year) {
            return false
        }
        return true
    }

    private static func looksLikeDate(_ groups: [String], separators: String) -> Bool {
        if groups.count == 1, groups[0].count == 8, let year = Int(groups[0].prefix(4)),
            let month = Int(groups[0].dropFirst(4).prefix(2)), let day = Int(groups[0].suffix(2))
        {
            return (1990...2100).contains(year) && (1...12).contains(month) && (1...31).contains(day)
        }
        guard groups.count == 3, Set(separators).count == 1 else { return false }
        let numbers = groups.compactMap { Int($0) }
        guard numbers.count == 3 else { return false }
        let lengths = groups.map(\.count)
        if lengths[0] == 4 { return (1...12).contains(numbers[1]) && (1...31).contains(numbers[2]) }
        if lengths[2] == 4 || lengths[2] == 2, lengths[0] <= 2, lengths[1] <= 2 {
            return (1...31).contains(numbers[0]) && (1...31).contains(numbers[1])
        }
        return false
    }

    private static func looksLikePhone(_ groups: [String]) -> Bool {
        let lengths = groups.map(\.count)
        switch lengths {
        case [3, 3, 4], [3, 4, 4], [1, 3, 3, 4], [2, 4, 4], [2, 3, 4], [4, 3, 4]: return true
        default: return false
        }
    }
}

/// Value fillers ("is", "no.", "nr"), lower-cased, with the length of the longest, so that a
/// word too long to be one is told apart without hashing it.
struct FillerWords: Sendable {
    let words: Set<String>
    /// The longest filler's length in UTF-8 bytes. A filler equal (as `String`s compare, by
    /// canonical equivalence) to ASCII text has at least as many bytes as the text: each of
    /// its scalars decomposes to at most one ASCII scalar (a base and combining marks are not
    /// all ASCII), and one that is not ASCII takes two bytes or more.
    let longest: Int

    init(_ words: Set<String>) {
        self.words = words
        self.longest = words.reduce(0) { max($0, $1.utf8.count) }
    }
}
