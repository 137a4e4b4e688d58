import Foundation
import MailDocument

extension ExtractionContext {
    /// Line items from the attached order, markup, else table rows of the rendition that
    /// holds the total: a title cell and a price cell (and a quantity), between the top of
    /// the email and the total. Of the table rows, the first ``Extractor/maximumLineItems``
    /// are kept; when there are more, a warning says so (``warnings``).
    mutating func findLineItems(total: Chosen<MonetaryAmount>?) -> [LineItem] {
        for attached in document.attachedOrders {
            let items = Markup.objects(Markup.object(attached.order)?["lineItems"]).compactMap {
                item -> LineItem? in
                guard let title = Markup.string(item["title"]) else { return nil }
                return LineItem(
                    title: title, quantity: Markup.number(item["quantity"]).map { Int($0) },
                    price: Markup.amount(item["price"], currency: nil))
            }
            if !items.isEmpty {
                evidence.append(
                    Evidence(
                        field: "lineItems", source: "order", text: "order.json lineItems", confidence: 0.97))
                return items
            }
        }
        var markupItems: [LineItem] = []
        for object in Markup.objects(ofType: ["Order"], in: document) {
            let offers =
                Markup.objects(object.properties["acceptedOffer"])
                + Markup.objects(object.properties["orderedItem"])
            for offer in offers {
                let product =
                    Markup.object(offer["itemOffered"]) ?? Markup.object(offer["orderedItem"]) ?? offer
                guard let title = Markup.string(product["name"]) else { continue }
                let quantity = Markup.number(offer["eligibleQuantity"] ?? offer["orderQuantity"]).map {
                    Int($0)
                }
                let price = Markup.amount(offer["price"], currency: offer["priceCurrency"])
                markupItems.append(LineItem(title: title, quantity: quantity, price: price))
            }
        }
        if !markupItems.isEmpty {
            evidence.append(
                Evidence(
                    field: "lineItems", source: "markup", text: "schema.org acceptedOffer", confidence: 0.95))
            return markupItems
        }
        guard let total, let origin = total.best.origin, total.best.source == "label" else { return [] }
        let defaultCurrency = languages.primary?.rules.defaultCurrency
        let summary = languages.summaryRows
        let totals = languages.total
        let quantityLabels = languages.phrases(\.quantity)
        var items: [LineItem] = []
        var contexts: [String] = []
        for line in text.lines(of: origin) {
            // Items stand above the total.
            if line.startOffset + line.bytes.count >= total.best.offset { break }
            let cells = line.cells.map { Text.trimmed(line.string($0)) }.filter { !$0.isEmpty }
            guard cells.count >= 2, cells.count <= 6 else { continue }
            guard let priceCell = cells.last,
                let price = Money.firstAmount(in: priceCell, defaultCurrency: defaultCurrency),
                priceCell.count <= 24
            else { continue }
            guard let title = cells.first, title.count >= 2, title.count <= 120,
                title.contains(where: { $0.isLetter }), Money.firstAmount(in: title) == nil
            else { continue }
            let foldedTitle = Text.fold(Array(title.lowercased().utf8))
            if summary.containsMatch(in: foldedTitle) || totals.containsMatch(in: foldedTitle) { continue }
            var quantity: Int?
            for cell in cells.dropFirst().dropLast() {
                quantity = quantity ?? parseQuantity(cell, labels: quantityLabels.phrases)
            }
            if items.count == Extractor.maximumLineItems {
                // One more row of items than are kept: said, not dropped in silence.
                warnings.append(
                    DocumentWarning(
                        partPath: line.span?.partPath,
                        message:
                            "more than \(Extractor.maximumLineItems) line items: the first \(Extractor.maximumLineItems) kept, the rest left out"
                    ))
                break
            }
            items.append(LineItem(title: title, quantity: quantity ?? 1, price: price))
            contexts.append(line.display)
        }
        if !items.isEmpty {
            evidence.append(
                Evidence(
                    field: "lineItems", source: "body",
                    text: Text.shortened(contexts.joined(separator: " / "), limit: 300),
                    confidence: 0.6))
        }
        return items
    }

    /// A quantity cell: "2", "x2", "× 2", "Qty: 2", "수량: 2", "2개", "2点".
    func parseQuantity(_ cell: String, labels: [Phrase]) -> Int? {
        var rest = Substring(Text.trimmed(cell))
        let folded = Text.fold(Array(rest.lowercased().utf8))
        for label in labels where folded.starts(with: label.folded) {
            rest = Substring(String(decoding: Array(rest.utf8).dropFirst(label.folded.count), as: UTF8.self))
            break
        }
        rest = rest.drop { " :：xX×*".contains($0) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let after = Text.trimmed(String(rest.dropFirst(digits.count)))
        guard !digits.isEmpty, digits.count <= 3, let value = Int(digits), value > 0,
            after.isEmpty
                || ["개", "点", "個", "件", "x", "×", "pcs", "pc", "stk", "st", "unidades", "pièces"].contains(
                    after)
        else { return nil }
        return value
    }
}
