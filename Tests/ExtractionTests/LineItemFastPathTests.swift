import Foundation
import MailDocument
import Testing

@testable import Extraction

/// The byte-level paths of line items, amounts and merchant names agree with the string,
/// character and Foundation code they stand in for.
@Suite struct LineItemFastPathTests {
    /// The deterministic generator the other fast-path tests use.
    typealias Generator = FastPathTests.Generator

    /// Pieces of text in several scripts, with the characters that make bytes, scalars and
    /// characters differ.
    static let pieces = [
        " ", "  ", "\t", "\u{A0}", "\u{3000}", "-", "–", " - ", " – ", ":", "：", ".", "(", ")", "x", "X", "×",
        "*", "Qty", "qty", "QTY", "Menge", "Cant", "Cant.", "Uds.", "Item", "pcs", "st", "2", "12", "007",
        "0",
        "1234", "é", "É", "e\u{301}", "İ", "ß", "Ä", "数量", "수량", "개", "点", "円", "¥", "元", "🙂", "\r\n",
        "ＡＢ", "ｂ", "Ω", "ﬀ",
    ]

    /// The quantity labels the tests read.
    static let quantityLabels = Phrase.list(["Qty", "Quantity", "Menge", "Cant.", "Uds", "数量", "수량"])

    @Test func caselessScalarsDoNotChangeWhenLowerCased() {
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), FieldText.isCaseless(scalar) else { continue }
            #expect(String(scalar).lowercased() == String(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test func lowerCasingAgreesWithTheStandardLibrary() {
        var generator = Generator(state: 101)
        for _ in 0..<10_000 {
            let text = generator.text(Self.pieces, count: 6)
            #expect(FieldText.lowercased(text) == text.lowercased(), "\(text.debugDescription)")
        }
    }

    @Test func collapsingAgreesWithText() {
        var generator = Generator(state: 102)
        for _ in 0..<10_000 {
            let text = generator.text(Self.pieces, count: 6)
            #expect(FieldText.collapsed(text) == Text.collapsed(text), "\(text.debugDescription)")
        }
    }

    @Test func lastDashAgreesWithFoundation() {
        var generator = Generator(state: 103)
        let simple = Self.pieces.filter(FieldText.isSimple)
        for _ in 0..<5_000 {
            let text = generator.text(simple, count: 8)
            for dash in [" - ", " – "] {
                // Compared as UTF-8 offsets.
                func offsets(_ range: Range<String.Index>?) -> [Int]? {
                    range.map {
                        [
                            text.utf8.distance(from: text.startIndex, to: $0.lowerBound),
                            text.utf8.distance(from: text.startIndex, to: $0.upperBound),
                        ]
                    }
                }
                let expected = offsets(text.range(of: dash, options: .backwards))
                let found = offsets(ExtractionContext.lastRange(of: dash, in: text))
                #expect(found == expected, "\(text.debugDescription)")
            }
        }
    }

    /// `isLabel(_:of:)` and `startsWithQuantityLabel(_:of:)` as first written.
    static func referenceStartsWithQuantityLabel(_ cell: String, of labels: [Phrase]) -> Bool {
        func isLabel(_ cell: String) -> Bool {
            var text = Text.trimmed(cell).lowercased()
            while let last = text.last, last == ":" || last == "：" { text.removeLast() }
            let folded = Text.fold(Array(Text.trimmed(text).utf8))
            let bare = folded.last == UInt8(ascii: ".") ? Array(folded.dropLast()) : folded
            return !bare.isEmpty
                && labels.contains { $0.folded == folded || $0.folded == bare || $0.folded == bare + [0x2E] }
        }
        if isLabel(cell) { return true }
        let words = cell.split(separator: " ")
        guard words.count >= 2, words.count <= 3, !cell.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
        else { return false }
        return isLabel(String(words[0]))
    }

    @Test func quantityHeadersAgree() {
        var generator = Generator(state: 104)
        var labels = 0
        for _ in 0..<10_000 {
            let cell = generator.text(Self.pieces, count: 4)
            let expected = Self.referenceStartsWithQuantityLabel(cell, of: Self.quantityLabels)
            if expected { labels += 1 }
            let bytes = Array(cell.utf8)
            #expect(
                ExtractionContext.startsWithQuantityLabel(bytes, 0..<bytes.count, of: Self.quantityLabels)
                    == expected, "\(cell.debugDescription)")
            #expect(
                ExtractionContext.startsWithQuantityLabel(cell, of: Self.quantityLabels) == expected,
                "\(cell.debugDescription)")
        }
        #expect(labels > 100)
    }

    /// `parseQuantity(_:labels:)` read by characters, as first written.
    static func referenceQuantity(_ cell: String, labels: [Phrase]) -> Int? {
        ExtractionContext.parseQuantityScalars(cell, labels: labels)
    }

    @Test func asciiQuantitiesAgree() {
        var generator = Generator(state: 105)
        let ascii =
            Self.pieces.filter { $0.utf8.allSatisfy { $0 < 0x80 } } + ["Qty:", "Quantity", "pc", "stk"]
        var quantities = 0
        for _ in 0..<10_000 {
            var cell = generator.text(ascii, count: 4)
            let expected = Self.referenceQuantity(cell, labels: Self.quantityLabels)
            if expected != nil { quantities += 1 }
            let found = cell.withUTF8 {
                ExtractionContext.parseQuantityASCII($0, labels: Self.quantityLabels)
            }
            #expect(found == expected, "\(cell.debugDescription)")
        }
        #expect(quantities > 100)
    }

    @Test func numbersReadFromBytesAgree() {
        let pieces = [
            "0", "1", "12", "123", "007", ".", ",", "'", " ", "\u{A0}", "\u{202F}", "5", "99", "\r",
        ]
        var generator = Generator(state: 106)
        for _ in 0..<10_000 {
            var number = generator.text(pieces, count: 7)
            for currency in ["USD", "JPY", "KRW", "EUR"] {
                let expected = Money.normalize(number, currency: currency)
                let found = number.withUTF8 { Money.normalize(0..<$0.count, in: $0, currency: currency) }
                #expect(found == expected, "\(number.debugDescription) \(currency)")
            }
        }
    }

    @Test func currenciesReadFromBytesAgree() {
        let currencies = Money.symbols.map(\.0) + Money.codes.sorted()
        for defaultCurrency in [nil, "CNY", "CAD", "AUD", "MXN", "EUR", "JPY"] {
            for currency in currencies {
                var text = currency
                let found = text.withUTF8 {
                    MoneyBytes.currency(0..<$0.count, in: $0, defaultCurrency: defaultCurrency)
                }
                #expect(found == Money.code(for: currency, defaultCurrency: defaultCurrency), "\(currency)")
            }
        }
    }

    @Test func byteAmountsAgreeWithTheExpressionInEveryCurrency() {
        let pieces = [
            " ", "12", ".99", ",50", "1,299", "1.234,56", "0", "$", "US$", "USD", "EUR", "€", "£", "¥", "￥",
            "₩",
            "원", "円", "元", "zł", "Fr.", "руб", "MXN", "RMB", "CNY", "JPY", "Total", "-", "\u{A0}", "x",
        ]
        var generator = Generator(state: 107)
        for _ in 0..<5_000 {
            let text = generator.text(pieces, count: 6)
            guard MoneyBytes.reads(text) else { continue }
            for defaultCurrency in [nil, "CNY", "CAD", "MXN"] {
                let expected = Money.expressionAmounts(in: text, defaultCurrency: defaultCurrency)
                let found = Money.byteAmounts(in: text, defaultCurrency: defaultCurrency)
                #expect(found.map(\.0) == expected.map(\.0), "\(text.debugDescription)")
                #expect(found.map(\.1) == expected.map(\.1), "\(text.debugDescription)")
            }
        }
    }

    @Test func yenPreTestNeverHidesAYenAmount() {
        let pieces = [
            " ", "12", "3,980", "¥", "￥", "円", "元", "JPY", "CNY", "RMB", "$", "€", "湯呑み", "×", "2",
            "\u{3000}",
        ]
        var generator = Generator(state: 108)
        for _ in 0..<5_000 {
            let text = generator.text(pieces, count: 6)
            let yen = Money.amounts(in: text).contains { ["JPY", "CNY"].contains($0.0.currency) }
            if yen { #expect(ExtractionContext.mayHoldYenOrYuan(text), "\(text.debugDescription)") }
        }
    }

    @Test func danglingWordsAreDroppedAsBySplitting() {
        let pieces = [
            "the", "The", " ", "  ", "from", "via", "Blue", "Kettle", "|", "-", "–", "&", "é", "Ä", "様",
            "e\u{301}",
        ]
        var generator = Generator(state: 109)
        for _ in 0..<10_000 {
            let name = generator.text(pieces, count: 6)
            var words = name.split(separator: " ").map(String.init)
            func drops(_ word: String) -> Bool {
                ExtractionContext.isDangling(word) || ExtractionContext.nameSeparators.containsAll(word)
            }
            while let first = words.first, drops(first) { words.removeFirst() }
            while let last = words.last, drops(last) { words.removeLast() }
            #expect(
                ExtractionContext.withoutDanglingWords(name) == words.joined(separator: " "),
                "\(name.debugDescription)")
        }
    }

    @Test func capitalsAgreeWithCharacters() {
        let pieces = ["NORTH", "WIND", "north", " ", ",", "É", "é", "OR", "1", "ÄÖ", "\r\n"]
        var generator = Generator(state: 110)
        for _ in 0..<5_000 {
            let value = generator.text(pieces, count: 4)
            let letters = value.filter(\.isLetter)
            let expected =
                letters.count >= 4 && letters.allSatisfy(\.isUppercase) && letters.contains(where: \.isASCII)
            #expect(ExtractionContext.isWrittenInCapitals(value) == expected, "\(value.debugDescription)")
        }
    }

    @Test func rowPathsAndCellsAreReadFromBytes() {
        #expect(ExtractionContext.rowPath("html/body/table/tr[3]/td[1]/p") == "html/body/table/tr[3]")
        #expect(ExtractionContext.rowPath("html/body/table/tbody/tr/td") == "html/body/table/tbody/tr")
        #expect(ExtractionContext.rowPath("html/body/div/p") == nil)
        #expect(ExtractionContext.rowPath("html/body/table/tr") == "html/body/table/tr")
        #expect(ExtractionContext.rowPath("html/body/track/p") == nil)
        for text in ["Mug\t \t$12.00", "\tMug\t1\t", "Mug", "", " \t\u{A0}\t2"] {
            let bytes = Array(text.utf8)
            let line = TextLine(origin: .html, number: 0, bytes: bytes, startOffset: 0, span: nil)
            #expect(
                ExtractionContext.filledCells(bytes) == line.cells.filter { !FieldText.isBlank(bytes, $0) },
                "\(text.debugDescription)")
        }
    }

    @Test func titlesWithQuantitiesStillRead() {
        #expect(ExtractionContext.titleAndQuantity("2 x Mug")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug (x2)")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug (2x)")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Mug ×2")! == ("Mug", 2))
        #expect(ExtractionContext.titleAndQuantity("Linen Mug") == nil)
        #expect(ExtractionContext.withoutListMarker("- Mug") == "Mug")
        #expect(ExtractionContext.withoutListMarker("・湯呑み") == "湯呑み")
        #expect(ExtractionContext.withoutListMarker("Mug - Blue") == "Mug - Blue")
    }

    @Test func scalarsReadWithoutTheirCategoryAreReadByTheExpression() {
        let refused: [Unicode.GeneralCategory] = [
            .decimalNumber, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
            .unassigned,
            .surrogate, .privateUse,
        ]
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), MoneyBytes.isReadScalar(scalar) else { continue }
            #expect(!refused.contains(scalar.properties.generalCategory), "U+\(String(value, radix: 16))")
        }
    }

    @Test func shipperSentencesAndWordCountsAgree() {
        let pieces = ["Kaffee", "von", "Ihr", " ", "  ", "Paket", "É", "é", "ÄPFEL", "x", "1", "-", "様"]
        var generator = Generator(state: 111)
        for _ in 0..<10_000 {
            let value = generator.text(pieces, count: 6)
            let words = value.split(separator: " ")
            let name = words.prefix { word in word.first.map { !$0.isLowercase } ?? false }
            let expected = !name.isEmpty && name.count < words.count ? name.joined(separator: " ") : value
            #expect(
                ExtractionContext.beforeFirstLowerCaseWord(value) == expected, "\(value.debugDescription)")
            #expect(
                ExtractionContext.spaceSeparatedCount(value.utf8) == words.count, "\(value.debugDescription)")
        }
    }
}
