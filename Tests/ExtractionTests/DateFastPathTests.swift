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

    /// Non-ASCII pieces for generated texts: scalars that take no part in a match, and scalars
    /// that may (white space, digits of other scripts, scalars that fold to ASCII, letters of
    /// names and literals and their other cases, line ends, a scalar of two UTF-16 units).
    static let nonASCIIPieces = [
        "–", "—", "·", "©", "€", "«", "»", "é", "É", "ñ", "Ñ", "ì", "Ì", "ä", "Ä", "ö", "ç", "á", "Á", "ã",
        "ß", "ẞ", "ſ", "\u{212A}", "İ", "ı", "ﬀ", "ﬁ", "ǰ", "ª", "µ", "\u{301}", "\u{308}", "\u{200B}",
        "\u{FEFF}", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{2009}", "１", "٢", "𝟙", "😀", "𐐀", "𐐨",
        "\u{E000}", "\u{378}", "年", "月", "日", "년", "월", "일", "수", "火", "（", "）", "：", "時", "〜", "～",
        "送达", "オ", "Ω", "ω", "Ж", "\n", "\r\n", "\u{1}",
    ]

    /// Every language's date reader finds no date in a text without an ASCII digit (full-
    /// width and other digits, month and weekday names alone): the order date is not looked for
    /// in such a text (``ExtractionContext/hasASCIIDigit(_:)``).
    @Test func noDateWithoutAnASCIIDigit() {
        var generator = Generator(state: 25)
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        for language in Fixture.extractor.languages {
            let pieces = FastPathTests.dateNamePieces(
                language, asciiOnly: false,
                [
                    " ", ",", ".", "/", "-", "de ", "le ", "x", "Nov", "November", "(", ")", "２０２６", "１１",
                    "２４日", "年", "月", "日", "٢٤", "२४", "tomorrow", "Monday", "\u{A0}",
                ])
            for _ in 0..<400 {
                let text = generator.text(pieces + Self.nonASCIIPieces, count: 8)
                let hasDigit = text.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
                #expect(ExtractionContext.hasASCIIDigit(Substring(text).utf8) == hasDigit)
                guard !hasDigit else { continue }
                #expect(
                    language.dates.dates(in: text, reference: reference).isEmpty,
                    "\(language.rules.code) \(text.debugDescription)")
            }
        }
    }

    /// A value with no more ASCII digits than the number found in it has no ASCII digit after
    /// the number's first occurrence in its first 160 characters (or the number is not found):
    /// such a value is not searched for the number and a date after it.
    @Test func noDigitAfterANumberThatHoldsAllTheDigits() {
        var generator = Generator(state: 26)
        let numbers = ["1047", "WK-2026-00433", "A1B2", "ORDER", "1\u{301}2", "٢٤", "１２３"]
        let pieces = [
            "1047", "WK-2026-00433", "A1B2", "ORDER", " ", "#", "vom ", "22.11.2026", "(", ")", "]",
            "\u{301}", "é",
            "e\u{301}", "１", "٢", "5", "x", "\r\n", "\u{A0}", "日",
        ]
        var skipped = 0
        for round in 0..<20_000 {
            let number = generator.pick(numbers)
            let value = generator.text(pieces, count: round % 100 == 0 ? 90 : 8)
            guard
                ExtractionContext.asciiDigitCount(value.utf8)
                    <= ExtractionContext.asciiDigitCount(number.utf8)
            else { continue }
            skipped += 1
            if let range = ExtractionContext.range(of: number, inFirst160Of: value) {
                #expect(
                    !ExtractionContext.hasASCIIDigit(value.utf8[range.upperBound...]),
                    "\(number.debugDescription) in \(value.debugDescription)")
            }
        }
        #expect(skipped > 1_000)
    }

    /// Dates read from the units of text with non-ASCII scalars (``DateReader/units(of:)``) are
    /// the dates the expressions find, in every language; text with a scalar that may take
    /// part in a match is left to the expressions.
    @Test func unitDatesAgreeWithTheExpressions() {
        var generator = Generator(state: 24)
        var compared = 0
        var found = 0
        var left = 0
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        for language in Fixture.extractor.languages {
            let pieces = FastPathTests.dateNamePieces(
                language, asciiOnly: false,
                [
                    " ", "  ", "\t", ",", ".", "/", "-", "de ", "er", "le ", "1", "12", "3", "31", "2026",
                    "1999",
                    "05", "123", "x", "Nov", "a", "(", "0", "13", "2.", "2026-11-", "11/", "2026年", "11月",
                    "24日", "2026년 ", "11월 ", "25일", "Nov 24, 2026", "24 November", "24.11.2026", "24/11/2026",
                    "11/24", "2026-11-24", "24. ", "24 de ", " 24 ", "25 ", "2026",
                ])
            for round in 0..<1_500 {
                let extra = Self.nonASCIIPieces
                var text = generator.text(pieces, count: 8)
                for _ in 0..<(1 + round % 3) {
                    let cut = text.unicodeScalars.index(
                        text.unicodeScalars.startIndex,
                        offsetBy: Int(generator.next() % UInt64(text.unicodeScalars.count + 1)))
                    text.insert(contentsOf: generator.pick(extra), at: cut)
                }
                let expected = Self.describe(language.dates.expressionDates(in: text, reference: reference))
                #expect(
                    Self.describe(language.dates.dates(in: text, reference: reference)) == expected,
                    "\(language.rules.code) \(text.debugDescription)")
                guard let fast = language.dates.unitDates(in: text, reference: reference) else {
                    left += 1
                    continue
                }
                compared += 1
                found += fast.count
                #expect(Self.describe(fast) == expected, "\(language.rules.code) \(text.debugDescription)")
                #expect(
                    Self.describe(language.dates.unitDates(in: text, reference: nil) ?? [])
                        == Self.describe(language.dates.expressionDates(in: text, reference: nil)))
            }
        }
        #expect(compared > 4_000)
        #expect(left > 5_000)
        #expect(found > 200)
    }

    /// The scalars ``DateReader/units(of:)`` stands in for are what the expressions take them
    /// for: a letter is `\p{L}`, no scalar is `\s` or `\d` or matches ASCII text or a name's
    /// scalar without regard to case; checked by the expressions themselves, and against
    /// Foundation's case folding, over every scalar up to U+31FFF.
    @Test func unitsStandInOnlyForScalarsThatTakeNoPart() throws {
        for language in Fixture.extractor.languages {
            let reader = language.dates
            var letters = ""
            var others = ""
            var letterCount = 0
            for value in UInt32(0x80)..<0x32000 {
                guard let scalar = Unicode.Scalar(value),
                    let isLetter = DateReader.isInertLetter(scalar, patternScalars: reader.patternScalars)
                else { continue }
                if isLetter {
                    letters.unicodeScalars.append(scalar)
                    letterCount += 1
                } else {
                    others.unicodeScalars.append(scalar)
                }
            }
            let all = letters + others
            func count(_ pattern: String, _ text: String, _ options: NSRegularExpression.Options = []) throws
                -> Int
            {
                let expression = try NSRegularExpression(pattern: pattern, options: options)
                return expression.numberOfMatches(
                    in: text, range: NSRange(location: 0, length: (text as NSString).length))
            }
            #expect(try count("[\\p{L}\\d]", letters) == letterCount)
            #expect(try count("[\\p{L}\\d]", others) == 0)
            #expect(try count("[\\s\\d]", all) == 0)
            #expect(try count("[\\x{20}-\\x{7E}\\t\\n\\r]", all, [.caseInsensitive]) == 0)
            // The names the formats hold, and the formats themselves.
            let formats = language.rules.dateFormats + DateReader.universalFormats
            let nameScalars =
                (formats.contains { $0.contains("{monthName}") } ? language.rules.months.flatMap { $0 } : [])
                + (formats.contains { $0.contains("{weekday}") }
                    ? language.rules.weekdays.flatMap { $0 } : [])
                + language.rules.dateFormats
            let nonASCII = Set(nameScalars.flatMap { $0.unicodeScalars.filter { !$0.isASCII } })
            if !nonASCII.isEmpty {
                let set = nonASCII.map { String(format: "\\x{%X}", $0.value) }.joined()
                #expect(try count("[\(set)]", all, [.caseInsensitive]) == 0, "\(language.rules.code)")
            }
            let folded = all.folding(options: [.caseInsensitive], locale: nil)
            #expect(
                !folded.unicodeScalars.contains { $0.isASCII || reader.patternScalars.contains($0.value) })
            #expect(letterCount > 100_000)
        }
    }

    /// The formats' literal ideographs and syllables are read as units of their own, and the
    /// dates read from those units are the expressions' in the languages that write them.
    @Test func literalUnitsReadCJKDatesAsTheExpressions() {
        #expect(
            DateReader.literalScalars(of: "{year}年{month}月{day}日").map(\.value) == [0x5E74, 0x6708, 0x65E5])
        #expect(DateReader.literalScalars(of: "{year}. {month}, {day}").map(\.value) == [0x2E])
        #expect(DateReader.mayStandAsUnit("年") && DateReader.mayStandAsUnit("일"))
        #expect(
            !DateReader.mayStandAsUnit("é") && !DateReader.mayStandAsUnit("（")
                && !DateReader.mayStandAsUnit("ア"))
        var generator = Generator(state: 31)
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        let pieces = [
            "2026年", "11月", "24日", "2026년 ", "11월 ", "25일", "2026", "11", "24", "1", "31", "年", "月", "日",
            "년 ",
            "월 ", "일", " ", "（火）", "(수)", "曜", "時", "～",
            " ~ ", "14時", "送达。", "x", "/", ".", "-", "：", "火曜日", "1월", "周一", "星期二",
        ]
        var read = 0
        for language in Fixture.extractor.languages where ["ja", "zh", "ko"].contains(language.rules.code) {
            #expect(!language.dates.literalUnits.isEmpty, "\(language.rules.code)")
            read += Self.unitDatesAgree(
                language, texts: 2_000, of: pieces, count: 10, generator: &generator, reference: reference)
        }
        #expect(read > 10)
    }

    /// Reads `texts` texts of `count` pieces each in `language`: the dates read are the
    /// expressions', and so are those of the literal-unit reader when it reads a text.
    /// - Returns: how many dates the literal-unit reader read.
    static func unitDatesAgree(
        _ language: CompiledLanguage, texts: Int, of pieces: [String], count: Int, generator: inout Generator,
        reference: CivilDate?
    ) -> Int {
        var read = 0
        for _ in 0..<texts {
            let text = generator.text(pieces, count: count)
            let expected = describe(language.dates.expressionDates(in: text, reference: reference))
            #expect(
                describe(language.dates.dates(in: text, reference: reference)) == expected,
                "\(language.rules.code) \(text.debugDescription)")
            if let fast = language.dates.unitDates(in: text, reference: reference) {
                read += fast.count
                #expect(describe(fast) == expected, "\(language.rules.code) \(text.debugDescription)")
            }
        }
        return read
    }

    /// The accented letters of weekday names are read as units of their own (both cases as
    /// one), and the dates read from them are the expressions'; a month name's letters are not.
    @Test func weekdayNameLettersReadAsTheExpressions() {
        #expect(DateReader.mayStandAsNameUnit("ì") && DateReader.mayStandAsNameUnit("É"))
        #expect(!DateReader.mayStandAsNameUnit("ß") && !DateReader.mayStandAsNameUnit("÷"))
        #expect(!DateReader.mayStandAsNameUnit("ſ") && !DateReader.mayStandAsNameUnit("a"))
        #expect(
            ASCIIMatcher.unitNames(["Sábado", "lunes", "março"], units: [(0xE1, 0x81), (0xC1, 0x81)])
                == [Array("s".utf8) + [0x81] + Array("bado".utf8), Array("lunes".utf8)])
        var generator = Generator(state: 32)
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        var read = 0
        for language in Fixture.extractor.languages
        where ["it", "es", "fr", "de", "pt"].contains(language.rules.code) {
            let pieces = FastPathTests.dateNamePieces(
                language, asciiOnly: false,
                [
                    " ", ", ", "25", "1", "2026", "de ", "/", "11", "ì", "Ì", "á", "é", "i\u{300}",
                    "\u{212B}", "ſ",
                    "x", "mercoledi", "está confirmado",
                ])
            read += Self.unitDatesAgree(
                language, texts: 2_000, of: pieces, count: 8, generator: &generator, reference: reference)
        }
        #expect(read > 20)
        let italian = Fixture.extractor.languages.first { $0.rules.code == "it" }
        #expect(italian?.dates.unitDates(in: "mercoledì 25 novembre 2026", reference: reference)?.count == 1)
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

    /// ASCII text the window's checks turn away holds no match of the expressions for a day
    /// before a date or a day range after one.
    @Test func windowChecksTurnAwayOnlyTextWithoutAMatch() throws {
        var generator = Generator(state: 25)
        let pieces = [
            " ", "  ", "\t", "\n", "\r", "\u{B}", "\u{C}", "-", "~", ",", ".", ":", "1", "24", "123", "er",
            "et",
            "et le", "and", "und", "y el", "y", "e il", "e", "en", "tot", "bis", "au", "al", "a", "to", "AND",
            "Y",
            "TO", "Bis", "x", "Nov", "26", "9 PM", "(", "by",
        ]
        let leading = try #require(DateReader.leadingDayExpression)
        let tail = try #require(DateReader.rangeTailExpression)
        var leadingTurned = 0
        var tailTurned = 0
        var matched = 0
        for _ in 0..<20_000 {
            let text = generator.text(pieces, count: 6)
            let bytes = Array(text.utf8)[...]
            let range = NSRange(location: 0, length: (text as NSString).length)
            let leadingMatch = leading.firstMatch(in: text, range: range) != nil
            let tailMatch = tail.firstMatch(in: text, range: range) != nil
            if leadingMatch || tailMatch { matched += 1 }
            if !DateReader.mayEndWithLeadingDay(bytes) {
                leadingTurned += 1
                #expect(!leadingMatch, "\(text.debugDescription)")
            }
            if !DateReader.mayStartWithRangeTail(bytes) {
                tailTurned += 1
                #expect(!tailMatch, "\(text.debugDescription)")
            }
        }
        #expect(leadingTurned > 5_000)
        #expect(tailTurned > 5_000)
        #expect(matched > 500)
    }

    /// Lower-casing without mapping scalars that do not change gives what `lowercased()` gives.
    @Test func lowercasedAgreesWithTheStandardLibrary() {
        var generator = Generator(state: 26)
        let pieces =
            Self.nonASCIIPieces + [
                "A", "z", "Q", " ", "MÄRZ", "İ", "Σ", "ΌΣ", "Straße", "ǅ", "Ω", "\u{212B}", "明日", "内일", "ａ",
                "Ａ",
                "𐐀", "ᾼ",
            ]
        for _ in 0..<5_000 {
            let text = generator.text(pieces, count: 8)
            #expect(DateReader.lowercased(text) == text.lowercased(), "\(text.debugDescription)")
            #expect(DateReader.lowercasedUTF8(text) == Array(text.lowercased().utf8))
        }
        for value in UInt32(0x80)..<0x20000 {
            guard let scalar = Unicode.Scalar(value), !scalar.properties.changesWhenLowercased else {
                continue
            }
            if scalar.properties.lowercaseMapping != String(scalar) {
                Issue.record("U+\(String(value, radix: 16)) changes when lower-cased")
            }
        }
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

/// The dates memo answers as reading the text again does, past its short list too.
@Suite struct DateMemoTests {
    @Test func memoAnswersAsTheLanguageDoes() {
        let memo = DateMemo()
        let reference = CivilDate(year: 2026, month: 11, day: 20)
        let texts = (1...100).map { "Delivery by November \($0 % 28 + 1), 2026 (\($0))" } + ["no date here"]
        let english = Fixture.extractor.languages.filter { $0.rules.code == "en" }
        let german = Fixture.extractor.languages.filter { $0.rules.code == "de" }
        #expect(english.count == 1 && german.count == 1)
        var withDates = 0
        for round in 0..<2 {
            for language in english + german {
                for text in texts {
                    let expected = DateFastPathTests.describe(
                        language.dates.dates(in: text, reference: reference))
                    let memoized = memo.dates(in: text, language: language, reference: reference)
                    #expect(DateFastPathTests.describe(memoized) == expected, "round \(round): \(text)")
                    if !expected.isEmpty { withDates += 1 }
                }
            }
        }
        #expect(withDates >= 200)
    }
}
