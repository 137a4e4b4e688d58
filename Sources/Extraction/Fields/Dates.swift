import Foundation

/// A calendar day in the proleptic Gregorian calendar.
struct CivilDate: Sendable, Hashable, Comparable {
    let year: Int
    let month: Int
    let day: Int

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    /// A valid day, or nil (e.g. February 30th).
    init?(year: Int, month: Int, day: Int) {
        guard (1900...2200).contains(year), (1...12).contains(month), day >= 1,
            day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The calendar day of an instant as read in `zone` (the zone of the email's Date header
    /// field, RFC 5322 §3.3); in UTC when `zone` is nil.
    init?(_ date: Date, in zone: TimeZone?) {
        let seconds = zone?.secondsFromGMT(for: date) ?? 0
        self.init(date.addingTimeInterval(TimeInterval(seconds)))
    }

    /// The UTC day of an instant.
    init?(_ date: Date) {
        let parts = CivilDate.calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        self.init(year: year, month: month, day: day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    var date: Date? {
        CivilDate.calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// `YYYY-MM-DD`.
    var iso: String {
        let yearText = String(year)
        let monthText = month < 10 ? "0\(month)" : String(month)
        let dayText = day < 10 ? "0\(day)" : String(day)
        return "\(yearText)-\(monthText)-\(dayText)"
    }

    func adding(days: Int) -> CivilDate? {
        guard let date, let moved = CivilDate.calendar.date(byAdding: .day, value: days, to: date) else {
            return nil
        }
        return CivilDate(moved)
    }

    /// 0 = Sunday … 6 = Saturday.
    var weekday: Int? {
        guard let date else { return nil }
        return CivilDate.calendar.component(.weekday, from: date) - 1
    }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A rules date format compiled to a regular expression.
///
/// Slots: `{year}` (four digits), `{month}` (1–12), `{monthName}`, `{day}` (1–31),
/// `{weekday}` (a weekday name, ignored). A space matches any run of spaces, a comma is
/// optional, other characters match themselves.
struct DateFormatPattern: Sendable {
    enum Slot: Sendable { case year, month, monthName, day }

    let expression: NSRegularExpression
    let slots: [Slot]

    static let slotNames = ["year", "month", "monthName", "day", "weekday"]

    /// What is wrong with a format, or nil.
    static func problem(in format: String) -> String? {
        var rest = Substring(format)
        var seen: Set<String> = []
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return "unclosed '{'" }
            let name = String(rest[rest.index(after: open)..<close])
            guard slotNames.contains(name) else { return "unknown slot '{\(name)}'" }
            seen.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        guard seen.contains("day") else { return "no {day} slot" }
        guard seen.contains("month") || seen.contains("monthName") else { return "no month slot" }
        return nil
    }

    init?(format: String, months: [[String]], weekdays: [[String]]) {
        func alternatives(_ names: [String]) -> String {
            names.sorted { $0.count > $1.count }.map { NSRegularExpression.escapedPattern(for: $0) }.joined(
                separator: "|")
        }
        let monthNames = alternatives(months.flatMap { $0 })
        let weekdayNames = alternatives(weekdays.flatMap { $0 })
        var pattern = "(?<![\\p{L}\\d])"
        var slots: [Slot] = []
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            if character == "{", let close = format[index...].firstIndex(of: "}") {
                let name = format[format.index(after: index)..<close]
                switch name {
                case "year":
                    pattern += "((?:19|20|21)\\d{2})"
                    slots.append(.year)
                case "month":
                    pattern += "(\\d{1,2})"
                    slots.append(.month)
                case "day":
                    pattern += "(\\d{1,2})"
                    slots.append(.day)
                case "monthName":
                    guard !monthNames.isEmpty else { return nil }
                    pattern += "(\(monthNames))\\.?"
                    slots.append(.monthName)
                case "weekday":
                    guard !weekdayNames.isEmpty else { return nil }
                    pattern += "(?:\(weekdayNames))\\.?"
                default:
                    return nil
                }
                index = format.index(after: close)
                continue
            }
            switch character {
            case " ": pattern += "\\s*"
            case ",": pattern += ",?"
            default: pattern += NSRegularExpression.escapedPattern(for: String(character))
            }
            index = format.index(after: index)
        }
        pattern += "(?!\\d)"
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return nil
        }
        self.expression = expression
        self.slots = slots
    }
}

/// Dates in one language's formats, with relative words resolved against a reference day.
struct DateReader: Sendable {
    let patterns: [DateFormatPattern]
    let monthLookup: [String: Int]
    let weekdays: [(Phrase, Int)]
    let relativeDays: [(Phrase, Int)]
    let rangeTail: NSRegularExpression?
    let leadingDay: NSRegularExpression?

    static let universalFormats = ["{year}-{month}-{day}", "{year}/{month}/{day}", "{year}.{month}.{day}"]

    init(language: LanguageRules) {
        var formats = language.dateFormats
        for format in DateReader.universalFormats where !formats.contains(format) { formats.append(format) }
        // Longer formats first, so "Nov 24, 2026" wins over "Nov 24".
        patterns = formats.sorted { $0.count > $1.count }.compactMap {
            DateFormatPattern(format: $0, months: language.months, weekdays: language.weekdays)
        }
        var lookup: [String: Int] = [:]
        for (index, names) in language.months.enumerated() {
            for name in names { lookup[name.lowercased()] = index + 1 }
        }
        monthLookup = lookup
        weekdays = language.weekdays.enumerated().flatMap { index, names in names.map { (Phrase($0), index) }
        }
        .sorted { $0.0.folded.count > $1.0.folded.count }
        relativeDays = language.relativeDays.map { (Phrase($0.key), $0.value) }.sorted {
            $0.0.folded.count > $1.0.folded.count
        }
        leadingDay = try? NSRegularExpression(
            pattern:
                "(?<!\\d)(\\d{1,2})(?:er|\\.)?\\s*(?:-|–|—|~|〜|～|et le|et|and|und|y el|y|e il|e|en|tot|bis|au|al|a)\\s*$",
            options: [.caseInsensitive])
        rangeTail = try? NSRegularExpression(
            pattern: "^\\s*(?:-|–|—|~|〜|～|至|to|bis|au|al|a|tot)\\s*(\\d{1,2})(?!\\d)")
    }

    /// Every date in the text, in order, each with its UTF-16 range.
    func dates(in text: String, reference: CivilDate?) -> [(CivilDate, NSRange)] {
        // Every format has a day in digits.
        guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return [] }
        let nsText = text as NSString
        var found: [(CivilDate, NSRange)] = []
        for pattern in patterns {
            for match in pattern.expression.matches(
                in: text, range: NSRange(location: 0, length: nsText.length))
            {
                if found.contains(where: { NSIntersectionRange($0.1, match.range).length > 0 }) { continue }
                var year: Int?
                var month: Int?
                var day: Int?
                for (slotIndex, slot) in pattern.slots.enumerated() {
                    let range = match.range(at: slotIndex + 1)
                    guard range.location != NSNotFound else { continue }
                    let value = nsText.substring(with: range)
                    switch slot {
                    case .year: year = Int(value)
                    case .month: month = Int(value)
                    case .day: day = Int(value)
                    case .monthName: month = monthLookup[value.lowercased()]
                    }
                }
                guard let month, let day else { continue }
                if let date = resolve(year: year, month: month, day: day, reference: reference) {
                    found.append((date, match.range))
                }
            }
        }
        return found.sorted { $0.1.location < $1.1.location }
    }

    private func resolve(year: Int?, month: Int, day: Int, reference: CivilDate?) -> CivilDate? {
        if let year { return CivilDate(year: year, month: month, day: day) }
        guard let reference else { return nil }
        // A date without a year is the one nearest the email's date.
        let options = [reference.year - 1, reference.year, reference.year + 1].compactMap {
            CivilDate(year: $0, month: month, day: day)
        }
        return options.min { distance($0, reference) < distance($1, reference) }
    }

    private func distance(_ lhs: CivilDate, _ rhs: CivilDate) -> Double {
        guard let left = lhs.date, let right = rhs.date else { return .infinity }
        return abs(left.timeIntervalSince(right))
    }

    /// The first date in the text.
    func firstDate(in text: String, reference: CivilDate?) -> CivilDate? {
        dates(in: text, reference: reference).first?.0
    }

    /// A day or a window: two dates, a date with a day range ("Nov 24–26"), a relative word
    /// ("tomorrow") or a weekday name, resolved against the reference day.
    func window(in text: String, reference: CivilDate?) -> DateWindow? {
        let found = dates(in: text, reference: reference)
        if found.count >= 2, found[0].0 <= found[1].0,
            found[1].1.location - (found[0].1.location + found[0].1.length) <= 12
        {
            return DateWindow(from: found[0].0.iso, until: found[1].0.iso)
        }
        if let (first, range) = found.first {
            let nsText = text as NSString
            // "entre le 25 et le 26 novembre", "24 - 26 novembre": a day before the date.
            if let leadingDay, range.location > 0 {
                let before = nsText.substring(to: range.location)
                let nsBefore = before as NSString
                if let match = leadingDay.firstMatch(
                    in: before, range: NSRange(location: 0, length: nsBefore.length)),
                    let day = Int(nsBefore.substring(with: match.range(at: 1))),
                    let start = CivilDate(year: first.year, month: first.month, day: day), start < first
                {
                    return DateWindow(from: start.iso, until: first.iso)
                }
            }
            let tailStart = range.location + range.length
            if let rangeTail, tailStart < nsText.length {
                let tail = nsText.substring(from: tailStart)
                if let match = rangeTail.firstMatch(
                    in: tail, range: NSRange(location: 0, length: (tail as NSString).length)),
                    let lastDay = Int((tail as NSString).substring(with: match.range(at: 1))),
                    let until = CivilDate(year: first.year, month: first.month, day: lastDay), first <= until
                {
                    return DateWindow(from: first.iso, until: until.iso)
                }
            }
            return DateWindow(from: first.iso, until: first.iso)
        }
        guard let reference else { return nil }
        let folded = Text.fold(Array(text.lowercased().utf8))
        for (phrase, offset) in relativeDays where Text.contains(phrase, in: folded) {
            if let day = reference.adding(days: offset) { return DateWindow(from: day.iso, until: day.iso) }
        }
        for (phrase, weekday) in weekdays where Text.contains(phrase, in: folded) {
            guard let today = reference.weekday else { return nil }
            let ahead = (weekday - today + 7) % 7
            if let day = reference.adding(days: ahead) { return DateWindow(from: day.iso, until: day.iso) }
        }
        return nil
    }
}
