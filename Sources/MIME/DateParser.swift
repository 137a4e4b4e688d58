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
    /// - Returns: the instant, or nil when no day, month and year can be found.
    static func parse(_ value: String) -> Date? {
        // Comments such as `(PST)` carry nothing we need.
        var cleaned = ""
        var depth = 0
        for character in value {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                depth = max(0, depth - 1)
            } else if depth == 0 {
                cleaned.append(character)
            }
        }
        if let iso = parseISO(cleaned) { return iso }
        let tokens = cleaned.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
            .map { String($0) }
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?
        var pieces: [String] = []
        for token in tokens {
            // `21-Jul-1996` style.
            if token.contains("-") && !token.hasPrefix("-") && token.split(separator: "-").count == 3 {
                pieces += token.split(separator: "-").map(String.init)
            } else {
                pieces.append(token)
            }
        }
        for piece in pieces {
            let lower = piece.lowercased()
            if time == nil,
                piece.contains(":") || (piece.split(separator: ".").count >= 2 && day != nil && year != nil)
            {
                let parts = piece.split(whereSeparator: { $0 == ":" || $0 == "." }).map { Int($0) }
                if parts.count >= 2, let hour = parts[0], let minute = parts[1] {
                    let second = parts.count >= 3 ? (parts[2] ?? 0) : 0
                    time = (hour, minute, second)
                    continue
                }
            }
            if let first = piece.first, first == "+" || first == "-", piece.count >= 3 {
                let digits = piece.dropFirst().filter { $0.isNumber }
                if let number = Int(digits), digits.count == 4 || digits.count == 2 || digits.count == 3 {
                    let hours = digits.count == 2 ? number : number / 100
                    let minutes = digits.count == 2 ? 0 : number % 100
                    offset = (first == "-" ? -1 : 1) * (hours * 60 + minutes)
                    continue
                }
            }
            if let number = Int(piece) {
                if day == nil && piece.count <= 2 && number >= 1 && number <= 31 {
                    day = number
                } else if year == nil {
                    year = number
                } else if day == nil && number >= 1 && number <= 31 {
                    day = number
                }
                continue
            }
            if month == nil, lower.count >= 3, let index = months.firstIndex(of: String(lower.prefix(3))) {
                month = index + 1
                continue
            }
            if offset == nil, let zone = zones[lower] {
                offset = zone
                continue
            }
            if offset == nil, lower.count == 1, let scalar = lower.unicodeScalars.first,
                scalar.properties.isAlphabetic
            {
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
            offsetMinutes: offset ?? 0)
    }

    /// `2006-01-02T15:04:05Z`, `2006-01-02 15:04:05+01:00`.
    private static func parseISO(_ value: String) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
            let day = Int(String(decoding: bytes[8..<10], as: UTF8.self))
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if bytes.count >= 16, bytes[13] == UInt8(ascii: ":") {
            hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)) ?? 0
            minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)) ?? 0
            var rest = 16
            if bytes.count >= 19, bytes[16] == UInt8(ascii: ":") {
                second = Int(String(decoding: bytes[17..<19], as: UTF8.self)) ?? 0
                rest = 19
            }
            while rest < bytes.count,
                bytes[rest] == UInt8(ascii: ".") || (bytes[rest] >= 0x30 && bytes[rest] <= 0x39)
            {
                rest += 1
            }
            let zone = String(decoding: bytes[rest...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if zone.hasPrefix("+") || zone.hasPrefix("-") {
                let digits = zone.dropFirst().filter { $0.isNumber }
                if let number = Int(digits) {
                    let minutes = digits.count == 4 ? (number / 100) * 60 + number % 100 : number * 60
                    offset = zone.hasPrefix("-") ? -minutes : minutes
                }
            }
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetMinutes: offset)
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
