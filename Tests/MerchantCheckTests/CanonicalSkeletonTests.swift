import Foundation
import Testing

@testable import MerchantCheck

/// Ruling out a word by skeletons (``CanonicalSkeleton``) never changes what
/// `String.contains` answers.
@Suite struct CanonicalSkeletonTests {
    static func contains(_ text: String, _ word: String) -> Bool {
        var skeletons = CanonicalSkeleton()
        return CanonicalSkeleton.contains(
            (text, skeletons.bytes(of: text)), (word, skeletons.bytes(of: word)))
    }

    @Test func canonicallyEquivalentTextsHaveOneSkeleton() {
        var skeletons = CanonicalSkeleton()
        #expect(skeletons.bytes(of: "numéro") == skeletons.bytes(of: "nume\u{301}ro"))
        #expect(skeletons.bytes(of: "numéro") == Array("numero".utf8))
        #expect(
            skeletons.bytes(of: "송장")
                == skeletons.bytes(of: "\u{1109}\u{1169}\u{11BC}\u{110C}\u{1161}\u{11BC}"))
        // Compatibility forms are other characters, as for `contains`.
        #expect(skeletons.bytes(of: "ﬁ") != skeletons.bytes(of: "fi"))
    }

    @Test func answersAsContains() {
        #expect(Self.contains("your numéro de suivi: 1234", "numéro de suivi"))
        #expect(Self.contains("your nume\u{301}ro de suivi: 1234", "numéro de suivi"))
        #expect(!Self.contains("your numero de suivi: 1234", "numéro de suivi"))
        #expect(Self.contains("운송장 번호", "운송장"))
        #expect(!Self.contains("cafe\u{301}", "cafe"))
        #expect(Self.contains("e\u{301}", "\u{301}"))
        #expect(!Self.contains("tracking", "追跡番号"))
    }

    /// Random windows of pieces that are canonically equivalent or nearly so (precomposed and
    /// decomposed accents, Hangul syllables and jamo, the Kelvin sign, the Greek question
    /// mark, ligatures, lone marks) against the tracking labels and a few words more.
    @Test func agreesWithContainsOnRandomTexts() {
        let pieces = [
            "tracking", "track", " your", "numéro", "nume\u{301}ro", "numero", " de ", "suivi", "sui", "vi",
            "\u{301}", "\u{327}", "e", "é", "송장", "\u{1109}\u{1169}\u{11BC}", "\u{110C}\u{1161}\u{11BC}", "운",
            "追跡", "番号", "k", "\u{212A}", ";", "\u{37E}", "ﬁ", "fi", "ß", "sendungs", "nummer", "ç", "c", " ",
            "\n", ":", "1Z", "€", "’",
        ]
        let words =
            MerchantEmailChecker.defaultTrackingLabels + ["k", ";", "\u{37E}", "ç", "\u{301}", "fi", "é"]
        var random = ContainsNameTests.Generator(state: 7)
        for _ in 0..<2000 {
            let text = (0...(random.next() % 20)).map { _ in random.pick(pieces) }.joined()
            for word in words {
                #expect(
                    Self.contains(text, word) == text.contains(word),
                    "\(word.debugDescription) in \(text.debugDescription)")
            }
        }
    }
}
