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
            let rules = language.rules
            let names = (rules.months.flatMap { $0 } + rules.weekdays.flatMap { $0 }).filter {
                $0.utf8.allSatisfy { $0 < 0x80 }
            }
            let pieces =
                names + names.map { $0.uppercased() } + [
                    " ", "  ", "\t", ",", ".", "/", "-", "de ", "er", "le ", "1", "12", "3", "31", "2026",
                    "1999",
                    "2101", "05", "123", "x", "Nov", "a", ":", "(", "0", "13", "29", "2.", "2026-11-", "11/",
                ]
            for _ in 0..<600 {
                var text = generator.text(pieces, count: 10)
                guard let fast = text.withUTF8({ language.dates.asciiDates(in: $0, reference: reference) })
                else { continue }
                let expected = language.dates.expressionDates(in: text, reference: reference)
                compared += 1
                found += expected.count
                #expect(
                    Self.describe(fast) == Self.describe(expected), "\(rules.code) \(text.debugDescription)")
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
        #expect(found > 500)
    }
}
