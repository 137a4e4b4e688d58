import Foundation
import Testing

@testable import Extraction

/// The date fast paths agree with the regular expressions they stand in for.
@Suite struct DateFastPathTests {
    typealias Generator = FastPathTests.Generator

    static func describe(_ dates: [(CivilDate, NSRange)]) -> [String] {
        dates.map { "\($0.0.iso) \($0.1.location) \($0.1.length)" }
    }

    /// Dates read from the bytes of ASCII text are the dates the expressions find.
    @Test func asciiDatesAgreeWithTheExpressions() {
        var generator = Generator(state: 21)
        var compared = 0
        var found = 0
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        for language in Fixture.extractor.languages {
            let pieces = FastPathTests.dateNamePieces(
                language, asciiOnly: true,
                [
                    " ", "  ", "\t", ",", ".", "/", "-", "de ", "er", "le ", "1", "12", "3", "31", "2026",
                    "1999", "2101", "05", "123", "x", "Nov", "a", ":", "(", "0", "13", "29", "2.", "2026-11-",
                    "11/",
                ])
            for _ in 0..<600 {
                var text = generator.text(pieces, count: 10)
                guard let fast = text.withUTF8({ language.dates.asciiDates(in: $0, reference: reference) })
                else { continue }
                let expected = language.dates.expressionDates(in: text, reference: reference)
                compared += 1
                found += expected.count
                #expect(
                    Self.describe(fast) == Self.describe(expected),
                    "\(language.rules.code) \(text.debugDescription)")
                // And without a reference day (dates without a year are dropped).
                #expect(
                    Self.describe(text.withUTF8({ language.dates.asciiDates(in: $0, reference: nil) }) ?? [])
                        == Self.describe(language.dates.expressionDates(in: text, reference: nil)))
            }
            // Text that is not printable ASCII is left to the expressions.
            var other = "12.11.2026 é"
            #expect(other.withUTF8({ language.dates.asciiDates(in: $0, reference: reference) }) == nil)
        }
        #expect(compared > 3_000)
        #expect(found > 100)
    }

    /// A format with a year is not searched in a text that cannot hold one: the expression
    /// finds nothing there either, whatever digits (ASCII, full-width, other scripts) it holds.
    @Test func formatsWithAYearSkipTextsWithoutOne() {
        var generator = Generator(state: 22)
        var skipped = 0
        var searched = 0
        let pieces = [
            " ", "\u{A0}", ",", ".", "/", "-", "–", "年", "月", "日", "1", "2", "9", "0", "12", "19", "20", "21",
            "31", "202", "2026", "１", "２０２６", "٢٠٢٦", "२०", "x", "é", "Nov", "März", "de ", "\u{301}",
            "\u{E0100}",
        ]
        for language in Fixture.extractor.languages {
            for pattern in language.dates.patterns where pattern.hasYear {
                guard let expression = pattern.expression else { continue }
                for _ in 0..<150 {
                    let text = generator.text(pieces, count: 8) + "é"
                    let (expected, actual) = FastPathTests.expressionAndFastMatches(pattern, expression, text)
                    if DateFormatPattern.mayHoldYear(text) {
                        searched += 1
                    } else {
                        skipped += 1
                        #expect(expected.isEmpty, "\(pattern.pattern) \(text.debugDescription)")
                    }
                    #expect(actual == expected, "\(pattern.pattern) \(text.debugDescription)")
                }
            }
        }
        #expect(skipped > 1_000)
        #expect(searched > 1_000)
    }

    /// The memo answers what the language's reader answers.
    @Test func dateMemoAnswersAsTheReader() {
        let memo = DateMemo()
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        let texts = [
            "Mittwoch, 26. November", "26.11.2026", "Nov 24 – 26", "2026年11月24日", "", "tomorrow", "26. März",
        ]
        for language in Fixture.extractor.languages {
            for text in texts + texts {
                let expected = language.dates.dates(in: text, reference: reference)
                #expect(
                    Self.describe(memo.dates(in: text, language: language, reference: reference))
                        == Self.describe(expected))
                #expect(
                    memo.firstDate(in: text, language: language, reference: nil)
                        == language.dates.firstDate(in: text, reference: nil))
            }
        }
    }

    /// A position whose byte cannot start a format's match is passed over: the matcher finds
    /// the same matches when it tries every position.
    @Test func asciiMatchersStartOnlyWhereAMatchCan() {
        var generator = Generator(state: 23)
        var compared = 0
        for language in Fixture.extractor.languages {
            let pieces = FastPathTests.dateNamePieces(
                language, asciiOnly: true,
                [" ", "\t", ",", ".", "/", "-", "1", "12", "31", "2026", "x", "a", "(", "le ", "de "])
            for pattern in language.dates.patterns {
                guard let ascii = pattern.ascii else { continue }
                let everywhere = ASCIIMatcher(steps: ascii.steps, startingAnywhere: true)
                for _ in 0..<200 {
                    var text = generator.text(pieces, count: 10)
                    guard let found = text.withUTF8({ ascii.matches(in: $0) }),
                        let expected = text.withUTF8({ everywhere.matches(in: $0) })
                    else { continue }
                    compared += 1
                    #expect(
                        found.map { [$0.range] + $0.groups } == expected.map { [$0.range] + $0.groups },
                        "\(language.rules.code) \(pattern.pattern) \(text.debugDescription)")
                }
            }
        }
        #expect(compared > 5_000)
    }

    /// Days counted by arithmetic are the days of Foundation's Gregorian calendar in UTC, from
    /// the instant to the day, the weekday and days added, over every day from 1899 to 2201.
    @Test func dayArithmeticAgreesWithTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = try #require(calendar.date(from: DateComponents(year: 1899, month: 12, day: 25)))
        func day(_ date: Date) -> CivilDate? {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
            return CivilDate(year: year, month: month, day: day)
        }
        var mismatches: [String] = []
        var valid = 0
        for offset in 0..<(302 * 366) {
            let midnight = start.addingTimeInterval(TimeInterval(offset) * 86_400)
            // Late in the day, and in the last second of the day before.
            for instant in [midnight.addingTimeInterval(86_399.5), midnight.addingTimeInterval(-0.25)]
            where CivilDate(instant) != day(instant) {
                mismatches.append("\(instant): \(String(describing: CivilDate(instant)))")
            }
            guard let expected = day(midnight) else {
                if CivilDate(midnight) != nil { mismatches.append("\(midnight) is no valid day") }
                continue
            }
            valid += 1
            if CivilDate(midnight) != expected { mismatches.append("\(midnight): \(expected.iso)") }
            if CivilDate(daysSince1970: expected.daysSince1970) != expected {
                mismatches.append("\(expected.iso) counted \(expected.daysSince1970)")
            }
            if expected.weekday != calendar.component(.weekday, from: midnight) - 1 {
                mismatches.append("\(expected.iso) weekday \(String(describing: expected.weekday))")
            }
            for days in [-400, -7, -1, 0, 1, 2, 6, 7, 366] {
                let moved = try #require(calendar.date(byAdding: .day, value: days, to: midnight))
                if expected.adding(days: days) != day(moved) {
                    mismatches.append("\(expected.iso) + \(days)")
                }
            }
            if mismatches.count > 20 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(valid == 109_938)
    }

    @Test func isoDatesAreWrittenAsTheirNumbersRead() {
        for year in [1900, 1999, 2000, 2026, 2099, 2100, 2200] {
            for month in 1...12 {
                for day in 1...31 {
                    guard let date = CivilDate(year: year, month: month, day: day) else { continue }
                    #expect(date.iso == date.referenceISO)
                }
            }
        }
    }
}
