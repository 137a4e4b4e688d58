import Foundation
import Testing

@testable import Extraction

/// The prefilter's fast paths (run copying in `Folding.fold`, bit tables in `KeywordMatcher`,
/// `memchr` for `schema.org`) against plain byte-by-byte versions of the same rules.
@Suite struct PrefilterFastPathTests {
    /// Deterministic pseudo-random texts built from pieces that exercise every folding rule.
    static func texts(count: Int, seed: UInt64) -> [[UInt8]] {
        let pieces: [String] = [
            "Order", "order", " ", "  ", "\t", "\r\n", "\n", "<p>", "</td>", "<br/>", "<!-- x -->",
            "<a href=\"x\">",
            "< 3", "<", ">", "&amp;", "&nbsp;", "&#160;", "&#x41;", "&auml;", "&zwnj;", "&bogus;", "&", "&#;",
            "\u{A0}", "Ä", "É", "×", "ß", "注文番号", "Tracking Number", "tracking", "UPS", "groups", "DHL",
            "Versand", "Sendungsnummer", "expédié", "1Z999AA10123456784", "BZ-2026-560310", "#", ":", "12345",
            "schema.org", "SCHEMA.ORG", "schema\u{0E}org", "Hello", "world", "newsletter", ".", "x", "Ö",
            "\u{0}", "\u{1}", "\u{B}", "\u{7F}", "\u{85}", "\u{9B}", "&#0;", "&#x1;", "Order\u{0}Number",
        ]
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in
            var text: [UInt8] = []
            for _ in 0..<(next() % 40) { text += Array(pieces[next() % pieces.count].utf8) }
            if next() % 4 == 0, !text.isEmpty { text.removeLast(next() % min(3, text.count)) }
            return text
        }
    }

    @Test func foldAgreesWithTheByteByByteFold() {
        // Long texts too, so that the sixteen-byte blocks meet every piece at every lane.
        var long = Self.texts(count: 400, seed: 3).map { text in (0..<12).flatMap { _ in text } }
        let words = "Your ORDER Has Shipped from Köln via DHL Express Tracking Number 1Z999AA10123456784"
        for cut in 0..<40 {
            let clean = Array(String(repeating: words + " ", count: 6).utf8.dropFirst(cut))
            long += [clean, clean.map { $0 == 0x20 && cut % 3 == 0 ? 0x0A : $0 }, clean + Array("  x".utf8)]
            // A control character (DEL) in every lane of an otherwise plain ASCII block.
            long.append(Array(String(repeating: "abc\u{7F}defgh ", count: 6).utf8.dropFirst(cut)))
        }
        for text in Self.texts(count: 3000, seed: 1) + long {
            for html in [false, true] {
                #expect(Folding.fold(text, html: html) == ReferenceFolding.fold(text, html: html))
            }
        }
    }

    /// The eight-byte tricks against byte-by-byte answers: every ASCII byte in every lane, beside
    /// pseudo-random ASCII neighbours.
    @Test func wordTricksAgreeWithBytes() {
        var state: UInt64 = 11
        for byte in UInt8(0)..<0x80 {
            for lane in 0..<8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var lanes = (0..<8).map { UInt8(truncatingIfNeeded: (state >> UInt64(8 * $0)) & 0x7F) }
                lanes[lane] = byte
                let word = lanes.enumerated().reduce(UInt64(0)) {
                    $0 | UInt64($1.element) << UInt64(8 * $1.offset)
                }
                for probe: UInt8 in [0x20, 0x26, 0x3C] {
                    let mask = lanes.enumerated().reduce(UInt64(0)) {
                        $0 | ($1.element == probe ? UInt64(0x80) << UInt64(8 * $1.offset) : 0)
                    }
                    #expect(SWAR.equalMask(word, probe) == mask)
                }
                #expect(SWAR.hasLess(word, 0x20) == lanes.contains { $0 < 0x20 })
                let lowered = lanes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
                #expect(
                    SWAR.lowercased(word)
                        == lowered.enumerated().reduce(UInt64(0)) {
                            $0 | UInt64($1.element) << UInt64(8 * $1.offset)
                        })
            }
        }
        // Letters and digits, in every lane, whatever the bytes beside them (non-ASCII too).
        for byte in UInt8(0)...0xFF {
            for lane in 0..<8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var lanes = (0..<8).map { UInt8(truncatingIfNeeded: state >> UInt64(8 * $0)) }
                lanes[lane] = byte
                let word = lanes.enumerated().reduce(UInt64(0)) {
                    $0 | UInt64($1.element) << UInt64(8 * $1.offset)
                }
                let mask = lanes.enumerated().reduce(UInt64(0)) {
                    $0 | (ReferenceFolding.isWord($1.element) ? UInt64(0x80) << UInt64(8 * $1.offset) : 0)
                }
                #expect(SWAR.wordByteMask(word) == mask, "\(lanes)")
            }
        }
    }

    /// A run of letters and digits measured and hashed eight bytes at a time agrees with the
    /// same run found byte by byte and hashed from its bytes, at every length and offset.
    @Test func wordRunAgreesWithTheByteByByteRun() {
        let pieces = [
            "a", "Z", "0", "9", "ab", "tracking", "sendungsnummer", "1z999aa10123456784", " ", "-", "é", "注",
        ]
        var state: UInt64 = 5
        for _ in 0..<3_000 {
            var text: [UInt8] = []
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for step in 0..<Int(state >> 60) {
                text += Array(pieces[Int((state >> UInt64(4 * step)) % UInt64(pieces.count))].utf8)
            }
            text.withUnsafeBufferPointer { buffer in
                for start in buffer.indices where ReferenceFolding.isWord(buffer[start]) {
                    var end = start
                    while end < buffer.count, ReferenceFolding.isWord(buffer[end]) { end += 1 }
                    let run = KeywordMatcher.wordRun(buffer, at: start)
                    #expect(run.length == end - start)
                    #expect(run.hash == KeywordMatcher.wordHash(buffer, from: start, length: end - start))
                }
            }
        }
    }

    @Test func matcherAgreesWithScanningEveryKeywordAtEveryPosition() {
        let words = [
            "order number", "Tracking Number", "UPS", "DHL", "Versand", "注文番号", "expédié", "schema.org", "#:",
            "ßx", "ab", "Ö",
        ]
        let weak = ["order", "注文"]
        let matcher = KeywordMatcher(words: words, weakWords: weak)
        let reference = ReferenceMatcher(words: words, weakWords: weak)
        var found = 0
        for text in Self.texts(count: 3000, seed: 2) {
            for html in [false, true] {
                let fast = text.withUnsafeBufferPointer { matcher.firstMatch(in: $0, html: html) }
                let folded = ReferenceFolding.fold(text, html: html)
                let expected = reference.matches(atFirstPositionIn: folded)
                if let fast {
                    found += 1
                    #expect(expected.contains(fast), "\(String(decoding: folded, as: UTF8.self))")
                } else {
                    #expect(expected.isEmpty, "\(String(decoding: folded, as: UTF8.self)): \(expected)")
                }
            }
        }
        #expect(found > 1000)
    }

    @Test func rulesMatcherAgreesWithTheReferenceOnRealisticText() {
        // The rules' own keywords, on text that holds some of them.
        var words: [String] = []
        for language in Fixture.rules.languages {
            words += language.labels.orderNumber + language.labels.carrier + language.trackingNumberLabels
        }
        let matcher = KeywordMatcher(words: words)
        let reference = ReferenceMatcher(words: words, weakWords: [])
        for text in Self.texts(count: 500, seed: 3) {
            let fast = text.withUnsafeBufferPointer { matcher.firstMatch(in: $0, html: true) }
            let expected = reference.matches(atFirstPositionIn: ReferenceFolding.fold(text, html: true))
            #expect(fast.map { expected.contains($0) } ?? expected.isEmpty)
        }
    }

    @Test func schemaMarkerAgreesWithTheByteByByteSearch() {
        let texts =
            Self.texts(count: 3000, seed: 4) + [
                Array("schema.org".utf8), Array("xschema.orgx".utf8), Array("schema.or".utf8),
                Array("chema.org".utf8),
                Array("ScHeMa.OrG".utf8), Array("..schema..org".utf8), [],
            ]
        for text in texts {
            let fast = text.withUnsafeBufferPointer { Prefilter.containsSchemaMarker($0) }
            let needle = Array("schema.org".utf8)
            var expected = false
            if text.count >= needle.count {
                for start in 0...(text.count - needle.count)
                where zip(text[start...], needle).allSatisfy({ pair in
                    pair.1 == 0x2E ? pair.0 == 0x2E : pair.0 | 0x20 == pair.1
                }) {
                    expected = true
                }
            }
            #expect(fast == expected, "\(String(decoding: text, as: UTF8.self))")
        }
    }
}

/// The folding rules of ``Folding`` written one byte at a time.
private enum ReferenceFolding {
    static func isWord(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func fold(_ text: [UInt8], html: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var lastWasSpace = false
        func space() {
            if !lastWasSpace { out.append(0x20) }
            lastWasSpace = true
        }
        func put(_ byte: UInt8) {
            out.append(byte)
            lastWasSpace = false
        }
        var index = 0
        while index < text.count {
            let byte = text[index]
            if (0x41...0x5A).contains(byte) {
                put(byte + 0x20)
            } else if [0x20, 0x09, 0x0A, 0x0B, 0x0D, 0x0C].contains(byte) {
                space()
            } else if byte < 0x20 || byte == 0x7F {
                // Control characters are read as nothing.
            } else if byte == 0xC2, index + 1 < text.count, text[index + 1] == 0xA0 || text[index + 1] == 0x85
            {
                space()
                index += 1
            } else if byte == 0xC2, index + 1 < text.count, (0x80...0x9F).contains(text[index + 1]) {
                index += 1
            } else if byte == 0xC3, index + 1 < text.count {
                let next = text[index + 1]
                put(0xC3)
                put((0x80...0x9E).contains(next) && next != 0x97 ? next + 0x20 : next)
                index += 1
            } else if html, byte == 0x3C, index + 1 < text.count,
                isWord(text[index + 1]) || [0x2F, 0x21, 0x3F].contains(text[index + 1]),
                let close = text[(index + 1)...].firstIndex(of: 0x3E)
            {
                space()
                index = close
            } else if html, byte == 0x26, let (decoded, length) = entity(text, at: index) {
                if decoded == [0x20] {
                    space()
                } else {
                    for folded in fold(decoded, html: false) { put(folded) }
                }
                index += length - 1
            } else {
                put(byte)
            }
            index += 1
        }
        return out
    }

    /// Entities are decoded by ``Folding``'s own decoder: what this reference checks is the
    /// folding around them.
    static func entity(_ text: [UInt8], at index: Int) -> ([UInt8], Int)? {
        text.withUnsafeBufferPointer { Folding.entity($0, at: index) }
    }
}

/// Every keyword tried at every position of the folded text, with the same word-boundary and
/// weak-word rules as ``KeywordMatcher``.
private struct ReferenceMatcher {
    var keywords: [(bytes: [UInt8], text: String, weak: Bool)] = []

    init(words: [String], weakWords: [String]) {
        var seen = Set<[UInt8]>()
        for (word, weak) in words.map({ ($0, false) }) + weakWords.map({ ($0, true) }) {
            var folded = ReferenceFolding.fold(Array(word.utf8), html: false)
            while folded.first == 0x20 { folded.removeFirst() }
            while folded.last == 0x20 { folded.removeLast() }
            guard folded.count >= 2, seen.insert(folded).inserted else { continue }
            keywords.append((folded, word, weak))
        }
    }

    /// The keywords that match at the first position where any does.
    func matches(atFirstPositionIn text: [UInt8]) -> Set<String> {
        for position in text.indices {
            var found = Set<String>()
            for keyword in keywords where matches(keyword, at: position, in: text) {
                found.insert(keyword.text)
            }
            if !found.isEmpty { return found }
        }
        return []
    }

    func matches(_ keyword: (bytes: [UInt8], text: String, weak: Bool), at position: Int, in text: [UInt8])
        -> Bool
    {
        let bytes = keyword.bytes
        let end = position + bytes.count
        guard end <= text.count, Array(text[position..<end]) == bytes else { return false }
        let isWord = ReferenceFolding.isWord
        if isWord(bytes[0]), position > 0, isWord(text[position - 1]) { return false }
        if isWord(bytes[bytes.count - 1]), end < text.count, isWord(text[end]) { return false }
        guard keyword.weak else { return true }
        var index = end
        var skipped = 0
        while index < text.count, skipped < 4, [0x20, 0x3A, 0x23, 0x2E, 0x28].contains(text[index]) {
            index += 1
            skipped += 1
        }
        var length = 0
        var digits = 0
        while index < text.count, length < 40 {
            let byte = text[index]
            if (0x30...0x39).contains(byte) {
                digits += 1
            } else if !(isWord(byte) || byte == 0x2D || byte == 0x2F) {
                break
            }
            length += 1
            index += 1
        }
        return length >= 4 && digits > 0
    }
}
