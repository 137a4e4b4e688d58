import Foundation
import MailDocument
import Testing

@testable import Extraction

/// The byte-level paths of the field finders (merchant, order number, labelled values) agree
/// with the Foundation and character-level code they stand in for.
@Suite struct FieldFastPathTests {
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
        /// Text made of up to `count` of the given pieces.
        mutating func text(_ pieces: [String], count: Int) -> String {
            (0..<Int(next() % UInt64(count + 1))).map { _ in pick(pieces) }.joined()
        }
    }

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
        var generator = Generator(state: 12)
        var compared = 0
        for round in 0..<30_000 {
            let value = generator.text(Self.orderValuePieces, count: round % 3 == 0 ? 60 : 8)
            for minimumLength in [4, 5] {
                let slow = OrderNumberToken.extractCharacters(
                    from: value, fillers: fillers, minimumLength: minimumLength)
                if let fast = OrderNumberToken.extractScalars(
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
