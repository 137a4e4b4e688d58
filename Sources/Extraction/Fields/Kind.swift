import Foundation
import MailDocument

extension ExtractionContext {
    /// Weight of a kind phrase by where it stands: the subject says most about an email.
    static func weight(of origin: TextOrigin) -> Double {
        switch origin {
        case .subject: 3
        case .preheader: 2
        case .html, .plain: 1
        }
    }

    /// Scores of each phrase group over the subject, preheader and body; phrases of
    /// `notAnOrder` ("order now") are matched first and hide the shorter phrases they contain.
    func phraseScores<Key: Hashable>(_ groups: [(Key, [Phrase])], bodyLines: Int = 400) -> [Key: Double] {
        var scores: [Key: Double] = [:]
        var counted: [TextOrigin: Int] = [:]
        for line in text.lines {
            let seen = counted[line.origin, default: 0]
            if seen >= bodyLines { continue }
            counted[line.origin] = seen + 1
            if line.isBlank { continue }
            var taken: [Range<Int>] = []
            for (key, phrases) in groups {
                for phrase in phrases {
                    for range in Text.occurrences(of: phrase.folded, in: line.folded, limit: 4)
                    where !taken.contains(where: { $0.overlaps(range) }) {
                        taken.append(range)
                        scores[key, default: 0] += ExtractionContext.weight(of: line.origin)
                    }
                }
            }
        }
        return scores
    }

    /// Decides the kind from kind phrases, markup, attached orders, tracking numbers and the sender.
    mutating func decideKind(orderNumbers: [Candidate<String>], tracking: [TrackingCandidate]) -> EmailKind {
        // notAnOrder phrases go first so that "order now" is not read as an order.
        var groups: [(EmailKind, [Phrase])] = []
        let order: [EmailKind] = [
            .notAnOrder, .cancellation, .refund, .deliveryUpdate, .shippingConfirmation, .orderConfirmation,
            .carrierUpdate,
        ]
        for kind in order {
            var phrases: [Phrase] = []
            for language in languages.all {
                phrases += language.kinds.first(where: { $0.0 == kind })?.1 ?? []
            }
            groups.append((kind, phrases.sorted { $0.folded.count > $1.folded.count }))
        }
        var scores = phraseScores(groups, bodyLines: 150)
        var reasons: [String] = []
        let hasMarkup = !Markup.objects(ofType: ["Order", "ParcelDelivery"], in: document).isEmpty
        for object in Markup.objects(ofType: ["Order"], in: document) {
            scores[.orderConfirmation, default: 0] += 3
            if let status = Markup.statusName(object.properties["orderStatus"]) {
                switch status {
                case "OrderCancelled": scores[.cancellation, default: 0] += 4
                case "OrderReturned": scores[.refund, default: 0] += 4
                case "OrderDelivered": scores[.deliveryUpdate, default: 0] += 4
                case "OrderInTransit", "OrderPickupAvailable": scores[.shippingConfirmation, default: 0] += 4
                default: break
                }
            }
            reasons.append("schema.org Order")
        }
        if !Markup.objects(ofType: ["ParcelDelivery"], in: document).isEmpty {
            scores[.shippingConfirmation, default: 0] += 3
            reasons.append("schema.org ParcelDelivery")
        }
        if !document.attachedOrders.isEmpty {
            scores[.orderConfirmation, default: 0] += 3
            reasons.append("attached order")
        }
        if !tracking.isEmpty {
            scores[.shippingConfirmation, default: 0] += 2
        }
        let orderEvidence =
            hasMarkup || !document.attachedOrders.isEmpty || !tracking.isEmpty
            || Scoring.choose(orderNumbers, threshold: Extractor.orderNumberThreshold) != nil
        let orderKinds: [EmailKind] = [
            .cancellation, .refund, .deliveryUpdate, .shippingConfirmation, .orderConfirmation,
        ]
        var best: EmailKind?
        var bestScore = 0.0
        for kind in orderKinds where scores[kind, default: 0] > bestScore {
            best = kind
            bestScore = scores[kind, default: 0]
        }
        let notOrder = scores[.notAnOrder, default: 0]
        var kind: EmailKind
        if let carrierSender, !hasMarkup {
            // A carrier's own email about a parcel.
            kind =
                (orderEvidence || bestScore > 0) && notOrder < max(bestScore, 1)
                ? .carrierUpdate : .notAnOrder
            reasons.append("sender is \(carrierSender.name)")
        } else if let best, notOrder < bestScore || (orderEvidence && notOrder < bestScore + 3) {
            kind = best
        } else if orderEvidence && notOrder == 0 {
            kind = tracking.isEmpty ? .orderConfirmation : .shippingConfirmation
        } else {
            kind = .notAnOrder
        }
        if kind == .notAnOrder && bestScore == 0 && notOrder == 0 { reasons.append("no order words") }
        let scoreText = scores.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            "\($0.key.rawValue) \($0.value)"
        }
        let total = scores.values.reduce(0, +)
        let confidence = total > 0 ? min(0.95, 0.5 + 0.5 * (scores[kind, default: 0] / total)) : 0.5
        evidence.append(
            Evidence(
                field: "kind", source: "body",
                text: (reasons + scoreText).joined(separator: "; "),
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
        var groups: [(ShipmentStatus, [Phrase])] = []
        let order: [ShipmentStatus] = [
            .cancelled, .issue, .delivered, .outForDelivery, .onTheWay, .shipped, .processing,
        ]
        for status in order {
            var phrases: [Phrase] = []
            for language in languages.all {
                phrases += language.statuses.first(where: { $0.0 == status })?.1 ?? []
            }
            groups.append((status, phrases.sorted { $0.folded.count > $1.folded.count }))
        }
        let scores = phraseScores(groups, bodyLines: 80)
        var best: ShipmentStatus?
        var bestScore = 0.0
        for status in order where scores[status, default: 0] > bestScore {
            best = status
            bestScore = scores[status, default: 0]
        }
        if let best {
            return (best, "status words: \(best.rawValue) \(bestScore)", bestScore >= 3 ? 0.85 : 0.7)
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
