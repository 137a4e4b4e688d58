import Foundation
import MailDocument

extension ExtractionContext {
    /// The evidence source of a labelled order number: `subject`, `preheader` (the hidden
    /// preview text, which is read as a subject is), else `label`.
    static func evidenceSource(of origin: TextOrigin) -> String {
        switch origin {
        case .subject: "subject"
        case .preheader: "preheader"
        default: "label"
        }
    }

    /// Order-number candidates from the attached order, markup, labelled values and the subject.
    func orderNumberCandidates() -> [Candidate<String>] {
        var candidates: [Candidate<String>] = []
        func add(_ value: String, source: String, score: Double, text: String) {
            candidates.append(
                Candidate(
                    value: value, key: value.uppercased(), source: source, score: score, text: text,
                    origin: nil))
        }
        func add(_ value: String, source: String, score: Double, found: LabelledValue) {
            candidates.append(
                Candidate(
                    value: value, key: value.uppercased(), source: source, score: score,
                    lines: EvidenceLines(found),
                    origin: found.line.origin, offset: found.offset))
        }
        for attached in document.attachedOrders {
            if let number = Markup.string(Markup.object(attached.order)?["orderNumber"]) {
                add(
                    number, source: "order", score: 0.98, text: "order.json orderNumber: \(number)")
            }
        }
        for object in Markup.objects(ofType: ["Order"], in: document) {
            if let number = Markup.string(object.properties["orderNumber"]) {
                add(
                    number, source: "markup", score: 0.95, text: "schema.org Order orderNumber: \(number)")
            }
        }
        for object in Markup.objects(ofType: ["ParcelDelivery"], in: document) {
            if let order = Markup.object(object.properties["partOfOrder"]),
                let number = Markup.string(order["orderNumber"])
            {
                add(
                    number, source: "markup", score: 0.93, text: "schema.org partOfOrder: \(number)")
            }
        }
        let fillers = languages.fillerWords
        let notOrder = languages.phrases(\.notOrderNumber)
        let strongLabelled = LabelledValues.find(
            languages.phrases(\.orderNumber), in: text, origins: Self.allOrigins, hits: phraseHits)
        // (Values below header rows are rare: the labelled values are then read as they are,
        // not copied into a new array.)
        let below = valuesBelowHeaderRows(languages.phrases(\.orderNumber))
        let strong = below.isEmpty ? strongLabelled : strongLabelled + below
        for found in strong where !isNegated(found, by: notOrder) {
            // A number shorter than three digits only when it is the label's whole value in the
            // label's cell or the next one (a line below an empty label may be a quantity),
            // and trusted less: a subject alone does not give it.
            var short = false
            let value = FieldText.narrowedFullWidth(found.value)
            let extracted = orderNumberLabels.number(in: value, fillers: fillers, minimumLength: 4)
            guard
                let number = extracted
                    ?? {
                        guard found.placement != .nextLine else { return nil }
                        short = true
                        return OrderNumberToken.shortLabelled(value, fillers: fillers.words)
                    }()
            else { continue }
            let isSubject = found.line.origin == .subject || found.line.origin == .preheader
            var score = isSubject ? 0.65 : found.placement.score
            if !isSubject && found.placement == .sameCell && !found.labelOpensCell { score -= 0.05 }
            if short { score -= Self.shortNumberPenalty }
            add(number, source: Self.evidenceSource(of: found.line.origin), score: score, found: found)
        }
        let weak = LabelledValues.find(
            languages.phrases(\.orderNumberWeak), in: text, origins: Self.allOrigins,
            following: false, hits: phraseHits)
        for found in weak where !isNegated(found, by: notOrder) {
            let value = FieldText.narrowedFullWidth(found.value)
            guard let number = orderNumberLabels.number(in: value, fillers: fillers, minimumLength: 5)
            else { continue }
            let isSubject = found.line.origin == .subject || found.line.origin == .preheader
            add(
                number, source: Self.evidenceSource(of: found.line.origin), score: isSubject ? 0.62 : 0.7,
                found: found)
        }
        orderNumberLabels.strong = strongLabelled
        orderNumberLabels.weak = weak
        return candidates
    }

    /// How much less a short order number (``OrderNumberToken/shortLabelled(_:fillers:)``) is
    /// trusted than a longer one in the same place: in the subject alone it stays below
    /// ``Extractor/orderNumberThreshold``.
    static let shortNumberPenalty = 0.1

    /// Every rendition and the subject, where order numbers are looked for.
    static let allOrigins: Set<TextOrigin> = [.html, .plain, .subject, .preheader]

    /// `value.prefix(160).range(of: number)`, found among the bytes when the number is ASCII
    /// without a carriage return and the value's first 161 scalars are ``SimpleScalars``:
    /// there each scalar is a character, so the first 160 characters are the first 160
    /// scalars, and an ASCII number matches only the same ASCII bytes (no scalar of the value
    /// composes with its neighbours or is canonically equivalent to ASCII text).
    static func range(of number: String, inFirst160Of value: String) -> Range<String.Index>? {
        let needle = Array(number.utf8)
        guard !needle.isEmpty, needle.allSatisfy({ $0 < 0x80 && $0 != 0x0D }),
            let prefixBytes = simplePrefixByteCount(value, characters: 160)
        else {
            return value.prefix(160).range(of: number)
        }
        return value.utf8.withContiguousStorageIfAvailable { bytes -> Range<String.Index>? in
            let haystack = UnsafeBufferPointer(rebasing: bytes[0..<prefixBytes])
            guard needle.count <= haystack.count else { return nil }
            for start in 0...(haystack.count - needle.count)
            where haystack[start] == needle[0]
                && haystack[start..<(start + needle.count)].elementsEqual(needle)
            {
                let lower = value.utf8.index(value.utf8.startIndex, offsetBy: start)
                return lower..<value.utf8.index(lower, offsetBy: needle.count)
            }
            return nil
        } ?? value.prefix(160).range(of: number)
    }

    /// The UTF-8 length of the text's first `characters` scalars when those scalars and the
    /// one after them (if any) are ``SimpleScalars`` (so each is a character of its own);
    /// else `nil`.
    static func simplePrefixByteCount(_ text: String, characters: Int) -> Int? {
        // Byte by byte while the text is ASCII (a scalar of one byte each); the first byte
        // that is not leaves the count to the scalars.
        var reachedOther = false
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var count = 0
            for byte in bytes {
                if byte >= 0x80 {
                    reachedOther = true
                    return nil
                }
                guard SimpleScalars.isStandalone(Unicode.Scalar(byte)) else { return nil }
                if count == characters { break }
                count += 1
            }
            return count
        }
        if let ascii, !reachedOther { return ascii }
        var count = 0
        var bytes = 0
        for scalar in text.unicodeScalars {
            guard SimpleScalars.isStandalone(scalar) else { return nil }
            if count == characters { break }
            count += 1
            bytes += UTF8.width(scalar)
        }
        return bytes
    }

    /// Whether a label is part of a label for another number ("Invoice order number", "Coupon code").
    func isNegated(_ found: LabelledValue, by phrases: PhraseSet) -> Bool {
        let labelStart = found.offset - found.line.startOffset
        guard labelStart >= 0 else { return false }
        func negates(_ range: Range<Int>) -> Bool {
            range.lowerBound <= labelStart + 2 && range.upperBound >= labelStart - 2
        }
        guard phraseHits.covers(phrases) else {
            return phrases.matches(in: found.line.folded, limit: 16).contains { negates($0.1) }
        }
        var negated = false
        phraseHits.forEachMatch(phrases, line: found.labelLineIndex, limit: 16) { _, range in
            negated = negates(range)
            return !negated
        }
        return negated
    }

    /// Tracking candidates from the carrier rules, for every rendition, merged by number.
    func trackingCandidates() -> [TrackingCandidate] {
        // The renditions' texts, HTML first: the first also carries the links and the subject.
        // text/plain is read only when the HTML rendition (read first, with the links) has none.
        let senderDomain = document.sender?.domain ?? document.sender?.registrableDomain
        let html = document.htmlText?.text
        let plain = document.plainText?.text
        var kept: [TrackingCandidate]
        if let text = html ?? plain {
            let first = TrackingSearchInput(
                text: text, links: document.links, senderDomain: senderDomain, subject: document.subject)
            let second =
                html == nil ? nil : plain.map { TrackingSearchInput(text: $0, senderDomain: senderDomain) }
            kept = rules.carriers.findTrackingNumbers(in: first, orElseIn: second)
        } else {
            let only = TrackingSearchInput(
                text: "", links: document.links, senderDomain: document.sender?.domain,
                subject: document.subject)
            kept = rules.carriers.findTrackingNumbers(in: only, orElseIn: nil)
        }
        guard !kept.isEmpty else { return [] }
        // One candidate per number, whatever its case: the first place, the best score (one
        // candidate, the usual case, is kept as it is).
        if kept.count > 1 {
            var positions = SmallMap<String, Int>(capacity: kept.count)
            // Deduplicated in place: `kept[0..<write]` holds the numbers kept so far (each at its
            // first place, with the best candidate yet), the positions from `write` to `read` the
            // candidates set aside; none is copied.
            var write = 0
            for read in kept.indices {
                let key = kept[read].trackingNumber.uppercased()
                if let position = positions[key] {
                    if kept[read].score > kept[position].score { kept.swapAt(position, read) }
                } else {
                    positions.insert(write, for: key)
                    if write != read { kept.swapAt(write, read) }
                    write += 1
                }
            }
            kept.removeSubrange(write...)
        }
        // Filtered in place: the kept candidates are not copied into a new array.
        kept.removeAll { !($0.score >= Extractor.trackingThreshold && $0.checkDigitValid != false) }
        return kept
    }

    /// The order date: attached order, markup, a date beside an order-date label or after the
    /// order number ("order #123 placed on …").
    mutating func findOrderDate(kind: EmailKind) -> String? {
        var candidates: [Candidate<CivilDate>] = []
        for attached in document.attachedOrders {
            if let day = Markup.day(Markup.object(attached.order)?["createdAt"]) {
                candidates.append(
                    Candidate(
                        value: day, key: day.iso, source: "order", score: 0.97, text: "order.json createdAt",
                        origin: nil))
            }
        }
        for object in Markup.objects(ofType: ["Order"], in: document) {
            if let day = Markup.day(object.properties["orderDate"]) {
                candidates.append(
                    Candidate(
                        value: day, key: day.iso, source: "markup", score: 0.95, text: "schema.org orderDate",
                        origin: nil))
            }
        }
        // The values are read where they are stored, not copied.
        let orderDateLabels = languages.phrases(\.orderDate)
        for values in [
            LabelledValues.find(orderDateLabels, in: text, origins: bodyOrigins, hits: phraseHits),
            valuesBelowHeaderRows(orderDateLabels),
        ] {
            for index in values.indices {
                if let candidate = labelledOrderDate(values[index]) { candidates.append(candidate) }
            }
        }
        // "Ihre Bestellung WK-2026-00433 vom 22.11.2026", "order #300127 placed on November 18".
        let connectors = languages.orderDateConnectors
        if !connectors.isEmpty && !candidates.contains(where: { $0.source == "label" }) {
            let labels = [
                (languages.orderNumber, orderNumberLabels.strong),
                (languages.orderNumberWeak, orderNumberLabels.weak),
            ]
            for (set, read) in labels {
                // The values in the label's own cell in the body (of those read already, the
                // ones in the same cell in the body).
                let values =
                    read
                    ?? LabelledValues.find(
                        set, in: text, origins: bodyOrigins, following: false, hits: phraseHits)
                for index in values.indices {
                    if read != nil
                        && !(values[index].placement == .sameCell
                            && bodyOrigins.contains(values[index].line.origin))
                    {
                        continue
                    }
                    if let candidate = connectedOrderDate(values[index], connectors: connectors) {
                        candidates.append(candidate)
                    }
                }
            }
        }
        // The Date header is not taken for the order date: an email that does not print the
        // date leaves it unknown (a confirmation can be sent days after the order).
        guard let chosen = Scoring.choose(candidates, threshold: 0.6) else { return nil }
        evidence.append(chosen.evidence(field: "orderDate"))
        return chosen.value.iso
    }

    /// An order-date candidate from the first date in the first 60 characters of a value
    /// labelled as the order date, read in the first of the email's languages that finds one.
    private func labelledOrderDate(_ found: LabelledValue) -> Candidate<CivilDate>? {
        // Every date format has a day in ASCII digits (``DateReader/dates(in:reference:)``): a
        // value without one is not read.
        guard Self.hasASCIIDigit(Substring(found.value).utf8) else { return nil }
        let value = FieldText.prefix(found.value, characters: 60)
        for language in languages.all {
            if let day = dateMemo.firstDate(in: value, language: language, reference: reference) {
                return Candidate(
                    value: day, key: day.iso, source: "label", score: found.placement.score,
                    lines: EvidenceLines(found),
                    origin: found.line.origin, offset: found.offset)
            }
        }
        return nil
    }

    /// An order-date candidate from a value labelled as the order number, when a connector
    /// ("vom", "placed on") or a parenthesis follows the number and a date follows it.
    private func connectedOrderDate(_ found: LabelledValue, connectors: [OrderDateConnector])
        -> Candidate<CivilDate>?
    {
        guard
            let number = orderNumberLabels.number(
                in: found.value, fillers: languages.fillerWords, minimumLength: 4),
            // (Counted first: a value whose ASCII digits are all the number's has none after it,
            // and the number is not searched for.)
            Self.asciiDigitCount(found.value.utf8) > Self.asciiDigitCount(number.utf8),
            let range = Self.range(of: number, inFirst160Of: found.value),
            // Every date format has a day in ASCII digits (``DateReader/dates(in:reference:)``):
            // after a number followed by none, no date is looked for.
            Self.hasASCIIDigit(found.value.utf8[range.upperBound...])
        else { return nil }
        let rest = Text.trimmed(String(found.value[range.upperBound...]))
        let restIsASCII = FieldText.isASCII(rest)
        var lowered: LoweredStart?
        let dateText: String
        if let connector = connectors.first(where: {
            $0.starts(rest, textIsASCII: restIsASCII, lowered: &lowered)
        }) {
            dateText = String(rest.dropFirst(connector.word.count).prefix(40))
        } else if let inParentheses = Self.parenthesizedAfterNumber(rest) {
            // "[Order #5012] (November 20, 2026)": the date in parentheses after it.
            dateText = inParentheses
        } else {
            return nil
        }
        for language in languages.all {
            if let day = dateMemo.firstDate(in: dateText, language: language, reference: reference) {
                return Candidate(
                    value: day, key: day.iso, source: "label", score: 0.75,
                    lines: EvidenceLines(found),
                    origin: found.line.origin, offset: found.offset)
            }
        }
        return nil
    }

    /// How many ASCII digits (0–9) the bytes hold. An ASCII digit is no part of any other
    /// scalar's canonical decomposition, so a text canonically equivalent to a number holds as
    /// many as the number: a value with no more digits than a number it holds has none outside
    /// the number's occurrence.
    static func asciiDigitCount(_ bytes: String.UTF8View) -> Int {
        bytes.withContiguousStorageIfAvailable { buffer in
            buffer.reduce(0) { $0 + ($1 &- 0x30 < 10 ? 1 : 0) }
        } ?? bytes.reduce(0) { $0 + ($1 &- 0x30 < 10 ? 1 : 0) }
    }

    /// Whether the bytes hold an ASCII digit (0–9), read in place when stored contiguously.
    static func hasASCIIDigit(_ bytes: Substring.UTF8View) -> Bool {
        bytes.withContiguousStorageIfAvailable { buffer in
            buffer.contains { $0 &- 0x30 < 10 }
        } ?? bytes.contains { $0 &- 0x30 < 10 }
    }

    /// What stands in parentheses right after an order number, past the bracket that closes
    /// the number's own ("] (November 20, 2026)"), when it is short (at most 40 characters):
    /// WooCommerce's "[Order #5012] (November 20, 2026)".
    static func parenthesizedAfterNumber(_ rest: String) -> String? {
        var text = Substring(rest)
        if text.first == "]" { text = text.dropFirst() }
        text = text.drop(while: { $0 == " " })
        guard text.first == "(", let close = text.firstIndex(of: ")") else { return nil }
        let inside = text[text.index(after: text.startIndex)..<close]
        return inside.count <= 40 ? String(inside) : nil
    }

    /// The total: attached order, markup, then the most specific total label with an amount.
    func findTotal() -> Chosen<MonetaryAmount>? {
        Scoring.choose(totalCandidates(), threshold: 0.6)
    }

    /// Total candidates from every source, each with its position.
    func totalCandidates() -> [Candidate<MonetaryAmount>] {
        var candidates: [Candidate<MonetaryAmount>] = []
        let defaultCurrency = languages.primary?.rules.defaultCurrency
        for attached in document.attachedOrders {
            let payment = Markup.object(Markup.object(attached.order)?["payment"])
            if let total = Markup.amount(payment?["total"], currency: nil) {
                candidates.append(
                    Candidate(
                        value: total, key: total.amount + total.currency, source: "order", score: 0.97,
                        text: "order.json payment.total", origin: nil))
            }
        }
        for object in Markup.objects(ofType: ["Order", "Invoice"], in: document) {
            let properties = object.properties
            if let total = Markup.amount(
                properties["totalPaymentDue"] ?? properties["price"], currency: properties["priceCurrency"])
            {
                candidates.append(
                    Candidate(
                        value: total, key: total.amount + total.currency, source: "markup", score: 0.95,
                        text: "schema.org \(object.type) price", origin: nil))
            }
        }
        // Label rank: the first label of a language's list is the most specific ("order total").
        let labelRank = languages.totalRank
        let labels = languages.phrases(\.total)
        let found =
            LabelledValues.find(labels, in: text, origins: bodyOrigins, hits: phraseHits)
            + valuesBelowHeaderRows(labels)
        for value in found {
            guard
                let amount = Money.firstAmount(
                    in: FieldText.prefix(value.value, characters: 60), defaultCurrency: defaultCurrency)
            else { continue }
            let rank = labelRank[Phrase(value.label).folded] ?? 10
            // A later total in the same rendition is the final one (after discounts and shipping).
            var score = 0.84 - 0.02 * Double(min(rank, 10)) + Double(value.offset) * 1e-9
            // Under a row of labels, by column: trusted a little less than beside its label.
            if value.placement == .cellBelow { score -= 0.02 }
            candidates.append(
                Candidate(
                    value: amount, key: amount.amount + amount.currency, source: "label",
                    score: min(score, 0.86),
                    lines: EvidenceLines(value), origin: value.line.origin, offset: value.offset))
        }
        return candidates
    }
}

/// The values of the order-number labels that ``ExtractionContext/orderNumberCandidates()``
/// read, kept for ``ExtractionContext/findOrderDate(kind:)``, which looks for a date after
/// the same numbers: those in the label's own cell are the values a search that does not
/// follow a label to the next cell or line finds (in the same order), so they are not
/// searched for again; and the token at the start of every value read
/// (``OrderNumberToken/token(from:fillers:)``), so that no value is read twice.
final class OrderNumberLabels {
    /// `LabelledValues.find(orderNumber, in: text, origins: allOrigins, hits: phraseHits)`.
    var strong: [LabelledValue]?
    /// The same for the weak labels, read with `following: false`.
    var weak: [LabelledValue]?
    /// The values read so far, their tokens, and each token's length when it is plausible
    /// whatever the minimum length (``OrderNumberToken/plausibleLength(_:)``). An email labels
    /// a few at most, often the same in several renditions: the first ``searchedInOrder`` are
    /// searched in order; past them, through ``positions``, so that an email with thousands of
    /// labelled values is read in time linear in their number.
    private var tokens: [(value: String, token: String?, length: Int?)] = []
    /// Where each value's bytes are in ``tokens``, filled once there are more than
    /// ``searchedInOrder`` of them.
    private var positions: [[UInt8]: Int] = [:]
    /// How many values are searched in order before ``positions`` is used: 16.
    static let searchedInOrder = 16

    /// `OrderNumberToken.extract(from: value, fillers: fillers, minimumLength: minimumLength)`,
    /// the value's token read and tested once. (Values are compared byte for byte: the reading
    /// is not the same for canonically equivalent texts, which `==` does not tell apart.)
    func number(in value: String, fillers: FillerWords, minimumLength: Int) -> String? {
        let token: String?
        let length: Int?
        if let known = known(value) {
            (token, length) = (known.token, known.length)
        } else {
            token = OrderNumberToken.token(from: value, fillers: fillers)
            length = token.flatMap(OrderNumberToken.plausibleLength)
            tokens.append((value, token, length))
            if tokens.count > Self.searchedInOrder {
                if positions.isEmpty {
                    for (index, known) in tokens.enumerated() { positions[Array(known.value.utf8)] = index }
                } else {
                    positions[Array(value.utf8)] = tokens.count - 1
                }
            }
        }
        guard let token, let length, length >= minimumLength else { return nil }
        return token
    }

    /// The value read before with the same bytes, if any.
    private func known(_ value: String) -> (value: String, token: String?, length: Int?)? {
        if tokens.count <= Self.searchedInOrder {
            return tokens.first { Self.sameBytes($0.value, value) }
        }
        return positions[Array(value.utf8)].map { tokens[$0] }
    }

    /// Whether two texts have the same UTF-8 bytes (compared at once when both are stored
    /// contiguously, as native strings are).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
        if let compared, let compared { return compared }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }
}
