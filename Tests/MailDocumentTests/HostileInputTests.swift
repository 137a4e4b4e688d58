import Foundation
import Testing

@testable import MailDocument

/// A small deterministic generator, so failures reproduce.
private struct Scrambler {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    mutating func bytes(_ count: Int, from alphabet: [UInt8]) -> [UInt8] {
        (0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
    }
}

private let markupAlphabet = Array("<>/=\"' &;#x0a1{}[],:!-–é\u{0}\n\tdivtablerbhiddenstyle:none".utf8)

@Test func randomMarkupNeverCrashesTheRenderer() {
    var scrambler = Scrambler(state: 7)
    for round in 0..<60 {
        let bytes = scrambler.bytes(50 + round * 7, from: markupAlphabet)
        let html = String(decoding: bytes, as: UTF8.self)
        let result = HTMLRenderer.render(html: html, partPath: "1")
        for span in result.text.spans {
            #expect(span.range.upperBound <= result.text.text.utf8.count)
        }
        _ = JSONLDRepair.parse(html)
        _ = ForwardDetector.detect(in: html)
        _ = RedirectUnwrapper.unwrap("https://x.example/?u=" + html)
        _ = PlainTextRenderer.render(text: html, partPath: "1")
    }
}

@Test func randomAndTruncatedArchivesAreRefusedNotCrashed() {
    var zip = ZipFixture()
    zip.add("order.json", #"{"orderNumber":"1"}"#)
    zip.add("pass.json", String(repeating: "x", count: 3_000))
    let archive = zip.archive()
    for length in stride(from: 0, to: archive.count, by: 3) {
        _ = try? OrderBundleReader.readOrder(Array(archive[..<length]))
    }
    var scrambler = Scrambler(state: 11)
    for _ in 0..<200 {
        var damaged = archive
        for _ in 0..<4 {
            let index = Int(scrambler.next() % UInt64(damaged.count))
            damaged[index] = UInt8(truncatingIfNeeded: scrambler.next())
        }
        _ = try? OrderBundleReader.readOrder(damaged)
    }
    #expect((try? OrderBundleReader.readOrder(archive)) != nil)
}

@Test func hugeFlatDocumentsStayLinear() {
    let row = "<tr><td>Item</td><td>1</td></tr>"
    let html = "<table>" + String(repeating: row, count: 5_000) + "</table>"
    let result = HTMLRenderer.render(html: html, partPath: "1")
    #expect(result.text.lines.count == 5_000)
}

/// A run of vertical tabs (white space that is no line end) is one space, read in linear time.
@Test func aRunOfVerticalTabsIsOneSpace() {
    for count in [10, 100, 10_000] {
        let text = "Die Hasen und" + String(repeating: "\u{0B}", count: count) + " die Frösche\nschnellste"
        let start = Date()
        let rendered = PlainTextRenderer.render(text: text, partPath: "1").text.text
        #expect(rendered == "Die Hasen und die Frösche\nschnellste", "\(count)")
        #expect(Date().timeIntervalSince(start) < 2, "\(count)")
    }
    // A vertical tab or form feed right before a space or a tab (a wide gap) used to stop the
    // renderer from moving on.
    for gap in ["\u{0B} ", "\u{0C} ", "\u{0B}\t", "\u{0C}\t\t ", " \u{0B} "] {
        #expect(
            PlainTextRenderer.render(text: "Mug" + gap + "$12.00", partPath: "1").text.text == "Mug $12.00")
    }
}
