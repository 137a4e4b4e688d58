import Foundation
import Testing

@testable import Extraction

@Suite struct MoneyTests {
    @Test(arguments: [
        ("38,900원", "38900", "KRW"), ("1.234,56 €", "1234.56", "EUR"), ("$1,234.56", "1234.56", "USD"),
        ("¥3,980", "3980", "JPY"), ("EUR 19.99", "19.99", "EUR"), ("19,99 EUR", "19.99", "EUR"),
        ("£5", "5.00", "GBP"), ("R$ 1.234,56", "1234.56", "BRL"), ("1 234,50 €", "1234.50", "EUR"),
        ("CHF 12.5", "12.50", "CHF"), ("₩38,900", "38900", "KRW"), ("3,980円", "3980", "JPY"),
        ("€1.234", "1234.00", "EUR"), ("US$ 9.99", "9.99", "USD"),
    ])
    func readsAmountsWithLocaleSeparators(_ text: String, _ amount: String, _ currency: String) {
        #expect(Money.firstAmount(in: text) == MonetaryAmount(amount: amount, currency: currency))
    }

    @Test func yenSignMeansYuanInChinese() {
        #expect(
            Money.firstAmount(in: "¥128.50", defaultCurrency: "CNY")
                == MonetaryAmount(amount: "128.50", currency: "CNY"))
    }

    @Test func numbersWithoutCurrencyAreNotMoney() {
        #expect(Money.firstAmount(in: "Total items: 3") == nil)
        #expect(Money.firstAmount(in: "Call 1-800-555-0199") == nil)
    }

    @Test func quantityBeforeAPriceIsNotAnAmount() {
        #expect(Money.firstAmount(in: "2 €19,99") == MonetaryAmount(amount: "19.99", currency: "EUR"))
    }
}

@Suite struct DateReadingTests {
    func reader(_ code: String) -> DateReader? {
        Fixture.extractor.languages.first { $0.rules.code == code }?.dates
    }

    let reference = CivilDate(year: 2026, month: 11, day: 20)

    @Test func yearlessDateIsTheNearestToTheEmail() {
        // A delivery date in early January read in late December belongs to the next year.
        let december = CivilDate(year: 2026, month: 12, day: 28)
        #expect(
            reader("en")?.firstDate(in: "Jan 3", reference: december)
                == CivilDate(year: 2027, month: 1, day: 3))
    }

    @Test func invalidDatesAreRejected() {
        #expect(reader("en")?.firstDate(in: "February 30, 2026", reference: reference) == nil)
        #expect(reader("de")?.firstDate(in: "31.11.2026", reference: reference) == nil)
    }

    @Test func readsDatesInEachLanguage() {
        let expected = CivilDate(year: 2026, month: 11, day: 24)
        let samples: [(String, String)] = [
            ("en", "Tuesday, November 24, 2026"), ("en", "11/24/2026"), ("ko", "2026년 11월 24일"),
            ("ko", "11월 24일(화)"),
            ("ja", "2026年11月24日"), ("ja", "11月24日(火)"), ("zh", "2026年11月24日"),
            ("de", "Dienstag, 24. November 2026"),
            ("de", "24.11.2026"), ("fr", "mardi 24 novembre 2026"), ("fr", "24/11/2026"),
            ("es", "martes, 24 de noviembre de 2026"),
            ("it", "martedì 24 novembre 2026"), ("pt", "24 de novembro de 2026"),
            ("nl", "dinsdag 24 november 2026"),
            ("nl", "24-11-2026"), ("en", "2026-11-24"),
        ]
        for (code, text) in samples {
            #expect(reader(code)?.firstDate(in: text, reference: reference) == expected, "\(code): \(text)")
        }
    }

    @Test func readsWindowsAndRelativeWords() {
        #expect(
            reader("en")?.window(in: "Nov 24-26", reference: reference)
                == DateWindow(from: "2026-11-24", until: "2026-11-26"))
        #expect(
            reader("ko")?.window(in: "내일 도착", reference: reference)
                == DateWindow(from: "2026-11-21", until: "2026-11-21"))
        #expect(
            reader("ja")?.window(in: "明日", reference: reference)
                == DateWindow(from: "2026-11-21", until: "2026-11-21"))
        #expect(
            reader("de")?.window(in: "übermorgen", reference: reference)
                == DateWindow(from: "2026-11-22", until: "2026-11-22"))
        #expect(
            reader("fr")?.window(in: "demain", reference: reference)
                == DateWindow(from: "2026-11-21", until: "2026-11-21"))
        #expect(
            reader("es")?.window(in: "lunes", reference: reference)
                == DateWindow(from: "2026-11-23", until: "2026-11-23"))
        #expect(reader("en")?.window(in: "soon", reference: reference) == nil)
    }
}

@Suite struct RulesLoadingTests {
    func temporaryRules(language: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("languages"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("carriers"), withIntermediateDirectories: true)
        let carriers = Fixture.rulesDirectory.appendingPathComponent("carriers/ups.json5")
        try FileManager.default.copyItem(
            at: carriers, to: folder.appendingPathComponent("carriers/ups.json5"))
        try language.write(
            to: folder.appendingPathComponent("languages/xx.json5"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func brokenLanguageFileNamesFileAndLine() throws {
        let folder = try temporaryRules(language: "{\n  code: \"xx\",\n  labels: {,\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Rules.load(from: folder)
            Issue.record("a broken file loaded")
        } catch {
            #expect(error.path.hasSuffix("languages/xx.json5"))
            #expect(error.line == 3, "\(error)")
        }
    }

    @Test func missingOrFileRulesFolderIsNamedPlainly() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-rules-\(UUID().uuidString)")
        #expect(throws: RulesError(path: missing.path, reason: "no such folder")) {
            _ = try Rules.load(from: missing)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try Data("{}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try Rules.load(from: file)
            Issue.record("a file loaded as a rules folder")
        } catch {
            #expect(error.reason.hasPrefix("not a folder"), "\(error)")
        }
    }

    @Test func unknownKindIsReported() throws {
        let english = try String(
            contentsOf: Fixture.rulesDirectory.appendingPathComponent("languages/en.json5"), encoding: .utf8)
        let broken = english.replacingOccurrences(of: "orderConfirmation: [", with: "orderConfirmed: [")
        let folder = try temporaryRules(language: broken)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Rules.load(from: folder)
            Issue.record("an unknown kind loaded")
        } catch {
            #expect(error.reason.contains("orderConfirmed"))
        }
    }
}
