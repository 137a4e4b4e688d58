import Foundation
import MIME
import MailDocument
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

    /// Pieces for generated date texts: `language`'s month and weekday names (only the ASCII
    /// ones when `asciiOnly`), as written and upper-cased, then `extra`.
    static func dateNamePieces(_ language: CompiledLanguage, asciiOnly: Bool, _ extra: [String]) -> [String] {
        let names = (language.rules.months.flatMap { $0 } + language.rules.weekdays.flatMap { $0 }).filter {
            !asciiOnly || $0.utf8.allSatisfy { $0 < 0x80 }
        }
        return names + names.map { $0.uppercased() } + extra
    }

    /// The ranges (whole match, then each slot) `expression` finds in `text`, and those
    /// `pattern.matches` finds, for comparison.
    static func expressionAndFastMatches(
        _ pattern: DateFormatPattern, _ expression: NSRegularExpression, _ text: String
    ) -> (expected: [[NSRange]], actual: [[NSRange]]) {
        let nsText = text as NSString
        let expected = expression.matches(in: text, range: NSRange(location: 0, length: nsText.length)).map {
            match in [match.range] + (0..<pattern.slots.count).map { match.range(at: $0 + 1) }
        }
        return (expected, pattern.matches(in: text, nsText: nsText).map { [$0.0] + $0.1 })
    }

    static let orderValuePieces = [
        " ", "  ", "\t", "#", ":", "(", "[", ")", "]", ",", ";", ".", "!", "-", "_", "/", "no.", "is", "Nr",
        "NR.", "ist", "123", "4567", "2026", "11", "ABC", "x9", "ord", "2026-11-20", "20.11.2026", "12.99",
        "555-123-4567", "é", "€", "１２３", "：", "（", "注文", "\u{301}", "\r", "a@b.example", "\u{A0}", "\u{1}",
        "Bestellung", "ü",
    ]

    @Test func orderNumberFastPathAgrees() {
        Self.expectOrderNumberPathAgrees(
            OrderNumberToken.extractASCII, pieces: Self.orderValuePieces,
            fillers: Fixture.extractor.languageSets["en"]?.fillers ?? [], seed: 1, rounds: 20_000)
    }

    /// A fast path of `OrderNumberToken.extract` (nil when it does not apply) gives what the
    /// character path gives, and `extract` as a whole does too, over generated values.
    static func expectOrderNumberPathAgrees(
        _ fastPath: (String, Set<String>, Int) -> String??, pieces: [String], fillers: Set<String>,
        seed: UInt64, rounds: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var generator = Generator(state: seed)
        var compared = 0
        for round in 0..<rounds {
            let value = generator.text(pieces, count: round % 3 == 0 ? 60 : 8)
            for minimumLength in [4, 5] {
                let slow = OrderNumberToken.extractCharacters(
                    from: value, fillers: fillers, minimumLength: minimumLength)
                if let fast = fastPath(value, fillers, minimumLength) {
                    compared += 1
                    #expect(fast == slow, "\(value.debugDescription)", sourceLocation: sourceLocation)
                }
                #expect(
                    OrderNumberToken.extract(from: value, fillers: fillers, minimumLength: minimumLength)
                        == slow, sourceLocation: sourceLocation)
            }
        }
        #expect(compared > 10_000, sourceLocation: sourceLocation)
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
            let pieces = Self.dateNamePieces(
                language, asciiOnly: true,
                [
                    " ", "  ", "\t", ",", ".", "/", "-", "de ", "er", "le ", "1", "12", "3", "31", "2026",
                    "1999", "2101", "05", "123", "x", "Nov", "a", ":", "(",
                ])
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
                    #expect(
                        actual == expected,
                        "\(language.rules.code) \(pattern.pattern) \(text.debugDescription)")
                }
            }
        }
        #expect(compared > 5_000)
    }

    /// A text without one of a format's required literal characters is not searched: the
    /// expression finds nothing in such a text either.
    @Test func dateFormatsSkipTextsWithoutTheirLiterals() {
        var generator = Generator(state: 9)
        var skipped = 0
        var withLiterals = 0
        for language in Fixture.extractor.languages {
            let pieces = Self.dateNamePieces(
                language, asciiOnly: false,
                [
                    " ", "\u{A0}", ",", ".", "/", "-", "–", "年", "月", "日", "년", "월", "일", "号", "1", "12",
                    "31", "2026", "２０２６", "１２", "x", "é", "K", "\u{212A}", "ß", "İ", "de ", "ſ",
                ])
            for pattern in language.dates.patterns {
                guard let expression = pattern.expression else { continue }
                if !pattern.requiredScalars.isEmpty { withLiterals += 1 }
                for _ in 0..<200 {
                    let text = generator.text(pieces, count: 8) + "é"
                    let (expected, actual) = Self.expressionAndFastMatches(pattern, expression, text)
                    if pattern.requiredScalars.contains(where: { !text.unicodeScalars.contains($0) }) {
                        skipped += 1
                    }
                    #expect(
                        actual == expected,
                        "\(language.rules.code) \(pattern.pattern) \(text.debugDescription)")
                }
            }
        }
        #expect(withLiterals > 20)
        #expect(skipped > 1_000)
    }

    @Test func everyDatePatternCompiles() {
        for language in Fixture.extractor.languages {
            for pattern in language.dates.patterns {
                #expect(pattern.expression != nil, "\(language.rules.code) \(pattern.pattern)")
            }
        }
        #expect(DateReader.leadingDayExpression != nil && DateReader.rangeTailExpression != nil)
    }

    /// `PhraseHits` answers what each set's own scan answers.
    static func expectSameMatches(
        index: PhraseIndex, lines: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let hits = PhraseHits(index: index, lines: lines)
        for set in index.sets {
            #expect(hits.covers(set))
            for (lineIndex, line) in lines.enumerated() {
                for limit in [1, 4, 16, 32, 64] {
                    let expected = set.matches(in: line, limit: limit)
                    let actual = hits.matches(set, line: lineIndex, limit: limit)
                    #expect(
                        actual.map(\.0) == expected.map(\.0) && actual.map(\.1) == expected.map(\.1),
                        "set \(set.id) line \(String(decoding: line, as: UTF8.self).debugDescription)",
                        sourceLocation: sourceLocation)
                    #expect(
                        hits.matchCount(set, line: lineIndex, limit: limit) == expected.count,
                        sourceLocation: sourceLocation)
                    var each: [(Int, Range<Int>)] = []
                    hits.forEachMatch(set, line: lineIndex, limit: limit) { index, range in
                        each.append((index, range))
                        return true
                    }
                    #expect(
                        each.map(\.0) == expected.map(\.0) && each.map(\.1) == expected.map(\.1),
                        "forEachMatch, set \(set.id)", sourceLocation: sourceLocation)
                }
                #expect(hits.containsMatch(set, line: lineIndex) == set.containsMatch(in: line))
            }
            for start in 0...lines.count {
                let expected =
                    lines.indices.first { $0 >= start && set.containsMatch(in: lines[$0]) } ?? lines.count
                #expect(
                    hits.nextLine(containing: set, from: start) == expected, "nextLine, set \(set.id)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func phraseHitsAgreeWithEachSet() {
        var generator = Generator(state: 5)
        for (code, languageSet) in Fixture.extractor.languageSets.sorted(by: { $0.key < $1.key }) {
            let phrases = languageSet.index.sets.flatMap { $0.phrases.map(\.text) }
            let pieces =
                phrases + [
                    " ", "", "a", "s", "x", "1", "-", "#", ":", "é", "É", "\u{A0}", "\t", "ä", "の", "\u{301}",
                    "\u{FF}",
                ]
            var lines: [[UInt8]] = []
            for _ in 0..<300 {
                var text = generator.text(pieces, count: 12)
                if generator.next() % 5 == 0 { text = text.uppercased() }
                lines.append(Text.fold(Array(text.utf8)))
            }
            // Invalid UTF-8 too: stray continuation and lead bytes.
            lines.append([0x80, 0x61, 0x62, 0xC3])
            lines.append([0xC3, 0x20] + Array("order".utf8))
            #expect(!code.isEmpty)
            Self.expectSameMatches(index: languageSet.index, lines: lines)
        }
        if let detection = Fixture.extractor.detectionIndex {
            let pieces = detection.sets.flatMap { $0.phrases.map(\.text) } + [" ", "x", ".", "é"]
            let lines = (0..<300).map { _ in Text.fold(Array(generator.text(pieces, count: 10).utf8)) }
            Self.expectSameMatches(index: detection, lines: lines)
        }
    }

    /// Phrases of 7 to 25 bytes that share their first eight or sixteen bytes, matched in
    /// lines of their pieces cut anywhere (a phrase's bytes 8 to 15 are compared at once, up to
    /// the end of the line), agree with each set's own scan.
    @Test func phraseHitsAgreeOnLongPhrasesSharingPrefixes() {
        let texts = [
            "shipment", "shipmentx", "shipment number", "shipment numbers", "shipment number is",
            "shipment numbering scheme", "shipment n°", "shipment numéro", "shipmentnumberless",
            "order no", "order number", "order numbers!", "#shipment", "sendungsverfolgungsnummer",
            "sendungsverfolgung", "sendungsnummer",
        ]
        let sets = [
            PhraseSet(texts.map(Phrase.init), id: 0),
            PhraseSet(texts.enumerated().filter { $0.offset % 2 == 0 }.map { Phrase($0.element) }, id: 1),
            PhraseSet(texts.filter { $0.utf8.count > 15 }.map(Phrase.init), id: 2),
        ]
        let index = PhraseIndex(sets)
        var generator = Generator(state: 29)
        let pieces = texts + [" ", "", "x", "1", "-", ".", "é", "\u{A0}", "n", "num", "shipment numbe"]
        let lines = (0..<600).map { _ -> [UInt8] in
            let line = Text.fold(Array(generator.text(pieces, count: 8).utf8))
            // Cut anywhere: a phrase may run past the line's end.
            return generator.next() % 3 == 0 ? Array(line.prefix(Int(generator.next() % 40))) : line
        }
        Self.expectSameMatches(index: index, lines: lines)
    }

    @Test func phraseHitsAgreeOnTheCorpus() throws {
        let corpus = Fixture.rulesDirectory.deletingLastPathComponent().appendingPathComponent("Corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
            $0.hasSuffix(".eml")
        }
        #expect(names.count > 50)
        for name in names.sorted() {
            let bytes = try Data(contentsOf: corpus.appendingPathComponent(name))
            let document = MailDocument(message: try Message(bytes: Array(bytes)))
            let text = DocumentText(document: document)
            let languageSet = Fixture.extractor.languageSet(for: text)
            Self.expectSameMatches(index: languageSet.index, lines: text.lines.map(\.folded))
        }
    }

    /// A document's folded text holds every line folded on its own, and the phrase hits read
    /// from it are those of the lines' own folded bytes.
    @Test func documentFoldedTextAgreesWithEachLine() {
        var generator = Generator(state: 13)
        let pieces = [
            "a", "Order", "ÉTÉ", "é", "\u{C3}", "x\u{A0}y", "\u{A0}", "\n", "\r\n", "\r", "\t", " ", "ß", "Ä",
            "×", "注文", "ORDER NUMBER", "Tracking", "Ihre Bestellung",
        ]
        let languageSet = Fixture.extractor.languageSets["de"] ?? Fixture.extractor.languageSets["en"]
        for _ in 0..<500 {
            let document = Fixture.document(
                subject: generator.text(pieces, count: 8), html: [generator.text(pieces, count: 30)],
                plain: generator.next() % 2 == 0 ? [generator.text(pieces, count: 30)] : nil)
            let text = DocumentText(document: document)
            #expect(text.foldedRanges.count == text.lines.count)
            for (line, range) in zip(text.lines, text.foldedRanges) {
                #expect(
                    Array(text.foldedText[range]) == Text.fold(Array(line.bytes)),
                    "\(line.text.debugDescription)")
            }
            if let index = languageSet?.index {
                let whole = PhraseHits(index: index, text: text)
                let each = PhraseHits(index: index, lines: text.lines.map(\.folded))
                for set in index.sets {
                    for lineIndex in text.lines.indices {
                        let expected = each.matches(set, line: lineIndex, limit: 64)
                        let actual = whole.matches(set, line: lineIndex, limit: 64)
                        #expect(actual.map(\.0) == expected.map(\.0) && actual.map(\.1) == expected.map(\.1))
                    }
                }
            }
        }
    }

    /// Overlaps are resolved as sorting the matches resolves them, for matches in order of
    /// position (as scans find them) and in any order.
    @Test func resolveOverlapsAgreesWithSorting() {
        var generator = Generator(state: 71)
        for round in 0..<5_000 {
            let count = round % 100 == 0 ? 60 + Int(generator.next() % 10) : Int(generator.next() % 9)
            var found = (0..<count).map { index -> (Int, Range<Int>) in
                let start = Int(generator.next() % 30)
                let length = Int(generator.next() % 6) + (round % 7 == 0 ? 0 : 1)
                return (index, start..<(start + length))
            }
            if round % 3 != 0 { found.sort { $0.1.lowerBound < $1.1.lowerBound } }
            let expected = PhraseSet.resolveOverlapsBySorting(found)
            let actual = PhraseSet.resolveOverlaps(found)
            #expect(actual.map(\.0) == expected.map(\.0) && actual.map(\.1) == expected.map(\.1), "\(found)")
        }
    }

    @Test func foldAgreesWithByteByByteFolding() {
        var generator = Generator(state: 17)
        let special: [UInt8] = [
            0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x7F, 0xC2, 0xA0, 0xC3, 0x80, 0x97, 0x9E, 0x9F,
        ]
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in
                generator.next() % 2 == 0
                    ? generator.pick(special) : UInt8(truncatingIfNeeded: generator.next() % 0x80)
            }
            #expect(Text.fold(bytes) == WordCompareTests.referenceFold(bytes), "\(bytes)")
        }
    }

    /// A word table counts what each set's own scan matches, line by line.
    @Test func wordTableCountsWhatEachSetMatches() throws {
        let languages = Fixture.extractor.languages
        let sets = languages.map { $0.detection.map(\.folded) }
        let table = try #require(WordTable(sets.map { $0.filter(WordTable.isLatinWord) }))
        #expect(WordTable([[Array("c'est".utf8)]]) == nil)
        #expect(WordTable([[Array("ordre n°".utf8)]]) == nil)
        var generator = Generator(state: 19)
        let pieces =
            languages.flatMap { $0.detection.map(\.text) } + [
                " ", "", "x", "1", "-", "'", ".", "é", "É", "\u{A0}", "\t", "ä", "の", "\u{301}", "THE", "Für",
                "È",
            ]
        for _ in 0..<2_000 {
            let lines = (0..<3).map { _ in Text.fold(Array(generator.text(pieces, count: 14).utf8)) }
            var text: [UInt8] = []
            var ranges: [Range<Int>] = []
            for line in lines {
                ranges.append(text.count..<(text.count + line.count))
                text += line + [0x0A]
            }
            for limit in [1, 2, 64] {
                var counts = [Int](repeating: 0, count: languages.count)
                table.count(in: text, lines: ranges[...], limit: limit, into: &counts)
                for (index, words) in sets.enumerated() where words.allSatisfy(WordTable.isLatinWord) {
                    let set = PhraseSet(languages[index].detection)
                    let expected = lines.reduce(0) { $0 + set.matches(in: $1, limit: limit).count }
                    #expect(counts[index] == expected, "\(lines.map { String(decoding: $0, as: UTF8.self) })")
                }
            }
        }
    }

    /// A line's display as it was built from Strings: each cell trimmed of spaces, empty
    /// cells dropped, the rest joined by " | " and shortened.
    static func referenceDisplay(_ line: TextLine) -> String {
        let cellTexts = line.cells.map { cell -> String in
            let scalars = line.string(cell).unicodeScalars
            guard let first = scalars.firstIndex(where: { !Text.isSpace($0) }),
                let last = scalars.lastIndex(where: { !Text.isSpace($0) })
            else { return "" }
            return String(scalars[first...last])
        }
        let joined = cellTexts.filter { !$0.isEmpty }.joined(separator: " | ")
        return joined.count <= 160 ? joined : String(joined.prefix(160)) + "…"
    }

    @Test func lineDisplayAgreesWithStringTrimming() {
        var generator = Generator(state: 11)
        let pieces = [
            " ", "\t", "\t\t", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2000}", "\u{2007}", "\u{200A}",
            "\u{200B}",
            "\u{200D}", "\u{200E}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}", "\u{FEFF}", "\u{85}", "a",
            "Order",
            "#1234", "é", "e\u{301}", "注文", "주문", "€", "👍🏽", "\u{1F1EF}\u{1F1F5}", "|",
            String(repeating: "x", count: 70),
        ]
        for _ in 0..<3000 {
            let text = generator.text(pieces, count: 14)
            for line in DocumentText.split(text, origin: .html) {
                #expect(line.display == Self.referenceDisplay(line), "\(text.debugDescription)")
                var visited: [Range<Int>] = []
                line.forEachCell { cell in
                    visited.append(cell)
                    return true
                }
                #expect(visited == line.cells, "\(text.debugDescription)")
                #expect(
                    line.firstFilledCell == line.cells.first(where: { !FieldText.isBlank(line.bytes, $0) }),
                    "\(text.debugDescription)")
            }
            #expect(
                Text.trimmed(text)
                    == {
                        let scalars = text.unicodeScalars
                        guard let first = scalars.firstIndex(where: { !Text.isSpace($0) }),
                            let last = scalars.lastIndex(where: { !Text.isSpace($0) })
                        else { return "" }
                        return String(scalars[first...last])
                    }())
        }
        // A line cut inside a character keeps its repaired tail.
        let cut = TextLine(
            origin: .plain, number: 0, bytes: Array("total\t12 ".utf8) + [0xE2, 0x80], startOffset: 0,
            span: nil)
        #expect(cut.display == Self.referenceDisplay(cut))
        #expect(Text.shortened("ab", limit: 1) == "a…")
        #expect(Text.shortened("é", limit: 1) == "é")
    }

    @Test func subjectLineEndsBecomeSpaces() {
        let lines = DocumentText.split(
            "Your order\n #12\r\n is on its way", origin: .subject, newlinesAsSpaces: true)
        #expect(lines.count == 1)
        #expect(lines.first?.text == "Your order  #12\r  is on its way")
    }

    @Test func scriptCountsAgreeWithDecoding() {
        var generator = Generator(state: 6)
        let pieces = ["a", "한", "글", "か", "ナ", "漢", "字", "é", "\u{FFFD}", "ー", "\u{3000}"]
        for _ in 0..<2_000 {
            var bytes = Array(generator.text(pieces, count: 12).utf8)
            // Damage some sequences.
            if !bytes.isEmpty && generator.next() % 2 == 0 {
                bytes.remove(at: Int(generator.next() % UInt64(bytes.count)))
            }
            if !bytes.isEmpty && generator.next() % 3 == 0 {
                bytes.insert(
                    UInt8(0x80 + generator.next() % 0x70), at: Int(generator.next() % UInt64(bytes.count)))
            }
            var expected = (0, 0, 0)
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                switch scalar.value {
                case 0xAC00...0xD7A3: expected.0 += 1
                case 0x3040...0x30FF: expected.1 += 1
                case 0x4E00...0x9FFF: expected.2 += 1
                default: break
                }
            }
            var actual = (0, 0, 0)
            LanguageSet.countScripts(bytes, hangul: &actual.0, kana: &actual.1, han: &actual.2)
            #expect(actual == expected, "\(bytes)")
        }
    }

    @Test func linkContextFastPathAgrees() {
        var generator = Generator(state: 7)
        let pieces = [
            "Track", " ", "  ", "\t", "\n", "\u{B}", "\u{C}", "\u{1C}", "\u{1F}", "your", "parcel", "é",
            "\u{A0}", "\r",
            "0123456789", "x", String(repeating: "y", count: 40),
        ]
        var compared = 0
        for _ in 0..<3_000 {
            let text = generator.text(pieces, count: 12)
            let target = "https://track.example/?n=" + generator.text(["1", "2", "a", "%20"], count: 50)
            let link = Link(href: target, target: target, text: text, position: 0)
            if let fast = TrackingSearch.asciiLinkContext(link) {
                compared += 1
                #expect(fast == TrackingSearch.characterLinkContext(link), "\(text.debugDescription)")
            }
        }
        #expect(compared > 500)
    }

    @Test func linkContextWordBytesAgree() {
        var generator = Generator(state: 17)
        let pieces = [
            "Sendung", " ", "  ", "\t", "\n", "\r", "\u{B}", "\u{1C}", "é", "ü", "追跡", "배송", "\u{A0}",
            "\u{85}", "\u{2009}", "\u{202F}", "\u{3000}", "\u{1680}", "\u{301}", "\u{600}", "👍🏽", "x",
            String(repeating: "ß", count: 40),
        ]
        var compared = 0
        for _ in 0..<3_000 {
            let text = generator.text(pieces, count: 10)
            let target = "https://track.example/?n=" + generator.text(["1", "2", "ä", "%20"], count: 30)
            let link = Link(href: target, target: target, text: text, position: 0)
            if let fast = TrackingSearch.wordBytesLinkContext(link) {
                compared += 1
                #expect(fast == TrackingSearch.characterLinkContext(link), "\(text.debugDescription)")
            }
        }
        #expect(compared > 300)
    }

    @Test func nonASCIIWhiteSpaceIsEveryWhiteSpaceScalar() {
        for value in UInt32(0x80)...UInt32(0x3100) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8) + [0x41]
            let found = bytes.withUnsafeBufferPointer { TrackingSearch.isNonASCIIWhiteSpace($0, at: 0) }
            #expect(found == scalar.properties.isWhitespace, "\(value)")
        }
    }

    @Test func firstOffsetFindsTheFirstByte() {
        let bytes: [UInt8] = [1, 2, 0xE3, 4, 0xEF, 0xE3]
        bytes.withUnsafeBufferPointer { buffer in
            #expect(TextScan.firstOffset(of: 0xE3, in: buffer) == 2)
            #expect(TextScan.firstOffset(of: 0xEF, in: buffer) == 4)
            #expect(TextScan.firstOffset(of: 0x7F, in: buffer) == 6)
            #expect(TextScan.firstOffset(of: 1, in: UnsafeBufferPointer(rebasing: buffer[3...])) == 3)
        }
    }

    @Test func plausibleOrderNumberFastPathAgrees() {
        var generator = Generator(state: 8)
        let pieces = [
            "1", "12", "2026", "0", "-", ".", "/", "_", "A", "b", "555", "1234", "11", "31", "1999", "\u{1}",
        ]
        for _ in 0..<20_000 {
            let token = generator.text(pieces, count: 9)
            for minimumLength in [4, 5] {
                #expect(
                    OrderNumberToken.isPlausibleASCII(token, minimumLength: minimumLength)
                        == OrderNumberToken.isPlausibleCharacters(token, minimumLength: minimumLength),
                    "\(token)")
            }
        }
    }
}

/// Order-date connectors read a text's lower-cased start instead of the whole text lower-cased.
@Suite struct LoweredStartTests {
    @Test func connectorAgreesWithTheWholeTextLowerCased() {
        var generator = FastPathTests.Generator(state: 7)
        let pieces = [
            "VOM ", "vom ", "Placed On ", "placed on ", "le ", "Le ", "ΟΔΟΣ", "İ", "\u{301}", "\u{212A}", "é",
            "e",
            " ", "  ", "주문", "注文", "🇩🇪", "\u{200D}", "👩", "x", "1", "22.11.2026", "\r\n", "\t",
        ]
        let words = ["vom", "placed on", "le", "ΟΔΟΣ", "k", "주문", "e"]
        for _ in 0..<3_000 {
            let text = generator.text(pieces, count: 40)
            let connector = OrderDateConnector(generator.pick(words))
            var lowered: LoweredStart?
            let expected = text.lowercased().hasPrefix(connector.prefix)
            #expect(
                connector.starts(text, textIsASCII: false, lowered: &lowered) == expected,
                "\(connector.word) in \(text.debugDescription)")
            // A second question reads the kept start (or the whole text, when the start was short).
            let other = OrderDateConnector(generator.pick(words))
            #expect(
                other.starts(text, textIsASCII: false, lowered: &lowered)
                    == text.lowercased().hasPrefix(other.prefix))
        }
    }

    /// The first-scalar test never rules out a text whose lower-cased form starts with the
    /// character, and rules out the rest: `İ`, the Kelvin sign, final sigma, combining marks
    /// and the scalars canonically equal to an ASCII character (U+037E, U+1FEF).
    @Test func firstScalarTestAgreesWithTheTextLowerCased() {
        var generator = FastPathTests.Generator(state: 8)
        let pieces = [
            "V", "v", "K", "k", "\u{212A}", "İ", "i", "I", "\u{130}\u{301}", "Σ", "ς", "ΟΔΟΣ ", "\u{301}",
            "e\u{301}",
            "é", ";", "\u{37E}", "`", "\u{1FEF}", " ", "\r\n", "ß", "Ａ", "주문", "🇩🇪", "\u{200D}", "x", "1",
        ]
        var ruledOut = 0
        for _ in 0..<5_000 {
            let text = generator.text(pieces, count: 6)
            let lowered = text.lowercased()
            for byte in Array("vkie;`x1 a".utf8) {
                let character = String(UnicodeScalar(byte))
                let starts = lowered.first.map { String($0) == character } ?? false
                let may = OrderDateConnector.lowercasedMayStart(text, with: byte)
                if !may { ruledOut += 1 }
                #expect(may || !starts, "\(text.debugDescription) \(character)")
                // Ruled in only when the lower-cased text's first scalar could make that character.
                if may, let first = lowered.unicodeScalars.first {
                    #expect(
                        first.value == UInt32(byte) || [0x212A, 0x037E, 0x1FEF].contains(first.value),
                        "\(text.debugDescription) \(character)")
                }
            }
        }
        #expect(ruledOut > 10_000)
        // Canonically equal to an ASCII character: answered as the whole text lower-cased.
        for text in ["\u{37E} 1", "\u{1FEF} 1", "\u{212A} 1", "İ 1"] {
            for word in [";", "`", "k", "i"] {
                var lowered: LoweredStart?
                #expect(
                    OrderDateConnector(word).starts(text, textIsASCII: false, lowered: &lowered)
                        == text.lowercased().hasPrefix(word + " "), "\(text.debugDescription) \(word)")
            }
        }
        #expect(!OrderDateConnector.lowercasedMayStart("", with: UInt8(ascii: "v")))
    }

    @Test func shortAndLongTexts() {
        let connector = OrderDateConnector("Vom")
        for text in [
            "", "vom", "VOM ", "Vom\u{301} 1", String(repeating: "é", count: 60),
            "VOM " + String(repeating: "ü", count: 80),
        ] {
            var lowered: LoweredStart?
            #expect(
                connector.starts(text, textIsASCII: false, lowered: &lowered)
                    == text.lowercased().hasPrefix(connector.prefix))
        }
    }

    @Test func doubleSpaces() {
        #expect(!ExtractionContext.hasDoubleSpace(""))
        #expect(!ExtractionContext.hasDoubleSpace("a b c"))
        #expect(ExtractionContext.hasDoubleSpace("a  b"))
        #expect(ExtractionContext.hasDoubleSpace("  "))
        #expect(ExtractionContext.displaySafeName("Shop  Name") == "Shop Name")
        #expect(ExtractionContext.displaySafeName("Shop Name") == "Shop Name")
    }
}
