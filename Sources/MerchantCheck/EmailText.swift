import Foundation
import MailDocument

/// The texts of one email the checks look in, each prepared once.
struct EmailText {
    /// Visible text: the HTML part's rendered text, then the plain text part's.
    var visible: String
    /// ``visible`` as UTF-8 with ASCII letters lower-cased, for fast lookups.
    var visibleFolded: [UInt8]
    /// ``visible`` upper-cased with spaces and hyphens removed, for number lookups.
    var visibleCompact: [UInt8]
    /// ``visible`` prepared for name lookups.
    var visibleNames: NameSearchText
    /// Hidden text: the preheader and whatever the renderer kept apart as hidden.
    var hidden: String
    var hiddenCompact: [UInt8]
    var subject: String
    /// Link hrefs and unwrapped targets.
    var linkURLs: [String]
    /// Visible anchor texts.
    var linkTexts: [String]
    /// Image alt texts.
    var imageAlts: [String]
    /// Image sources.
    var imageSources: [String]

    init(_ document: MailDocument) {
        visible = [document.htmlText?.text, document.plainText?.text].compactMap { $0 }.joined(
            separator: "\n")
        visibleCompact = EmailText.compactBytes(visible)
        visibleFolded = visible.utf8.map(ByteSearch.lowercased)
        visibleNames = NameSearchText(visible)
        hidden = EmailText.hiddenText(of: document)
        hiddenCompact = EmailText.compactBytes(hidden)
        subject = document.subject ?? ""
        linkURLs = document.links.flatMap { $0.href == $0.target ? [$0.href] : [$0.href, $0.target] }
        linkTexts = document.links.filter { !$0.isHidden }.map(\.text)
        imageAlts = document.images.filter { !$0.isHidden }.compactMap(\.alt)
        imageSources = document.images.map(\.source)
    }

    /// The text a reader does not see: the preheader, and hidden content the renderer set apart.
    static func hiddenText(of document: MailDocument) -> String {
        var parts: [String] = []
        if let preheader = document.preheader { parts.append(preheader) }
        for rendered in [document.htmlText, document.plainText] {
            if let hidden = rendered?.hiddenText, !hidden.isEmpty { parts.append(hidden) }
        }
        parts.append(contentsOf: document.links.filter(\.isHidden).map(\.text))
        return parts.joined(separator: "\n")
    }

    /// Upper-cased (ASCII) with white space, hyphens and soft hyphens removed, and full-width
    /// ASCII forms (U+FF01–U+FF5E, "ＮＷ－４８２１３") read as the ASCII they stand for: how
    /// numbers are compared. The extractor reads a full-width number as ASCII, so the text it
    /// came from must be compared the same way.
    static func compact(_ text: String) -> String {
        String(decoding: compactBytes(text), as: UTF8.self)
    }

    static func compactBytes(_ text: String) -> [UInt8] {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { input in
            [UInt8](unsafeUninitializedCapacity: input.count) { output, count in
                var written = 0
                var previous: UInt8 = 0
                var index = 0
                while index < input.count {
                    var byte = input[index]
                    index += 1
                    // U+FF01–U+FF5E in UTF-8: EF BC 81–BF and EF BD 80–9E; each stands for
                    // the ASCII byte 0x21–0x7E, read in its place.
                    if byte == 0xEF, index + 1 < input.count,
                        let ascii = Self.fullWidthASCII(input[index], input[index + 1])
                    {
                        byte = ascii
                        index += 2
                    }
                    defer { previous = byte }
                    switch byte {
                    case 0x09...0x0D, 0x20, UInt8(ascii: "-"):
                        continue
                    case 0xA0 where previous == 0xC2, 0xAD where previous == 0xC2:
                        // U+00A0 no-break space, U+00AD soft hyphen: drop the lead byte too.
                        written -= 1
                        continue
                    case 0x61...0x7A:
                        output[written] = byte - 0x20
                    default:
                        output[written] = byte
                    }
                    written += 1
                }
                count = written
            }
        } ?? []
    }

    /// The ASCII byte a full-width form stands for, from the second and third bytes of its
    /// UTF-8 encoding (after EF), or nil when they encode no full-width ASCII form.
    static func fullWidthASCII(_ second: UInt8, _ third: UInt8) -> UInt8? {
        switch (second, third) {
        case (0xBC, 0x81...0xBF): return third - 0x80 + 0x20
        case (0xBD, 0x80...0x9E): return third - 0x80 + 0x60
        default: return nil
        }
    }

    private static func contains(_ haystack: [UInt8], number: String) -> Bool {
        let key = compactBytes(number)
        return !key.isEmpty && ByteSearch.find(key, in: haystack) != nil
    }

    /// Whether a number (order or tracking) appears in the visible text.
    func visibleContains(number: String) -> Bool {
        EmailText.contains(visibleCompact, number: number)
    }

    func hiddenContains(number: String) -> Bool {
        EmailText.contains(hiddenCompact, number: number)
    }

    func subjectContains(number: String) -> Bool {
        let key = EmailText.compact(number)
        return !key.isEmpty && EmailText.compact(subject).contains(key)
    }

    func linksContain(number: String) -> Bool {
        let key = EmailText.compact(number)
        return !key.isEmpty
            && linkURLs.contains { EmailText.compact($0.removingPercentEncoding ?? $0).contains(key) }
    }

    func imagesContain(number: String) -> Bool {
        let key = EmailText.compact(number)
        return !key.isEmpty && (imageAlts + imageSources).contains { EmailText.compact($0).contains(key) }
    }

    /// Whether a name appears in the visible text as a whole word (see
    /// ``containsName(_:in:)``): the folded byte search of ``NameSearchText``, then
    /// Foundation's on the lines it hits.
    ///
    /// No search of the unfolded text comes first: an ASCII name (`Cafe Nero`) is found in
    /// text that writes it with diacritics (`Café Nero`), and the reverse, as
    /// ``containsName(_:in:)`` finds it.
    func visibleContains(name: String) -> Bool {
        visibleNames.containsName(name)
    }

    /// Whether a name appears in a text as a whole word: ignoring case and diacritics, except
    /// that an all-capital ASCII name (`UPS`, `DHL`) must match its case.
    ///
    /// A name with nothing but white space and combining marks (`U+0301` alone) names nothing
    /// and is never found; any string is a valid name and text, of any length.
    static func containsName(_ name: String, in text: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, namesSomething(trimmed) else { return false }
        var options: String.CompareOptions =
            isAllCapitals(trimmed) ? [] : [.caseInsensitive, .diacriticInsensitive]
        options.insert(.literal)
        // Only alphabetic scripts written with spaces need a word boundary: Japanese,
        // Chinese and Korean attach particles and neighbours directly to a name.
        let isWordCharacter: (Character?) -> Bool = { character in
            guard let character, let scalar = character.unicodeScalars.first else { return false }
            return (character.isLetter || character.isNumber) && scalar.value < 0x0530
        }
        let startsWithWordCharacter = isWordCharacter(trimmed.first)
        let endsWithWordCharacter = isWordCharacter(trimmed.last)
        var searchStart = text.startIndex
        while searchStart < text.endIndex,
            let range = text.range(of: trimmed, options: options, range: searchStart..<text.endIndex)
        {
            // A match of nothing (a name that folds away) is no match, and the search must move
            // on from a match that starts at the end.
            guard !range.isEmpty, range.lowerBound < text.endIndex else { return false }
            let start = range.lowerBound
            let before: Character?
            if start == text.startIndex {
                before = nil
            } else if String.Index(start, within: text) != nil {
                before = text[text.index(before: start)]
            } else {
                // The match starts inside a character (after a prepended mark such as U+0600,
                // or inside a Hangul syllable written as jamo): its neighbour is the scalar
                // before it.
                before = Character(text.unicodeScalars[text.unicodeScalars.index(before: start)])
            }
            // Foundation ends a match after the combining marks of its last letter (`e` and
            // U+0301), or before them, depending on the text ahead of it: the match takes the
            // whole character, as it takes a precomposed `é`.
            var end = range.upperBound
            if end < text.endIndex, String.Index(end, within: text) == nil { end = text.index(after: end) }
            let after = end < text.endIndex ? text[end] : nil
            if !(startsWithWordCharacter && isWordCharacter(before))
                && !(endsWithWordCharacter && isWordCharacter(after))
            {
                return true
            }
            searchStart = text.index(after: start)
        }
        return false
    }

    /// Whether a (trimmed) name has anything to find: a scalar that is not white space nor a
    /// combining mark (general categories Mn, Mc, Me).
    static func namesSomething(_ name: String) -> Bool {
        name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: false
            default: !scalar.properties.isWhitespace
            }
        }
    }

    /// Whether a name is written in ASCII capitals (digits and punctuation aside), as `UPS`
    /// and `J&T` are: such a name only matches its case.
    static func isAllCapitals(_ name: String) -> Bool {
        name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || !$0.isLetter) }
    }

    /// About `radius` characters either side of the first occurrence of a value in the
    /// visible text (ignoring ASCII case), on one line.
    func snippet(around value: String, radius: Int = 40) -> String? {
        let key = value.utf8.map(ByteSearch.lowercased)
        guard !key.isEmpty, let found = ByteSearch.find(key, in: visibleFolded) else { return nil }
        let bytes = Array(visible.utf8)
        var start = max(0, found - radius)
        var end = min(bytes.count, found + key.count + radius)
        if let newline = bytes[start..<found].lastIndex(of: 0x0A) { start = newline + 1 }
        if let newline = bytes[(found + key.count)..<end].firstIndex(of: 0x0A) { end = newline }
        // Keep whole UTF-8 sequences.
        while start < found, bytes[start] & 0xC0 == 0x80 { start += 1 }
        while end < bytes.count, end > found + key.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self).replacingOccurrences(
            of: "\t", with: " ")
        return text.trimmingCharacters(in: .whitespaces)
    }
}
