import Foundation
import MailDocument

/// The texts of one email the checks look in, each prepared once.
struct EmailText {
    /// Visible text: the HTML part's rendered text, then the plain text part's.
    var visible: String
    /// ``visible`` upper-cased with spaces and hyphens removed, for number lookups.
    var visibleCompact: String
    /// Hidden text: the preheader and whatever the renderer kept apart as hidden.
    var hidden: String
    var hiddenCompact: String
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
        visibleCompact = EmailText.compact(visible)
        hidden = EmailText.hiddenText(of: document)
        hiddenCompact = EmailText.compact(hidden)
        subject = document.subject ?? ""
        linkURLs = document.links.flatMap { $0.href == $0.target ? [$0.href] : [$0.href, $0.target] }
        linkTexts = document.links.filter { !$0.isHidden }.map(\.text)
        imageAlts = document.images.compactMap(\.alt)
        imageSources = document.images.map(\.source)
    }

    /// The text a reader does not see: the preheader, and hidden content the renderer set apart.
    static func hiddenText(of document: MailDocument) -> String {
        var parts: [String] = []
        if let preheader = document.preheader { parts.append(preheader) }
        parts.append(contentsOf: document.links.filter(\.isHidden).map(\.text))
        return parts.joined(separator: "\n")
    }

    /// Upper-cased with white space, hyphens and dots removed: how numbers are compared.
    static func compact(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.uppercased().unicodeScalars {
            if CharacterSet.whitespacesAndNewlines.contains(scalar) || scalar == "-" || scalar == "\u{00AD}" {
                continue
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Whether a number (order or tracking) appears in the visible text.
    func visibleContains(number: String) -> Bool {
        let key = EmailText.compact(number)
        return !key.isEmpty && visibleCompact.contains(key)
    }

    func hiddenContains(number: String) -> Bool {
        let key = EmailText.compact(number)
        return !key.isEmpty && hiddenCompact.contains(key)
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

    /// Whether a name appears in a text as a whole word: ignoring case and diacritics, except
    /// that an all-capital ASCII name (`UPS`, `DHL`) must match its case.
    static func containsName(_ name: String, in text: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !text.isEmpty else { return false }
        let allCapitals = trimmed.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || !$0.isLetter) }
        var options: String.CompareOptions = allCapitals ? [] : [.caseInsensitive, .diacriticInsensitive]
        options.insert(.literal)
        var searchStart = text.startIndex
        while searchStart < text.endIndex,
            let range = text.range(of: trimmed, options: options, range: searchStart..<text.endIndex)
        {
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
            let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
            let isWordCharacter: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber } ?? false }
            let startsWithWordCharacter = trimmed.first.map { $0.isLetter || $0.isNumber } ?? false
            let endsWithWordCharacter = trimmed.last.map { $0.isLetter || $0.isNumber } ?? false
            if !(startsWithWordCharacter && isWordCharacter(before))
                && !(endsWithWordCharacter && isWordCharacter(after))
            {
                return true
            }
            searchStart = text.index(after: range.lowerBound)
        }
        return false
    }

    /// Up to `radius` characters either side of the first occurrence of a value in the
    /// visible text, on one line.
    func snippet(around value: String, radius: Int = 40) -> String? {
        guard !value.isEmpty,
            let range = visible.range(of: value, options: [.caseInsensitive, .literal])
        else { return nil }
        let start =
            visible.index(range.lowerBound, offsetBy: -radius, limitedBy: visible.startIndex)
            ?? visible.startIndex
        let end =
            visible.index(range.upperBound, offsetBy: radius, limitedBy: visible.endIndex) ?? visible.endIndex
        let lineStart =
            visible[start..<range.lowerBound].lastIndex(of: "\n").map { visible.index(after: $0) } ?? start
        let lineEnd = visible[range.upperBound..<end].firstIndex(of: "\n") ?? end
        let text = visible[lineStart..<lineEnd].replacingOccurrences(of: "\t", with: " ")
        return text.trimmingCharacters(in: .whitespaces)
    }
}
