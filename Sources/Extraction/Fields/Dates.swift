import Foundation

/// A calendar day in the proleptic Gregorian calendar.
struct CivilDate: Sendable, Hashable, Comparable {
    let year: Int
    let month: Int
    let day: Int

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
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        // Far outside 1900–2200: no valid day (and no overflow converting to `Int`).
        guard days.isFinite, abs(days) < 1e9 else { return nil }
        self.init(daysSince1970: Int(days))
    }

    /// The day `days` days after 1970-01-01 (before it when negative); nil outside 1900–2200.
    init?(daysSince1970 days: Int) {
        let (year, month, day) = GregorianDays.civil(fromDays: days)
        self.init(year: year, month: month, day: day)
    }

    /// The number of days from 1970-01-01 to this day (negative before it).
    var daysSince1970: Int { GregorianDays.days(year: year, month: month, day: day) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD` (the year always has four digits: it is 1900–2200), written as bytes.
    var iso: String {
        String(unsafeUninitializedCapacity: 10) { buffer in
            buffer[0] = 0x30 + UInt8(year / 1000 % 10)
            buffer[1] = 0x30 + UInt8(year / 100 % 10)
            buffer[2] = 0x30 + UInt8(year / 10 % 10)
            buffer[3] = 0x30 + UInt8(year % 10)
            buffer[4] = 0x2D
            buffer[5] = 0x30 + UInt8(month / 10)
            buffer[6] = 0x30 + UInt8(month % 10)
            buffer[7] = 0x2D
            buffer[8] = 0x30 + UInt8(day / 10)
            buffer[9] = 0x30 + UInt8(day % 10)
            return 10
        }
    }

    /// ``iso`` as it was first written, from the numbers' texts (the reference for tests).
    var referenceISO: String {
        let yearText = String(year)
        let monthText = month < 10 ? "0\(month)" : String(month)
        let dayText = day < 10 ? "0\(day)" : String(day)
        return "\(yearText)-\(monthText)-\(dayText)"
    }

    /// The day `days` days later (earlier when negative); nil outside 1900–2200.
    func adding(days: Int) -> CivilDate? {
        CivilDate(daysSince1970: daysSince1970 + days)
    }

    /// 0 = Sunday … 6 = Saturday.
    var weekday: Int? {
        // 1970-01-01 was a Thursday.
        let weekday = (daysSince1970 + 4) % 7
        return weekday < 0 ? weekday + 7 : weekday
    }

    static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A rules date format compiled to a regular expression, and to a matcher over ASCII text.
///
/// Slots: `{year}` (four digits), `{month}` (1–12), `{monthName}`, `{day}` (1–31),
/// `{weekday}` (a weekday name, ignored). A space matches any run of spaces, a comma is
/// optional, other characters match themselves.
///
/// The regular expression (ICU, case-insensitive) is compiled on first use. Text of printable
/// ASCII and tabs is read by ``ASCIIMatcher`` instead, which follows the same expression step
/// by step (leftmost match, greedy quantifiers, alternatives in order, backtracking) with what
/// its classes mean in ASCII: `\d` is `0-9`, `\s` a space or tab, `\p{L}` an ASCII letter.
/// A class: the date readers go through their formats for every text they read, and a
/// reference is copied with one retain where the fields would each take theirs.
final class DateFormatPattern: Sendable {
    enum Slot: Sendable { case year, month, monthName, day }

    let pattern: String
    let slots: [Slot]
    /// The same format for ASCII text; nil when a name or literal could match ASCII text under
    /// Unicode case folding without being ASCII itself (then the expression reads all text).
    let ascii: ASCIIMatcher?
    /// Literal characters of the format that every match holds as they are: single scalars
    /// without case (`年`, `-`, `/`, `.`), which a case-insensitive expression matches only
    /// by themselves. A text without one of them is not searched.
    let requiredScalars: [Unicode.Scalar]
    /// Whether the format has a `{year}` slot: a text with no year in it is not searched.
    let hasYear: Bool
    private let compiled: LazyExpression

    /// The compiled expression, nil when it does not compile.
    var expression: NSRegularExpression? { compiled.expression }

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

    /// - Parameter literalUnits: the stand-in units (``DateReader/units(of:)``) of non-ASCII
    ///   literal characters, each a scalar with its unit: the matcher reads such a character as
    ///   that unit, and the expression's matches in text whose units those are come out of it.
    init?(format: String, months: [[String]], weekdays: [[String]], literalUnits: [(UInt32, UInt8)] = []) {
        func sortedNames(_ names: [String]) -> [String] { names.sorted { $0.count > $1.count } }
        func alternatives(_ names: [String]) -> String {
            names.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        }
        let monthList = sortedNames(months.flatMap { $0 })
        let weekdayList = sortedNames(weekdays.flatMap { $0 })
        let monthNames = alternatives(monthList)
        let weekdayNames = alternatives(weekdayList)
        var pattern = "(?<![\\p{L}\\d])"
        var slots: [Slot] = []
        var steps: [ASCIIMatcher.Step] = []
        var asciiPossible = true
        var required: [Unicode.Scalar] = []
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            if character == "{", let close = format[index...].firstIndex(of: "}") {
                let name = format[format.index(after: index)..<close]
                switch name {
                case "year":
                    pattern += "((?:19|20|21)\\d{2})"
                    slots.append(.year)
                    steps.append(.year)
                case "month":
                    pattern += "(\\d{1,2})"
                    slots.append(.month)
                    steps.append(.digits)
                case "day":
                    pattern += "(\\d{1,2})"
                    slots.append(.day)
                    steps.append(.digits)
                case "monthName":
                    guard !monthNames.isEmpty else { return nil }
                    pattern += "(\(monthNames))\\.?"
                    slots.append(.monthName)
                    guard let names = ASCIIMatcher.asciiNames(monthList) else {
                        asciiPossible = false
                        break
                    }
                    steps.append(.names(names, captured: true))
                case "weekday":
                    guard !weekdayNames.isEmpty else { return nil }
                    pattern += "(?:\(weekdayNames))\\.?"
                    guard let names = ASCIIMatcher.unitNames(weekdayList, units: literalUnits) else {
                        asciiPossible = false
                        break
                    }
                    steps.append(.names(names, captured: false))
                default:
                    return nil
                }
                index = format.index(after: close)
                continue
            }
            switch character {
            case " ":
                pattern += "\\s*"
                steps.append(.spaces)
            case ",":
                pattern += ",?"
                steps.append(.optionalComma)
            default:
                pattern += NSRegularExpression.escapedPattern(for: String(character))
                let text = String(character)
                if character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
                    text.lowercased() == text, text.uppercased() == text,
                    !scalar.properties.changesWhenCaseFolded,
                    !required.contains(scalar)
                {
                    required.append(scalar)
                }
                if character.utf8.count == 1, let byte = character.utf8.first {
                    steps.append(.literal(KeywordScanner.lower(byte)))
                } else if character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
                    let unit = literalUnits.first(where: { $0.0 == scalar.value })?.1
                {
                    steps.append(.literal(unit))
                } else if ASCIIMatcher.mayFoldToASCII(String(character)) {
                    asciiPossible = false
                } else {
                    steps.append(.never)
                }
            }
            index = format.index(after: index)
        }
        pattern += "(?!\\d)"
        self.pattern = pattern
        self.slots = slots
        self.ascii = asciiPossible ? ASCIIMatcher(steps: steps) : nil
        self.requiredScalars = required
        self.hasYear = slots.contains(.year)
        self.compiled = LazyExpression(pattern: pattern, options: [.caseInsensitive])
    }

    /// Every match in the text, in order: the whole match and each slot's range (UTF-16).
    func matches(in text: String, nsText: NSString) -> [(NSRange, [NSRange])] {
        var text = text
        if let ascii, let found = text.withUTF8({ ascii.matches(in: $0) }) {
            return found.map { match in
                (
                    NSRange(location: match.range.lowerBound, length: match.range.count),
                    match.groups.map { NSRange(location: $0.lowerBound, length: $0.count) }
                )
            }
        }
        for scalar in requiredScalars where !text.unicodeScalars.contains(scalar) { return [] }
        if hasYear && !Self.mayHoldYear(text) { return [] }
        guard let expression else { return [] }
        return expression.matches(in: text, range: NSRange(location: 0, length: nsText.length)).map { match in
            (match.range, (0..<slots.count).map { match.range(at: $0 + 1) })
        }
    }
}

extension DateFormatPattern {
    /// Whether a text may hold what the expression's year group `((?:19|20|21)\d{2})` matches:
    /// `19`, `20` or `21` and two more ASCII digits, or any digit that is not ASCII (the
    /// expression's `\d` is every decimal digit; a scalar this Unicode version does not know
    /// counts as one too). Digits have no case, so the expression's case-insensitivity
    /// changes nothing here.
    static func mayHoldYear(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var nonASCII = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 {
                    nonASCII = true
                } else if index + 3 < bytes.count,
                    (byte == 0x31 && bytes[index + 1] == 0x39)
                        || (byte == 0x32 && (bytes[index + 1] == 0x30 || bytes[index + 1] == 0x31)),
                    CheckDigit.isDigit(bytes[index + 2]), CheckDigit.isDigit(bytes[index + 3])
                {
                    return true
                }
                index += 1
            }
            guard nonASCII else { return false }
            return String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { scalar in
                !scalar.isASCII
                    && (scalar.properties.generalCategory == .decimalNumber
                        || scalar.properties.generalCategory == .unassigned)
            }
        }
    }
}

/// The dates one extraction reads, each text read once per language: the same value is
/// often labelled in both renditions, and for an order date and a delivery date alike.
final class DateMemo {
    private struct Key: Hashable {
        let language: ObjectIdentifier
        let text: String
        let reference: CivilDate?
    }

    /// The texts read so far, searched in order: an email reads a few dozen at most, and
    /// comparing them costs less than hashing them. Past 64 entries, a dictionary takes over.
    private var recent: [(key: Key, dates: [(CivilDate, NSRange)])] = []
    private var found: [Key: [(CivilDate, NSRange)]] = [:]

    /// `language.dates.dates(in: text, reference: reference)`, read once.
    func dates(in text: String, language: CompiledLanguage, reference: CivilDate?) -> [(CivilDate, NSRange)] {
        let key = Key(language: ObjectIdentifier(language), text: text, reference: reference)
        if let known = recent.first(where: { $0.key == key }) { return known.dates }
        if let known = found[key] { return known }
        let dates = language.dates.dates(in: text, reference: reference)
        if recent.count < 64 {
            recent.append((key, dates))
        } else {
            found[key] = dates
        }
        return dates
    }

    /// `language.dates.firstDate(in: text, reference: reference)`, read once.
    func firstDate(in text: String, language: CompiledLanguage, reference: CivilDate?) -> CivilDate? {
        dates(in: text, language: language, reference: reference).first?.0
    }
}

/// A regular expression compiled when first used, once, by whichever thread needs it first.
final class LazyExpression: @unchecked Sendable {
    let pattern: String
    let options: NSRegularExpression.Options
    private let lock = NSLock()
    private var state: NSRegularExpression?? = .none

    init(pattern: String, options: NSRegularExpression.Options = []) {
        self.pattern = pattern
        self.options = options
    }

    /// The expression, nil when the pattern does not compile.
    var expression: NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let state { return state }
        let compiled = try? NSRegularExpression(pattern: pattern, options: options)
        state = .some(compiled)
        return compiled
    }
}

/// A date format over ASCII text: the steps of its regular expression, matched with the
/// expression's backtracking order so that the same match and groups come out.
struct ASCIIMatcher: Sendable {
    enum Step: Sendable {
        /// `((?:19|20|21)\d{2})`
        case year
        /// `(\d{1,2})`
        case digits
        /// `(name|name|…)\.?` (or without the group): lower-cased ASCII names in the
        /// expression's order; names that cannot match ASCII text are left out.
        case names([[UInt8]], captured: Bool)
        /// `\s*`
        case spaces
        /// `,?`
        case optionalComma
        /// One ASCII character, lower-cased, compared without case.
        case literal(UInt8)
        /// A character that never matches ASCII text.
        case never
    }

    let steps: [Step]
    /// Per byte, whether a match can start with it (``firstBytes(of:)``): a position whose
    /// byte cannot start one is passed over without trying the steps.
    let startBytes: [Bool]
    /// The lower-cased ASCII bytes every match holds: those of the literal steps.
    let requiredBytes: Features.Bytes
    /// Whether every match holds a year (a `.year` step).
    let needsYear: Bool

    /// What a text holds that a match may need: read once per text, it tells formats that
    /// cannot match it apart without trying them.
    struct Features {
        /// A set of ASCII bytes.
        struct Bytes: Equatable {
            var low: UInt64 = 0
            var high: UInt64 = 0

            mutating func insert(_ byte: UInt8) {
                if byte < 64 {
                    low |= 1 << UInt64(byte)
                } else if byte < 128 {
                    high |= 1 << UInt64(byte - 64)
                }
            }

            func isSubset(of other: Bytes) -> Bool { low & ~other.low == 0 && high & ~other.high == 0 }
        }

        /// The text's ASCII bytes, lower-cased.
        var bytes = Bytes()
        /// Whether the text holds what `((?:19|20|21)\d{2})` matches.
        var hasYear = false

        init(_ text: UnsafeBufferPointer<UInt8>) {
            for index in text.indices {
                let byte = text[index]
                bytes.insert(KeywordScanner.lower(byte))
                if !hasYear, index + 3 < text.count,
                    (byte == 0x31 && text[index + 1] == 0x39)
                        || (byte == 0x32 && (text[index + 1] == 0x30 || text[index + 1] == 0x31)),
                    ASCIIMatcher.isDigit(text[index + 2]), ASCIIMatcher.isDigit(text[index + 3])
                {
                    hasYear = true
                }
            }
        }
    }

    /// Whether a text with these features may hold a match (false only when it cannot).
    func mayMatch(_ features: Features) -> Bool {
        requiredBytes.isSubset(of: features.bytes) && (!needsYear || features.hasYear)
    }

    /// - Parameter startingAnywhere: try the steps at every position (the reference the
    ///   start bytes are tested against).
    init(steps: [Step], startingAnywhere: Bool = false) {
        self.steps = steps
        var startBytes = [Bool](repeating: startingAnywhere, count: 256)
        for byte in Self.firstBytes(of: steps) { startBytes[Int(byte)] = true }
        self.startBytes = startBytes
        var required = Features.Bytes()
        var needsYear = false
        for step in steps {
            switch step {
            case .literal(let byte): required.insert(byte)
            case .year: needsYear = true
            default: break
            }
        }
        requiredBytes = required
        self.needsYear = needsYear
    }

    /// The bytes a non-empty match of the steps can start with: those of the first step, and
    /// of the steps after it while the steps before can match nothing (`\s*`, `,?`). Names
    /// and literals compare without case: both cases of an ASCII letter.
    static func firstBytes(of steps: [Step]) -> Set<UInt8> {
        var bytes: Set<UInt8> = []
        func addBothCases(_ byte: UInt8) {
            bytes.insert(byte)
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { bytes.insert(byte - 32) }
        }
        for step in steps {
            switch step {
            case .year:
                bytes.formUnion([UInt8(ascii: "1"), UInt8(ascii: "2")])
                return bytes
            case .digits:
                bytes.formUnion(UInt8(ascii: "0")...UInt8(ascii: "9"))
                return bytes
            case .names(let names, _):
                for name in names {
                    if let first = name.first { addBothCases(first) }
                }
                // An empty name would let the step match nothing: read on.
                if !names.contains(where: \.isEmpty) { return bytes }
            case .spaces:
                bytes.formUnion([0x20, 0x09])
            case .optionalComma:
                bytes.insert(UInt8(ascii: ","))
            case .literal(let byte):
                addBothCases(byte)
                return bytes
            case .never:
                return bytes
            }
        }
        // Every step can match nothing: any byte may start a match.
        return Set(0...255)
    }

    /// One match: its range and the byte range of each capturing step, in order.
    struct Match {
        var range: Range<Int>
        var groups: [Range<Int>]
    }

    /// ``asciiNames(_:)``, keeping too the names whose every non-ASCII scalar has a unit of its
    /// own (`units`, ``DateReader/literalUnits``), written with those units: they match the
    /// units of ``DateReader/units(of:)``.
    static func unitNames(_ names: [String], units: [(UInt32, UInt8)]) -> [[UInt8]]? {
        var result: [[UInt8]] = []
        for name in names {
            if name.utf8.allSatisfy({ $0 < 0x80 }) {
                result.append(name.utf8.map(KeywordScanner.lower))
                continue
            }
            if mayFoldToASCII(name) { return nil }
            var bytes: [UInt8] = []
            var complete = true
            for scalar in name.unicodeScalars {
                if scalar.isASCII {
                    bytes.append(KeywordScanner.lower(UInt8(scalar.value)))
                } else if let unit = units.first(where: { $0.0 == scalar.value })?.1 {
                    bytes.append(unit)
                } else {
                    complete = false
                    break
                }
            }
            if complete { result.append(bytes) }
        }
        return result
    }

    /// The names as lower-cased bytes, dropping names that cannot match ASCII text; nil when
    /// one might match it through case folding (`ß`, `ſ`, the Kelvin sign).
    static func asciiNames(_ names: [String]) -> [[UInt8]]? {
        var result: [[UInt8]] = []
        for name in names {
            if name.utf8.allSatisfy({ $0 < 0x80 }) {
                result.append(name.utf8.map(KeywordScanner.lower))
            } else if mayFoldToASCII(name) {
                return nil
            }
        }
        return result
    }

    /// Whether a non-ASCII text might match ASCII text without regard to case: one of its
    /// characters maps to ASCII in upper, lower or title case (or in the case of those).
    static func mayFoldToASCII(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where !scalar.isASCII {
            let properties = scalar.properties
            for mapping in [
                properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping,
            ] {
                for mapped in mapping.unicodeScalars {
                    if mapped.isASCII { return true }
                    let inner = mapped.properties
                    for second in [inner.lowercaseMapping, inner.uppercaseMapping, inner.titlecaseMapping]
                    where second.unicodeScalars.contains(where: \.isASCII) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// Whether the text is one the matcher reads: printable ASCII and tabs only.
    static func reads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !(byte >= 0x20 && byte < 0x7F) && byte != 0x09 { return false }
        return true
    }

    /// Every match, leftmost first and not overlapping, as the expression finds them; nil when
    /// the text is not printable ASCII.
    func matches(in bytes: UnsafeBufferPointer<UInt8>) -> [Match]? {
        guard Self.reads(bytes) else { return nil }
        return readMatches(in: bytes)
    }

    /// ``matches(in:)`` for a text already known to be one the matcher ``reads(_:)``, or for
    /// the units of ``DateReader/units(of:)``, where a non-ASCII scalar stands as bytes no step
    /// matches but a literal step of its own (``DateReader/literalUnits``); every unit from
    /// ``DateReader/letterUnit`` on is a letter for the look-behind.
    func readMatches(in bytes: UnsafeBufferPointer<UInt8>) -> [Match] {
        var found: [Match] = []
        // The captured ranges of the match being tried, held on the stack (a step captures at
        // most one range): trying a position allocates nothing.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: max(1, steps.count)) { groups in
            var start = 0
            while start < bytes.count {
                // (?<![\p{L}\d])
                if !startBytes[Int(bytes[start])]
                    || (start > 0
                        && (KeywordScanner.isAlphanumeric(bytes[start - 1])
                            || bytes[start - 1] >= DateReader.letterUnit))
                {
                    start += 1
                    continue
                }
                var count = 0
                if let end = match(step: 0, at: start, in: bytes, groups: groups, count: &count), end > start
                {
                    found.append(Match(range: start..<end, groups: Array(groups[0..<count])))
                    start = end
                } else {
                    start += 1
                }
            }
        }
        return found
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The end of a match of the steps from `step` on at `position`, trying alternatives in
    /// the expression's order; `groups[0..<count]` holds the captured ranges of the match
    /// found (`groups` has room for one range per step).
    private func match(
        step: Int, at position: Int, in bytes: UnsafeBufferPointer<UInt8>,
        groups: UnsafeMutableBufferPointer<Range<Int>>, count: inout Int
    )
        -> Int?
    {
        guard step < steps.count else {
            // (?!\d)
            return position < bytes.count && Self.isDigit(bytes[position]) ? nil : position
        }
        switch steps[step] {
        case .year:
            guard position + 4 <= bytes.count else { return nil }
            let first = bytes[position]
            let second = bytes[position + 1]
            let century =
                (first == UInt8(ascii: "1") && second == UInt8(ascii: "9"))
                || (first == UInt8(ascii: "2")
                    && (second == UInt8(ascii: "0") || second == UInt8(ascii: "1")))
            guard century, Self.isDigit(bytes[position + 2]), Self.isDigit(bytes[position + 3]) else {
                return nil
            }
            return capture(position..<(position + 4), then: step, in: bytes, groups: groups, count: &count)
        case .digits:
            guard position < bytes.count, Self.isDigit(bytes[position]) else { return nil }
            if position + 1 < bytes.count, Self.isDigit(bytes[position + 1]),
                let end = capture(
                    position..<(position + 2), then: step, in: bytes, groups: groups, count: &count)
            {
                return end
            }
            return capture(position..<(position + 1), then: step, in: bytes, groups: groups, count: &count)
        case .names(let names, let captured):
            for name in names where position + name.count <= bytes.count {
                var offset = 0
                while offset < name.count, KeywordScanner.lower(bytes[position + offset]) == name[offset] {
                    offset += 1
                }
                guard offset == name.count else { continue }
                let end = position + name.count
                let held = count
                if captured {
                    groups[count] = position..<end
                    count += 1
                }
                // \.? greedy: with the point first.
                if end < bytes.count, bytes[end] == UInt8(ascii: "."),
                    let found = match(step: step + 1, at: end + 1, in: bytes, groups: groups, count: &count)
                {
                    return found
                }
                if let found = match(step: step + 1, at: end, in: bytes, groups: groups, count: &count) {
                    return found
                }
                count = held
            }
            return nil
        case .spaces:
            var end = position
            while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
            while true {
                if let found = match(step: step + 1, at: end, in: bytes, groups: groups, count: &count) {
                    return found
                }
                if end == position { return nil }
                end -= 1
            }
        case .optionalComma:
            if position < bytes.count, bytes[position] == UInt8(ascii: ","),
                let found = match(step: step + 1, at: position + 1, in: bytes, groups: groups, count: &count)
            {
                return found
            }
            return match(step: step + 1, at: position, in: bytes, groups: groups, count: &count)
        case .literal(let byte):
            guard position < bytes.count, KeywordScanner.lower(bytes[position]) == byte else { return nil }
            return match(step: step + 1, at: position + 1, in: bytes, groups: groups, count: &count)
        case .never:
            return nil
        }
    }

    private func capture(
        _ range: Range<Int>, then step: Int, in bytes: UnsafeBufferPointer<UInt8>,
        groups: UnsafeMutableBufferPointer<Range<Int>>, count: inout Int
    )
        -> Int?
    {
        let held = count
        groups[count] = range
        count += 1
        if let end = match(step: step + 1, at: range.upperBound, in: bytes, groups: groups, count: &count) {
            return end
        }
        count = held
        return nil
    }
}

/// Dates in one language's formats, with relative words resolved against a reference day.
struct DateReader: Sendable {
    let patterns: [DateFormatPattern]
    let monthLookup: [String: Int]
    let weekdays: [(Phrase, Int)]
    let relativeDays: [(Phrase, Int)]
    /// The non-ASCII scalars of the names the formats hold (the month names with a
    /// `{monthName}` format, the weekday names with a `{weekday}` one) and of the formats'
    /// literal characters, with every scalar their case mappings (and those of the mappings)
    /// hold: a text scalar whose mappings meet none of them takes no part in a match of a name
    /// or literal without case.
    let patternScalars: Set<UInt32>
    /// The scalars read as units of their own (``units(of:)``), each with its unit
    /// (``letterUnit`` + 1 on): the formats' literal CJK ideographs and Hangul syllables
    /// (letters without case, which only match themselves) that are no scalar of a name a
    /// format holds, and the accented Latin-1 letters of the weekday names a format holds
    /// that no month name holds (a letter and its other case share a unit).
    /// Shape: a few pairs, searched in order.
    let literalUnits: [(UInt32, UInt8)]
    var rangeTail: NSRegularExpression? { Self.rangeTailExpression }
    var leadingDay: NSRegularExpression? { Self.leadingDayExpression }

    /// `Array(text.lowercased().utf8)`. `lowercased()` maps scalar by scalar, and a scalar
    /// that does not change when lower-cased maps to itself: when no non-ASCII scalar
    /// changes, only ASCII capitals do, byte for byte (no byte of a longer scalar is one).
    static func lowercasedUTF8(_ text: String) -> [UInt8] {
        for scalar in text.unicodeScalars where !scalar.isASCII && scalar.properties.changesWhenLowercased {
            return Array(text.lowercased().utf8)
        }
        // The bytes lower-cased where the string keeps them, in one pass.
        var text = text
        return text.withUTF8 { bytes in
            [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                for index in bytes.indices { buffer[index] = KeywordScanner.lower(bytes[index]) }
                count = bytes.count
            }
        }
    }

    /// `text.lowercased()` (``lowercasedUTF8(_:)`` as a string).
    static func lowercased(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        let bytes = lowercasedUTF8(text)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of an ASCII text (where a UTF-16 offset is a byte offset), nil for other text.
    static func asciiText(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        for byte in bytes where byte >= 0x80 { return nil }
        return bytes
    }

    /// Whether ASCII text may end with what ``leadingDayExpression`` matches; false only when
    /// it cannot: the expression needs a digit, then one of its connectors (each ends with `-`,
    /// `~` or one of the letters `adelnstuy`, in either case) and nothing but white space after it.
    static func mayEndWithLeadingDay(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let last = bytes.lastIndex(where: { !isASCIISpace($0) }) else { return false }
        switch KeywordScanner.lower(bytes[last]) {
        case UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: "a"), UInt8(ascii: "d"), UInt8(ascii: "e"),
            UInt8(ascii: "l"), UInt8(ascii: "n"), UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "u"),
            UInt8(ascii: "y"):
            return bytes.contains { $0 >= 0x30 && $0 <= 0x39 }
        default:
            return false
        }
    }

    /// Whether ASCII text may start with what ``rangeTailExpression`` matches; false only when
    /// it cannot: after white space the expression needs one of its connectors, which in ASCII
    /// start with `-`, `~`, `t`, `b` or `a` (no ASCII capital but their own folds to these).
    static func mayStartWithRangeTail(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first(where: { !isASCIISpace($0) }) else { return false }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "b"),
            UInt8(ascii: "B"), UInt8(ascii: "a"), UInt8(ascii: "A"):
            return true
        default:
            return false
        }
    }

    /// ASCII white space and line ends: tab, line feed, vertical tab, form feed, carriage
    /// return and space (`\s` in ASCII is among them).
    private static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// A day before a date: "entre le 25 et le …", "24 - …" (compiled on first use).
    static let leadingDayExpression = try? NSRegularExpression(
        pattern:
            "(?<!\\d)(\\d{1,2})(?:er|\\.)?\\s*(?:-|–|—|~|〜|～|et le|et|and|und|y el|y|e il|e|en|tot|bis|au|al|a)\\s*$",
        options: [.caseInsensitive])
    /// The end of a day range after a date: "… – 26" (compiled on first use).
    static let rangeTailExpression = try? NSRegularExpression(
        pattern: "^\\s*(?:-|–|—|~|〜|～|至|to|bis|au|al|a|tot)\\s*(\\d{1,2})(?!\\d)")

    static let universalFormats = ["{year}-{month}-{day}", "{year}/{month}/{day}", "{year}.{month}.{day}"]

    init(language: LanguageRules) {
        var formats = language.dateFormats
        for format in DateReader.universalFormats where !formats.contains(format) { formats.append(format) }
        // The names the formats hold: a language's month names take part only through a
        // `{monthName}` slot, its weekday names only through a `{weekday}` slot.
        let monthNames = formats.contains { $0.contains("{monthName}") } ? language.months.flatMap { $0 } : []
        let weekdayNames =
            formats.contains { $0.contains("{weekday}") } ? language.weekdays.flatMap { $0 } : []
        let names = monthNames + weekdayNames
        var scalars: Set<UInt32> = []
        for text in names + formats {
            for scalar in text.unicodeScalars where !scalar.isASCII {
                scalars.formUnion(Self.caseClosure(of: scalar).map(\.value))
            }
        }
        patternScalars = scalars
        let nameScalars = Set(names.flatMap { $0.unicodeScalars.map(\.value) })
        var literalUnits: [(UInt32, UInt8)] = []
        var nextUnit = Self.letterUnit + 1
        for format in formats {
            for scalar in Self.literalScalars(of: format)
            where Self.mayStandAsUnit(scalar) && !nameScalars.contains(scalar.value)
                && !literalUnits.contains(where: { $0.0 == scalar.value }) && nextUnit < 0xFF
            {
                literalUnits.append((scalar.value, nextUnit))
                nextUnit += 1
            }
        }
        // The accented letters of weekday names (not captured, unlike month names): each
        // letter and its other case as one unit, when no month name holds either.
        let monthScalars = Set(
            monthNames.flatMap { $0.unicodeScalars.flatMap { Self.caseClosure(of: $0).map(\.value) } })
        for name in weekdayNames {
            for scalar in name.unicodeScalars where !scalar.isASCII {
                let closure = Self.caseClosure(of: scalar)
                guard
                    closure.allSatisfy({ Self.mayStandAsNameUnit($0) && !monthScalars.contains($0.value) }),
                    !literalUnits.contains(where: { $0.0 == scalar.value }), nextUnit < 0xFF
                else { continue }
                for member in closure { literalUnits.append((member.value, nextUnit)) }
                nextUnit += 1
            }
        }
        self.literalUnits = literalUnits
        // Longer formats first, so "Nov 24, 2026" wins over "Nov 24".
        patterns = formats.sorted { $0.count > $1.count }.compactMap {
            DateFormatPattern(
                format: $0, months: language.months, weekdays: language.weekdays, literalUnits: literalUnits)
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
    }

    /// The single-scalar literal characters of a format (outside its `{slot}`s; not the space
    /// or comma, which stand for white space and an optional comma), in order.
    static func literalScalars(of format: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            if character == "{", let close = format[index...].firstIndex(of: "}") {
                index = format.index(after: close)
                continue
            }
            if character != " ", character != ",", character.unicodeScalars.count == 1,
                let scalar = character.unicodeScalars.first
            {
                result.append(scalar)
            }
            index = format.index(after: index)
        }
        return result
    }

    /// Whether a literal scalar may be read as a unit of its own: a CJK unified ideograph
    /// (U+4E00–U+9FFF) or a Hangul syllable (U+AC00–U+D7A3), letters (`\p{L}`) in one UTF-16
    /// unit that no other scalar matches without regard to case.
    static func mayStandAsUnit(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
    }

    /// Whether a letter of a weekday name may be read as a unit with its other case: a Latin-1
    /// letter (U+00C0–U+00FE but `×`, `÷` and `ß`), whose upper and lower case are one scalar
    /// each, both in that range.
    static func mayStandAsNameUnit(_ scalar: Unicode.Scalar) -> Bool {
        (0xC0...0xFE).contains(scalar.value) && scalar.value != 0xD7 && scalar.value != 0xF7
            && scalar.value != 0xDF
    }

    /// A scalar and the scalars of its lower-, upper- and title-case mappings, and of theirs.
    static func caseClosure(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var closure = [scalar]
        func add(_ scalar: Unicode.Scalar) {
            let properties = scalar.properties
            for mapping in [
                properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping,
            ] {
                for mapped in mapping.unicodeScalars where !closure.contains(mapped) {
                    closure.append(mapped)
                }
            }
        }
        add(scalar)
        for mapped in closure.dropFirst() { add(mapped) }
        return closure
    }

    /// Every date in the text, in order, each with its UTF-16 range.
    func dates(in text: String, reference: CivilDate?) -> [(CivilDate, NSRange)] {
        // Every format has a day in digits.
        guard text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return [] }
        var text = text
        if let found = text.withUTF8({ asciiDates(in: $0, reference: reference) }) { return found }
        if let found = unitDates(in: text, reference: reference) { return found }
        return expressionDates(in: text, reference: reference)
    }

    /// ``dates(in:reference:)`` for printable ASCII text when every format has an
    /// ``ASCIIMatcher``: the same dates, with slot values read from the bytes (in ASCII text a
    /// UTF-16 offset is a byte offset); nil for other text.
    func asciiDates(in bytes: UnsafeBufferPointer<UInt8>, reference: CivilDate?) -> [(CivilDate, NSRange)]? {
        guard ASCIIMatcher.reads(bytes) else { return nil }
        for pattern in patterns where pattern.ascii == nil { return nil }
        return readDates(in: bytes, reference: reference)
    }

    /// ``dates(in:reference:)`` for text whose non-ASCII scalars take no part in a match
    /// (``units(of:)``) when every format has an ``ASCIIMatcher``: the dates the matchers find
    /// in the text's units; nil for other text.
    func unitDates(in text: String, reference: CivilDate?) -> [(CivilDate, NSRange)]? {
        for pattern in patterns where pattern.ascii == nil { return nil }
        guard let units = units(of: text) else { return nil }
        return units.withUnsafeBufferPointer { readDates(in: $0, reference: reference) }
    }

    /// A stand-in unit for a letter that takes no part in a match: it only keeps a match from
    /// starting after it (`(?<![\p{L}\d])`). The units above it are the formats' literal
    /// letters (``literalUnits``).
    static let letterUnit: UInt8 = 0x80
    /// A stand-in unit for any other scalar that takes no part in a match.
    static let otherUnit: UInt8 = 0x7F

    /// The text as one byte per UTF-16 unit, so that a unit's position is its offset in the
    /// expressions' ranges: printable ASCII and tabs as they are, a non-ASCII scalar as
    /// ``letterUnit`` or ``otherUnit`` (twice when it takes two units), a format's literal
    /// ideograph or syllable as its own unit (``literalUnits``); nil when the text holds
    /// a scalar that may take part in a match of the expressions, which then read it:
    /// - another ASCII control character (`\s` matches line ends);
    /// - a scalar `\s` or `\d` may match (white space, separators, decimal digits), or one
    ///   the two Unicode versions (this library's and the expressions') may not both know;
    /// - a scalar that might match ASCII text without regard to case (`ſ`, `ß`, the Kelvin
    ///   sign), or a non-ASCII scalar of a name or literal (``patternScalars``).
    func units(of text: String) -> [UInt8]? {
        var units: [UInt8] = []
        units.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                guard (value >= 0x20 && value < 0x7F) || value == 0x09 else { return nil }
                units.append(UInt8(value))
                continue
            }
            if let unit = literalUnits.first(where: { $0.0 == value })?.1 {
                units.append(unit)
                continue
            }
            guard let isLetter = Self.isInertLetter(scalar, patternScalars: patternScalars) else {
                return nil
            }
            let unit = isLetter ? Self.letterUnit : Self.otherUnit
            units.append(unit)
            if value > 0xFFFF { units.append(unit) }
        }
        return units
    }

    /// For a non-ASCII scalar that takes no part in a match (``units(of:)``), whether it is a
    /// letter (`\p{L}`); nil for a scalar that may take part.
    static func isInertLetter(_ scalar: Unicode.Scalar, patternScalars: Set<UInt32>) -> Bool? {
        let properties = scalar.properties
        // Unicode 15.0 and older: known to this library and to the expressions' ICU alike.
        guard let age = properties.age, age.major < 15 || (age.major == 15 && age.minor == 0) else {
            return nil
        }
        let isLetter: Bool
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            isLetter = true
        case .decimalNumber, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .surrogate,
            .unassigned:
            return nil
        default:
            isLetter = false
        }
        if properties.isWhitespace { return nil }
        if properties.changesWhenCaseMapped || properties.changesWhenCaseFolded {
            for mapped in caseClosure(of: scalar)
            where mapped.isASCII || patternScalars.contains(mapped.value) {
                return nil
            }
        } else if patternScalars.contains(scalar.value) {
            return nil
        }
        return isLetter
    }

    /// The dates the formats' ``ASCIIMatcher``s find in ASCII text or in ``units(of:)``.
    private func readDates(in bytes: UnsafeBufferPointer<UInt8>, reference: CivilDate?) -> [(
        CivilDate, NSRange
    )] {
        var found: [(CivilDate, NSRange)] = []
        let features = ASCIIMatcher.Features(bytes)
        for pattern in patterns {
            guard let ascii = pattern.ascii, ascii.mayMatch(features) else { continue }
            for match in ascii.readMatches(in: bytes) {
                let matchRange = NSRange(location: match.range.lowerBound, length: match.range.count)
                if found.contains(where: { NSIntersectionRange($0.1, matchRange).length > 0 }) { continue }
                var year: Int?
                var month: Int?
                var day: Int?
                for (slotIndex, slot) in pattern.slots.enumerated() where slotIndex < match.groups.count {
                    let range = match.groups[slotIndex]
                    switch slot {
                    case .year: year = Self.number(bytes, range)
                    case .month: month = Self.number(bytes, range)
                    case .day: day = Self.number(bytes, range)
                    case .monthName:
                        let name = String(
                            unsafeUninitializedCapacity: range.count,
                            initializingUTF8With: { buffer in
                                for offset in 0..<range.count {
                                    buffer[offset] = KeywordScanner.lower(bytes[range.lowerBound + offset])
                                }
                                return range.count
                            })
                        month = monthLookup[name]
                    }
                }
                guard let month, let day else { continue }
                if let date = resolve(year: year, month: month, day: day, reference: reference) {
                    found.append((date, matchRange))
                }
            }
        }
        // Sorted in place (the same order `sorted` gives); one date or none is in order.
        if found.count > 1 { found.sort { $0.1.location < $1.1.location } }
        return found
    }

    /// The value of a run of ASCII digits (as `Int` reads their text), nil when empty.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// ``dates(in:reference:)`` through each format's ``DateFormatPattern/matches(in:nsText:)``.
    func expressionDates(in text: String, reference: CivilDate?) -> [(CivilDate, NSRange)] {
        let nsText = text as NSString
        var found: [(CivilDate, NSRange)] = []
        for pattern in patterns {
            for (matchRange, groups) in pattern.matches(in: text, nsText: nsText) {
                if found.contains(where: { NSIntersectionRange($0.1, matchRange).length > 0 }) { continue }
                var year: Int?
                var month: Int?
                var day: Int?
                for (slotIndex, slot) in pattern.slots.enumerated() {
                    let range = groups[slotIndex]
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
                    found.append((date, matchRange))
                }
            }
        }
        return found.sorted { $0.1.location < $1.1.location }
    }

    private func resolve(year: Int?, month: Int, day: Int, reference: CivilDate?) -> CivilDate? {
        if let year { return CivilDate(year: year, month: month, day: day) }
        guard let reference else { return nil }
        // A date without a year is the one nearest the email's date (the earlier one at equal
        // distance).
        var nearest: CivilDate?
        var nearestDistance = Int.max
        for year in (reference.year - 1)...(reference.year + 1) {
            guard let option = CivilDate(year: year, month: month, day: day) else { continue }
            let distance = distance(option, reference)
            if distance < nearestDistance {
                nearest = option
                nearestDistance = distance
            }
        }
        return nearest
    }

    /// The number of days between two days.
    private func distance(_ lhs: CivilDate, _ rhs: CivilDate) -> Int {
        abs(lhs.daysSince1970 - rhs.daysSince1970)
    }

    /// The first date in the text.
    func firstDate(in text: String, reference: CivilDate?) -> CivilDate? {
        dates(in: text, reference: reference).first?.0
    }

    /// A day or a window: two dates, a date with a day range ("Nov 24–26"), a relative word
    /// ("tomorrow") or a weekday name, resolved against the reference day.
    func window(in text: String, reference: CivilDate?) -> DateWindow? {
        window(in: text, reference: reference, found: dates(in: text, reference: reference))
    }

    /// ``window(in:reference:)`` with the text's ``dates(in:reference:)`` already read.
    func window(in text: String, reference: CivilDate?, found: [(CivilDate, NSRange)]) -> DateWindow? {
        if found.count >= 2, found[0].0 <= found[1].0,
            found[1].1.location - (found[0].1.location + found[0].1.length) <= 12
        {
            return DateWindow(from: found[0].0.iso, until: found[1].0.iso)
        }
        if let (first, range) = found.first {
            let nsText = text as NSString
            let ascii = Self.asciiText(text)
            // "entre le 25 et le 26 novembre", "24 - 26 novembre": a day before the date.
            if let leadingDay, range.location > 0,
                ascii.map({ Self.mayEndWithLeadingDay($0.prefix(range.location)) }) ?? true
            {
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
            if let rangeTail, tailStart < nsText.length,
                ascii.map({ Self.mayStartWithRangeTail($0.dropFirst(tailStart)) }) ?? true
            {
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
        // In ASCII text lower-casing changes only capitals, and folding nothing after it.
        let folded = Self.asciiText(text)?.map(KeywordScanner.lower) ?? Text.fold(Self.lowercasedUTF8(text))
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
