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
}
