import Testing

@testable import Extraction

/// ``CompiledCarriers/nameKey(_:)`` read by bytes gives the key
/// ``CompiledCarriers/characterNameKey(_:)`` gives, for ASCII and other text.
@Suite struct CarrierNameKeyTests {
    @Test func byteKeysAgreeWithCharacterKeys() {
        var generator = FastPathTests.Generator(state: 41)
        let pieces = [
            "DHL", "Express", "ups", " ", "  ", "\t", "\r\n", "\n", "\u{0B}", "\u{0C}", "-", "Pošta", "İ",
            "\u{A0}", "ヤマト", "Ａ", "7",
        ]
        for _ in 0..<10_000 {
            let text = generator.text(pieces, count: 6)
            #expect(
                CompiledCarriers.nameKey(text) == CompiledCarriers.characterNameKey(text),
                "\(text.debugDescription)")
        }
        #expect(CompiledCarriers.nameKey("") == "")
        #expect(CompiledCarriers.nameKey(" \t ") == "")
        #expect(CompiledCarriers.nameKey("  Deutsche\r\n  POST ") == "deutsche post")
    }
}
