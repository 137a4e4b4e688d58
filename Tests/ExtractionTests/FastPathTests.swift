import Foundation
import Testing

@testable import Extraction

/// The byte-level fast paths of extraction agree with the general code they stand in for.
@Suite struct FastPathTests {
    /// A deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        /// Text made of the given pieces.
        mutating func text(_ pieces: [String], count: Int) -> String {
            (0..<Int(next() % UInt64(count + 1))).map { _ in pick(pieces) }.joined()
        }
    }

    static let orderValuePieces = [
        " ", "  ", "\t", "#", ":", "(", "[", ")", "]", ",", ";", ".", "!", "-", "_", "/", "no.", "is", "Nr",
        "NR.", "ist", "123", "4567", "2026", "11", "ABC", "x9", "ord", "2026-11-20", "20.11.2026", "12.99",
        "555-123-4567", "é", "€", "１２３", "：", "（", "注文", "\u{301}", "\r", "a@b.example",
    ]

    @Test func orderNumberFastPathAgrees() {
        let fillers = Fixture.extractor.languageSets["en"]?.fillers ?? []
        var generator = Generator(state: 1)
        var compared = 0
        for round in 0..<20_000 {
            let value = generator.text(Self.orderValuePieces, count: round % 3 == 0 ? 60 : 8)
            for minimumLength in [4, 5] {
                let slow = OrderNumberToken.extractCharacters(
                    from: value, fillers: fillers, minimumLength: minimumLength)
                if let fast = OrderNumberToken.extractASCII(
                    from: value, fillers: fillers, minimumLength: minimumLength)
                {
                    compared += 1
                    #expect(fast == slow, "\(value.debugDescription)")
                }
                #expect(
                    OrderNumberToken.extract(from: value, fillers: fillers, minimumLength: minimumLength)
                        == slow)
            }
        }
        #expect(compared > 10_000)
    }

    @Test func orderLinkPhraseTestAgreesWithFoundation() {
        let phrases = Fixture.extractor.orderLinkPhrases
        var generator = Generator(state: 2)
        let pieces = [
            "view", " ", "order", "your", "details", "bestellung", " ansehen", "ver pedido", "voir",
            "ma commande",
            "注文", "詳細", "é", "\u{301}", "x", "track", "\t",
        ]
        for _ in 0..<5_000 {
            let anchor = generator.text(pieces, count: 6)
            let expected = phrases.contains { anchor.contains($0.text) }
            #expect(
                ExtractionContext.containsAny(phrases, in: anchor) == expected, "\(anchor.debugDescription)")
        }
    }

    @Test func domainPreTestNeverRejectsALinkOnTheDomain() {
        var generator = Generator(state: 3)
        let pieces = [
            "https://", "http://", "www.", "Shop", "shop", ".example", ".EXAMPLE", "/", "?", "#", "@",
            ":8080", "a",
            "%2e", "é", "-", "order", "=", "&",
        ]
        for _ in 0..<5_000 {
            let url = generator.text(pieces, count: 8)
            for domain in ["shop.example", "example", "hop.ex", ""] {
                guard !ExtractionContext.mayBeOnDomain(url, domain: Array(domain.utf8)) else { continue }
                let host = URLComponents(string: url)?.host?.lowercased()
                #expect(host != domain && host?.hasSuffix("." + domain) != true, "\(url) \(domain)")
            }
        }
    }

    @Test func asciiDateMatcherAgreesWithTheExpression() {
        var generator = Generator(state: 4)
        var compared = 0
        for language in Fixture.extractor.languages {
            let rules = language.rules
            let names = (rules.months.flatMap { $0 } + rules.weekdays.flatMap { $0 }).filter {
                $0.utf8.allSatisfy { $0 < 0x80 }
            }
            let pieces =
                names + names.map { $0.uppercased() } + [
                    " ", "  ", "\t", ",", ".", "/", "-", "de ", "er", "le ", "1", "12", "3", "31", "2026",
                    "1999",
                    "2101", "05", "123", "x", "Nov", "a", ":", "(",
                ]
            for pattern in language.dates.patterns {
                guard let ascii = pattern.ascii, let expression = pattern.expression else { continue }
                for _ in 0..<400 {
                    var text = generator.text(pieces, count: 10)
                    let nsText = text as NSString
                    let expected = expression.matches(
                        in: text, range: NSRange(location: 0, length: nsText.length)
                    )
                    .map { match in
                        [match.range] + (0..<pattern.slots.count).map { match.range(at: $0 + 1) }
                    }
                    guard let found = text.withUTF8({ ascii.matches(in: $0) }) else { continue }
                    let actual = found.map { match in
                        ([match.range] + match.groups).map {
                            NSRange(location: $0.lowerBound, length: $0.count)
                        }
                    }
                    compared += 1
                    #expect(actual == expected, "\(rules.code) \(pattern.pattern) \(text.debugDescription)")
                }
            }
        }
        #expect(compared > 5_000)
    }

    @Test func everyDatePatternCompiles() {
        for language in Fixture.extractor.languages {
            for pattern in language.dates.patterns {
                #expect(pattern.expression != nil, "\(language.rules.code) \(pattern.pattern)")
            }
        }
        #expect(DateReader.leadingDayExpression != nil && DateReader.rangeTailExpression != nil)
    }
}
