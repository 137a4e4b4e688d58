import Foundation
import MailDocument

extension ExtractionContext {
    /// Scores of each phrase group: every distinct phrase counts once, at the weight of the
    /// strongest place it appears (subject 3, preheader and the body's first two lines 2,
    /// elsewhere in the body 1). Phrases are matched longest first across all groups, so
    /// "wird heute zugestellt" hides "zugestellt" and "order now" is not read as an order.
    /// - Parameters:
    ///   - bodyLines: how many non-blank lines of each origin are read, from its first.
    ///   - origins: the origins read (the subject and preheader, or the body, for a separate
    ///     subject/body weighting).
    /// - Returns: in lane `t`, the sum of the weights of the phrases found whose tag is `t`
    ///   (tags from 8 on are left out), and bit `t` of `found` set when one was found.
    func phraseScores(
        _ set: PhraseSet, bodyLines: Int = 400, origins: Set<TextOrigin> = ExtractionContext.allOrigins
    ) -> (scores: SIMD8<Double>, found: UInt8) {
        // The phrases found, each with the weight of its strongest place (few per email, so
        // searched in order rather than hashed), the first of them on the stack.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: PhraseWeights.stackCount) { buffer in
            var best = PhraseWeights(buffer.baseAddress!)
            // Lines counted per origin (by ``TextOrigin/position``), and the origins read.
            var counted = (0, 0, 0, 0)
            var wanted = 0
            for origin in origins { wanted |= 1 << origin.position }
            if phraseHits.covers(set) {
                // Only the lines that hold a phrase are read; a line's place among its
                // rendition's non-blank lines is the one the context counted.
                let hits = phraseHits
                let lineCount = text.lines.count
                var lineIndex = hits.nextLine(containing: set, from: 0)
                while lineIndex < lineCount {
                    let origin = text.lines[lineIndex].origin
                    let seen = lineIsBlank.nonBlankBefore(lineIndex)
                    if wanted & (1 << origin.position) != 0 && !lineIsBlank[lineIndex] && seen < bodyLines {
                        let weight: Int
                        switch origin {
                        case .subject: weight = 3
                        case .preheader: weight = 2
                        case .html, .plain: weight = seen < 2 ? 2 : 1
                        }
                        hits.forEachMatch(set, line: lineIndex, limit: 32) { index, _ in
                            best.note(index, weight: weight)
                            return true
                        }
                    }
                    lineIndex = hits.nextLine(containing: set, from: lineIndex + 1)
                }
                return Self.tagScores(best, of: set)
            }
            // Lines are read by position (not copied), their blankness as the context found it.
            for lineIndex in text.lines.indices {
                let origin = text.lines[lineIndex].origin
                guard wanted & (1 << origin.position) != 0 else { continue }
                if lineIsBlank[lineIndex] { continue }
                let seen: Int
                switch origin {
                case .html: seen = counted.0
                case .plain: seen = counted.1
                case .subject: seen = counted.2
                case .preheader: seen = counted.3
                }
                if seen >= bodyLines { continue }
                switch origin {
                case .html: counted.0 += 1
                case .plain: counted.1 += 1
                case .subject: counted.2 += 1
                case .preheader: counted.3 += 1
                }
                let weight: Int
                switch origin {
                case .subject: weight = 3
                case .preheader: weight = 2
                case .html, .plain: weight = seen < 2 ? 2 : 1
                }
                for (index, _) in set.matches(in: text.lines[lineIndex].folded, limit: 32) {
                    best.note(index, weight: weight)
                }
            }
            return Self.tagScores(best, of: set)
        }
    }

    /// The phrases' weights summed by tag: in lane `t` the weights of the phrases whose tag is
    /// `t` (tags from 8 on left out), and bit `t` of `found` set when one was noted. Weights are
    /// whole numbers, so the sums do not depend on the order they are added in (nor on the order
    /// the phrases were noted in).
    @inline(__always)
    static func tagScores(_ best: PhraseWeights, of set: PhraseSet) -> (scores: SIMD8<Double>, found: UInt8) {
        var scores = SIMD8<Double>()
        var found: UInt8 = 0
        best.forEachPhrase { phrase, weight in
            let tag = set.tags[phrase]
            guard tag >= 0 && tag < scores.scalarCount else { return }
            scores[tag] += Double(weight)
            found |= 1 << UInt8(tag)
        }
        return (scores, found)
    }

    func kindScores(origins: Set<TextOrigin>) -> KindScores {
        var result = KindScores()
        let (scores, found) = phraseScores(languages.kinds, bodyLines: 150, origins: origins)
        for (tag, kind) in EmailKind.allCases.enumerated() where found & (1 << UInt8(tag)) != 0 {
            result.add(scores[tag], to: kind)
        }
        return result
    }

    /// Whether this cancellation email cancels only part of the order: a phrase of a
    /// language's `partialCancellation` ("one item of your order", "Teilstornierung",
    /// "一部キャンセル") in its text, and none of its `wholeCancellation` ("your entire order",
    /// "in full"), matched as every phrase list is (``PhraseSet``: folded, on word
    /// boundaries), in the languages the email is read in. Asked only of cancellations.
    func cancelsPartOfTheOrder() -> Bool {
        languages.partialCancellation.containsMatch(in: text.foldedText)
            && !languages.wholeCancellation.containsMatch(in: text.foldedText)
    }

    /// Decides the kind from kind phrases, markup, attached orders, tracking numbers and the sender.
    mutating func decideKind(orderNumbers: [Candidate<String>], tracking: [TrackingCandidate]) -> EmailKind {
        var scores = kindScores(origins: Self.subjectOrigins)
        // Without a tracking number, shipping words in the body are often about the future
        // ("you will receive a shipping confirmation"): they count half.
        let hasParcel = !tracking.isEmpty || !Markup.objects(ofType: ["ParcelDelivery"], in: document).isEmpty
        let bodyScores = kindScores(origins: Self.bodyOriginSet)
        for kind in EmailKind.allCases where bodyScores.isGiven(kind) {
            let factor = !hasParcel && (kind == .shippingConfirmation || kind == .deliveryUpdate) ? 0.5 : 1
            scores.add(bodyScores[kind] * factor, to: kind)
        }
        var reasons: [String] = []
        let hasMarkup = !Markup.objects(ofType: ["Order", "ParcelDelivery"], in: document).isEmpty
        for object in Markup.objects(ofType: ["Order"], in: document) {
            scores.add(3, to: .orderConfirmation)
            if let status = Markup.statusName(object.properties["orderStatus"]) {
                switch status {
                case "OrderCancelled": scores.add(4, to: .cancellation)
                case "OrderReturned": scores.add(4, to: .refund)
                case "OrderDelivered": scores.add(4, to: .deliveryUpdate)
                case "OrderInTransit", "OrderPickupAvailable": scores.add(4, to: .shippingConfirmation)
                default: break
                }
            }
            reasons.append("schema.org Order")
        }
        if !Markup.objects(ofType: ["ParcelDelivery"], in: document).isEmpty {
            scores.add(3, to: .shippingConfirmation)
            reasons.append("schema.org ParcelDelivery")
        }
        if !document.attachedOrders.isEmpty {
            scores.add(3, to: .orderConfirmation)
            reasons.append("attached order")
        }
        if !tracking.isEmpty {
            scores.add(2, to: .shippingConfirmation)
        }
        // A number after a bare "order" word alone ("a review of order 123") is not enough.
        let orderEvidence =
            hasMarkup || !document.attachedOrders.isEmpty || !tracking.isEmpty
            || Scoring.choose(orderNumbers, threshold: 0.8) != nil
        let orderKinds: [EmailKind] = [
            .cancellation, .refund, .deliveryUpdate, .shippingConfirmation, .orderConfirmation,
        ]
        var best: EmailKind?
        var bestScore = 0.0
        for kind in orderKinds where scores[kind] > bestScore {
            best = kind
            bestScore = scores[kind]
        }
        let notOrder = scores[.notAnOrder]
        var kind: EmailKind
        if let carrierSender, !hasMarkup {
            // A carrier's own email about a parcel.
            kind =
                (orderEvidence || bestScore > 0) && notOrder < max(bestScore, 1)
                ? .carrierUpdate : .notAnOrder
            reasons.append("sender is \(carrierSender.name)")
        } else if let best, notOrder < bestScore || (orderEvidence && notOrder < bestScore + 2) {
            kind = best
        } else if orderEvidence && notOrder == 0 {
            kind = tracking.isEmpty ? .orderConfirmation : .shippingConfirmation
        } else {
            kind = .notAnOrder
        }
        if kind == .notAnOrder && bestScore == 0 && notOrder == 0 { reasons.append("no order words") }
        let text = Self.kindEvidenceText(reasons: reasons, scores: scores)
        let total = scores.total
        var confidence = total > 0 ? min(0.95, 0.5 + 0.5 * (scores[kind] / total)) : 0.5
        if kind == .carrierUpdate { confidence = 0.9 }
        evidence.append(
            Evidence(
                field: "kind", source: "body",
                text: text,
                confidence: (confidence * 100).rounded() / 100))
        return kind
    }

    /// The shipment status from the attached order, markup, status words, else the kind.
    func findStatus(kind: EmailKind) -> (ShipmentStatus, String, Double)? {
        for object in Markup.objects(ofType: ["ParcelDelivery", "Order"], in: document) {
            if let name = Markup.statusName(
                object.properties["deliveryStatus"] ?? object.properties["orderStatus"]),
                let status = Markup.shipmentStatus(schemaName: name)
            {
                return (status, "schema.org \(name)", 0.9)
            }
        }
        let order: [ShipmentStatus] = [
            .cancelled, .issue, .delivered, .outForDelivery, .onTheWay, .shipped, .processing,
        ]
        // Each status's score at its position in `allCases` (the phrases' tag), in the lanes
        // of one vector (seven statuses, eight lanes): no array is made.
        let statuses = ShipmentStatus.allCases
        var scores = SIMD8<Double>()
        let found = phraseScores(languages.statuses, bodyLines: 80)
        for tag in 0..<min(statuses.count, scores.scalarCount) where found.found & (1 << UInt8(tag)) != 0 {
            scores[tag] += found.scores[tag]
        }
        var best: ShipmentStatus?
        var bestScore = 0.0
        for status in order {
            guard let position = statuses.firstIndex(of: status), scores[position] > bestScore else {
                continue
            }
            best = status
            bestScore = scores[position]
        }
        if let best {
            return (best, Self.statusWordsText(best, score: bestScore), bestScore >= 3 ? 0.85 : 0.7)
        }
        switch kind {
        case .shippingConfirmation: return (.shipped, "kind shippingConfirmation", 0.6)
        case .orderConfirmation: return (.processing, "kind orderConfirmation", 0.6)
        case .cancellation: return (.cancelled, "kind cancellation", 0.6)
        case .carrierUpdate: return (.onTheWay, "kind carrierUpdate", 0.5)
        default: return nil
        }
    }
}

extension ExtractionContext {
    /// The evidence text of a status read from status words, `"status words: \(status.rawValue)
    /// \(score)"`: for a whole score below a million (status scores are sums of whole
    /// weights), whose `description` is its digits and `.0`, the integer's digits are written
    /// instead of formatting the `Double`.
    static func statusWordsText(_ status: ShipmentStatus, score: Double) -> String {
        guard score >= 0, score < 1_000_000, score.rounded(.towardZero) == score else {
            return "status words: \(status.rawValue) \(score)"
        }
        // One interpolation: the string is allocated once, at its size.
        return "status words: \(status.rawValue) \(Int(score)).0"
    }
}

extension ExtractionContext {
    /// The kind's evidence text: the reasons, then each kind given a score with its score
    /// (`"\(kind.rawValue) \(score)"`), in order of the kinds' names, joined by "; ". Written
    /// into one string of its length, allocated once. A score that is a whole number or a half
    /// below a million (kind scores are sums of whole weights, some halved), whose description
    /// is its integer digits then `.0` or `.5`, is written from those digits, without formatting
    /// the `Double`; any other score by its description.
    static func kindEvidenceText(reasons: [String], scores: KindScores) -> String {
        // The digits of a whole or half score, or nil for another score.
        func whole(_ score: Double) -> Int? {
            let doubled = score * 2
            guard score.sign == .plus, score < 1_000_000, doubled.rounded(.towardZero) == doubled else {
                return nil
            }
            return Int(score)
        }
        func digitCount(_ value: Int) -> Int {
            var count = 1
            var rest = value / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            return count
        }
        var length = 0
        var pieces = reasons.count
        for reason in reasons { length += reason.utf8.count }
        for kind in KindScores.kindsByName where scores.isGiven(kind) {
            let score = scores[kind]
            length +=
                kind.rawValue.utf8.count + 1
                + (whole(score).map { digitCount($0) + 2 } ?? score.description.utf8.count)
            pieces += 1
        }
        length += max(0, pieces - 1) * 2
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            func put(_ text: String) {
                // (Native and literal strings are stored contiguously: copied at once.)
                let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[at..<(at + bytes.count)]).initialize(
                        fromContentsOf: bytes)
                }
                if let copied {
                    at += copied
                    return
                }
                for byte in text.utf8 {
                    buffer[at] = byte
                    at += 1
                }
            }
            func separate() {
                buffer[at] = UInt8(ascii: ";")
                buffer[at + 1] = UInt8(ascii: " ")
                at += 2
            }
            var first = true
            for reason in reasons {
                if !first { separate() }
                first = false
                put(reason)
            }
            for kind in KindScores.kindsByName where scores.isGiven(kind) {
                if !first { separate() }
                first = false
                put(kind.rawValue)
                buffer[at] = UInt8(ascii: " ")
                at += 1
                let score = scores[kind]
                guard let value = whole(score) else {
                    put(score.description)
                    continue
                }
                let count = digitCount(value)
                var rest = value
                for position in stride(from: at + count - 1, through: at, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += count
                buffer[at] = UInt8(ascii: ".")
                buffer[at + 1] = Double(value) == score ? UInt8(ascii: "0") : UInt8(ascii: "5")
                at += 2
            }
            return at
        }
    }
}

/// Phrases found and the weight of the strongest place each was found in (1 to 3), in the
/// order they were first found: the first ``stackCount`` in a buffer the caller gives (on its
/// stack), packed as `phrase << 2 | weight`, the others in an array.
struct PhraseWeights {
    static let stackCount = 64
    private let buffer: UnsafeMutablePointer<Int>
    private var count = 0
    private var more: [Int] = []

    /// - Parameter buffer: room for ``stackCount`` entries, for as long as this is used.
    init(_ buffer: UnsafeMutablePointer<Int>) { self.buffer = buffer }

    /// Notes a phrase found at a place of the given weight (1 to 3).
    mutating func note(_ phrase: Int, weight: Int) {
        for slot in 0..<count where buffer[slot] >> 2 == phrase {
            if buffer[slot] & 3 < weight { buffer[slot] = phrase << 2 | weight }
            return
        }
        for slot in more.indices where more[slot] >> 2 == phrase {
            if more[slot] & 3 < weight { more[slot] = phrase << 2 | weight }
            return
        }
        if count < Self.stackCount {
            buffer[count] = phrase << 2 | weight
            count += 1
        } else {
            more.append(phrase << 2 | weight)
        }
    }

    /// Calls `body` with each phrase noted and its weight, in the order they were first noted.
    func forEachPhrase(_ body: (_ phrase: Int, _ weight: Int) -> Void) {
        for slot in 0..<count { body(buffer[slot] >> 2, buffer[slot] & 3) }
        for entry in more { body(entry >> 2, entry & 3) }
    }
}

/// A score for each ``EmailKind`` and which kinds were given one: lane `i` of `values` is
/// `EmailKind.allCases[i]`, bit `i` of `givenKinds` says whether it was given a score.
struct KindScores {
    private var values = SIMD8<Double>()
    private var givenKinds: UInt8 = 0

    /// The kind's score, 0 when it was given none.
    subscript(kind: EmailKind) -> Double { values[kind.caseIndex] }

    /// Whether the kind was given a score.
    func isGiven(_ kind: EmailKind) -> Bool { givenKinds & (1 << UInt8(kind.caseIndex)) != 0 }

    /// Every kind, in order of its name (its raw value).
    static let kindsByName = EmailKind.allCases.sorted { $0.rawValue < $1.rawValue }

    /// Adds to a kind's score (and marks it given, even when adding 0).
    mutating func add(_ score: Double, to kind: EmailKind) {
        values[kind.caseIndex] += score
        givenKinds |= 1 << UInt8(kind.caseIndex)
    }

    /// The kinds given a score, with their scores, in `EmailKind.allCases` order.
    var given: [(kind: EmailKind, score: Double)] {
        EmailKind.allCases.enumerated().compactMap { index, kind in
            givenKinds & (1 << UInt8(index)) != 0 ? (kind, values[index]) : nil
        }
    }

    /// The sum of the scores given (whole numbers and halves: exact in any order), added in
    /// `EmailKind.allCases` order.
    var total: Double {
        var total = 0.0
        for index in 0..<EmailKind.allCases.count where givenKinds & (1 << UInt8(index)) != 0 {
            total += values[index]
        }
        return total
    }
}

extension EmailKind {
    /// The case's position in `allCases`.
    var caseIndex: Int {
        switch self {
        case .orderConfirmation: 0
        case .shippingConfirmation: 1
        case .deliveryUpdate: 2
        case .carrierUpdate: 3
        case .cancellation: 4
        case .refund: 5
        case .notAnOrder: 6
        }
    }
}
