import Extraction
import Foundation

/// RFC 3339 timestamps and ISO 8601 durations, read strictly and written in one fixed form.
public enum WalletTime {
    /// Reads an RFC 3339 `date-time` (`2026-11-24T09:30:00Z`, `…T09:30:00.250+01:00`).
    ///
    /// - Parameter text: The timestamp; a lower-case `t`/`z` is accepted (RFC 3339 §5.6 note).
    /// - Returns: The instant, or `nil` when the text is not a valid RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D,
            let day = digits(8, 2), b[10] == 0x54 || b[10] == 0x74,
            let hour = digits(11, 2), b[13] == 0x3A, let minute = digits(14, 2), b[16] == 0x3A,
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == 0x5A || b[index] == 0x7A {
            index += 1
        } else if b[index] == 0x2B || b[index] == 0x2D {
            guard let oh = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == 0x3A,
                let om = digits(index + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offset = (oh * 60 + om) * 60 * (b[index] == 0x2D ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        let days = GregorianDays.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Writes an instant as RFC 3339 in UTC: `2026-11-24T09:30:00Z`, with milliseconds only when
    /// the instant has them.
    ///
    /// - Parameter date: The instant.
    /// - Returns: The RFC 3339 §5.6 `date-time` text.
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 253_402_300_799 else { return "1970-01-01T00:00:00Z" }
        let millis = Int((interval * 1000).rounded())
        var seconds = millis / 1000
        var ms = millis % 1000
        if ms < 0 {
            ms += 1000
            seconds -= 1
        }
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = GregorianDays.civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2))"
        if ms != 0 { text += "." + pad(ms, 3) }
        return text + "Z"
    }

    /// Reads a calendar day `YYYY-MM-DD` as midnight UTC.
    ///
    /// - Parameter text: The day, as in the extraction JSON.
    /// - Returns: Midnight UTC of that day, or `nil` when it is not a valid date.
    public static func day(_ text: String) -> Date? {
        parse(text.trimmingCharacters(in: .whitespaces) + "T00:00:00Z")
    }

    /// Tells whether a string is an ISO 8601-1 duration (`P3D`, `PT2H30M`, `P0Y0M0DT0H30M0S`, `P1W`).
    ///
    /// - Parameter text: The duration.
    /// - Returns: `true` for a well-formed duration with at least one component (ISO 8601-1 §5.5.2).
    public static func isDuration(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count >= 3, b.count <= 64, b[0] == 0x50 else { return false }
        var index = 1
        var inTime = false
        var components = 0
        var order = "YMWD"
        var sawFraction = false
        while index < b.count {
            if b[index] == 0x54 {
                guard !inTime else { return false }
                inTime = true
                order = "HMS"
                index += 1
                guard index < b.count else { return false }
                continue
            }
            let start = index
            var fractional = false
            while index < b.count,
                (b[index] >= 0x30 && b[index] <= 0x39) || b[index] == 0x2E || b[index] == 0x2C
            {
                if b[index] == 0x2E || b[index] == 0x2C {
                    guard !fractional, index > start else { return false }
                    fractional = true
                }
                index += 1
            }
            guard index > start, index < b.count, !sawFraction else { return false }
            guard b[index - 1] != 0x2E, b[index - 1] != 0x2C else { return false }
            let designator = Character(UnicodeScalar(b[index]))
            guard let position = order.firstIndex(of: designator) else { return false }
            order = String(order[order.index(after: position)...])
            sawFraction = fractional
            components += 1
            index += 1
        }
        return components > 0
    }

    /// Writes a whole number of days as an ISO 8601-1 duration, `P3D`.
    static func duration(days: Int) -> String { "P\(days)D" }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

}

extension KeyedDecodingContainer where Key == AnyKey {
    func requiredDate(_ key: String) throws -> Date {
        let text: String = try required(key)
        guard let date = WalletTime.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: AnyKey(key), in: self, debugDescription: "not an RFC 3339 date-time: \(text)")
        }
        return date
    }

    func optionalDate(_ key: String) throws -> Date? {
        guard contains(AnyKey(key)) else { return nil }
        return try requiredDate(key)
    }
}

extension KeyedEncodingContainer where Key == AnyKey {
    mutating func putDate(_ value: Date?, _ key: String) throws {
        guard let value else { return }
        try encode(WalletTime.format(value), forKey: AnyKey(key))
    }
}
