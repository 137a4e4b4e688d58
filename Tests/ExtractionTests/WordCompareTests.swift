import Testing

@testable import Extraction

/// The eight-byte words the phrase scanners compare agree with the bytes they stand for.
@Suite struct WordCompareTests {
    @Test func loweredWordLowersEachByte() {
        var generator = FastPathTests.Generator(state: 31)
        var words: [[UInt8]] = (0..<256).map {
            [UInt8($0), 0x41, 0x5A, 0x40, 0x5B, 0x61, 0xC3, UInt8(255 - $0)]
        }
        for _ in 0..<2_000 { words.append((0..<8).map { _ in UInt8(truncatingIfNeeded: generator.next()) }) }
        for bytes in words {
            let lowered = KeywordScanner.lower(word: PhraseIndex.word(bytes))
            #expect(lowered == PhraseIndex.word(bytes.map(KeywordScanner.lower)), "\(bytes)")
        }
    }

    @Test func wordsReadFromTextMatchTheirBytes() {
        let text: [UInt8] = Array("Order number: 12345 É".utf8)
        text.withUnsafeBufferPointer { buffer in
            for position in 0...text.count {
                let expected = PhraseIndex.word(text[position...].prefix(8))
                #expect(PhraseIndex.word(at: position, in: buffer) == expected)
                for length in 0...9 {
                    let phrase = Array(text[position...].prefix(length))
                    let mask = PhraseIndex.mask(length: phrase.count)
                    #expect(PhraseIndex.word(at: position, in: buffer) & mask == PhraseIndex.word(phrase))
                }
            }
        }
    }

    /// Folding as it was first written: one loop writing into a copy.
    static func referenceFold(_ bytes: [UInt8]) -> [UInt8] { referenceFoldAndLeads(bytes).folded }

    /// ``referenceFold(_:)``, and whether a byte it read on its own (not as the second of a
    /// folded pair) is E3–ED, a script lead (``Text/foldBytes(_:from:)`` reports the same).
    static func referenceFoldAndLeads(_ bytes: [UInt8]) -> (folded: [UInt8], scriptLead: Bool) {
        var result = bytes
        var lead = false
        var index = 0
        while index < result.count {
            let byte = result[index]
            if byte >= 0x41 && byte <= 0x5A {
                result[index] = byte + 0x20
            } else if byte == 0xC3 && index + 1 < result.count {
                let next = result[index + 1]
                if next >= 0x80 && next <= 0x9E && next != 0x97 { result[index + 1] = next + 0x20 }
                index += 1
            } else if byte == 0xC2 && index + 1 < result.count && result[index + 1] == 0xA0 {
                result[index] = 0x20
                result[index + 1] = 0x20
                index += 1
            } else if byte >= 0xE3 && byte <= 0xED {
                lead = true
            }
            index += 1
        }
        return (result, lead)
    }

    @Test func foldingAgreesWithTheReference() {
        var generator = FastPathTests.Generator(state: 32)
        let pieces: [[UInt8]] = [
            [0x41], [0x5A], [0x61], [0x20], [0xC3], [0xC3, 0x80], [0xC3, 0x97], [0xC3, 0x9E], [0xC3, 0x9F],
            [0xC3, 0x41], [0xC2], [0xC2, 0xA0], [0xC2, 0x41], [0x40], [0x5B], [0xE3, 0x81, 0x82], [0x31],
        ]
        for round in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 12) { bytes += generator.pick(pieces) }
            if round % 7 == 0 {
                bytes = (0..<Int(generator.next() % 20)).map { _ in
                    UInt8(truncatingIfNeeded: generator.next())
                }
            }
            #expect(Text.fold(bytes) == Self.referenceFold(bytes), "\(bytes)")
        }
    }
}
