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
