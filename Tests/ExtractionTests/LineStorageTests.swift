import MailDocument
import Testing

@testable import Extraction

/// A document's lines are views into one storage: their bytes, numbers and spans are read
/// from it as if each line held its own.
@Suite struct LineStorageTests {
    @Test func linesReadTheirBytesFromOneStorage() {
        let text = "Order #12\r\n\tTotal\t$3\n\n  \u{A0}\nLAST Ünit"
        let lines = DocumentText.split(text, origin: .plain)
        let expected = ["Order #12", "\tTotal\t$3", "", "  \u{A0}", "LAST Ünit"]
        #expect(lines.map(\.text) == expected)
        #expect(lines.map(\.number) == Array(0..<5))
        #expect(lines.map(\.startOffset) == [0, 11, 21, 22, 27])
        #expect(lines.map(\.isBlank) == [false, false, true, false, false])
        #expect(lines.allSatisfy { $0.origin == .plain && $0.span == nil })
        for (line, text) in zip(lines, expected) {
            let bytes = Array(text.utf8)
            #expect(Array(line.bytes) == bytes)
            #expect(line.bytes.count == bytes.count && line.bytes.indices == 0..<bytes.count)
            line.bytes.withUnsafeBufferPointer { #expect(Array($0) == bytes) }
            #expect(line.folded == Text.fold(bytes))
            #expect(line.string(2..<100) == String(decoding: bytes.dropFirst(2), as: UTF8.self))
            #expect(line.isBlank == bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
        }
        // A slice keeps the line's positions.
        let slice = lines[1].bytes[1..<6]
        #expect(slice.startIndex == 1)
        #expect(Array(slice) == Array("Total".utf8))
        // A line of its own bytes reads as the same line from a document.
        let own = TextLine(
            origin: .plain, number: 1, bytes: Array("\tTotal\t$3".utf8), startOffset: 11, span: nil)
        #expect(own.text == lines[1].text && own.cells == lines[1].cells && own.display == lines[1].display)
    }

    @Test func documentLinesKeepTheirRenditionsAndSpans() {
        let spans = [
            TextSpan(range: 0..<5, partPath: "1", location: "html/body/p[1]"),
            TextSpan(range: 6..<11, partPath: "1", location: "html/body/p[2]"),
        ]
        let document = MailDocument(
            subject: "Your ORDER\nships", plainText: RenderedText(text: "Plain\r\ntext"),
            htmlText: RenderedText(text: "Hello\nWorld", spans: spans), preheader: "Soon")
        let text = DocumentText(document: document)
        #expect(text.lines.map(\.text) == ["Your ORDER ships", "Soon", "Hello", "World", "Plain", "text"])
        #expect(text.lines.map(\.origin) == [.subject, .preheader, .html, .html, .plain, .plain])
        #expect(text.lines.map(\.number) == [0, 0, 0, 1, 0, 1])
        #expect(text.lines.map(\.location) == [nil, nil, "1 html/body/p[1]", "1 html/body/p[2]", nil, nil])
        #expect(text.lines(of: .html).map(\.text) == ["Hello", "World"])
        for (line, range) in zip(text.lines, text.foldedRanges) {
            #expect(Array(text.foldedText[range]) == line.folded)
        }
    }

    /// ``Text/foldBytes(_:from:)`` reads words of eight bytes where it can (all ASCII, or pairs
    /// that end among the eight: ``Text/foldedLatin(_:)``); byte by byte, it folds what it
    /// folded before (and sees the same script leads), valid UTF-8 or not.
    @Test func foldingByWordsAgreesWithFoldingByBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let pieces =
            [
                "a", "Z", "Order ", "É", "ü", "×", "\u{A0}", "注文", "주문", "カ", "\u{C2}", "\u{C3}", "ÀÞßÿ", "€",
                "©",
            ].map {
                Array($0.utf8)
            } + [
                [0xC3], [0xC2], [0xC3, 0x41], [0xC3, 0xC3, 0x85], [0xC2, 0xC2, 0xA0], [0xED, 0x9F, 0xBF],
                [0x97], [0xA0],
            ]
        for _ in 0..<30_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 24) {
                if next() % 5 == 0 {
                    bytes.append(UInt8(next() % 256))
                } else {
                    bytes += pieces[Int(next() % UInt64(pieces.count))]
                }
            }
            var folded = bytes
            let lead = folded.withUnsafeMutableBufferPointer { Text.foldBytes($0, from: 0) }
            let expected = WordCompareTests.referenceFoldAndLeads(bytes)
            #expect(folded == expected.0 && lead == expected.1, "\(bytes)")
            let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(next() % 256) << UInt64($1 * 8) }
            let wordBytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64($0 * 8)) }
            #expect(
                (Text.capitalsAmongASCII(word) != 0) == wordBytes.contains { $0 >= 0x41 && $0 <= 0x5A })
            var leads: UInt64 = 0
            for index in 0..<8 where wordBytes[index] == 0xC2 || wordBytes[index] == 0xC3 {
                leads |= 0x80 << UInt64(index * 8)
            }
            #expect(Text.latinPairLeads(word) == leads, "\(wordBytes)")
            // Some bytes made zero, some 01 or 80 (next to which a borrow or carry would show).
            let choices: [UInt64] = [0, 1, 0x80, 0xFF]
            var mixed: UInt64 = 0
            for index in 0..<8 {
                let choice = Int(next() % 5)
                let byte = choice < 4 ? choices[choice] : UInt64(wordBytes[index])
                mixed |= byte << UInt64(index * 8)
            }
            var zeros: UInt64 = 0
            for index in 0..<8 where (mixed >> UInt64(index * 8)) & 0xFF == 0 {
                zeros |= 0x80 << UInt64(index * 8)
            }
            #expect(Text.zeroBytes(mixed) == zeros, "\(mixed)")
        }
    }

    /// ``Text/occurrences(of:in:limit:)`` and ``Text/containsBytes(_:in:)`` find what a search
    /// from every position finds.
    @Test func phraseSearchesAgreeWithASearchFromEveryPosition() {
        func matches(_ needle: [UInt8], _ haystack: [UInt8], at index: Int) -> Bool {
            index + needle.count <= haystack.count
                && Array(haystack[index..<(index + needle.count)]) == needle
        }
        func reference(_ phrase: [UInt8], _ haystack: [UInt8], limit: Int) -> [Range<Int>] {
            guard !phrase.isEmpty else { return [] }
            let startsWord = Text.wordAt(phrase, 0)
            let endsWord = Text.wordBefore(phrase, phrase.count)
            var result: [Range<Int>] = []
            var index = 0
            while index + phrase.count <= haystack.count {
                let end = index + phrase.count
                if matches(phrase, haystack, at: index)
                    && (!startsWord || !Text.wordBefore(haystack, index))
                    && (!endsWord || !Text.wordAt(haystack, end))
                {
                    result.append(index..<end)
                    if result.count >= limit { break }
                    index = end
                } else {
                    index += 1
                }
            }
            return result
        }
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let alphabet = Array("ab a-é".utf8)
        for _ in 0..<3_000 {
            let haystack = (0..<(next() % 40)).map { _ in alphabet[next() % alphabet.count] }
            let phrase = (0..<(next() % 4)).map { _ in alphabet[next() % alphabet.count] }
            let limit = 1 + next() % 4
            #expect(
                Text.occurrences(of: phrase, in: haystack, limit: limit)
                    == reference(phrase, haystack, limit: limit),
                "\(phrase) in \(haystack)")
            #expect(
                Text.containsBytes(phrase, in: haystack)
                    == (phrase.isEmpty || haystack.indices.contains { matches(phrase, haystack, at: $0) }),
                "\(phrase) in \(haystack)")
        }
    }
}

/// A candidate made from lines gives the location of its value's line, built when asked for,
/// and keeps it when its text is replaced.
@Suite struct CandidateLocationTests {
    @Test func locationIsTheValueLinesAndIsKept() {
        let spans = [
            TextSpan(range: 0..<9, partPath: "1.2", location: "html/body/p[1]"),
            TextSpan(range: 10..<14, partPath: "1.2", location: "html/body/p[2]"),
        ]
        let lines = DocumentText.split("Order no:\n1047", origin: .html, spans: spans)
        for (valueLine, expected) in [(1, "1.2 html/body/p[2]"), (0, "1.2 html/body/p[1]")] {
            let found = LabelledValue(
                label: "order no", value: "1047", placement: valueLine == 1 ? .nextLine : .sameCell,
                line: lines[valueLine], labelOpensCell: true, offset: 0, labelLine: lines[0],
                labelLineIndex: 0)
            var candidate = Candidate(
                value: "1047", key: "1047", source: "label", score: 0.8, lines: EvidenceLines(found),
                origin: .html)
            #expect(candidate.location == found.line.location)
            #expect(candidate.location == expected)
            #expect(candidate.text == EvidenceLines(found).text)
            candidate.text = "replaced"
            #expect(candidate.text == "replaced" && candidate.location == expected)
            candidate.location = nil
            #expect(candidate.location == nil && candidate.text == "replaced")
        }
        var plain = Candidate(value: 1, key: "1", source: "order", score: 0.9, text: "t", origin: nil)
        #expect(plain.location == nil)
        plain.location = "1 html"
        plain.text = "u"
        #expect(plain.location == "1 html" && plain.text == "u")
    }
}

/// A line's blankness and its place among its rendition's non-blank lines, read once, agree
/// with counting the lines before it.
@Suite struct LineBlanknessTests {
    @Test func placesCountTheNonBlankLinesOfEachRendition() {
        var generator = FastPathTests.Generator(state: 93)
        let pieces = ["Order", " ", "\t", "\r", "\n", "\n", "\u{A0}", "x", "1"]
        for _ in 0..<300 {
            let document = MailDocument(
                subject: generator.text(["Re", " ", "order"], count: 3),
                plainText: RenderedText(text: generator.text(pieces, count: 40)),
                htmlText: RenderedText(text: generator.text(pieces, count: 40)),
                preheader: generator.text(["Soon", " "], count: 2))
            let lines = DocumentText(document: document).lines
            let blankness = LineBlankness(lines)
            for index in lines.indices {
                #expect(blankness[index] == lines[index].isBlank)
                let before = lines[..<index].filter { $0.origin == lines[index].origin && !$0.isBlank }.count
                #expect(blankness.nonBlankBefore(index) == before)
            }
        }
    }
}
