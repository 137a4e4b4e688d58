import Foundation
import MailDocument
import Testing

@testable import Extraction

/// The byte-level paths of the field finders (merchant, order number, labelled values) agree
/// with the Foundation and character-level code they stand in for.
@Suite struct FieldFastPathTests {
    /// The deterministic generator the other fast-path tests use.
    typealias Generator = FastPathTests.Generator

    /// Pieces of text in several scripts, with the characters that make scalars and
    /// characters differ (combining marks, emoji sequences, CR LF).
    static let mixedPieces = [
        " ", "  ", "\t", "\n", "\r", "\r\n", "\u{A0}", "\u{3000}", "\u{2009}", "\u{200B}", "'", "\"", "|",
        "-",
        "–", "—", ":", "·", "•", ",", "/", "(", ")", "[", "]", "<", ">", ".", ";", "!", "@", "#", "Shop",
        "shop",
        "ABC", "x", "7", "2026", "é", "É", "e\u{301}", "\u{301}", "\u{308}", "ü", "İ", "ß", "주문", "번호", "님",
        "(주)", "注文", "番号", "様", "株式会社", "ご注文", "：", "＃", "（", "【", "】", "１２３", "Ａ", "🙂",
        "👍🏽", "👨‍👩‍👧", "🇩🇪", "\u{1100}\u{1161}", "\u{11A8}", "ｶﾞ", "\u{0}", "\u{1C}", "\u{85}",
    ]

    @Test func trimSetAgreesWithFoundation() {
        let sets: [CharacterSet] = [
            CharacterSet(charactersIn: "\"'"),
            CharacterSet(charactersIn: "|-–—:·•,/()[]<>").union(.whitespaces),
            CharacterSet(charactersIn: ",;:!|-–·"), CharacterSet(charactersIn: "."), .whitespacesAndNewlines,
            CharacterSet.punctuationCharacters.union(.symbols),
        ]
        var generator = Generator(state: 11)
        for round in 0..<20_000 {
            let characterSet = sets[round % sets.count]
            let set = TrimSet(characterSet)
            let text = generator.text(Self.mixedPieces, count: 8)
            let expected = text.trimmingCharacters(in: characterSet)
            #expect(set.trimming(text) == expected, "\(text.debugDescription)")
            #expect(set.containsAll(text) == expected.isEmpty, "\(text.debugDescription)")
            for scalar in text.unicodeScalars {
                #expect(set.contains(scalar) == (scalar.value <= 0xFFFF && characterSet.contains(scalar)))
            }
        }
    }

    @Test func trimmedBytesAgreeWithText() {
        var generator = Generator(state: 13)
        for _ in 0..<20_000 {
            var bytes = Array(generator.text(Self.mixedPieces, count: 8).utf8)
            // Now and then a broken sequence, as a cut at the size limit leaves one.
            if generator.next() % 5 == 0 && !bytes.isEmpty {
                bytes.insert(
                    generator.pick([0x80, 0xC3, 0xE3, 0xF0, 0xFF]),
                    at: Int(generator.next() % UInt64(bytes.count)))
            }
            let lower = Int(generator.next() % UInt64(bytes.count + 2))
            let upper = Int(generator.next() % UInt64(bytes.count + 3))
            guard lower <= upper else { continue }
            let range = lower..<upper
            let clampedLower = max(0, min(lower, bytes.count))
            let clampedUpper = max(clampedLower, min(upper, bytes.count))
            let expected = Text.trimmed(String(decoding: bytes[clampedLower..<clampedUpper], as: UTF8.self))
            #expect(FieldText.trimmedString(bytes, range) == expected, "\(bytes) \(range)")
            #expect(FieldText.isBlank(bytes, range) == expected.isEmpty, "\(bytes) \(range)")
            let (opens, length) = LabelledValues.labelPrefix(bytes, range)
            #expect(length == expected.utf8.count)
            #expect(
                opens
                    == expected.unicodeScalars.allSatisfy {
                        CharacterSet.punctuationCharacters.contains($0) || CharacterSet.symbols.contains($0)
                    }, "\(bytes) \(range)")
        }
    }

    @Test func separatorSkipAgreesWithTheSets() {
        let pieces = [
            " ", "\t", ":", "#", "-", "|", "=", ">", ".", "]", "：", "＃", "–", "—", "\u{A0}", "】", "x", "1",
            "é",
            "\u{2012}", "【", "\u{FF1B}", "\u{3010}",
        ]
        var generator = Generator(state: 14)
        for _ in 0..<20_000 {
            let bytes = Array(generator.text(pieces, count: 8).utf8)
            let start = Int(generator.next() % UInt64(bytes.count + 1))
            let end = start + Int(generator.next() % UInt64(bytes.count - start + 1))
            #expect(
                LabelledValues.skipSeparators(bytes, from: start, end: end)
                    == LabelledValues.skipSeparatorsBySets(bytes, from: start, end: end),
                "\(bytes) \(start) \(end)")
        }
    }
}

/// Order numbers read scalar by scalar.
extension FieldFastPathTests {
    /// Every range boundary of ``SimpleScalars`` and a few scalars inside, with scalars that
    /// join others (marks, joiners, jamo, regional indicators) and themselves.
    static let probeScalars: [UInt32] = [
        0x09, 0x0A, 0x0D, 0x20, 0x41, 0x7E, 0xA0, 0xAC, 0xAD, 0xAE, 0xE9, 0x130, 0x24F, 0x300, 0x301, 0x34F,
        0x200C, 0x200D, 0x2010, 0x2027, 0x2030, 0x205E, 0x20A0, 0x20AC, 0x20C0, 0x3000, 0x3029, 0x302A,
        0x3030, 0x303F, 0x3041, 0x3096, 0x3099, 0x309A, 0x309B, 0x30FF, 0x3400, 0x4DBF, 0x4E00, 0x9FFF,
        0xAC00,
        0xAC01, 0xD7A3, 0x1100, 0x1161, 0x11A8, 0xFE0F, 0xFF01, 0xFF21, 0xFF65, 0xFF9E, 0xFFE0, 0xFFE6,
        0x1F1E9, 0x1F642, 0x1F3FD, 0x0E33, 0x0600, 0x093F,
    ]

    @Test func simpleScalarsAreCharactersOfTheirOwn() {
        let standalone = (0..<0x11_0000).compactMap(Unicode.Scalar.init).filter(SimpleScalars.isStandalone)
        #expect(standalone.count > 39_000)
        let probes = Self.probeScalars.compactMap(Unicode.Scalar.init).filter(SimpleScalars.isStandalone)
        for scalar in standalone {
            // The scalar after and before every probe, and after itself.
            var text = String.UnicodeScalarView()
            text.append(scalar)
            for probe in probes {
                text.append(scalar)
                text.append(probe)
            }
            text.append(scalar)
            #expect(String(text).count == text.count, "U+\(String(scalar.value, radix: 16))")
            // What the order-number reader's filler test assumes.
            let lowered = String(scalar).lowercased()
            #expect(lowered.count == 1, "U+\(String(scalar.value, radix: 16))")
            if !":：#".unicodeScalars.contains(scalar) {
                #expect(!":：#".contains(lowered.first!), "U+\(String(scalar.value, radix: 16))")
            }
        }
        // The joining scalars among the probes are not listed.
        for value: UInt32 in [
            0x0A, 0x0D, 0x300, 0x200D, 0x302A, 0x3099, 0x1100, 0x1161, 0x11A8, 0xFE0F, 0xFF9E,
        ] {
            #expect(!SimpleScalars.isStandalone(Unicode.Scalar(value)!))
        }
    }

    @Test func standaloneScalarsAreNotCanonicallyEquivalent() {
        var seen: [String: UInt32] = [:]
        for value in 0..<UInt32(0x1_0000) {
            guard let scalar = Unicode.Scalar(value), SimpleScalars.isStandalone(scalar) else { continue }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping
            #expect(seen[decomposed] == nil, "U+\(String(value, radix: 16))")
            seen[decomposed] = value
        }
    }

    static let orderValuePieces = [
        " ", "  ", "\t", "\u{A0}", "#", ":", "(", "[", ")", "]", ",", ";", ".", "!", "-", "_", "/", "no.",
        "is",
        "Nr", "ist", "nº", "n°", "è", "É", "123", "4567", "2026", "11", "ABC", "x9", "2026-11-20", "12.99",
        "555-123-4567", "é", "€", "１２３", "：", "＃", "（", "【", "】", "）", "，", "。", "、", "注文", "番号",
        "주문", "번호", "\u{301}", "\r", "\r\n", "a@b.example", "\u{1}", "ü", "İ", "Ａ", "🙂", "👍🏽", "ｶﾞ",
        "\u{11A8}",
    ]

    @Test func orderNumberScalarPathAgrees() {
        var fillers = Set<String>()
        for set in Fixture.extractor.languageSets.values { fillers.formUnion(set.fillers) }
        FastPathTests.expectOrderNumberPathAgrees(
            OrderNumberToken.extractScalars, pieces: Self.orderValuePieces, fillers: fillers, seed: 12,
            rounds: 30_000)
    }

    @Test func fillerFoldingAgreesWithTheCharacterPath() {
        var generator = Generator(state: 26)
        let pieces = [
            "n", "N", "º", "°", ".", "É", "è", "İ", "Ǆ", "ǅ", "ẞ", "ß", "Ａ", "ａ", "주", "문", "注", ":", "：",
            "#", "＃",
            "no", "NR", "İst", "Ω", "ﬀ",
        ]
        for _ in 0..<20_000 {
            let word = generator.text(pieces, count: 4)
            let scalars = Array(word.unicodeScalars)
            guard scalars.allSatisfy(SimpleScalars.isStandalone) else { continue }
            let expected = word.lowercased().filter { !":：#".contains($0) }
            #expect(OrderNumberToken.foldedFiller(scalars[...]) == expected, "\(word.debugDescription)")
        }
    }

    @Test func orderNumberScalarPathReadsCJKLabels() {
        let fillers: Set<String> = ["#", ":", "no", "no."]
        #expect(
            OrderNumberToken.extractScalars(from: "：A-123456 ご確認ください", fillers: fillers, minimumLength: 4)
                == "A-123456")
        #expect(
            OrderNumberToken.extractScalars(from: "No. 2026112099（発送済）", fillers: fillers, minimumLength: 4)
                == "2026112099")
        #expect(
            OrderNumberToken.extractScalars(from: "12345번", fillers: fillers, minimumLength: 4) == "12345")
        #expect(
            OrderNumberToken.extractScalars(from: "12345€", fillers: fillers, minimumLength: 4) == .some(nil))
        #expect(
            OrderNumberToken.extractScalars(from: "e\u{301}12345", fillers: fillers, minimumLength: 4) == nil)
    }

    @Test func plausibleTokensWithSignsAndSpacesAgree() {
        var generator = Generator(state: 24)
        let pieces = ["1", "12", "2026", "0", "-", ".", "/", "_", "+", " ", "A", "555", "1999", "2100", "x"]
        for _ in 0..<20_000 {
            let token = generator.text(pieces, count: 6)
            for minimumLength in [1, 4, 5] {
                #expect(
                    OrderNumberToken.isPlausibleASCII(token, minimumLength: minimumLength)
                        == OrderNumberToken.isPlausibleCharacters(token, minimumLength: minimumLength),
                    "\(token)")
            }
        }
    }
}

/// Merchant names and domains.
extension FieldFastPathTests {
    static let brandPieces = [
        " ", "  ", "\t", "\n", "\r\n", "\u{B}", "\u{C}", "\u{1C}", "\u{1}", "Shop", "north", "WIND", "Co.",
        "Ltd",
        " GmbH", " AG", " S.L.", " S.A", " SRL", " Srl", " B.V.", " K.K.", " Ltda.", " Inc.", ", Inc.",
        " Inc",
        " LLC", " Co., Ltd.", " Corp.", " All rights reserved", " All Rights Reserved",
        " ALL RIGHTS RESERVED",
        "reserved.", "Reserved.", ".", ",", ";", ":", "!", "|", "-", "@", "&", "'", "7", "2026", "(c)", "x",
    ]

    @Test func asciiBrandCleaningAgrees() {
        var generator = Generator(state: 15)
        for round in 0..<30_000 {
            let raw = generator.text(Self.brandPieces, count: round % 4 == 0 ? 14 : 6)
            for drop in [false, true] {
                #expect(
                    ExtractionContext.cleanBrandASCII(raw, dropLegalForm: drop)
                        == ExtractionContext.cleanBrandCharacters(raw, dropLegalForm: drop),
                    "\(raw.debugDescription)")
            }
        }
    }

    @Test func danglingWordsAgree() {
        let dangling: Set<String> = [
            "the", "from", "via", "at", "by", "of", "your", "von", "de", "du", "di", "da", "van", "&", "and",
        ]
        var generator = Generator(state: 16)
        let pieces = ["the", "THE", "From", "x", "&", "and", "Ä", "İ", "d", "e", "a", "n", "v", "ı", "ﬀ"]
        for _ in 0..<10_000 {
            let word = generator.text(pieces, count: 3)
            #expect(ExtractionContext.isDangling(word) == dangling.contains(word.lowercased()), "\(word)")
        }
    }

    @Test func domainLabelsAgree() {
        var generator = Generator(state: 17)
        let pieces = [
            "fern", "hill", "-", ".", "Shop", "7", "é", "bücher", "xn--", "注文", "", "_", "\r\n", "k", "K",
            "\u{212A}", "o\u{308}", "ö", "\u{308}", "\t", "\n", "님", "\u{1F600}",
        ]
        for _ in 0..<10_000 {
            let domain = generator.text(pieces, count: 5)
            let expected = String(
                (domain.split(separator: ".").first ?? "").filter { $0.isLetter || $0.isNumber })
            #expect(ExtractionContext.domainLabel(domain) == expected, "\(domain.debugDescription)")
            let other = generator.text(pieces, count: 2)
            #expect(ExtractionContext.contains(domain, other) == domain.contains(other), "\(domain) \(other)")
        }
    }

    @Test func linkLabelPreTestNeverRejectsAMatch() {
        var generator = Generator(state: 18)
        let pieces = [
            "https://", "http://", "www.", "Fern", "hill", "-", "Ceramics", ".example", ".co.uk", ".EXAMPLE",
            "/",
            "?", "#", "@", ":8080", "%2e", "é", "order", "=", "&", "xn--", "XN--bcher-kva", "shop.",
            "user:pw@",
        ]
        var matched = 0
        for _ in 0..<20_000 {
            let url =
                generator.pick(["https://", "http://", "HTTPS://", ""]) + generator.text(pieces, count: 7)
            guard let host = URL(string: url)?.host?.lowercased(), let domain = RegistrableDomain.of(host)
            else {
                continue
            }
            let key = ExtractionContext.domainLabel(domain)
            guard key.count >= 4 else { continue }
            matched += 1
            #expect(ExtractionContext.mayHaveLabel(url, key: Array(key.utf8)), "\(url)")
        }
        #expect(matched > 1_000)
        #expect(!ExtractionContext.mayHaveLabel("https://other.example/fern", key: Array("fernhill".utf8)))
    }

    @Test func simpleAffixesAgreeWithTheStandardLibrary() {
        var generator = Generator(state: 22)
        let pieces = Self.mixedPieces + ["株式会社", "(주)", "㈜", "주식회사", "reserved.", " GmbH", "e", "\u{301}"]
        for _ in 0..<20_000 {
            let text = generator.text(pieces, count: 5)
            let affix = generator.text(pieces, count: 2)
            let simple = FieldText.isSimple(text)
            #expect(
                FieldText.hasSuffix(text, affix, simple: simple) == text.hasSuffix(affix), "\(text) \(affix)")
            #expect(
                FieldText.hasSuffix(text, FieldText.Affix(affix), simple: simple) == text.hasSuffix(affix),
                "\(text) \(affix)")
            #expect(
                FieldText.hasPrefix(text, affix, simple: simple) == text.hasPrefix(affix), "\(text) \(affix)")
            #expect(
                FieldText.hasPrefix(text, FieldText.Affix(affix), simple: simple) == text.hasPrefix(affix),
                "\(text) \(affix)")
        }
    }

    /// A text's bytes are read whole, for native strings and substrings made strings alike.
    @Test func withBytesReadsTheWholeText() {
        for text in ["", "a", "Total: $12.00", "合計 ¥3,980", String(repeating: "x", count: 40)] {
            #expect(FieldText.withBytes(of: text) { Array($0) } == Array(text.utf8))
            let copy = String(Substring(text))
            #expect(FieldText.withBytes(of: copy) { $0.count } == text.utf8.count)
        }
    }

    /// Every standalone scalar beyond ASCII lower-cases to text whose canonical decomposition
    /// holds a scalar beyond ASCII: a simple word with one is never an ASCII dangling word.
    @Test func standaloneScalarsBeyondASCIIStayBeyondASCIIWhenLowerCased() {
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), SimpleScalars.isStandalone(scalar) else { continue }
            let lowered = String(scalar).lowercased().decomposedStringWithCanonicalMapping
            #expect(lowered.utf8.contains { $0 >= 0x80 }, "\(value)")
        }
        #expect(ExtractionContext.danglingWords.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
        #expect(ExtractionContext.withoutDanglingWords("the Café Ölberg via") == "Café Ölberg")
        #expect(ExtractionContext.withoutDanglingWords("– Café –") == "Café")
    }

    /// No standalone scalar decomposes canonically to one scalar other than itself, so no
    /// simple text starts or ends with an affix that is one scalar outside them ("㈜").
    @Test func standaloneScalarsDecomposeToNoOtherSingleScalar() {
        var checked = 0
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), SimpleScalars.isStandalone(scalar) else { continue }
            let decomposed = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            #expect(decomposed.count != 1 || decomposed[0] == scalar, "\(value)")
            checked += 1
        }
        #expect(checked > 39_000)
        #expect(FieldText.Affix("㈜").outsideSimpleText)
        #expect(!FieldText.Affix("株式会社").outsideSimpleText)
        #expect(!FieldText.Affix("e\u{301}").outsideSimpleText)
        #expect(
            !FieldText.Affix("\u{301}").outsideSimpleText
                || !FieldText.hasSuffix("é", FieldText.Affix("\u{301}"), simple: true))
    }

    @Test func collapsedAgreesWithSplittingCharacters() {
        var generator = Generator(state: 23)
        let pieces =
            Self.mixedPieces + [
                " ", "  ", "\t", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{2003}", "e\u{301}",
                " \u{301}",
                "\r\n", "\n",
            ]
        for _ in 0..<20_000 {
            let text = generator.text(pieces, count: 6)
            let expected = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(Text.collapsed(text) == expected, "\(text.unicodeScalars.map(\.value))")
        }
    }

    /// ``ExtractionContext/cleanBrand(_:dropLegalForm:)`` as it was written with Foundation.
    static func referenceCleanBrand(_ raw: String, dropLegalForm: Bool) -> String? {
        var name = Text.trimmed(raw).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        for honorific in ["様", "さま", "御中", "殿", "님", "귀하"] where name.hasSuffix(honorific) {
            name = Text.trimmed(String(name.dropLast(honorific.count)))
        }
        if name.lowercased().hasSuffix("reserved.") { name.removeLast() }
        for suffix in [" All rights reserved", " All Rights Reserved", " all rights reserved"]
        where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        var lowered = name.lowercased()
        let forms =
            ExtractionContext.foreignLegalForms + (dropLegalForm ? ExtractionContext.englishLegalForms : [])
        for (count, loweredSuffix) in forms where lowered.hasSuffix(loweredSuffix.text) {
            name = String(name.dropLast(count))
            lowered = name.lowercased()
        }
        for prefix in ["株式会社", "(주)", "㈜", "주식회사"] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
        }
        for suffix in ["株式会社", "(주)", "㈜", "주식회사"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        name = Text.trimmed(name).trimmingCharacters(in: CharacterSet(charactersIn: ",;:!|-–·"))
        if dropLegalForm { name = name.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        name = Text.trimmed(name)
        guard !name.isEmpty, name.count <= 40, name.split(separator: " ").count <= 5, !name.contains("@"),
            name.contains(where: { $0.isLetter })
        else { return nil }
        return name
    }

    @Test func brandCleaningAgreesWithTheReference() {
        var generator = Generator(state: 23)
        let pieces =
            Self.brandPieces + Self.mixedPieces + [
                "様", "さま", "御中", "殿", "님", "귀하", "株式会社", "(주)", "㈜", "주식회사", "Kaffeerösterei", "Ö", "ł",
            ]
        for round in 0..<20_000 {
            let raw = generator.text(pieces, count: round % 4 == 0 ? 12 : 5)
            for drop in [false, true] {
                let expected = Self.referenceCleanBrand(raw, dropLegalForm: drop)
                #expect(
                    ExtractionContext.cleanBrandCharacters(raw, dropLegalForm: drop) == expected,
                    "\(raw.debugDescription)")
                if raw.utf8.allSatisfy({ $0 < 0x80 }) {
                    #expect(
                        ExtractionContext.cleanBrandASCII(raw, dropLegalForm: drop) == expected,
                        "\(raw.debugDescription)")
                }
            }
        }
    }

    @Test func merchantEntriesByDomainAgreeWithTheList() throws {
        let json = """
            {"merchants": [
              {"domains": ["shop.example", "mail.shop.example"], "name": "Shop"},
              {"domains": ["platform.example"], "platform": true},
              {"domains": ["shop.example", "other.example"], "name": "Second"},
              {"domains": ["Upper.Example", "deep.sub.other.example"], "name": "Deep"}
            ]}
            """
        var rules = try JSONDecoder().decode(MerchantRules.self, from: Data(json.utf8))
        func linear(_ domain: String) -> String? {
            var candidate = domain.lowercased()
            while true {
                if let found = rules.merchants.first(where: { $0.domains.contains(candidate) }) {
                    return found.name ?? "platform"
                }
                guard let dot = candidate.firstIndex(of: ".") else { return nil }
                candidate = String(candidate[candidate.index(after: dot)...])
                if !candidate.contains(".") { return nil }
            }
        }
        let domains = [
            "shop.example", "SHOP.example", "a.b.shop.example", "mail.shop.example", "other.example",
            "x.deep.sub.other.example", "upper.example", "Upper.Example", "platform.example", "nope.example",
            "example", "",
        ]
        for domain in domains {
            #expect(
                rules.entry(forDomain: domain).map { $0.name ?? "platform" } == linear(domain), "\(domain)")
        }
        rules.merchants[0].domains = ["elsewhere.example"]
        rules.merchants.append(.init(domains: ["nope.example"], name: "Late"))
        for domain in domains {
            #expect(
                rules.entry(forDomain: domain).map { $0.name ?? "platform" } == linear(domain), "\(domain)")
        }
    }

    /// The byte lookup of an ASCII domain finds the entry the character lookup finds, for
    /// generated domains: upper case, parents, trailing dots, empty labels, domains beyond
    /// ASCII, and rules listing domains in upper case or beyond ASCII (the Kelvin sign is
    /// canonically a "K", the Greek varia a "`").
    @Test func merchantByteLookupAgreesWithTheCharacterLookup() throws {
        let json = """
            {"merchants": [
              {"domains": ["shop.example", "mail.shop.example", "a.b"], "name": "Shop"},
              {"domains": ["platform.example", "co.uk"], "platform": true},
              {"domains": ["Upper.Example", "b.example."], "name": "Upper"},
              {"domains": ["\\u212Aelvin.example", "a\\u1FEFb.example", "bücher.example"], "name": "Kelvin"},
              {"domains": ["", ".example", "x..example"], "name": "Empty"}
            ]}
            """
        let rules = try JSONDecoder().decode(MerchantRules.self, from: Data(json.utf8))
        let labels = [
            "shop", "SHOP", "mail", "example", "Example", "a", "b", "B", "co", "uk", "upper", "UPPER",
            "platform",
            "Kelvin", "kelvin", "K", "bücher", "BÜCHER", "x", "", "\u{212A}elvin", "xn--bcher-kva", "a`b",
            "A`B", "a\u{1FEF}b",
        ]
        var generator = FastPathTests.Generator(state: 41)
        var found = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 5)
            let domain =
                (0..<count).map { _ in generator.pick(labels) }.joined(separator: ".")
                + (generator.next() % 6 == 0 ? "." : "")
            let fast = rules.entry(forDomain: domain)?.name
            let reference = rules.characterEntry(forDomain: domain)?.name
            #expect(fast == reference, "\(domain.debugDescription)")
            if rules.asciiPosition(forDomain: domain) != nil { found += 1 }
        }
        // Most generated domains are ASCII and take the byte lookup.
        #expect(found > 10_000)
        // A listed domain beyond ASCII that is canonically an ASCII one is found by its bytes.
        #expect(rules.asciiPosition(forDomain: "shop.A`b.example") == .some(3))
    }
}

/// Order-management links and amounts.
extension FieldFastPathTests {
    @Test func currencyPreTestNeverHidesAnAmount() {
        let pieces = [
            " ", "12", ".99", ",50", "1,299", "$", "US$", "USD", "usd", "EUR", "Eur", "EU", "R", "€", "£",
            "¥",
            "￥", "₩", "원", "円", "元", "₹", "zł", "Fr.", "Fr", "fr.", "руб", "MXN", "Total", "X", "AB", "-",
            "CHF",
            "\u{A0}", "GBPX", "aJPY",
        ]
        var generator = Generator(state: 19)
        var withAmount = 0
        for _ in 0..<5_000 {
            let text = generator.text(pieces, count: 6)
            let expected = Money.expressionAmounts(in: text)
            if !expected.isEmpty { withAmount += 1 }
            let found = Money.amounts(in: text)
            #expect(found.map(\.0) == expected.map(\.0), "\(text.debugDescription)")
            #expect(found.map(\.1) == expected.map(\.1), "\(text.debugDescription)")
        }
        #expect(withAmount > 500)
    }

    @Test func orderLinkPhrasesAgreeWithFoundationInAnyScript() {
        let phrases = Fixture.extractor.orderLinkPhrases
        #expect(phrases.contains { $0.simpleBytes != nil && $0.bytes == nil })
        var generator = Generator(state: 20)
        let pieces =
            phrases.map(\.text) + [
                " ", "→", "›", "»", "é", "e\u{301}", "\u{301}", "注文", "주문", "상세", "보기", "\u{200B}", "🙂", "ｶﾞ",
                "\u{1100}\u{1161}", "\u{A0}",
            ]
        for _ in 0..<5_000 {
            let anchor = generator.text(pieces, count: 4)
            let expected = phrases.contains { anchor.contains($0.text) }
            #expect(
                ExtractionContext.containsAny(phrases, in: anchor) == expected, "\(anchor.debugDescription)")
        }
    }

    @Test func webPrefixAgreesWithTheURLTest() {
        var generator = Generator(state: 21)
        let pieces = [
            "https://", "http://", "HTTPS://", "Http://", "htt", "p", "s", ":", "/", "\u{301}", "é",
            "shop.example",
            "/order?id=1", "\r\n", "x", "İ", "K", "\u{212A}",
        ]
        for _ in 0..<10_000 {
            let text = generator.text(pieces, count: 5)
            let expected = ExtractionContext.isWebURL(text)
            let split = ExtractionContext.hasWebPrefix(text) && URLComponents(string: text)?.host != nil
            #expect(split == expected, "\(text.debugDescription)")
        }
        let long = "https://shop.example/" + String(repeating: "é", count: 1_100)
        #expect(ExtractionContext.hasWebPrefix(long) == (long.count <= 2_048))
    }
}

/// Name keys and parent domains.
extension FieldFastPathTests {
    @Test func commasAndWordsAgree() {
        var generator = Generator(state: 27)
        let pieces = [
            " ", "  ", ",", ", ", "\t", "\r\n", "Shop", "OR", "é", "\u{301}", "주문", "🙂", "\u{A0}", "x",
            "\u{3000}", "Kaffeerösterei", "山猫珈琲", "ﬀ", "\u{308}",
        ]
        for _ in 0..<10_000 {
            let text = generator.text(pieces, count: 6)
            let expected = text.firstIndex(of: ",").map { String(text[..<$0]) }
            #expect(ExtractionContext.firstComma(in: text).map { String(text[..<$0]) } == expected, "\(text)")
            #expect(
                ExtractionContext.spaceSeparatedWords(text) == text.split(separator: " ").map(String.init),
                "\(text.debugDescription)")
            let substrings = ExtractionContext.spaceSeparatedSubstrings(text)
            let reference = text.split(separator: " ")
            #expect(substrings == reference, "\(text.debugDescription)")
            #expect(substrings.map(\.startIndex) == reference.map(\.startIndex), "\(text.debugDescription)")
        }
    }

    @Test func nameKeysAgree() {
        var generator = Generator(state: 25)
        let pieces = [
            "Fern", "hill", " ", "-", "&", "Co.", "7", "\r\n", "\t", "é", "Ö", "İ", "주문", "注文", "１２", "Ａ",
            "🙂",
            "\u{301}", "_", "ー", "・", "ß", "Ⅻ", "²", "½", "ª", "º", "µ", "×", "©", "々", "〇", "ゝ", "ヽ", "！",
            "ｱ",
        ]
        for _ in 0..<10_000 {
            let name = generator.text(pieces, count: 5)
            let expected = String(name.lowercased().filter { $0.isLetter || $0.isNumber })
            #expect(ExtractionContext.nameKey(name) == expected, "\(name.debugDescription)")
        }
    }
}

/// Hosts read from a URL's bytes are the hosts Foundation parses.
@Suite struct WebURLHostTests {
    @Test func hostsAgreeWithFoundation() {
        var generator = FastPathTests.Generator(state: 24)
        let schemes = [
            "https://", "http://", "HTTPS://", "Http://", "ftp://", "https:/", "https:", "mailto:", "",
        ]
        let hostPieces = [
            "www", ".", "shop", "-", "Example", "EXAMPLE", "com", "7", "xn--bcher-kva", "_", "@", ":8080",
            "user:pw@",
            "[::1]", "é", " ", "%41", "..",
        ]
        let restPieces = [
            "/", "?", "#", "a", "Z", "9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",",
            ";", "=",
            ":", "@", "%20", "%2", "%zz", "%", " ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "[", "]",
            "é",
            "\t", "\n", "q=1", "order/NW-1",
        ]
        // Half of the URLs are drawn from pieces that make URLs the bytes decide.
        let plainHosts = ["www", ".", "shop", "-", "Example", "EXAMPLE", "com", "7", "xn"]
        let plainRest = [
            "/", "?", "#", "a", "Z", "9", "-", ".", "_", "~", "!", "$", "&", "=", ":", "@", "%20", "q=1",
        ]
        var decided = 0
        for round in 0..<20_000 {
            let plain = round % 2 == 0
            let url =
                generator.pick(plain ? Array(schemes.prefix(4)) : schemes)
                + generator.text(plain ? plainHosts : hostPieces, count: 4)
                + generator.text(plain ? plainRest : restPieces, count: round % 5 == 0 ? 30 : 6)
            let components = URLComponents(string: url)?.host
            let foundation = URL(string: url)?.host
            if case .host(let host) = WebURLHost.read(url) {
                decided += 1
                #expect(String(host) == components, "\(url.debugDescription)")
                #expect(String(host) == foundation, "\(url.debugDescription)")
            }
            #expect(WebURLHost.componentsHost(url) == components, "\(url.debugDescription)")
            #expect(WebURLHost.urlHost(url) == foundation, "\(url.debugDescription)")
        }
        #expect(decided > 2_000)
    }
}

/// Printed numbers normalized from their scalars as from their characters.
@Suite struct MoneyNormalizeTests {
    @Test func scalarsAgreeWithCharacters() {
        var generator = FastPathTests.Generator(state: 25)
        let pieces = [
            "0", "1", "9", "00", "38", "900", ".", ",", "'", " ", "\u{A0}", "\u{202F}", "١", "é", "\r\n",
            "\r",
            "\u{301}", "x",
        ]
        var read = 0
        for _ in 0..<20_000 {
            let number = generator.text(pieces, count: 8)
            for currency in ["USD", "JPY", "KRW", "EUR"] {
                let expected = Money.normalizeCharacters(number, currency: currency)
                #expect(Money.normalize(number, currency: currency) == expected, "\(number.debugDescription)")
                if expected != nil { read += 1 }
            }
        }
        #expect(read > 20_000)
    }
}
