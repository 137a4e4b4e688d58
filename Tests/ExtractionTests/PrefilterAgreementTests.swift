import Foundation
import Testing

@testable import Extraction

/// Filters that pass over work whose outcome they already know agree with that outcome.
@Suite struct PrefilterAgreementTests {
    typealias Generator = FastPathTests.Generator

    /// A window no format may match gets no match from the format search either.
    @Test func formatPrefilterAgreesWithTheSearch() {
        let compiled = Fixture.extractor.rules.carriers.compiled
        var generator = Generator(state: 41)
        let alphabets: [[UInt8]] = [
            Array("0123456789".utf8), Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8),
            Array("1Z0JVHCEL".utf8),
        ]
        var filtered = 0
        var kept = 0
        for round in 0..<20_000 {
            let alphabet = alphabets[round % alphabets.count]
            let length = 6 + Int(generator.next() % 30)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let number = String(decoding: bytes, as: UTF8.self)
            let parity = round % 3
            let include = { (index: Int) -> Bool in parity == 0 || index % 3 != parity }
            if compiled.mayMatchAny(bytes, where: include) {
                kept += 1
            } else {
                filtered += 1
                #expect(compiled.match(number, where: include).isEmpty, "\(number)")
            }
        }
        #expect(filtered > 1_000)
        #expect(kept > 1_000)
    }

    /// Text is narrowed exactly when it holds a character to narrow.
    @Test func wideCharacterTestAgreesWithNarrowing() {
        var generator = Generator(state: 42)
        let pieces = [
            "a", "1", " ", "１", "Ａ", "\u{3000}", "あ", "\u{FF5F}", "\u{FF00}", "ｱ", "\u{FEFF}", "〜", "é",
        ]
        var wide = 0
        for _ in 0..<3_000 {
            var bytes = Array(generator.text(pieces, count: 8).utf8)
            if generator.next() % 4 == 0, !bytes.isEmpty { bytes.removeLast() }
            let hasWide = TextScan.hasWideCharacter(bytes)
            if hasWide { wide += 1 }
            let narrowed = TextScan.narrowed(bytes)
            #expect(hasWide == (narrowed != nil), "\(bytes)")
        }
        #expect(wide > 500)
    }

    /// The word-at-a-time test finds a wide character exactly where a byte-by-byte reading
    /// does, in long texts too (a candidate at every offset of an eight-byte word, and cut off
    /// at the end).
    @Test func wideCharacterTestAgreesWithByteReading() {
        var generator = Generator(state: 44)
        let pieces = [
            "a", "1", " ", "１", "Ａ", "\u{3000}", "あ", "\u{FF5F}", "\u{FF00}", "ｱ", "\u{FEFF}", "〜", "é",
            "abcdefg",
            "注文番号", "\u{E000}", "\u{3001}",
        ]
        func reference(_ bytes: [UInt8]) -> Bool {
            var index = 0
            while index + 2 < bytes.count {
                let (first, second, third) = (bytes[index], bytes[index + 1], bytes[index + 2])
                if first == 0xEF, second == 0xBC || second == 0xBD, third & 0xC0 == 0x80 {
                    let scalar = 0xFF00 + (UInt32(second & 0x03) << 6) + UInt32(third & 0x3F)
                    if (0xFF01...0xFF5E).contains(scalar) { return true }
                } else if first == 0xE3, second == 0x80, third == 0x80 {
                    return true
                }
                index += 1
            }
            return false
        }
        var wide = 0
        for round in 0..<4_000 {
            var bytes = Array(generator.text(pieces, count: round % 3 == 0 ? 40 : 8).utf8)
            let cut = Int(generator.next() % 3)
            if bytes.count >= cut { bytes.removeLast(cut) }
            let expected = reference(bytes)
            if expected { wide += 1 }
            #expect(TextScan.hasWideCharacter(bytes) == expected, "\(bytes)")
        }
        #expect(wide > 500)
    }

    @Test func byteSetHoldsTheBytesItWasMadeOf() {
        var generator = Generator(state: 43)
        for _ in 0..<200 {
            let bytes = (0..<Int(generator.next() % 40)).map { _ in
                UInt8(truncatingIfNeeded: generator.next())
            }
            let set = ByteSet(bytes)
            for value in 0...255 {
                #expect(set.contains(UInt8(value)) == bytes.contains(UInt8(value)))
            }
        }
    }

    /// Amounts read from the bytes are the amounts the expression finds, with the same ranges.
    @Test func moneyBytesAgreeWithTheExpression() {
        let pieces = [
            " ", "  ", "1", "12", "123", "1234", "0", "5", ".", ",", "'", "-", ".99", ",5", "1,299",
            "1.234,56",
            "12 345", "1\u{A0}234", "1\u{202F}234", "$", "US$", "CA$", "C$", "A$", "NT$", "USD", "usd", "EUR",
            "Eur",
            "EU", "R", "€", "£", "¥", "￥", "₩", "원", "円", "元", "₹", "zł", "Fr.", "Fr", "руб", "MXN", "CHF",
            "GBPX",
            "aJPY", "X", "\u{A0}", "\u{202F}", "\n", "\t", "\r\n", "é", "–", "１２", "٣", "\u{2009}", "\u{0B}",
            "\u{3000}", "\u{200B}", "🙂", "\u{301}", "Total:",
        ]
        var generator = Generator(state: 44)
        var compared = 0
        var withAmount = 0
        for round in 0..<12_000 {
            let text = generator.text(pieces, count: 7)
            guard MoneyBytes.reads(text) else { continue }
            let currency: String? = round % 3 == 0 ? "CNY" : (round % 3 == 1 ? "CAD" : nil)
            let expected = Money.expressionAmounts(in: text, defaultCurrency: currency)
            let found = Money.byteAmounts(in: text, defaultCurrency: currency)
            compared += 1
            if !expected.isEmpty { withAmount += 1 }
            #expect(found.map(\.0) == expected.map(\.0), "\(text.debugDescription)")
            #expect(found.map(\.1) == expected.map(\.1), "\(text.debugDescription)")
        }
        #expect(compared > 5_000)
        #expect(withAmount > 2_000)
    }

    /// A text without a digit gives no tracking candidate: the subject search passes it over.
    @Test func textsWithoutDigitsGiveNoTrackingCandidate() {
        var generator = Generator(state: 45)
        let pieces = [
            " ", "UPS", "DHL", "Tracking number ", "ABCDEFGHJK", "1Z", "１２３４５６７８９０１２", "ＡＢＣ", "\u{3000}", "-",
            "RR", "DE", "é", "1234567890123", "JD", "Ｚ", "\u{FF19}", "\u{FF1A}", "x",
        ]
        var withoutDigits = 0
        for round in 0..<3_000 {
            let text = generator.text(pieces, count: 10)
            let bytes = Array(text.utf8)
            let search = TrackingSearch(
                compiled: Fixture.extractor.rules.carriers.compiled,
                input: TrackingSearchInput(text: text, senderDomain: round % 2 == 0 ? "ups.com" : nil))
            guard !TrackingSearch.mayHoldDigit(bytes) else { continue }
            withoutDigits += 1
            #expect(
                TextScan(search: search, bytes: bytes, isSubject: true).candidates().isEmpty,
                "\(text.debugDescription)")
        }
        #expect(withoutDigits > 300)
    }

    /// Tracking URLs filled by bytes are the URLs Foundation fills.
    @Test func trackingURLTemplatesFillAsFoundationFillsThem() {
        var generator = Generator(state: 46)
        let templates =
            Fixture.extractor.rules.carriers.carriers.compactMap(\.trackingURLTemplate) + [
                "https://x.example/{number}/{number}", "{number}", "https://x.example/?q={numbe",
                "{{number}}",
            ]
        let pieces = ["1Z", "0", "9", "ABC", "xyz", "é", " ", "-", "%", "/", "１"]
        var filled = 0
        for round in 0..<3_000 {
            let template = templates[round % templates.count]
            let number = generator.text(pieces, count: 6)
            let allowed = CharacterSet.alphanumerics
            let encoded = number.addingPercentEncoding(withAllowedCharacters: allowed) ?? number
            let expected = template.replacingOccurrences(of: "{number}", with: encoded)
            if CarrierCatalog.asciiFilledTemplate(template, number: number) != nil { filled += 1 }
            #expect(
                CarrierCatalog.fillTemplate(template, number: number) == expected, "\(template) \(number)")
        }
        #expect(filled > 500)
    }

    /// A number is found in a value where Foundation finds it.
    @Test func numberRangeAgreesWithFoundation() {
        var generator = Generator(state: 47)
        let pieces = [
            "A", "12", "3", "-", " ", "#", "x", "\r\n", "\n", "é", "e\u{301}", "123", "AB-12", "주문", "注文",
            "\u{301}", "\u{212A}", "K", "ö", "o\u{308}", "\t", "\u{3000}", "ａ", "\u{1F600}",
        ]
        var found = 0
        for round in 0..<6_000 {
            let value = generator.text(pieces, count: round % 10 == 0 ? 200 : 12)
            let number = generator.text(pieces, count: 3)
            let expected = value.prefix(160).range(of: number)
            let actual = ExtractionContext.range(of: number, inFirst160Of: value)
            if expected != nil { found += 1 }
            #expect(actual == expected, "\(value.debugDescription) \(number.debugDescription)")
        }
        #expect(found > 500)
    }

    /// Candidates are ranked, and the best chosen, as grouping them through a dictionary and
    /// sorting every group does.
    @Test func rankingAgreesWithDictionaryGrouping() {
        func better(_ lhs: Candidate<String>, _ rhs: Candidate<String>) -> Bool {
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            let leftRank = lhs.origin?.rank ?? -1
            let rightRank = rhs.origin?.rank ?? -1
            if leftRank != rightRank { return leftRank < rightRank }
            return lhs.offset < rhs.offset
        }
        func reference(_ candidates: [Candidate<String>]) -> [Chosen<String>] {
            var groups: [String: [Candidate<String>]] = [:]
            var order: [String] = []
            for candidate in candidates {
                if groups[candidate.key] == nil { order.append(candidate.key) }
                groups[candidate.key, default: []].append(candidate)
            }
            return order.compactMap { key -> Chosen<String>? in
                guard let members = groups[key] else { return nil }
                let sorted = members.sorted(by: better)
                let renditions = Set(members.map { $0.origin?.rawValue ?? $0.source }).count
                let score = min(0.99, sorted[0].score + Scoring.agreementBonus * Double(renditions - 1))
                return Chosen(best: sorted[0], supporting: Array(sorted.dropFirst()), score: score)
            }.sorted { lhs, rhs in
                if lhs.score != rhs.score { return lhs.score > rhs.score }
                return better(lhs.best, rhs.best)
            }
        }
        // The text names each candidate, so that equal-looking candidates are told apart.
        func names(_ chosen: Chosen<String>) -> [String] {
            [chosen.best.text] + chosen.supporting.map(\.text)
        }
        var generator = Generator(state: 49)
        let origins: [TextOrigin?] = [nil, .html, .plain, .subject, .preheader]
        let keys = ["A1", "B2", "C3", "é", "e\u{301}", "Ω", "\u{2126}"]
        let scores = [0.5, 0.6, 0.65, 0.8]
        var chosenCount = 0
        for round in 0..<3_000 {
            let count = round % 40 == 0 ? 33 + Int(generator.next() % 20) : Int(generator.next() % 9)
            let candidates = (0..<count).map { index in
                Candidate(
                    value: "v", key: generator.pick(keys), source: generator.pick(["label", "subject"]),
                    score: generator.pick(scores), text: "#\(index)", origin: generator.pick(origins),
                    offset: Int(generator.next() % 4))
            }
            let expected = reference(candidates)
            let actual = Scoring.rank(candidates)
            #expect(actual.map(names) == expected.map(names))
            #expect(actual.map(\.score) == expected.map(\.score))
            let threshold = generator.pick([0.0, 0.6, 0.7])
            let chosen = Scoring.choose(candidates, threshold: threshold)
            let first = expected.first.flatMap { $0.score >= threshold ? $0 : nil }
            #expect(chosen.map(names) == first.map(names))
            if chosen != nil { chosenCount += 1 }
        }
        #expect(chosenCount > 1_000)
    }

    /// A large group (more than 16 members, its renditions counted with a set) is chosen as
    /// sorting it does: its best member first, the score raised once per further rendition.
    @Test func choosingALargeGroupAgreesWithSortingIt() {
        var generator = Generator(state: 50)
        let origins: [TextOrigin?] = [nil, .html, .plain, .subject, .preheader]
        for _ in 0..<300 {
            let count = 2 + Int(generator.next() % 40)
            let candidates = (0..<count).map { index in
                Candidate(
                    value: "v", key: "K", source: generator.pick(["label", "subject", "markup"]),
                    score: generator.pick([0.5, 0.6, 0.65, 0.8]), text: "#\(index)",
                    origin: generator.pick(origins), offset: Int(generator.next() % 4))
            }
            let ranked = Scoring.rank(candidates)
            let chosen = Scoring.choose(candidates, threshold: 0)
            #expect(chosen?.best.text == ranked.first?.best.text)
            #expect(chosen?.supporting.map(\.text) == ranked.first?.supporting.map(\.text))
            #expect(
                chosen?.score
                    == min(
                        0.99,
                        (ranked.first?.best.score ?? 0) + Scoring.agreementBonus
                            * Double(Set(candidates.map { $0.origin?.rawValue ?? $0.source }).count - 1)))
        }
    }

    /// Renditions are counted as a set of them counts them.
    @Test func distinctRenditionsCountAsASet() {
        var generator = Generator(state: 48)
        let origins: [TextOrigin?] = [nil, .html, .plain, .subject, .preheader]
        let sources = ["label", "markup", "order", "html", "subject"]
        for round in 0..<2_000 {
            let count = round % 50 == 0 ? 20 + Int(generator.next() % 10) : Int(generator.next() % 6)
            let candidates = (0..<count).map { _ in
                Candidate(
                    value: "x", key: "X", source: generator.pick(sources), score: 0.5, text: "",
                    origin: generator.pick(origins))
            }
            let expected = Set(candidates.map { $0.origin?.rawValue ?? $0.source }).count
            #expect(Scoring.distinctRenditions(candidates) == expected)
        }
    }
}

/// Kind scores kept in lanes by case position.
@Suite struct KindScoresTests {
    @Test func lanesFollowTheCaseOrder() {
        #expect(EmailKind.allCases.enumerated().allSatisfy { $0.offset == $0.element.caseIndex })
        var scores = KindScores()
        scores.add(3, to: .refund)
        scores.add(0.5, to: .orderConfirmation)
        scores.add(0, to: .notAnOrder)
        #expect(scores[.refund] == 3)
        #expect(scores[.deliveryUpdate] == 0)
        #expect(scores.given.map(\.kind) == [.orderConfirmation, .refund, .notAnOrder])
        #expect(scores.total == 3.5)
    }

    /// The kind's evidence text is the reasons and the scores given, each score as its
    /// description, whether it is a whole number, a half, or neither.
    @Test func kindEvidenceTextWritesScoresAsTheirDescriptions() {
        var generator = FastPathTests.Generator(state: 91)
        var specials: [Double] = [
            0, 0.5, 1, 1.5, 2, 3.25, 0.1 + 0.2, 9.5, 10, 99.5, 999_999.5, 1_000_000, 1e16, 1e17, -0.0, -1.5,
        ]
        let reasonPool = ["schema.org Order", "attached order", "sender is DHL", "no order words", "", "é"]
        for round in 0..<3_000 {
            var scores = KindScores()
            var expectedScores: [(EmailKind, Double)] = []
            for kind in EmailKind.allCases where generator.next() % 3 == 0 {
                let halves = Double(generator.next() % 4_000_000)
                let score: Double
                switch generator.next() % 4 {
                case 0: score = halves / 2
                case 1: score = halves / 10
                case 2: score = Double(generator.next() % 40) / 2
                default: score = specials.isEmpty ? 1 : specials.removeLast()
                }
                scores.add(score, to: kind)
                expectedScores.append((kind, score))
            }
            let reasons = (0..<Int(generator.next() % 3)).map { _ in generator.pick(reasonPool) }
            var pieces = reasons
            // (The scores as kept: a score added to 0 is 0 + score, so -0.0 is kept as 0.0.)
            for kind in KindScores.kindsByName where expectedScores.contains(where: { $0.0 == kind }) {
                pieces.append("\(kind.rawValue) \(scores[kind])")
            }
            let expected = pieces.joined(separator: "; ")
            #expect(
                ExtractionContext.kindEvidenceText(reasons: reasons, scores: scores) == expected,
                "round \(round)")
        }
    }

    /// Tracking numbers are found as a set of them finds them, few or many.
    @Test func trackingNumbersAreFoundAsInASet() {
        var generator = FastPathTests.Generator(state: 92)
        for round in 0..<300 {
            let count = round % 10 == 0 ? 20 + Int(generator.next() % 20) : Int(generator.next() % 10)
            let numbers = (0..<count).map { _ in "1Z\(generator.next() % 50)" }
            let numberSet = TrackingNumberSet(numbers)
            for probe in 0..<60 {
                let text = probe == 59 ? "1Z5\u{0301}" : "1Z\(probe)"
                #expect(numberSet.contains(text) == Set(numbers).contains(text))
            }
        }
    }

    /// Phrase weights keep each phrase once, at its highest weight, in the order first noted,
    /// on the stack and past it.
    @Test func phraseWeightsKeepTheStrongestPlace() {
        var generator = FastPathTests.Generator(state: 83)
        for round in 0..<300 {
            let count = round % 10 == 0 ? 200 : Int(generator.next() % 40)
            var expected: [(phrase: Int, weight: Int)] = []
            var actual: [(phrase: Int, weight: Int)] = []
            withUnsafeTemporaryAllocation(of: Int.self, capacity: PhraseWeights.stackCount) { buffer in
                var weights = PhraseWeights(buffer.baseAddress!)
                for _ in 0..<count {
                    let phrase = Int(generator.next() % (round % 10 == 0 ? 150 : 20))
                    let weight = 1 + Int(generator.next() % 3)
                    weights.note(phrase, weight: weight)
                    if let found = expected.firstIndex(where: { $0.phrase == phrase }) {
                        expected[found].weight = max(expected[found].weight, weight)
                    } else {
                        expected.append((phrase, weight))
                    }
                }
                weights.forEachPhrase { actual.append(($0, $1)) }
            }
            #expect(actual.map(\.phrase) == expected.map(\.phrase))
            #expect(actual.map(\.weight) == expected.map(\.weight))
        }
    }
}
