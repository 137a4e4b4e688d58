import MailDocument

extension Extractor {
    /// The language the extraction reads `document` in, as its rules code (`en`, `de`, `ko`,
    /// …): from the script (Hangul, kana, Han) or, for Latin text, from the most frequent
    /// detection words of `rules/languages`; `en` when nothing decides. A forwarded email is
    /// read in its original's language.
    /// - Parameter document: the email as the document stage rendered it.
    /// - Returns: a code of ``Rules/languages``, or `en`.
    public func languageCode(of document: MailDocument) -> String {
        var read = document
        if let original = document.forwardedOriginal, original.htmlText != nil || original.plainText != nil {
            read = original
        }
        return languageSet(for: DocumentText(document: read)).primary?.rules.code ?? "en"
    }
}
