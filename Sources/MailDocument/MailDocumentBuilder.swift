import Foundation
import MIME

/// Limits and switches for building a ``MailDocument``.
public struct MailDocumentOptions: Sendable, Hashable {
    /// Limits for each HTML part.
    public var html = HTMLRenderer.Options()
    /// Limits for attached `.order` bundles.
    public var bundleLimits = OrderBundleReader.Limits()
    /// How many forwarded originals deep documents are built (forward of a forward …).
    public var maxForwardDepth = 4
    /// Whether inline forwards (Gmail, Outlook, Apple Mail blocks) are looked for.
    public var detectInlineForwards = true

    public init() {}
}

extension MailDocument {
    /// The pieces of a message a document is built from, for callers that have no parsed
    /// ``Message`` (tests, other front ends).
    public struct Parts: Sendable {
        public var subject: String?
        public var from: [MailAddress]
        public var recipients: [MailAddress]
        public var date: Date?
        public var messageID: String?
        /// The Reply-To mailboxes (RFC 5322 §3.6.2).
        public var replyTo: [MailAddress] = []
        /// The zone of the Date field (RFC 5322 §3.3), when known.
        public var dateTimeZone: TimeZone?
        /// The message identifiers of In-Reply-To (RFC 5322 §3.6.4), with angle brackets.
        public var inReplyTo: [String] = []
        /// The message identifiers of References (RFC 5322 §3.6.4), oldest first.
        public var references: [String] = []
        public var textBody: BodyPart?
        /// Inline text/plain parts shown after ``textBody`` (``Message/furtherTextBodies``):
        /// rendered into the same plain text, one after the other.
        public var furtherTextBodies: [BodyPart] = []
        public var htmlBody: BodyPart?
        public var attachments: [BodyPart]

        public init(
            subject: String? = nil, from: [MailAddress] = [], recipients: [MailAddress] = [],
            date: Date? = nil,
            messageID: String? = nil, textBody: BodyPart? = nil, htmlBody: BodyPart? = nil,
            attachments: [BodyPart] = []
        ) {
            self.subject = subject
            self.from = from
            self.recipients = recipients
            self.date = date
            self.messageID = messageID
            self.textBody = textBody
            self.htmlBody = htmlBody
            self.attachments = attachments
        }

        /// The parts of a parsed message: its header fields, preferred text bodies and attachments.
        public init(message: Message) {
            var from = message.from
            if from.isEmpty, let sender = message.header["Sender"],
                let address = ForwardDetector.parseAddress(sender)
            {
                from = [address]
            }
            let dated = message.dateAndTimeZone
            self.init(
                subject: message.subject, from: from, recipients: message.to + message.cc, date: dated?.date,
                messageID: message.messageID, textBody: message.textBody, htmlBody: message.htmlBody,
                attachments: message.attachments)
            furtherTextBodies = message.furtherTextBodies
            replyTo = message.replyTo
            dateTimeZone = dated?.timeZone ?? nil
            inReplyTo = message.inReplyTo
            references = message.references
        }
    }

    /// Builds the document a careful reader sees in a message.
    ///
    /// Renders the text/plain and text/html bodies (both, when both exist), reads JSON-LD and
    /// microdata, opens attached `.order` bundles, lists other attachments, and turns an
    /// attached (`message/rfc822`) or inline-forwarded original into ``forwardedOriginal``.
    /// Never fails: damaged pieces are left out with a ``DocumentWarning``.
    ///
    /// - Parameters:
    ///   - message: A parsed message (RFC 5322, RFC 2045).
    ///   - options: Limits and switches.
    public init(message: Message, options: MailDocumentOptions = MailDocumentOptions()) {
        self.init(parts: Parts(message: message), options: options, depth: 0)
    }

    /// Builds a document from message pieces; see ``init(message:options:)``.
    public init(parts: Parts, options: MailDocumentOptions = MailDocumentOptions()) {
        self.init(parts: parts, options: options, depth: 0)
    }

    init(parts: Parts, options: MailDocumentOptions, depth: Int) {
        self.init(
            subject: parts.subject.map(TextSink.visibleLine),
            sender: parts.from.first.map(Sender.init(address:)),
            recipients: parts.recipients,
            date: parts.date, messageID: parts.messageID)
        replyTo = parts.replyTo.first.map(Sender.init(address:))
        dateTimeZone = parts.dateTimeZone
        inReplyTo = parts.inReplyTo
        references = parts.references

        if let body = parts.textBody, let text = body.text {
            let rendered = PlainTextRenderer.render(text: text, partPath: body.path)
            var plain = rendered.text
            links += rendered.links
            // Parts shown one after the other: each starts a paragraph of its own.
            for further in parts.furtherTextBodies {
                guard let text = further.text else { continue }
                let next = PlainTextRenderer.render(text: text, partPath: further.path)
                let offset = plain.append(paragraph: next.text)
                links += next.links.map { link in
                    var link = link
                    link.position += offset
                    return link
                }
            }
            plainText = plain
        }
        var htmlQuoteStart: HTMLQuoteStart?
        if let body = parts.htmlBody, let html = body.text {
            let rendered = HTMLRenderer.render(html: html, partPath: body.path, options: options.html)
            htmlText = rendered.text
            htmlQuoteStart = rendered.quoteStart
            preheader = rendered.preheader
            htmlTitle = rendered.title
            images = rendered.images
            links = rendered.links + links
            jsonLDBlocks = rendered.jsonLD
            warnings += rendered.warnings
            var values: [JSONValue] = []
            for (index, block) in rendered.jsonLD.enumerated() {
                let result = JSONLDRepair.parse(block.text)
                values += result.values
                if let error = result.error {
                    warnings.append(
                        DocumentWarning(
                            partPath: body.path, message: "unreadable JSON-LD block \(index + 1): \(error)"))
                } else if !result.repairs.isEmpty {
                    let names = result.repairs.map(\.rawValue).joined(separator: ", ")
                    warnings.append(
                        DocumentWarning(
                            partPath: body.path, message: "repaired JSON-LD block \(index + 1): \(names)"))
                }
            }
            structuredData =
                StructuredDataNormalizer.normalize(values, origin: "jsonld")
                + StructuredDataNormalizer.normalize(rendered.microdata, origin: "microdata")
        }

        // The inline forward of each rendition is looked for once, and handed on: a threaded
        // message is asked whether it forwards, then where its quote starts, then (when
        // nothing was cut) what it forwards, all of the same text.
        var found = InlineForwards(plain: nil, html: nil)
        let looksForForwards =
            isReply || (options.detectInlineForwards && depth < options.maxForwardDepth)
        if looksForForwards {
            found = InlineForwards(
                plain: plainText.flatMap { ForwardDetector.detect(in: $0.text) },
                html: htmlText.flatMap { ForwardDetector.detect(in: $0.text, isPlainText: false) })
        }

        // A forward sent in a thread ("WG: AW: …") passes its original on; any other message
        // of a thread ("Re: Fw: …" included: the first prefix says what it is) quotes.
        if isReply, !ReplyQuote.hasForwardPrefix(subject ?? ""), !forwardsWithoutPrefix(found) {
            let cut = cutReplyQuotes(htmlQuoteStart: htmlQuoteStart, found: found)
            // A rendition that lost its quote is looked at again: what it forwards now lies
            // above the cut, if anywhere.
            if cut.plain { found.plain = plainText.flatMap { ForwardDetector.detect(in: $0.text) } }
            if cut.html {
                found.html = htmlText.flatMap { ForwardDetector.detect(in: $0.text, isPlainText: false) }
            }
        }

        for part in parts.attachments {
            readAttachment(part, options: options, depth: depth)
        }

        if forwardedOriginal == nil, options.detectInlineForwards, depth < options.maxForwardDepth {
            detectInlineForward(found, options: options, depth: depth)
        }
    }

    /// The inline forward (``ForwardDetector/detect(in:isPlainText:)``) found in each rendition.
    struct InlineForwards {
        var plain: InlineForward?
        var html: InlineForward?
    }

    private mutating func readAttachment(_ part: BodyPart, options: MailDocumentOptions, depth: Int) {
        let type = part.contentType.essence
        if let encapsulated = part.encapsulatedMessage, type == "message/rfc822" || type == "message/global" {
            if forwardedOriginal == nil, depth < options.maxForwardDepth {
                forwardedOriginal = MailDocument(
                    parts: Parts(message: encapsulated), options: options, depth: depth + 1)
                forwardStyle = .attachedMessage
                return
            }
        }
        if OrderBundleReader.isOrderBundle(contentType: type, filename: part.filename) {
            do {
                let order = try OrderBundleReader.readOrder(part.decodedBytes(), limits: options.bundleLimits)
                attachedOrders.append(AttachedOrder(filename: part.filename, order: order))
                return
            } catch {
                warnings.append(
                    DocumentWarning(
                        partPath: part.path,
                        message: "order bundle \(part.filename ?? "") unreadable: \(error)"))
            }
        }
        let size = part.rawBody.isEmpty ? 0 : DecodedSize.of(part)
        attachments.append(
            AttachmentSummary(
                filename: part.filename, contentType: type, size: size, contentID: part.contentID))
    }

    /// Whether a message in a thread whose subject has no prefix at all forwards what it
    /// quotes: its text holds a forwarded header block (``ForwardDetector``: "From: … Sent: …
    /// To: … Subject: …") from a writer it is not sent back to. Outlook keeps the In-Reply-To of
    /// the message it forwards, and a writer may delete the "FW:" it adds: a reply goes to the
    /// writer of what it quotes (or to someone at the same domain), a forward goes elsewhere.
    /// A block from the sender itself (its own earlier email, quoted in a follow-up) is not a
    /// forward either. A block whose writer has no address (``InlineForward/fromName``)
    /// forwards only when every recipient has a display name, none of them the writer's.
    /// - Parameter found: The inline forward of each rendition.
    func forwardsWithoutPrefix(_ found: InlineForwards) -> Bool {
        let subject = subject ?? ""
        guard !ReplyQuote.hasReplyPrefix(subject), !ReplyQuote.hasForwardPrefix(subject) else { return false }
        guard let forward = found.plain ?? found.html else { return false }
        guard let writer = forward.from else {
            // A block naming its writer without an address: a reply goes to someone of that
            // name, or comes from them. A recipient known by address only might be the writer,
            // so the message is then read as a reply.
            guard let name = forward.fromName?.lowercased(), !recipients.isEmpty else { return false }
            if sender?.name?.lowercased() == name { return false }
            return recipients.allSatisfy { recipient in
                guard let other = recipient.name.map(TextSink.visibleLine)?.lowercased(), !other.isEmpty
                else {
                    return false
                }
                return other != name
            }
        }
        func same(_ address: MailAddress) -> Bool {
            address.address.lowercased() == writer.address.lowercased()
        }
        func sameDomain(_ address: MailAddress) -> Bool {
            guard let domain = address.domain.flatMap({ RegistrableDomain.of($0) }) else { return false }
            return domain == writer.domain.flatMap { RegistrableDomain.of($0) }
        }
        if let sender, sender.address.lowercased() == writer.address.lowercased() { return false }
        return !recipients.contains { same($0) || sameDomain($0) }
    }

    /// Whether this reply goes back to the writer of the message it quotes, someone at another
    /// domain than its sender: a quote was cut (``RenderedText/quotedText``), its attribution
    /// or header block names the writer's address (``ReplyQuote/writer(ofQuote:)``), and that
    /// address, or another at its registrable domain, is among the recipients. The reply's subject is then
    /// the thread's, the quoted writer's, even without a "Re:" (some clients keep the subject
    /// unchanged). A quote from the sender's own domain (a shop's follow-up quoting its own
    /// email, or text a shop's email only seems to quote) does not count.
    ///
    /// A quote whose writer has no address in it counts when its attribution or header block
    /// (``ReplyQuote/introduction(ofQuote:)``) names a recipient by its display name ("On Tue,
    /// 3 Mar 2026, Shop wrote:" in a reply to "Shop <orders@shop.example>"), or, when nothing
    /// names its writer (a quote made only of `>` lines), when the subject names a recipient by
    /// its whole display name or a word of its registrable domain, and not the sender ("Your
    /// Nordstern order …" in a reply to `orders@nordstern.example`). Either recipient is at
    /// another registrable domain than the sender.
    public var answersQuotedWriter: Bool {
        guard isReply else { return false }
        let quote = [plainText?.quotedText, htmlText?.quotedText].compactMap { $0 }.first { !$0.isEmpty }
        guard let quote else { return false }
        guard let writer = ReplyQuote.writer(ofQuote: quote) else {
            return answersUnaddressedWriter(of: quote)
        }
        let writerDomain = writer.split(separator: "@").last.flatMap { RegistrableDomain.of(String($0)) }
        if let sender, let writerDomain, sender.registrableDomain == writerDomain { return false }
        if sender?.address.lowercased() == writer { return false }
        // A subject that names the sender is the sender's own (a shop answering its customer,
        // quoting the customer's message under the shop's subject).
        if let subject, let sender, Self.subjectNames(sender, in: subject) { return false }
        // The address itself, or another at the writer's registrable domain (a reply to the
        // shop's support address under its orders address's email). A shop's email to a
        // customer at the writer's mail provider (a gift from a friend there) names the shop in
        // its subject, and was passed over above.
        return recipients.contains { recipient in
            recipient.address.lowercased() == writer
                || (writerDomain != nil
                    && recipient.domain.flatMap { RegistrableDomain.of($0) } == writerDomain)
        }
    }

    /// Whether a quote whose writer has no address in it goes back to its writer (see
    /// ``answersQuotedWriter``).
    private func answersUnaddressedWriter(of quote: String) -> Bool {
        if let subject, let sender, Self.subjectNames(sender, in: subject) { return false }
        let others = recipients.filter { recipient in
            guard let sender else { return true }
            let domain = recipient.domain.flatMap { RegistrableDomain.of($0) }
            return recipient.address.lowercased() != sender.address.lowercased()
                && (domain == nil || domain != sender.registrableDomain)
        }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        if let introduction = ReplyQuote.introduction(ofQuote: quote) {
            let folded = introduction.folding(options: options, locale: nil)
            return others.contains { recipient in
                guard
                    let name = recipient.name.map(TextSink.visibleLine)?.trimmingCharacters(in: .whitespaces),
                    name.count >= 4, name.contains(where: \.isLetter),
                    name.lowercased() != sender?.name?.lowercased()
                else { return false }
                return Self.containsWords(folded, name.folding(options: options, locale: nil))
            }
        }
        // Nothing names the writer: the subject names the shop the reply goes to, by its whole
        // display name or a word of its registrable domain (a first name alone does not count:
        // shops greet their customers in subjects).
        guard let subject else { return false }
        let folded = subject.folding(options: options, locale: nil)
        return others.contains { recipient in
            if let name = recipient.name.map(TextSink.visibleLine)?.trimmingCharacters(in: .whitespaces),
                name.count >= 4, Self.containsWords(folded, name.folding(options: options, locale: nil))
            {
                return true
            }
            guard
                let label = recipient.domain.flatMap({ RegistrableDomain.of($0) })?.split(separator: ".")
                    .first
            else { return false }
            return label.split(separator: "-").contains { word in
                let key = String(word).folding(options: options, locale: nil)
                return key.count >= 4 && !Self.senderRoleWords.contains(key) && folded.contains(key)
            }
        }
    }

    /// Whether `text` holds `words` as whole words: neither a letter nor a digit right before or
    /// after them ("Anna" is not in "Annabelle wrote:").
    static func containsWords(_ text: String, _ words: String) -> Bool {
        guard !words.isEmpty else { return false }
        var searchStart = text.startIndex
        while let found = text.range(of: words, range: searchStart..<text.endIndex) {
            let before =
                found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let isBoundary: (Character?) -> Bool = { $0.map { !$0.isLetter && !$0.isNumber } ?? true }
            if isBoundary(before), isBoundary(after) { return true }
            searchStart = text.index(after: found.lowerBound)
        }
        return false
    }

    /// Whether `subject` names `sender`: a word of four letters or more of its display name or
    /// of its registrable domain's first label (`northwind` of `northwind-outfitters.example`),
    /// compared without case and diacritics, role words ("Support", "Orders", "Team" …) left
    /// out.
    public static func subjectNames(_ sender: Sender, in subject: String) -> Bool {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        let folded = subject.folding(options: options, locale: nil)
        var words = (sender.name ?? "").split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if let label = sender.registrableDomain?.split(separator: ".").first {
            words += label.split(separator: "-").map(String.init)
        }
        return words.contains { word in
            guard word.count >= 4 else { return false }
            let key = word.folding(options: options, locale: nil)
            return !senderRoleWords.contains(key) && folded.contains(key)
        }
    }

    /// Words of display names that name a role, not a sender.
    static let senderRoleWords: Set<String> = [
        "support", "service", "services", "customer", "customers", "team", "orders", "order", "info", "help",
        "noreply", "reply", "store", "shop", "sales", "mail", "news", "care", "kundenservice", "bestellung",
        "commandes", "pedidos", "ordini",
    ]

    /// Whether the message answers another or follows it in a thread: it has In-Reply-To or
    /// References (RFC 5322 §3.6.4), or its subject starts with a reply prefix ("Re:", "AW:",
    /// "回复：", ``ReplyQuote/hasReplyPrefix(_:)``) — messages exported or sent without the
    /// threading fields are answers all the same, and what they quote is not theirs.
    public var isReply: Bool {
        !inReplyTo.isEmpty || !references.isEmpty || ReplyQuote.hasReplyPrefix(subject ?? "")
    }

    /// Moves a reply's quoted earlier message out of each rendition into
    /// ``RenderedText/quotedText``, with the links and images that were in it.
    ///
    /// The quote starts at the first attribution or quoted block (``ReplyQuote``), or at an
    /// Outlook header block ("From: … Sent: …", "-----Original Message-----") or a bare one
    /// ("From: … Date: … Subject: …", Outlook for Mac), which in a reply is the message
    /// answered, not a forward. In the HTML it starts at the earlier of that and the first
    /// quote container or quote marker of a mail client (``HTMLQuoteStart``:
    /// `<blockquote type="cite">`, `class="gmail_quote"`, `id="divRplyFwdMsg"` …), so that a
    /// quote marked only in the markup, without an attribution line, is cut too. A quote
    /// container with no visible text before it is not followed: the reply would have no
    /// words of its own, which is what an answer interleaved in the quote (Apple Mail,
    /// Outlook) or a template copied from a quoted email looks like. When the HTML loses a
    /// quote, the schema.org data goes with it: a reply's own words carry none; and when the
    /// quote container lies in the cut part, so do the hidden links and images after it and
    /// a preheader found in it (the quoted message's preview text).
    ///
    /// - Parameters:
    ///   - htmlQuoteStart: Where the HTML part's quote markup starts, when it has any.
    ///   - found: The inline forward of each rendition as it is before the cut.
    /// - Returns: Which renditions lost a quote.
    @discardableResult
    private mutating func cutReplyQuotes(htmlQuoteStart: HTMLQuoteStart?, found: InlineForwards)
        -> (plain: Bool, html: Bool)
    {
        let isAnswer = ReplyQuote.hasReplyPrefix(subject ?? "")
        func start(in text: String, isPlainText: Bool, forward: InlineForward?) -> Int? {
            let quote = ReplyQuote.quoteStart(in: text, isPlainText: isPlainText, isAnswer: isAnswer)
            let outlook = forward.flatMap {
                $0.style == .outlook || $0.style == .headerBlock ? $0.markerOffset : nil
            }
            return [quote, outlook].compactMap { $0 }.min()
        }
        var plainCut = false
        if let plain = plainText, let start = start(in: plain.text, isPlainText: true, forward: found.plain) {
            // An answer written between the quote's lines keeps the writer's lines after it.
            // So does one written between the lines of a quote under an attribution.
            let answers =
                ReplyQuote.quote(in: plain.text, isPlainText: true, isAnswer: isAnswer).map {
                    found -> [Range<Int>] in
                    guard found.start == start else { return [] }
                    if found.isInterleaved {
                        return ReplyQuote.answerLines(afterQuoteAt: start, in: plain.text)
                    }
                    return isAnswer ? ReplyQuote.answerLines(afterAttributionAt: start, in: plain.text) : []
                } ?? []
            if answers.isEmpty {
                var cut = plain.prefix(upTo: start)
                cut.quotedText = plain.suffix(from: start)
                plainText = cut
                links.removeAll { $0.origin == .plain && $0.position >= start }
            } else {
                let (body, lineMap) = Self.keptLines(of: plain.text, before: start, answers: answers)
                var kept = plain.remapped(body: body, lineMap: lineMap)
                kept.hiddenText = plain.hiddenText
                kept.hiddenSpans = plain.hiddenSpans
                kept.quotedText = plain.suffix(from: start)
                plainText = kept
                links = links.compactMap { link in
                    guard link.origin == .plain, link.position >= start else { return link }
                    return link.remapped(lineMap: lineMap)
                }
            }
            plainCut = true
        }
        guard let html = htmlText else { return (plainCut, false) }
        // The markup's quote counts when the reply has words of its own before it.
        let markup = htmlQuoteStart.flatMap { $0.offset > 0 ? $0 : nil }
        let textStart = start(in: html.text, isPlainText: false, forward: found.html)
        // An attribution line right above the quote container goes with it (Thunderbird).
        let markupStart = markup.map {
            ReplyQuote.attributionLineStart(endingAt: $0.offset, in: html.text) ?? $0.offset
        }
        guard let start = [textStart, markupStart].compactMap({ $0 }).min() else { return (plainCut, false) }
        // The markup's offset ends the reply's last line; the quote's text starts on the next.
        let lineStart = markup?.offset == start ? html.lineStart(after: start) : start
        var cut = html.prefix(upTo: lineStart)
        cut.quotedText = html.suffix(from: lineStart)
        htmlText = cut
        links.removeAll { $0.origin == .html && !$0.isHidden && $0.position >= start }
        images.removeAll { !$0.isHidden && $0.position >= start }
        structuredData = []
        // Hidden content after the quote's first element is the quoted message's too.
        if let quote = htmlQuoteStart, start <= quote.offset {
            links.removeAll { $0.origin == .html && $0.isHidden && $0.position >= quote.hiddenOffset }
            images.removeAll { $0.isHidden && $0.position >= quote.hiddenOffset }
            if quote.holdsPreheader { preheader = nil }
        }
        return (plainCut, true)
    }

    /// The text of a reply with an answer written between the quote's lines: its lines before
    /// the quote (`..<start`, line breaks at its end dropped), then each run of the writer's
    /// lines after it (`answers`, ``ReplyQuote/answerLines(afterQuoteAt:in:)``), a blank line
    /// before each run so that it reads as a paragraph of its own; and where each kept line
    /// comes from.
    static func keptLines(of text: String, before start: Int, answers: [Range<Int>])
        -> (body: String, lineMap: [InlineForward.LineMapping])
    {
        let utf8 = Array(text.utf8)
        var end = min(max(start, 0), utf8.count)
        while end > 0, utf8[end - 1] == 0x0A { end -= 1 }
        var body: [UInt8] = []
        var lineMap: [InlineForward.LineMapping] = []
        var lineStart = 0
        while lineStart < end {
            var lineEnd = lineStart
            while lineEnd < end, utf8[lineEnd] != 0x0A { lineEnd += 1 }
            if lineStart > 0 { body.append(0x0A) }
            lineMap.append(
                InlineForward.LineMapping(
                    bodyOffset: body.count, sourceOffset: lineStart, length: lineEnd - lineStart))
            body += utf8[lineStart..<lineEnd]
            lineStart = lineEnd + 1
        }
        var previousEnd: Int?
        for answer in answers {
            // Lines of one run follow each other: one line break; a new run, a blank line.
            let between = previousEnd.map { utf8[$0..<answer.lowerBound] }
            let sameRun = between.map { $0.count(where: { $0 == 0x0A }) == 1 && !$0.contains(0x3E) } ?? false
            if !body.isEmpty { body += sameRun ? [0x0A] : [0x0A, 0x0A] }
            lineMap.append(
                InlineForward.LineMapping(
                    bodyOffset: body.count, sourceOffset: answer.lowerBound, length: answer.count))
            body += utf8[answer]
            previousEnd = answer.upperBound
        }
        return (String(decoding: body, as: UTF8.self), lineMap)
    }

    /// Reads the inline-forwarded original found in the plain text, else the one found in the
    /// HTML text, into ``forwardedOriginal``.
    /// - Parameter forwards: The inline forward of each rendition as it is now.
    private mutating func detectInlineForward(
        _ forwards: InlineForwards, options: MailDocumentOptions, depth: Int
    ) {
        let inPlain = forwards.plain
        let inHTML = forwards.html
        guard let found = inPlain ?? inHTML else { return }
        var original = MailDocument(
            subject: found.subject,
            sender: found.from.map(Sender.init(address:)) ?? found.fromName.map(Sender.init(name:)),
            recipients: found.to,
            date: found.date)
        // A quoted date without a zone ("Mon, Nov 23, 2026 at 10:15 AM") is the forwarding
        // client's local time: read in the zone of the forwarding message's own Date field.
        if let date = found.date, !found.dateHasZone, let zone = dateTimeZone {
            original.date = date.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: date)))
            original.dateTimeZone = zone
        }
        if let inPlain, let plainText {
            original.plainText = plainText.remapped(to: inPlain)
            original.links += links.filter { $0.origin == .plain && $0.position >= inPlain.markerOffset }
                .compactMap { $0.remapped(to: inPlain) }
        }
        if let inHTML, let htmlText {
            original.htmlText = htmlText.remapped(to: inHTML)
            original.links =
                links.filter { $0.origin == .html && !$0.isHidden && $0.position >= inHTML.markerOffset }
                .compactMap { $0.remapped(to: inHTML) } + original.links
            original.images = images.filter { !$0.isHidden && $0.position >= inHTML.markerOffset }
        }
        // Markup and attached orders travel with the forwarded content.
        original.structuredData = structuredData
        original.attachedOrders = attachedOrders
        original.jsonLDBlocks = jsonLDBlocks
        // A forwarded reply ("Re: …" in the forwarded header block, as in "Fw: Re: …") quotes
        // the message it answered, as any reply does: the quote is not the original's own.
        if ReplyQuote.hasReplyPrefix(found.subject ?? "") {
            original.cutReplyQuotes(
                htmlQuoteStart: nil,
                found: InlineForwards(
                    plain: original.plainText.flatMap { ForwardDetector.detect(in: $0.text) },
                    html: original.htmlText.flatMap {
                        ForwardDetector.detect(in: $0.text, isPlainText: false)
                    }))
        }
        forwardedOriginal = original
        forwardStyle = found.style
    }
}

extension Sender {
    /// A sender known only by its display name (an Outlook block's "From: Shop"): its
    /// ``address`` is empty, and it has no domain.
    public init(name: String) {
        self.init(name: TextSink.visibleLine(name), address: "", domain: nil, registrableDomain: nil)
    }

    /// A sender from an address, with its domain and registrable domain resolved.
    /// The display name is read as a reader sees it: escape sequences and control characters
    /// read as nothing (a name that decodes to `ESC[31mShop` is `Shop`).
    public init(address: MailAddress) {
        let domain = address.domain
        self.init(
            name: address.name.map(TextSink.visibleLine), address: address.address, domain: domain,
            registrableDomain: domain.flatMap { RegistrableDomain.of($0) })
    }
}

extension RenderedText {
    /// The forwarded original's part of this text, with spans and wide gaps moved to match.
    func remapped(to forward: InlineForward) -> RenderedText {
        remapped(body: forward.body, lineMap: forward.lineMap)
    }

    /// `body`, a text made of lines of this one, with the spans and wide gaps of those lines
    /// moved to where `lineMap` puts them.
    func remapped(body: String, lineMap: [InlineForward.LineMapping]) -> RenderedText {
        var spans: [TextSpan] = []
        var wideGaps: [Int] = []
        var spanIndex = 0
        var gapIndex = 0
        for line in lineMap where line.length > 0 {
            let sourceRange = line.sourceOffset..<(line.sourceOffset + line.length)
            // The line's wide gaps, moved with it (the gaps and the lines are in order).
            while gapIndex < self.wideGaps.count, self.wideGaps[gapIndex] < sourceRange.lowerBound {
                gapIndex += 1
            }
            while gapIndex < self.wideGaps.count, self.wideGaps[gapIndex] < sourceRange.upperBound {
                wideGaps.append(self.wideGaps[gapIndex] - line.sourceOffset + line.bodyOffset)
                gapIndex += 1
            }
            while spanIndex < self.spans.count,
                self.spans[spanIndex].range.upperBound <= sourceRange.lowerBound
            {
                spanIndex += 1
            }
            var index = spanIndex
            while index < self.spans.count, self.spans[index].range.lowerBound < sourceRange.upperBound {
                let span = self.spans[index]
                let lower = max(span.range.lowerBound, sourceRange.lowerBound)
                let upper = min(span.range.upperBound, sourceRange.upperBound)
                if lower < upper {
                    let shift = line.bodyOffset - line.sourceOffset
                    spans.append(
                        TextSpan(
                            range: (lower + shift)..<(upper + shift), partPath: span.partPath,
                            location: span.location))
                }
                index += 1
            }
        }
        var result = RenderedText(text: body, spans: spans)
        result.wideGaps = wideGaps
        return result
    }
}

extension Link {
    /// The link with its position moved into the forwarded original's body, or `nil` when
    /// it lies outside the body (in the quoted header block).
    func remapped(to forward: InlineForward) -> Link? {
        remapped(lineMap: forward.lineMap)
    }

    /// The link moved to where `lineMap` puts its line; `nil` when its line is not kept.
    func remapped(lineMap: [InlineForward.LineMapping]) -> Link? {
        for line in lineMap
        where position >= line.sourceOffset && position <= line.sourceOffset + line.length {
            var copy = self
            copy.position = position - line.sourceOffset + line.bodyOffset
            return copy
        }
        return nil
    }
}
