import Foundation
import MailDocument

extension ExtractionContext {
    /// Shipments from the attached order, markup and the carrier search, with status and
    /// estimated delivery. `notAnOrder` never reaches here.
    mutating func buildShipments(tracking: [TrackingCandidate], kind: EmailKind) -> [Shipment] {
        var shipments: [Shipment] = []
        // The numbers taken, upper-cased: a few per email, compared in order.
        var seen: [String] = []
        func append(_ shipment: Shipment, source: String, text: String, confidence: Double) {
            if let number = shipment.trackingNumber {
                let key = number.uppercased()
                guard !seen.contains(key) else { return }
                seen.append(key)
            }
            let index = shipments.count
            shipments.append(shipment)
            if shipment.trackingNumber != nil {
                evidence.append(
                    Evidence(
                        field: "shipments[\(index)].trackingNumber", source: source, text: text,
                        confidence: confidence))
            }
        }
        for attached in document.attachedOrders {
            for fulfillment in Markup.objects(Markup.object(attached.order)?["fulfillments"]) {
                guard Markup.string(fulfillment["fulfillmentType"]) != "pickup" else { continue }
                var shipment = Shipment(
                    carrier: Markup.string(fulfillment["carrier"]),
                    trackingNumber: Markup.string(fulfillment["trackingNumber"]).map(compact),
                    trackingURL: Markup.string(fulfillment["trackingURL"]),
                    status: Markup.string(fulfillment["status"]).flatMap(ShipmentStatus.init(rawValue:)),
                    shippedAt: Markup.day(fulfillment["shippedAt"])?.iso)
                if let day = Markup.day(fulfillment["estimatedDeliveryAt"]) {
                    shipment.estimatedDelivery = DateWindow(from: day.iso, until: day.iso)
                }
                if shipment.trackingNumber != nil || shipment.carrier != nil {
                    append(shipment, source: "order", text: "order.json fulfillment", confidence: 0.97)
                }
            }
        }
        for object in Markup.objects(ofType: ["ParcelDelivery"], in: document) {
            let properties = object.properties
            guard let number = Markup.string(properties["trackingNumber"]).map(compact) else { continue }
            let carrierText = Markup.string(properties["carrier"])
            let rule = carrierText.flatMap { rules.carriers.carrier(named: $0, trackingNumber: number) }
            var shipment = Shipment(
                carrier: rule?.name ?? carrierText, trackingNumber: number,
                trackingURL: Markup.string(properties["trackingUrl"])
                    ?? rule.flatMap { rules.carriers.trackingURL(carrierID: $0.id, trackingNumber: number) })
            let from = Markup.day(properties["expectedArrivalFrom"])
            if let until = Markup.day(properties["expectedArrivalUntil"]) ?? from {
                shipment.estimatedDelivery = DateWindow(from: (from ?? until).iso, until: until.iso)
            }
            append(
                shipment, source: "markup", text: "schema.org ParcelDelivery trackingNumber: \(number)",
                confidence: 0.95)
        }
        for candidate in tracking {
            let shipment = Shipment(
                carrier: candidate.carrierName, trackingNumber: candidate.trackingNumber,
                trackingURL: candidate.trackingURL
                    ?? rules.carriers.trackingURL(
                        carrierID: candidate.carrierID, trackingNumber: candidate.trackingNumber))
            let source: String
            switch candidate.source {
            case .link: source = "link"
            case .labelledText: source = "label"
            case .text: source = "pattern"
            case .subject: source = "subject"
            }
            append(
                shipment, source: source, text: Text.shortened(candidate.context, limit: 200),
                confidence: (min(candidate.score, 0.99) * 100).rounded() / 100)
        }
        var delivery = findEstimatedDelivery()
        var status = findStatus(kind: kind)
        // A shop's shipping confirmation says the parcel has left: "shipped", even when it
        // adds that the parcel is on its way.
        if kind == .shippingConfirmation, let found = status, !found.1.hasPrefix("schema.org"),
            found.0 == .onTheWay || found.0 == .processing
        {
            status = (.shipped, found.1 + " (shipping confirmation)", found.2)
        }
        if delivery == nil, status?.0 == .outForDelivery, let reference {
            // Out for delivery: it arrives on the day of the email.
            let today = DateWindow(from: reference.iso, until: reference.iso)
            delivery = Chosen(
                best: Candidate(
                    value: today, key: reference.iso, source: "body", score: 0.6,
                    text: "out for delivery on \(reference.iso)", origin: nil),
                supporting: [], score: 0.6)
        }
        if shipments.isEmpty {
            // A parcel without a tracking number: only when a carrier or a delivery date is named.
            let carrier = findCarrierLabel()
            guard carrier != nil || delivery != nil else { return [] }
            shipments.append(Shipment(carrier: carrier))
        }
        for index in shipments.indices {
            if shipments[index].status == nil, let status {
                shipments[index].status = status.0
                if index == 0 {
                    evidence.append(
                        Evidence(
                            field: "shipments[0].status", source: "body", text: status.1, confidence: status.2
                        ))
                }
            }
            if shipments[index].estimatedDelivery == nil, let delivery {
                shipments[index].estimatedDelivery = delivery.value
                if index == 0 { evidence.append(delivery.evidence(field: "shipments[0].estimatedDelivery")) }
            }
            if shipments[index].status == .delivered, shipments[index].deliveredAt == nil, let reference,
                kind == .deliveryUpdate || kind == .carrierUpdate
            {
                shipments[index].deliveredAt = reference.iso
            }
        }
        return shipments
    }

    func compact(_ number: String) -> String {
        number.filter { !$0.isWhitespace }
    }

    /// A carrier named beside a carrier label ("Carrier: UPS", "택배사: CJ대한통운").
    func findCarrierLabel() -> String? {
        for found in LabelledValues.find(
            languages.phrases(\.carrier), in: text, origins: bodyOrigins, hits: phraseHits)
        {
            if let rule = rules.carriers.carrier(named: String(found.value.prefix(40))) { return rule.name }
        }
        return nil
    }

    /// The estimated delivery day or window beside a delivery label, in the email's languages.
    func findEstimatedDelivery() -> Chosen<DateWindow>? {
        let labelled = LabelledValues.find(
            languages.phrases(\.estimatedDelivery), in: text,
            origins: Self.allOrigins, hits: phraseHits)
        guard !labelled.isEmpty else { return nil }
        var candidates: [Candidate<DateWindow>] = []
        // At most one candidate per labelled value: room for all of them at once.
        candidates.reserveCapacity(labelled.count)
        // The renditions repeat a label and its value (HTML and text/plain): a value read
        // before gives the language and window it gave then, read once.
        var readings = DeliveryReadings()
        for found in labelled {
            let value = FieldText.prefix(found.value, characters: 80)
            guard
                let reading = readings.reading(
                    of: value,
                    read: { value in
                        for language in languages.all {
                            let dates = dateMemo.dates(in: value, language: language, reference: reference)
                            if let window = language.dates.window(
                                in: value, reference: reference, found: dates)
                            {
                                return DeliveryReadings.Reading(window: window, datesEmpty: dates.isEmpty)
                            }
                        }
                        return nil
                    })
            else { continue }
            let isSubject = found.line.origin == .subject || found.line.origin == .preheader
            var score = isSubject ? 0.65 : found.placement.score
            // A label inside a sentence, or a relative word, is less sure than a date in its own cell.
            if !isSubject && found.placement == .sameCell && !found.labelOpensCell { score -= 0.05 }
            if reading.datesEmpty { score -= 0.03 }
            candidates.append(
                Candidate(
                    value: reading.window, key: reading.key,
                    source: isSubject ? "subject" : "label",
                    score: score, lines: EvidenceLines(found),
                    origin: found.line.origin,
                    offset: found.offset))
        }
        return Scoring.choose(candidates, threshold: 0.6)
    }

    /// Further orders in the same email: other order numbers labelled in the same rendition
    /// as the first. Each order owns the part of the text from its label to the next order's:
    /// the shipments and the total found there are its own.
    ///
    /// At most ``Extractor/maximumOrders`` orders in all: the first one and the others first
    /// in the text. An order past the limit is left out with the part of the text it owns (its
    /// shipments and total are given to no other order), and a warning says so.
    mutating func additionalOrders(
        ranked: [Chosen<String>], shipments: inout [Shipment], tracking: [TrackingCandidate],
        total: inout MonetaryAmount?, orderDate: String?
    ) -> [OrderPart] {
        guard ranked.count > 1, let primary = ranked.first, let origin = primary.best.origin,
            origin == .html || origin == .plain
        else { return [] }
        func offset(of chosen: Chosen<String>) -> Int? {
            ([chosen.best] + chosen.supporting).first { $0.origin == origin && $0.source == "label" }?.offset
        }
        // Each further order with the offset of its label, ranked.
        var others: [(chosen: Chosen<String>, offset: Int)] = ranked.dropFirst().compactMap { chosen in
            guard chosen.score >= 0.7 && chosen.best.source == "label",
                !chosen.value.uppercased().contains(primary.value.uppercased()),
                !primary.value.uppercased().contains(chosen.value.uppercased()),
                let position = offset(of: chosen)
            else { return nil }
            return (chosen, position)
        }
        guard !others.isEmpty, let primaryOffset = offset(of: primary) else { return [] }
        // Past the limit, the orders first in the text are kept (in their ranked order); the
        // others still own their part of the text, but are not reported.
        let kept = Extractor.maximumOrders - 1
        var dropped: [(chosen: Chosen<String>, offset: Int)] = []
        if others.count > kept {
            let lastKept = others.map(\.offset).sorted()[kept - 1]
            dropped = others.filter { $0.offset > lastKept }
            others.removeAll { $0.offset > lastKept }
            let firstDropped = dropped.map(\.offset).min() ?? lastKept
            warnings.append(
                DocumentWarning(
                    partPath: text.lines(of: origin).last { $0.startOffset <= firstDropped }?.span?.partPath,
                    message:
                        "more than \(Extractor.maximumOrders) orders: the first \(Extractor.maximumOrders) kept, the rest left out"
                ))
        }
        // Each label's offset with the order it starts: nil for an order left out.
        var anchors: [(String?, Int)] = [(primary.value, primaryOffset)]
        anchors += others.map { ($0.chosen.value, $0.offset) }
        anchors += dropped.map { (nil, $0.offset) }
        anchors.sort { $0.1 < $1.1 }
        func owner(of position: Int) -> String? {
            guard let anchor = anchors.last(where: { $0.1 <= position }) else { return primary.value }
            return anchor.0
        }
        var moved: [String: [Shipment]] = [:]
        var keptShipments: [Shipment] = []
        for shipment in shipments {
            guard let number = shipment.trackingNumber,
                let candidate = tracking.first(where: { $0.trackingNumber == number }),
                let position = candidate.utf8Offset
            else {
                keptShipments.append(shipment)
                continue
            }
            // A shipment under an order left out is left out with it.
            guard let name = owner(of: position) else { continue }
            if name == primary.value {
                keptShipments.append(shipment)
            } else {
                moved[name, default: []].append(shipment)
            }
        }
        shipments = keptShipments
        // Totals by segment.
        var totals: [String: [Candidate<MonetaryAmount>]] = [:]
        for candidate in totalCandidates() where candidate.origin == origin && candidate.source == "label" {
            guard candidate.offset >= (anchors.first?.1 ?? 0), let name = owner(of: candidate.offset) else {
                continue
            }
            totals[name, default: []].append(candidate)
        }
        if let own = totals[primary.value].flatMap({ Scoring.choose($0, threshold: 0.6) }) {
            total = own.value
        }
        return others.map { other in
            OrderPart(
                orderNumber: other.chosen.value, orderDate: orderDate, shipments: moved[other.chosen.value],
                total: totals[other.chosen.value].flatMap { Scoring.choose($0, threshold: 0.6) }?.value)
        }
    }
}

/// The estimated-delivery values of one email already read, each with what reading it gave
/// (``Reading``). A value repeated (the same label and value in the HTML and the text/plain
/// rendition) is read once.
///
/// Shape: one entry per distinct value, searched in order (an email has a few at most).
struct DeliveryReadings {
    /// What one value gave: the window of the first language that reads one, and whether
    /// that language found no date in it (a relative word or a weekday).
    struct Reading {
        let window: DateWindow
        let datesEmpty: Bool
        /// The window's candidate key (`from` then `until`), made once per value.
        let key: String

        init(window: DateWindow, datesEmpty: Bool) {
            self.window = window
            self.datesEmpty = datesEmpty
            key = window.from + window.until
        }
    }

    private var values: [String] = []
    private var readings: [Reading?] = []

    /// What `read` gives for `value`, called only for a value not seen before.
    /// - Parameters:
    ///   - value: the labelled value, as read.
    ///   - read: reads a value, `nil` when no language reads a window in it.
    mutating func reading(of value: String, read: (String) -> Reading?) -> Reading? {
        if let index = values.firstIndex(of: value) { return readings[index] }
        let result = read(value)
        values.append(value)
        readings.append(result)
        return result
    }
}
