import Foundation
import Testing

@testable import MIME

@Test func lineFeedsTurnsCRLFAndBareCRIntoLF() {
    #expect(TextNormalizer.lineFeeds("a\r\nb\rc\nd\r\n\r\ne\r") == "a\nb\nc\nd\n\ne\n")
    #expect(TextNormalizer.lineFeeds("\r\r\n\n") == "\n\n\n")
    #expect(TextNormalizer.lineFeeds("Grüße\r\n注文番号\r😀\r\n") == "Grüße\n注文番号\n😀\n")
    #expect(TextNormalizer.lineFeeds("no breaks") == "no breaks")
    #expect(TextNormalizer.lineFeeds("") == "")
}

@Test func lineFeedsAgreesWithSplittingOnEveryLineEnd() {
    var state: UInt64 = 7
    let pieces = ["\r\n", "\r", "\n", "a", "ü", "注", " ", "\r\r\n"]
    for _ in 0..<500 {
        var text = ""
        for _ in 0..<40 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += pieces[Int(state >> 33) % pieces.count]
        }
        let expected = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
            of: "\r", with: "\n")
        #expect(TextNormalizer.lineFeeds(text) == expected)
    }
}
