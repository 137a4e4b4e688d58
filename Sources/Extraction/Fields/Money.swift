import Foundation

/// Amounts of money as printed, read with locale-aware separators.
enum Money {
    /// ISO 4217 codes recognised when written out ("EUR 19.99", "19,99 EUR").
    static let codes: Set<String> = [
        "USD", "EUR", "GBP", "JPY", "KRW", "CNY", "RMB", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK",
        "PLN",
        "CZK", "HUF", "BRL", "MXN", "INR", "HKD", "SGD", "TWD", "ARS", "CLP", "COP", "PEN", "ZAR", "TRY",
    ]
    /// Currencies without minor units in everyday prices.
    static let zeroDecimal: Set<String> = ["JPY", "KRW", "HUF", "CLP", "TWD"]

    /// Symbols before or after the number, longest first.
    static let symbols: [(String, String)] = [
        ("US$", "USD"), ("CA$", "CAD"), ("C$", "CAD"), ("AU$", "AUD"), ("A$", "AUD"), ("NZ$", "NZD"),
        ("HK$", "HKD"), ("S$", "SGD"), ("R$", "BRL"), ("NT$", "TWD"), ("$", "USD"), ("€", "EUR"),
        ("£", "GBP"),
        ("¥", "JPY"), ("￥", "JPY"), ("₩", "KRW"), ("원", "KRW"), ("円", "JPY"), ("元", "CNY"), ("₹", "INR"),
        ("zł", "PLN"), ("Fr.", "CHF"), ("руб", "RUB"),
    ]

    private static let expression: NSRegularExpression? = {
        let symbolPattern = symbols.map { NSRegularExpression.escapedPattern(for: $0.0) }.joined(
            separator: "|")
        let codePattern = codes.sorted().joined(separator: "|")
        let currency = "(?:\(symbolPattern)|(?<![A-Za-z])(?:\(codePattern))(?![A-Za-z]))"
        let number =
            "(\\d{1,3}(?:[.,'\\u00A0\\u202F ]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?)(?![\\d.,]*\\d)"
        let pattern =
            "(?:(\(currency))\\s?-?\\s?\(number)(?:\\s?(\(currency)))?|\(number)\\s?(\(currency))(?!\\s?\\d))"
        return try? NSRegularExpression(pattern: pattern)
    }()

    /// Every amount with a currency in the text, in order.
    /// - Parameter defaultCurrency: what `¥` and `$` mean in the email's language (e.g. `CNY`).
    static func amounts(in text: String, defaultCurrency: String? = nil) -> [(MonetaryAmount, NSRange)] {
        // Both readers find nothing in a text without an ASCII digit: most texts asked (titles,
        // names, labels) are told so from their bytes at once.
        guard FieldText.withBytes(of: text, { $0.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) }),
            mayNameCurrency(text)
        else {
            return []
        }
        if MoneyBytes.reads(text) { return byteAmounts(in: text, defaultCurrency: defaultCurrency) }
        return expressionAmounts(in: text, defaultCurrency: defaultCurrency)
    }

    /// ``expressionAmounts(in:defaultCurrency:)`` read by ``MoneyBytes`` (for text it
    /// ``MoneyBytes/reads(_:)``): the same amounts with the same UTF-16 ranges.
    static func byteAmounts(in text: String, defaultCurrency: String? = nil) -> [(MonetaryAmount, NSRange)] {
        guard expression != nil, text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            var result: [(MonetaryAmount, NSRange)] = []
            for match in MoneyBytes.matches(in: bytes) {
                // The groups as `expressionAmounts` reads them: an ISO code after the number
                // says more than a symbol before it; the currency and the number are read from
                // their bytes (``MoneyBytes/currency(_:in:defaultCurrency:)``,
                // ``normalize(_:in:currency:)``), building no string for either.
                let trailingCode = match.groups.2.flatMap { MoneyBytes.isoCode(bytes, $0) != nil ? $0 : nil }
                let symbol = trailingCode ?? match.groups.0 ?? match.groups.2 ?? match.groups.4
                guard let symbol, let number = match.groups.1 ?? match.groups.3 else { continue }
                let currency =
                    MoneyBytes.currency(symbol, in: bytes, defaultCurrency: defaultCurrency)
                    ?? code(
                        for: String(decoding: UnsafeBufferPointer(rebasing: bytes[symbol]), as: UTF8.self),
                        defaultCurrency: defaultCurrency)
                guard let amount = normalize(number, in: bytes, currency: currency) else { continue }
                let lower = utf16Offset(of: match.range.lowerBound, in: bytes)
                let upper =
                    lower + utf16Offset(of: match.range.upperBound, in: bytes, from: match.range.lowerBound)
                result.append(
                    (
                        MonetaryAmount(amount: amount, currency: currency),
                        NSRange(location: lower, length: upper - lower)
                    ))
            }
            return result
        }
    }

    /// The UTF-16 length of the UTF-8 bytes from `start` to `index` (both on character
    /// boundaries): one unit per scalar, two for a scalar of four bytes.
    static func utf16Offset(of index: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int {
        var units = 0
        for position in start..<index {
            let byte = bytes[position]
            if byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        }
        return units
    }

    /// ``amounts(in:defaultCurrency:)`` without the test for a currency first.
    static func expressionAmounts(in text: String, defaultCurrency: String? = nil) -> [(
        MonetaryAmount, NSRange
    )] {
        guard let expression, text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return [] }
        let nsText = text as NSString
        var result: [(MonetaryAmount, NSRange)] = []
        for match in expression.matches(
            in: text, range: NSRange(location: 0, length: min(nsText.length, 200_000)))
        {
            func group(_ index: Int) -> String? {
                let range = match.range(at: index)
                return range.location == NSNotFound ? nil : nsText.substring(with: range)
            }
            // An ISO code after the number says more than a symbol before it ("$1,299.00 MXN").
            let trailingCode = group(3).flatMap { codes.contains($0.uppercased()) ? $0 : nil }
            let symbol = trailingCode ?? group(1) ?? group(3) ?? group(5)
            guard let symbol, let number = group(2) ?? group(4) else { continue }
            let currency = code(for: symbol, defaultCurrency: defaultCurrency)
            guard let amount = normalize(number, currency: currency) else { continue }
            result.append((MonetaryAmount(amount: amount, currency: currency), match.range))
        }
        return result
    }

    /// Whether the text may hold a currency the expression reads: false when it is ASCII
    /// without `$`, without `Fr.` and without three capital letters in a row (every code is
    /// three capitals; every other symbol has `$` or a scalar outside ASCII).
    static func mayNameCurrency(_ text: String) -> Bool {
        FieldText.withBytes(of: text) { bytes in
            var capitals = 0
            var previous: (UInt8, UInt8) = (0, 0)
            for byte in bytes {
                if byte >= 0x80 || byte == UInt8(ascii: "$") { return true }
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                    capitals += 1
                    if capitals == 3 { return true }
                } else {
                    capitals = 0
                }
                if byte == UInt8(ascii: "."), previous == (UInt8(ascii: "F"), UInt8(ascii: "r")) {
                    return true
                }
                previous = (previous.1, byte)
            }
            return false
        }
    }

    /// The first amount in the text.
    static func firstAmount(in text: String, defaultCurrency: String? = nil) -> MonetaryAmount? {
        amounts(in: text, defaultCurrency: defaultCurrency).first?.0
    }

    static func code(for symbol: String, defaultCurrency: String?) -> String {
        let upper = symbol.uppercased()
        if codes.contains(upper) { return upper == "RMB" ? "CNY" : upper }
        let code = symbols.first { $0.0 == symbol }?.1 ?? upper
        if code == "JPY" && (symbol == "¥" || symbol == "￥") && defaultCurrency == "CNY" { return "CNY" }
        if code == "USD" && symbol == "$", let defaultCurrency,
            ["CAD", "AUD", "MXN"].contains(defaultCurrency)
        {
            return defaultCurrency
        }
        return code
    }

    /// A printed number as a decimal string with the currency's minor digits.
    ///
    /// The last `.` or `,` is the decimal separator when one or two digits follow it;
    /// otherwise separators group thousands ("38,900", "1.234", "1 234,56").
    static func normalize(_ number: String, currency: String) -> String? {
        // Printed numbers are ASCII digits and separators, and no-break spaces: there every
        // scalar is a character (only CR LF joins two ASCII scalars), so the scalars are read.
        guard
            number.unicodeScalars.allSatisfy({
                ($0.isASCII && $0 != "\r") || $0 == "\u{A0}" || $0 == "\u{202F}"
            })
        else { return normalizeCharacters(number, currency: currency) }
        let scalars = Array(number.unicodeScalars)
        let separatorIndex = scalars.lastIndex { $0 == "." || $0 == "," }
        var decimalIndex: Int?
        if let separatorIndex {
            let after = scalars.count - separatorIndex - 1
            if after == 1 || after == 2 { decimalIndex = separatorIndex }
        }
        var integerDigits: [UInt8] = []
        var fractionDigits: [UInt8] = []
        for (index, scalar) in scalars.enumerated() where scalar >= "0" && scalar <= "9" {
            if let decimalIndex, index > decimalIndex {
                fractionDigits.append(UInt8(scalar.value))
            } else {
                integerDigits.append(UInt8(scalar.value))
            }
        }
        var leading = 0
        while integerDigits.count - leading > 1 && integerDigits[leading] == UInt8(ascii: "0") {
            leading += 1
        }
        let integer = String(decoding: integerDigits[leading...], as: UTF8.self)
        guard !integer.isEmpty, integer.utf8.count <= 12 else { return nil }
        if zeroDecimal.contains(currency) && fractionDigits.allSatisfy({ $0 == UInt8(ascii: "0") }) {
            return integer
        }
        // `padding(toLength: 2, withPad: "0", startingAt: 0)`: at most two digits follow.
        while fractionDigits.count < 2 { fractionDigits.append(UInt8(ascii: "0")) }
        return integer + "." + String(decoding: fractionDigits.prefix(2), as: UTF8.self)
    }

    /// ``normalize(_:currency:)`` for the number at `range` of UTF-8 `bytes`, read byte by
    /// byte when the number is made of ASCII other than the carriage return, U+00A0 and
    /// U+202F (as every number ``MoneyBytes`` matches is): there each scalar is a character,
    /// so the scalar positions ``normalize(_:currency:)`` counts are counted from lead bytes.
    /// Builds no array; the result (at most 12 integer digits, a point and two more: 15 bytes)
    /// is a small string.
    static func normalize(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, currency: String)
        -> String?
    {
        // The last "." or ",", and how many scalars follow it.
        var separator = -1
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                separator = index
            } else if byte == 0x0D {
                return normalize(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self),
                    currency: currency)
            } else if byte >= 0x80 {
                // U+00A0 (C2 A0) and U+202F (E2 80 AF) only.
                let isNoBreak =
                    (byte == 0xC2 && index + 1 < range.upperBound && bytes[index + 1] == 0xA0)
                    || (byte == 0xE2 && index + 2 < range.upperBound && bytes[index + 1] == 0x80
                        && bytes[index + 2] == 0xAF)
                guard isNoBreak else {
                    return normalize(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self),
                        currency: currency)
                }
                index += byte == 0xC2 ? 2 : 3
                continue
            }
            index += 1
        }
        var decimal = -1
        if separator >= 0 {
            var after = 0
            for position in (separator + 1)..<range.upperBound where bytes[position] & 0xC0 != 0x80 {
                after += 1
            }
            if after == 1 || after == 2 { decimal = separator }
        }
        // The integer digits without leading zeros (one kept), and the fraction's first two.
        let integerEnd = decimal >= 0 ? decimal : range.upperBound
        var firstDigit = -1
        var lastDigit = -1
        var integerCount = 0
        for position in range.lowerBound..<integerEnd where MoneyBytes.isDigit(bytes[position]) {
            if firstDigit < 0 && bytes[position] != UInt8(ascii: "0") { firstDigit = position }
            if firstDigit >= 0 { integerCount += 1 }
            lastDigit = position
        }
        if firstDigit < 0 {
            // Zeros only (kept as one "0"), or no digit at all.
            guard lastDigit >= 0 else { return nil }
            firstDigit = lastDigit
            integerCount = 1
        }
        guard integerCount <= 12 else { return nil }
        var fraction: (UInt8, UInt8) = (UInt8(ascii: "0"), UInt8(ascii: "0"))
        var fractionCount = 0
        var fractionIsZero = true
        if decimal >= 0 {
            for position in (decimal + 1)..<range.upperBound where MoneyBytes.isDigit(bytes[position]) {
                if bytes[position] != UInt8(ascii: "0") { fractionIsZero = false }
                if fractionCount == 0 {
                    fraction.0 = bytes[position]
                } else if fractionCount == 1 {
                    fraction.1 = bytes[position]
                }
                fractionCount += 1
            }
        }
        let withFraction = !(zeroDecimal.contains(currency) && fractionIsZero)
        return String(unsafeUninitializedCapacity: integerCount + 3) { buffer in
            // `integerCount` digits, then ".", and two: at most `integerCount + 3` bytes.
            var count = 0
            for position in firstDigit..<integerEnd where MoneyBytes.isDigit(bytes[position]) {
                buffer[count] = bytes[position]
                count += 1
            }
            if withFraction {
                buffer[count] = UInt8(ascii: ".")
                buffer[count + 1] = fraction.0
                buffer[count + 2] = fraction.1
                count += 3
            }
            return count
        }
    }

    /// ``normalize(_:currency:)`` character by character, for any text.
    static func normalizeCharacters(_ number: String, currency: String) -> String? {
        let characters = Array(number)
        var integerDigits = ""
        var fractionDigits = ""
        let separatorIndex = characters.lastIndex { $0 == "." || $0 == "," }
        var decimalIndex: Int?
        if let separatorIndex {
            let after = characters.count - separatorIndex - 1
            if after == 1 || after == 2 { decimalIndex = separatorIndex }
        }
        for (index, character) in characters.enumerated() where character.isASCII && character.isNumber {
            if let decimalIndex, index > decimalIndex {
                fractionDigits.append(character)
            } else {
                integerDigits.append(character)
            }
        }
        while integerDigits.count > 1 && integerDigits.hasPrefix("0") { integerDigits.removeFirst() }
        guard !integerDigits.isEmpty, integerDigits.count <= 12 else { return nil }
        if zeroDecimal.contains(currency) {
            if fractionDigits.allSatisfy({ $0 == "0" }) { return integerDigits }
            return integerDigits + "." + fractionDigits.padding(toLength: 2, withPad: "0", startingAt: 0)
        }
        return integerDigits + "." + fractionDigits.padding(toLength: 2, withPad: "0", startingAt: 0)
    }

    /// Whether a token looks like a price (a currency next to a number).
    static func isPrice(_ text: String) -> Bool {
        !amounts(in: text).isEmpty
    }
}
