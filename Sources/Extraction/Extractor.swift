import Foundation
import MailDocument

/// Reads a ``MailDocument`` and says what it means for an order: kind, merchant, order
/// number, shipments, dates, items and total, each chosen field with its evidence.
///
/// Every field is decided the same way: candidates are collected from every source
/// (attached `.order`, schema.org markup, tracking links, labelled values, patterns, the
/// subject), merged by value and ranked (``Scoring``); a value below the field's threshold
/// is left out, because a wrong order or tracking number is worse than none.
///
/// When renditions disagree, a value supported by more renditions wins; at equal trust the
/// HTML rendition wins over text/plain, and both win over the subject line.
public struct Extractor: Sendable {
    public let rules: Rules
    let languages: [CompiledLanguage]
    /// The merged phrase sets for each detected language (with English as a fallback).
    let languageSets: [String: LanguageSet]
    /// Every language's detection words, set `i` for `languages[i]`.
    let detectionIndex: PhraseIndex?
    /// The detection words of the languages detected from their words, read word by word
    /// when they are all Latin words (``LanguageSet/detectionWords(_:)``).
    let detectionWords: WordTable?
    /// The `orderLinkPhrases` of every language, lower-cased.
    let orderLinkPhrases: [LinkPhrase]
    /// The summary-row labels of every language ("Subtotal", "Versand", "TVA"): a row so
    /// named is no line item whatever language the email was detected in (short emails mix
    /// a shop's language with English).
    let allSummaryRows: PhraseSet

    /// The lowest merged score an order number needs.
    static let orderNumberThreshold = 0.6
    /// The lowest score a tracking number from the carrier search needs (the search itself
    /// already requires the context a format without a check digit needs).
    static let trackingThreshold = 0.4

    public init(rules: Rules) {
        self.rules = rules
        let languages = rules.languages.map(CompiledLanguage.init)
        self.languages = languages
        var sets: [String: LanguageSet] = [:]
        let english = languages.first { $0.rules.code == "en" }
        for language in languages {
            var members = [language]
            if let english, language.rules.code != "en" { members.append(english) }
            sets[language.rules.code] = LanguageSet(members)
        }
        self.languageSets = sets
        self.detectionIndex =
            languages.count <= 64
            ? PhraseIndex(languages.enumerated().map { PhraseSet($1.detection, id: $0) }) : nil
        self.detectionWords = LanguageSet.detectionWords(languages)
        self.allSummaryRows = PhraseSet(languages.flatMap(\.summaryRows))
        self.orderLinkPhrases = rules.languages.flatMap { $0.orderLinkPhrases ?? [] }.map {
            LinkPhrase($0.lowercased())
        }
    }

    /// The language set for the languages detected in a text.
    func languageSet(for text: DocumentText) -> LanguageSet {
        let detected = LanguageSet.detect(
            in: text, languages: languages, index: detectionIndex, words: detectionWords)
        if let code = detected.first?.rules.code, let set = languageSets[code] { return set }
        return LanguageSet(detected)
    }

    /// Extracts one email.
    /// - Parameter document: the email as the document stage rendered it.
    /// - Returns: the extraction, with `evidence` for every chosen field.
    public func extract(_ document: MailDocument) -> ExtractionResult {
        var context = ExtractionContext(document: document, extractor: self)
        return context.run()
    }

    /// Extracts one email, as ``extract(_:)`` does, and says which of extraction's own limits
    /// it reached: what the result may lack because it was not read.
    /// - Parameter document: the email as the document stage rendered it.
    /// - Returns: the extraction, and one warning per limit reached, with the body-part path
    ///   when known: a rendition (HTML text, plain text, preheader) longer than
    ///   ``maximumTextBytes``, of which only the first bytes are searched; more table rows of
    ///   line items than ``maximumLineItems``, of which the first are kept; more labelled
    ///   order numbers than ``maximumOrders``, of which the first are kept. Empty for almost
    ///   every email.
    public func extractReportingLimits(_ document: MailDocument) -> (
        result: ExtractionResult, warnings: [DocumentWarning]
    ) {
        var context = ExtractionContext(document: document, extractor: self)
        let result = context.run()
        return (result, context.warnings)
    }

    /// The document extraction reads in an email: the forwarded original when there is one
    /// (with the forwarding email's subject, text, links, images, markup, attachments and date
    /// where the original lacks its own), else the email itself; a reply loses the subject it
    /// answers (see ``extract(_:)``). `mailorders check` judges the same document.
    /// - Parameter outer: the email as the document stage rendered it.
    /// - Returns: the document to read fields from.
    public static func documentRead(from outer: consuming MailDocument) -> MailDocument {
        // The email itself is copied only when it forwards an original (a copy retains every
        // field).
        if var original = outer.forwardedOriginal {
            if original.subject == nil { original.subject = outer.subject }
            if original.htmlText == nil && original.plainText == nil {
                original.htmlText = outer.htmlText
                original.plainText = outer.plainText
                original.links = outer.links
                original.images = outer.images
            }
            if original.structuredData.isEmpty { original.structuredData = outer.structuredData }
            if original.attachedOrders.isEmpty { original.attachedOrders = outer.attachedOrders }
            if original.date == nil { original.date = outer.date }
            // A forwarded reply (its own subject starts with a reply prefix, as in "Fw: Re: …")
            // is read as a reply: its subject is its thread's.
            if ReplyQuote.hasReplyPrefix(original.subject ?? "") { original.subject = nil }
            return original
        } else if let subject = outer.subject,
            ReplyQuote.hasReplyPrefix(subject)
                || ((!outer.inReplyTo.isEmpty || !outer.references.isEmpty) && outer.answersQuotedWriter)
        {
            // (`outer.isReply` is the threading fields or the reply prefix: the prefix is read
            // once, and ``MailDocument/answersQuotedWriter`` asks for it again only when the
            // threading fields do not answer first.)
            // A reply's subject is the one it answers ("Re: Your order … is confirmed"), written
            // by whoever started the thread: it says nothing about the reply itself. A reply under
            // an unchanged subject keeps it unless it goes back to the quoted writer at another
            // domain (``MailDocument/answersQuotedWriter``): a quote cut wrongly from a threaded
            // shop email must not take the shop's order number with it.
            var reply = outer
            reply.subject = nil
            return reply
        } else {
            return outer
        }
    }

    /// How many UTF-8 bytes of each rendered text (the HTML text, the plain text, the
    /// preheader, the subject) extraction searches: 2,000,000. Hostile input stays bounded; a
    /// value printed past them is not found (``extractReportingLimits(_:)`` says so).
    public static var maximumTextBytes: Int { DocumentText.maximumBytes }

    /// How many line items extraction reads from the rows of a table: 50; further rows are
    /// left out (``extractReportingLimits(_:)`` says so). Items from an attached order or from
    /// schema.org markup are all kept.
    public static let maximumLineItems = 50

    /// How many orders extraction reads from one email: 100, the main one
    /// (``ExtractionResult/orderNumber``) and up to 99 ``ExtractionResult/additionalOrders``.
    /// Further labelled order numbers are left out, with the shipments and totals printed
    /// under them (``extractReportingLimits(_:)`` says so); the orders kept are the main one
    /// and the first others in the email's order. A marketplace email bundles a few orders; a
    /// hundred is past any real one, and keeps what an email can make of the store bounded.
    public static let maximumOrders = 100
}

/// The state of one extraction.
struct ExtractionContext {
    /// The `Message-ID` of the email as rendered (the outer email's, when it forwards an
    /// original): all the context keeps of it.
    let messageID: String?
    /// The document read: the forwarded original when there is one, else the email itself.
    let document: MailDocument
    let extractor: Extractor
    let rules: Rules
    let text: DocumentText
    let languages: LanguageSet
    /// Every line's occurrences of the language set's phrases.
    let phraseHits: PhraseHits
    let reference: CivilDate?
    let carrierSender: CarrierRule?
    /// Whether each line of ``text`` is blank (``TextLine/isBlank``), and its place among its
    /// rendition's non-blank lines, read once.
    let lineIsBlank: LineBlankness
    /// The dates read from label values so far.
    let dateMemo: DateMemo
    /// The order-number labels' values, once ``orderNumberCandidates()`` has read them.
    let orderNumberLabels: OrderNumberLabels
    var evidence: [Evidence]
    /// The limits this extraction reached (``Extractor/extractReportingLimits(_:)``).
    var warnings: [DocumentWarning]

    /// Always inlined into its callers: there the context is built where it is kept, not
    /// built aside and then copied (every reference it holds retained once more).
    @inline(__always)
    init(document outer: MailDocument, extractor: Extractor) {
        // Every field is computed into a local first, and the context made from them at once.
        // The email itself goes into the document read (not copied for it).
        let messageID = outer.messageID
        let document = Extractor.documentRead(from: consume outer)
        let text = DocumentText(document: document)
        let languages = extractor.languageSet(for: text)
        // "Tomorrow" is the day after the sender's day, read in the Date field's own zone.
        let reference = document.date.flatMap { CivilDate($0, in: document.dateTimeZone) }
        let sender = document.sender
        let domain = sender?.domain ?? sender?.registrableDomain
        self.init(
            messageID: messageID, document: document, extractor: extractor, text: text,
            languages: languages,
            phraseHits: PhraseHits(index: languages.index, text: text), reference: reference,
            carrierSender: domain.flatMap { extractor.rules.carriers.carrier(forSenderDomain: $0) },
            lineIsBlank: LineBlankness(text.lines),
            warnings: text.cuts.map { cut in
                DocumentWarning(
                    partPath: cut.partPath,
                    message:
                        "\(cut.origin.readerName) of \(cut.length) bytes is longer than the \(DocumentText.maximumBytes) extraction reads: the rest is not searched for order fields"
                )
            })
    }

    /// A context of the given fields, each stored as it is.
    private init(
        messageID: String?, document: MailDocument, extractor: Extractor, text: DocumentText,
        languages: LanguageSet, phraseHits: PhraseHits, reference: CivilDate?, carrierSender: CarrierRule?,
        lineIsBlank: LineBlankness, warnings: [DocumentWarning]
    ) {
        self.messageID = messageID
        self.document = document
        self.extractor = extractor
        self.rules = extractor.rules
        self.text = text
        self.languages = languages
        self.phraseHits = phraseHits
        self.reference = reference
        self.carrierSender = carrierSender
        self.lineIsBlank = lineIsBlank
        self.warnings = warnings
        self.dateMemo = DateMemo()
        self.orderNumberLabels = OrderNumberLabels()
        self.evidence = []
    }

    var bodyOrigins: Set<TextOrigin> { Self.bodyOriginSet }

    /// The two renditions of the body (built once, not at every use).
    static let bodyOriginSet: Set<TextOrigin> = [.html, .plain]
    /// The subject and the preheader.
    static let subjectOrigins: Set<TextOrigin> = [.subject, .preheader]

    mutating func run() -> ExtractionResult {
        let tracking = trackingCandidates()
        let orderNumbers = orderNumberCandidates()
        let kind = decideKind(orderNumbers: orderNumbers, tracking: tracking)
        var result = ExtractionResult(messageID: messageID, kind: kind)
        if kind == .cancellation && cancelsPartOfTheOrder() { result.partialCancellation = true }
        if kind == .notAnOrder {
            // Not about an order: no merchant, no order number, no shipments.
            result.evidence = evidence.isEmpty ? nil : evidence
            return result
        }
        result.merchant = findMerchant(kind: kind).map { merchant in
            var merchant = merchant
            merchant.name = merchant.name.flatMap(Self.displaySafeName)
            return merchant
        }
        // A number the carrier search reads as a tracking number is not the order number.
        // (An order number's key is its value upper-cased: compared as it is.)
        let trackingNumbers = TrackingNumberSet(tracking.map { $0.trackingNumber.uppercased() })
        let ranked = Scoring.rank(orderNumbers).filter {
            $0.score >= Extractor.orderNumberThreshold && !trackingNumbers.contains($0.best.key)
        }
        if let primary = ranked.first {
            result.orderNumber = primary.value
            evidence.append(primary.evidence(field: "orderNumber"))
        }
        if let date = findOrderDate(kind: kind) { result.orderDate = date }
        result.orderManagementURL = findOrderManagementURL(
            orderNumber: result.orderNumber, merchantDomain: result.merchant?.domain)
        let total = findTotal()
        if let total {
            result.total = total.value
            evidence.append(total.evidence(field: "total"))
        }
        let items = findLineItems(total: total)
        if !items.isEmpty { result.lineItems = items }
        var shipments = buildShipments(tracking: tracking, kind: kind)
        // Several orders: further strongly labelled numbers, each with the shipments that follow it.
        let additional = additionalOrders(
            ranked: ranked, shipments: &shipments, tracking: tracking, total: &result.total,
            orderDate: result.orderDate)
        if !shipments.isEmpty { result.shipments = shipments }
        if !additional.isEmpty {
            result.additionalOrders = additional
            // Rows read from the body cannot be told apart by order: none is given to the first.
            if evidence.contains(where: { $0.field == "lineItems" && $0.source == "body" }) {
                result.lineItems = nil
                evidence.removeAll { $0.field == "lineItems" }
            }
        }
        result.evidence = evidence.isEmpty ? nil : evidence
        return result
    }
}

/// The tracking numbers of an email, upper-cased, asked whether they hold a text (compared
/// as `String`s, as a `Set<String>` would): the few an email has are compared in order,
/// without hashing; past ``searchedInOrder``, through a set.
struct TrackingNumberSet {
    private let numbers: [String]
    private let set: Set<String>?
    /// How many numbers are compared in order before a set is built: 8.
    static let searchedInOrder = 8

    init(_ numbers: [String]) {
        self.numbers = numbers
        self.set = numbers.count > Self.searchedInOrder ? Set(numbers) : nil
    }

    /// Whether one of the numbers is `text`.
    func contains(_ text: String) -> Bool {
        if let set { return set.contains(text) }
        return numbers.contains(text)
    }
}

/// Whether each line of a document is blank (``TextLine/isBlank``), and how many lines of its
/// rendition before it are not: a line's place among its rendition's non-blank lines, read
/// without counting them again.
///
/// Shape: one entry per line, `place << 1 | blank`, in one array.
struct LineBlankness {
    private let entries: [Int32]

    /// Reads the lines once.
    init(_ lines: [TextLine]) {
        var entries: [Int32] = []
        entries.reserveCapacity(lines.count)
        // Non-blank lines so far, per rendition (by ``TextOrigin/position``).
        var counts: SIMD4<Int32> = .zero
        for line in lines {
            let blank: Int32 = line.isBlank ? 1 : 0
            let position = line.origin.position
            entries.append(counts[position] << 1 | blank)
            counts[position] &+= 1 &- blank
        }
        self.entries = entries
    }

    /// Whether the line at `index` is blank.
    subscript(index: Int) -> Bool { entries[index] & 1 != 0 }

    /// How many lines of the rendition of the line at `index` before it are not blank.
    func nonBlankBefore(_ index: Int) -> Int { Int(entries[index] >> 1) }
}
