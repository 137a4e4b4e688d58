import Foundation

/// A language's rules with every phrase folded once, ready for matching.
///
/// A class: built once per ``Extractor`` and shared by every extraction, which would
/// otherwise copy (and reference-count) its two dozen arrays each time it reads one.
final class CompiledLanguage: Sendable {
    let rules: LanguageRules
    let orderNumber: [Phrase]
    let orderNumberWeak: [Phrase]
    let notOrderNumber: [Phrase]
    let trackingNumber: [Phrase]
    let carrier: [Phrase]
    let total: [Phrase]
    let summaryRows: [Phrase]
    let orderDate: [Phrase]
    let estimatedDelivery: [Phrase]
    let shipper: [Phrase]
    let quantity: [Phrase]
    let kinds: [(EmailKind, [Phrase])]
    let statuses: [(ShipmentStatus, [Phrase])]
    let brandPhrases: [Phrase]
    let senderNoise: [Phrase]
    /// ``LanguageRules/partialCancellation`` and ``LanguageRules/wholeCancellation``.
    let partialCancellation: [Phrase]
    let wholeCancellation: [Phrase]
    /// The shipper labels of two words or more that end with a short word, a preposition
    /// ("sendung von", "package from"), split before it: the noun with its trailing space and
    /// the preposition with a space on each side, lower-case
    /// (``ExtractionContext/shipperAroundNumber()``).
    let shipperAroundNumber: [(noun: String, preposition: String)]
    let fillers: Set<String>
    let detection: [Phrase]
    let detectionSet: PhraseSet
    let dates: DateReader

    init(_ rules: LanguageRules) {
        self.rules = rules
        let labels = rules.labels
        orderNumber = Phrase.list(labels.orderNumber)
        orderNumberWeak = Phrase.list(labels.orderNumberWeak)
        notOrderNumber = Phrase.list(labels.notOrderNumber)
        trackingNumber = Phrase.list(rules.trackingNumberLabels)
        carrier = Phrase.list(labels.carrier)
        // Total labels keep their order: the first is the most specific.
        total = labels.total.map(Phrase.init)
        summaryRows = Phrase.list(labels.summaryRows)
        orderDate = Phrase.list(labels.orderDate)
        estimatedDelivery = Phrase.list(labels.estimatedDelivery)
        shipper = Phrase.list(labels.shipper)
        quantity = Phrase.list(labels.quantity)
        kinds = EmailKind.allCases.compactMap { kind in
            rules.kinds[kind.rawValue].map { (kind, Phrase.list($0)) }
        }
        statuses = ShipmentStatus.allCases.compactMap { status in
            rules.statuses[status.rawValue].map { (status, Phrase.list($0)) }
        }
        brandPhrases = Phrase.list(rules.brandPhrases)
        senderNoise = Phrase.list(rules.senderNoise)
        partialCancellation = Phrase.list(rules.partialCancellation ?? [])
        wholeCancellation = Phrase.list(rules.wholeCancellation ?? [])
        shipperAroundNumber = labels.shipper.compactMap { label in
            let words = label.lowercased().split(separator: " ")
            guard words.count >= 2, let last = words.last, last.count <= 4 else { return nil }
            return (words.dropLast().joined(separator: " ") + " ", " " + last + " ")
        }
        fillers = Set(rules.valueFillers.map { $0.lowercased() })
        detection = Phrase.list(rules.detectionWords)
        detectionSet = PhraseSet(detection)
        dates = DateReader(language: rules)
    }
}

/// A word that joins an order number to its date ("Bestellung 123 vom 22.11.2026").
struct OrderDateConnector: Sendable {
    /// The word, lower-cased.
    let word: String
    /// The word and the space after it, as a text starts with them.
    let prefix: String
    /// ``prefix`` as bytes, when it is ASCII.
    let asciiPrefix: [UInt8]?

    init(_ word: String) {
        self.word = word.lowercased()
        prefix = self.word + " "
        asciiPrefix = FieldText.isASCII(prefix) ? Array(prefix.utf8) : nil
    }

    /// The number of characters in ``prefix``.
    private var prefixCount: Int { prefix.count }

    /// Whether `text.lowercased()` starts with ``prefix``; `lowered` holds the lower-cased
    /// start of the text once it was needed (it is not, for an ASCII text and an ASCII word).
    func starts(_ text: String, textIsASCII: Bool, lowered: inout LoweredStart?) -> Bool {
        if textIsASCII, let asciiPrefix {
            // In ASCII text lower-casing changes only capitals, one byte for one.
            let bytes = text.utf8
            guard bytes.count >= asciiPrefix.count else { return false }
            return zip(bytes, asciiPrefix).allSatisfy { KeywordScanner.lower($0) == $1 }
        }
        // An ASCII word: most texts are told apart by their first scalar alone, without
        // lower-casing their start.
        if let first = asciiPrefix?.first, !Self.lowercasedMayStart(text, with: first) { return false }
        if lowered == nil { lowered = LoweredStart(text) }
        guard var start = lowered else { return false }
        if !start.decides(characters: prefixCount) {
            start = LoweredStart(whole: text)
            lowered = start
        }
        return start.text.hasPrefix(prefix)
    }
}

extension OrderDateConnector {
    /// Whether `text.lowercased()` may start with a character equal to the ASCII character
    /// `byte`; `false` only when it cannot.
    ///
    /// `lowercased()` maps scalar by scalar, so the lower-cased text starts with the lower-case
    /// mapping of the text's first scalar (`İ` gives `i` and a combining dot, `K` the Kelvin
    /// sign gives `k`). A character equals an ASCII character only when it is that character or
    /// a single scalar whose canonical decomposition is that character: U+212A KELVIN SIGN,
    /// U+037E GREEK QUESTION MARK and U+1FEF GREEK VARIA; for those the answer is `true`.
    /// - Parameters:
    ///   - text: any text (an empty one starts with nothing).
    ///   - byte: an ASCII byte (below 0x80).
    static func lowercasedMayStart(_ text: String, with byte: UInt8) -> Bool {
        guard let scalar = text.unicodeScalars.first else { return false }
        let lowered: Unicode.Scalar
        if scalar.isASCII {
            lowered = Unicode.Scalar(KeywordScanner.lower(UInt8(scalar.value)))
        } else {
            guard let first = scalar.properties.lowercaseMapping.unicodeScalars.first else { return true }
            lowered = first
        }
        switch lowered.value {
        case UInt32(byte), 0x212A, 0x037E, 0x1FEF: return true
        default: return false
        }
    }
}

/// The lower-cased start of a text: `String(text.prefix(n)).lowercased()`, enough to tell
/// whether `text.lowercased()` starts with a short prefix.
///
/// `lowercased()` maps scalar by scalar, so the lower-cased start is the start of the
/// lower-cased text, scalar for scalar. Where the two strings have the same scalars, they
/// have the same character boundaries except at the end of the shorter one (a boundary
/// depends on the scalars before it and the one after it only). So when the lower-cased start
/// has more characters than a prefix, its first characters are those of the whole lower-cased
/// text, and it has the prefix exactly when the whole does.
struct LoweredStart {
    /// The lower-cased start.
    let text: String
    /// Whether ``text`` is the whole text lower-cased.
    let isWhole: Bool
    /// The number of characters in ``text``.
    let count: Int

    /// Characters of the text lower-cased for a start.
    static let length = 48

    init(_ text: String) {
        let start = text.prefix(Self.length)
        if start.endIndex == text.endIndex {
            self.init(whole: text)
        } else {
            let lowered = DateReader.lowercased(String(start))
            self.init(text: lowered, isWhole: false, count: lowered.count)
        }
    }

    init(whole text: String) {
        self.init(text: DateReader.lowercased(text), isWhole: true, count: 0)
    }

    private init(text: String, isWhole: Bool, count: Int) {
        self.text = text
        self.isWhole = isWhole
        self.count = count
    }

    /// Whether ``text`` tells if the whole lower-cased text starts with a prefix of
    /// `characters` characters.
    func decides(characters: Int) -> Bool { isWhole || count > characters }
}

/// The languages an email is read in: the detected one first, English as a fallback, with
/// the phrases of both merged into one ``PhraseSet`` per field (built once per language).
/// A class, shared rather than copied, for the reason ``CompiledLanguage`` is one.
final class LanguageSet: Sendable {
    let all: [CompiledLanguage]
    let orderNumber: PhraseSet
    let orderNumberWeak: PhraseSet
    let notOrderNumber: PhraseSet
    let trackingNumber: PhraseSet
    let carrier: PhraseSet
    let total: PhraseSet
    let summaryRows: PhraseSet
    let orderDate: PhraseSet
    let estimatedDelivery: PhraseSet
    let shipper: PhraseSet
    let quantity: PhraseSet
    let brandPhrases: PhraseSet
    let senderNoise: PhraseSet
    /// Kind phrases, tagged with the index of the kind in ``EmailKind/allCases``.
    let kinds: PhraseSet
    /// Status phrases, tagged with the index of the status in ``ShipmentStatus/allCases``.
    let statuses: PhraseSet
    /// Phrases of a cancellation of part of the order, and of the whole of it: asked of
    /// cancellations only, so not read through ``index``.
    let partialCancellation: PhraseSet
    let wholeCancellation: PhraseSet
    let fillers: Set<String>
    /// ``fillers`` with the length of the longest.
    let fillerWords: FillerWords
    /// The rank of each total label in its language's list (0 = most specific).
    let totalRank: [[UInt8]: Int]
    /// Every set above, for reading a document's lines once (``PhraseHits``).
    let index: PhraseIndex
    /// The order-date connectors of every language ("vom", "placed on"), in order.
    let orderDateConnectors: [OrderDateConnector]

    init(_ all: [CompiledLanguage]) {
        self.all = all
        var nextID = 0
        func merged(_ path: KeyPath<CompiledLanguage, [Phrase]>) -> PhraseSet {
            defer { nextID += 1 }
            return PhraseSet(all.flatMap { $0[keyPath: path] }, id: nextID)
        }
        orderNumber = merged(\.orderNumber)
        orderNumberWeak = merged(\.orderNumberWeak)
        notOrderNumber = merged(\.notOrderNumber)
        trackingNumber = merged(\.trackingNumber)
        carrier = merged(\.carrier)
        total = merged(\.total)
        summaryRows = merged(\.summaryRows)
        orderDate = merged(\.orderDate)
        estimatedDelivery = merged(\.estimatedDelivery)
        shipper = merged(\.shipper)
        quantity = merged(\.quantity)
        brandPhrases = merged(\.brandPhrases)
        senderNoise = merged(\.senderNoise)
        var kindPhrases: [Phrase] = []
        var kindTags: [Int] = []
        var statusPhrases: [Phrase] = []
        var statusTags: [Int] = []
        for language in all {
            for (kind, phrases) in language.kinds {
                let tag = EmailKind.allCases.firstIndex(of: kind) ?? 0
                kindPhrases += phrases
                kindTags += Array(repeating: tag, count: phrases.count)
            }
            for (status, phrases) in language.statuses {
                let tag = ShipmentStatus.allCases.firstIndex(of: status) ?? 0
                statusPhrases += phrases
                statusTags += Array(repeating: tag, count: phrases.count)
            }
        }
        kinds = PhraseSet(kindPhrases, tags: kindTags, id: nextID)
        statuses = PhraseSet(statusPhrases, tags: statusTags, id: nextID + 1)
        partialCancellation = PhraseSet(all.flatMap(\.partialCancellation))
        wholeCancellation = PhraseSet(all.flatMap(\.wholeCancellation))
        index = PhraseIndex([
            orderNumber, orderNumberWeak, notOrderNumber, trackingNumber, carrier, total, summaryRows,
            orderDate,
            estimatedDelivery, shipper, quantity, brandPhrases, senderNoise, kinds, statuses,
        ])
        fillers = all.reduce(into: Set<String>()) { $0.formUnion($1.fillers) }
        fillerWords = FillerWords(fillers)
        var rank: [[UInt8]: Int] = [:]
        for language in all {
            for (index, phrase) in language.total.enumerated() where rank[phrase.folded] == nil {
                rank[phrase.folded] = index
            }
        }
        totalRank = rank
        orderDateConnectors = all.flatMap { $0.rules.orderDateConnectors ?? [] }.map(OrderDateConnector.init)
    }

    var primary: CompiledLanguage? { all.first }

    func phrases(_ path: KeyPath<LanguageSet, PhraseSet>) -> PhraseSet { self[keyPath: path] }

    /// Detects the language from the script (Hangul, kana, Han) or, for Latin text, from
    /// the most frequent detection words; English is always added as a fallback.
    ///
    /// A script decides from four of its characters (Hangul syllables for Korean; kana, with
    /// the Han beside them, for Japanese; Han for Chinese), unless a language written in Latin
    /// letters has more detection words in the sample than one and a half times those
    /// characters: a line of foreign labels, a name or an address in an email written in
    /// English or German does not make it Korean or Japanese (its labels would then be read
    /// before the email's own). The margin is wide: a word of those scripts is two or three
    /// characters, and a detection word one word of English in two or three, so the Latin
    /// language must have several times more text; an email written in one of those scripts
    /// holds hardly any such words (none or one in every such email of `Corpus/`, against a
    /// hundred characters or more).
    /// - Parameters:
    ///   - index: the languages' detection sets, set `i` for `languages[i]`, to read the
    ///     sample in one pass.
    ///   - words: the detection words of the languages detected from their words (set `i` for
    ///     `languages[i]`, empty for the others), to read the sample word by word
    ///     (``detectionWords(_:)``); `index` is read when there is none.
    static func detect(
        in text: DocumentText, languages: [CompiledLanguage], index: PhraseIndex? = nil,
        words: WordTable? = nil
    ) -> [CompiledLanguage] {
        var hangul = 0
        var kana = 0
        var han = 0
        var sampleLines = 0
        var sampled = 0
        // The sample only grows, so the first line that finds it full ends it.
        let ranges = text.foldedRanges
        for range in ranges {
            guard sampled < 6_000 else { break }
            sampleLines += 1
            sampled += range.count
        }
        // The sample's lines are back to back in the folded text, with line ends between them:
        // they are counted in one pass (a counted scalar is three bytes of valid UTF-8, which
        // folding leaves as they are, and never spans a line end).
        if sampleLines > 0 && text.holdsScriptLeads {
            text.foldedText.withUnsafeBufferPointer { folded in
                let sample = ranges[0].lowerBound..<ranges[sampleLines - 1].upperBound
                countScripts(
                    UnsafeBufferPointer(rebasing: folded[sample]), hangul: &hangul, kana: &kana, han: &han)
            }
        }
        var script: (code: String, count: Int)?
        if hangul >= 4 && hangul >= kana {
            script = ("ko", hangul)
        } else if kana >= 4 {
            script = ("ja", kana + han)
        } else if han >= 4 {
            script = ("zh", han)
        }
        // The language of the Latin detection words most frequent in the sample, and their count.
        func latinLanguage() -> (code: String?, count: Int) {
            var code: String?
            var best = 0
            if let words, words.setCount == languages.count {
                // Each line adds its count of every language's words (at most 64 a language).
                var counts = [Int](repeating: 0, count: languages.count)
                words.count(
                    in: text.foldedText, lines: text.foldedRanges.prefix(sampleLines), limit: 64,
                    into: &counts)
                for (languageIndex, language) in languages.enumerated()
                where counts[languageIndex] > best && !isScriptLanguage(language.rules.code) {
                    best = counts[languageIndex]
                    code = language.rules.code
                }
            } else if let index, index.sets.count == languages.count {
                // One pass over the sample's occurrences: each line adds its match count to
                // every language whose words it holds.
                let hits = PhraseHits(index: index, text: text, lineCount: sampleLines)
                var counts = [Int](repeating: 0, count: languages.count)
                for lineIndex in 0..<sampleLines where hits.hasOccurrences(line: lineIndex) {
                    var present = hits.setsPresent(line: lineIndex)
                    while present != 0 {
                        let set = present.trailingZeroBitCount
                        present &= present - 1
                        counts[set] += hits.matchCount(index.sets[set], line: lineIndex, limit: 64)
                    }
                }
                for (languageIndex, language) in languages.enumerated()
                where counts[languageIndex] > best && !isScriptLanguage(language.rules.code) {
                    best = counts[languageIndex]
                    code = language.rules.code
                }
            } else {
                for language in languages where !isScriptLanguage(language.rules.code) {
                    var found = 0
                    for line in text.lines.prefix(sampleLines) {
                        found += language.detectionSet.matches(in: line.folded, limit: 64).count
                    }
                    if found > best {
                        best = found
                        code = language.rules.code
                    }
                }
            }
            return (code, best)
        }
        var code: String?
        if let script {
            let latin = latinLanguage()
            code = latin.count * 2 > script.count * 3 ? latin.code : script.code
        } else {
            code = latinLanguage().code
        }
        var ordered: [CompiledLanguage] = []
        if let code, let found = languages.first(where: { $0.rules.code == code }) { ordered.append(found) }
        if let english = languages.first(where: { $0.rules.code == "en" }), code != "en" {
            ordered.append(english)
        }
        if ordered.isEmpty, let first = languages.first { ordered.append(first) }
        return ordered
    }

    /// The languages' detection words for ``detect(in:languages:index:words:)``: set `i` holds
    /// those of `languages[i]`, none for a language detected from its script; nil when a word
    /// is not made only of letters and digits of Latin words.
    static func detectionWords(_ languages: [CompiledLanguage]) -> WordTable? {
        WordTable(languages.map { isScriptLanguage($0.rules.code) ? [] : $0.detection.map(\.folded) })
    }

    /// Whether a language is detected from its script rather than from its words.
    private static func isScriptLanguage(_ code: String) -> Bool {
        code == "ko" || code == "ja" || code == "zh"
    }

    /// Counts Hangul syllables, kana and Han ideographs in UTF-8 bytes, as decoding them would
    /// (a malformed sequence counts as nothing).
    static func countScripts(_ bytes: [UInt8], hangul: inout Int, kana: inout Int, han: inout Int) {
        bytes.withUnsafeBufferPointer { bytes in
            countScripts(bytes, hangul: &hangul, kana: &kana, han: &han)
        }
    }

    /// ``countScripts(_:hangul:kana:han:)`` over a buffer; eight ASCII bytes (no lead byte of a
    /// counted scalar among them) are passed over at once.
    private static func countScripts(
        _ bytes: UnsafeBufferPointer<UInt8>, hangul: inout Int, kana: inout Int, han: inout Int
    ) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            // Every scalar counted is three bytes long, led by E3 to ED.
            guard lead >= 0xE3, lead <= 0xED, index + 2 < count else {
                index += 1
                continue
            }
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            guard second & 0xC0 == 0x80, third & 0xC0 == 0x80, lead != 0xED || second <= 0x9F else {
                index += 1
                continue
            }
            let scalar = (UInt32(lead & 0x0F) << 12) | (UInt32(second & 0x3F) << 6) | UInt32(third & 0x3F)
            switch scalar {
            case 0xAC00...0xD7A3: hangul += 1
            case 0x3040...0x30FF: kana += 1
            case 0x4E00...0x9FFF: han += 1
            default: break
            }
            index += 3
        }
    }
}
