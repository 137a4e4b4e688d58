import Foundation

/// Date-time values (RFC 5322 §3.3, obsolete forms §4.3) and the broken forms seen in
/// real mail: missing weekday or seconds, two- and three-digit years, named zones,
/// `asctime` order, ISO 8601, dots in times.
enum DateParser {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// Zone names of RFC 5322 §4.3 plus common ones seen in the wild, in minutes east of UTC.
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "bst": 60, "cet": 60, "met": 60, "mez": 60,
        "cest": 120, "mest": 120, "mesz": 120, "eet": 120, "eest": 180, "msk": 180, "ist": 330,
        "jst": 540, "kst": 540, "hkt": 480, "sgt": 480, "awst": 480, "aest": 600, "aedt": 660, "nzst": 720,
        "nzdt": 780, "edt": -240, "est": -300, "cdt": -300, "cst": -360, "mdt": -360, "mst": -420,
        "pdt": -420, "pst": -480, "akst": -540, "akdt": -480, "hst": -600,
    ]

    /// Parses a Date field body.
    ///
    /// Works on the field's UTF-8 bytes: a date-time is ASCII (RFC 5322 §3.3), so any byte
    /// beyond ASCII is an ordinary character that is neither a digit nor a letter.
    /// - Returns: the instant, or nil when no day, month and year can be found.
    static func parse(_ value: String) -> Date? {
        parseWithOffset(value)?.date
    }

    /// Parses a Date field body and also returns the zone offset it was written in, in minutes
    /// east of UTC (`+0900` is 540; a missing or unknown zone is 0, as `-0000` in RFC 5322 §3.3).
    static func parseWithOffset(_ value: String) -> (date: Date, offsetMinutes: Int)? {
        // Comments such as `(PST)` carry nothing we need.
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(value.utf8.count)
        var depth = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                cleaned.append(byte)
            }
        }
        if let iso = parseISO(cleaned) { return iso }
        var pieces: [ArraySlice<UInt8>] = []
        for token in cleaned.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") || $0 == 0x09 }) {
            // `21-Jul-1996` style.
            let dashed = token.split(separator: UInt8(ascii: "-"))
            if token.first != UInt8(ascii: "-") && token.contains(UInt8(ascii: "-")) && dashed.count == 3 {
                pieces += dashed
            } else {
                pieces.append(token)
            }
        }
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?
        for piece in pieces {
            if time == nil,
                piece.contains(UInt8(ascii: ":"))
                    || (day != nil && year != nil && piece.split(separator: UInt8(ascii: ".")).count >= 2)
            {
                let parts = piece.split(whereSeparator: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
                )
                .map(integer)
                if parts.count >= 2, let hour = parts[0], let minute = parts[1] {
                    let second = parts.count >= 3 ? (parts[2] ?? 0) : 0
                    time = (hour, minute, second)
                    continue
                }
            }
            if let first = piece.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-"),
                piece.count >= 3
            {
                let digits = piece.dropFirst().filter(isDigit)
                if digits.count == 4 || digits.count == 2 || digits.count == 3,
                    let number = integer(digits[...])
                {
                    let hours = digits.count == 2 ? number : number / 100
                    let minutes = digits.count == 2 ? 0 : number % 100
                    offset = (first == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
                    continue
                }
            }
            if let number = integer(piece) {
                if day == nil && piece.count <= 2 && number >= 1 && number <= 31 {
                    day = number
                } else if year == nil {
                    year = number
                } else if day == nil && number >= 1 && number <= 31 {
                    day = number
                }
                continue
            }
            let lower = String(
                decoding: piece.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            if month == nil, piece.count >= 3, let index = months.firstIndex(of: String(lower.prefix(3))) {
                month = index + 1
                continue
            }
            if offset == nil, let zone = zones[lower] {
                offset = zone
                continue
            }
            if offset == nil, piece.count == 1, isLetter(piece[piece.startIndex]) {
                offset = 0  // military zones are unreliable: RFC 5322 §4.3 says treat as -0000
                continue
            }
        }
        guard let day, let month, var year else { return nil }
        if year < 50 {
            year += 2000
        } else if year < 1000 {
            year += 1900
        }
        let (hour, minute, second) = time ?? (0, 0, 0)
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        return makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59),
            offsetMinutes: offset ?? 0
        ).map { ($0, offset ?? 0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// An optional `+` or `-` and one or more ASCII digits, as `Int(_: String)` reads them;
    /// nil for anything else and for a value that does not fit.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        var value = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard isDigit(byte) else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int(byte - 0x30))
            guard !overflowA && !overflowB else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// `2006-01-02T15:04:05Z`, `2006-01-02 15:04:05+01:00`.
    private static func parseISO(_ value: [UInt8]) -> (date: Date, offsetMinutes: Int)? {
        var bytes = value[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        let start = bytes.startIndex
        guard bytes.count >= 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = integer(bytes[start..<start + 4]),
            let month = integer(bytes[start + 5..<start + 7]),
            let day = integer(bytes[start + 8..<start + 10])
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if bytes.count >= 16, bytes[start + 13] == UInt8(ascii: ":") {
            hour = integer(bytes[start + 11..<start + 13]) ?? 0
            minute = integer(bytes[start + 14..<start + 16]) ?? 0
            var rest = start + 16
            if bytes.count >= 19, bytes[start + 16] == UInt8(ascii: ":") {
                second = integer(bytes[start + 17..<start + 19]) ?? 0
                rest = start + 19
            }
            while rest < bytes.endIndex, bytes[rest] == UInt8(ascii: ".") || isDigit(bytes[rest]) {
                rest += 1
            }
            var zone = bytes[rest...]
            while let first = zone.first, first == 0x20 || first == 0x09 { zone.removeFirst() }
            if let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                let digits = zone.dropFirst().filter(isDigit)
                // Four digits are hours and minutes, fewer are hours; more is not a zone.
                if digits.count <= 4, let number = integer(digits[...]) {
                    let minutes = digits.count == 4 ? (number / 100) * 60 + number % 100 : number * 60
                    offset = sign == UInt8(ascii: "-") ? -minutes : minutes
                }
            }
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetMinutes: offset
        ).map { ($0, offset) }
    }

    /// Days from 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func makeDate(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetMinutes: Int
    ) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (1000...9999).contains(year) else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
