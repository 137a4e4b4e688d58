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

    /// Upper-cased (ASCII) with white space, hyphens and soft hyphens removed: how numbers
    /// are compared.
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
                for byte in input {
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
    /// ``containsName(_:in:)``), ruling out absent ASCII names by a byte search first.
    func visibleContains(name: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.utf8.allSatisfy({ $0 < 0x80 }),
            ByteSearch.find(trimmed.utf8.map(ByteSearch.lowercased), in: visibleFolded) == nil
        {
            return false
        }
        return visibleNames.containsName(trimmed)
    }

    /// Whether a name appears in a text as a whole word: ignoring case and diacritics, except
    /// that an all-capital ASCII name (`UPS`, `DHL`) must match its case.
    static func containsName(_ name: String, in text: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !text.isEmpty else { return false }
        var options: String.CompareOptions =
            isAllCapitals(trimmed) ? [] : [.caseInsensitive, .diacriticInsensitive]
        options.insert(.literal)
        var searchStart = text.startIndex
        while searchStart < text.endIndex,
            let range = text.range(of: trimmed, options: options, range: searchStart..<text.endIndex)
        {
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
            // Foundation ends a match after the combining marks of its last letter (`e` and
            // U+0301), or before them, depending on the text ahead of it: the match takes the
            // whole character, as it takes a precomposed `é`.
            var end = range.upperBound
            if end < text.endIndex, String.Index(end, within: text) == nil { end = text.index(after: end) }
            let after = end < text.endIndex ? text[end] : nil
            // Only alphabetic scripts written with spaces need a word boundary: Japanese,
            // Chinese and Korean attach particles and neighbours directly to a name.
            let isWordCharacter: (Character?) -> Bool = { character in
                guard let character, let scalar = character.unicodeScalars.first else { return false }
                return (character.isLetter || character.isNumber) && scalar.value < 0x0530
            }
            let startsWithWordCharacter = isWordCharacter(trimmed.first)
            let endsWithWordCharacter = isWordCharacter(trimmed.last)
            if !(startsWithWordCharacter && isWordCharacter(before))
                && !(endsWithWordCharacter && isWordCharacter(after))
            {
                return true
            }
            searchStart = text.index(after: range.lowerBound)
        }
        return false
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
