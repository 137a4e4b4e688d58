import Foundation
import MailDocument

/// The extraction JSON of DESIGN.md as one compact line with a stable key order.
///
/// Keys follow the contract's order (`source`, `messageID`, `kind`, `merchant`, `orderNumber`,
/// `orderDate`, `shipments`, `lineItems`, `total`, `orderManagementURL`, `additionalOrders`,
/// `partialCancellation`, `evidence`); a key is
/// absent when its value is unknown, empty or an empty string. Non-ASCII text is written as
/// UTF-8; control characters, U+2028 and U+2029 are escaped (RFC 8259 §7).
public enum ExtractionJSON {
    /// One JSON object on one line, without the trailing newline.
    /// - Parameter result: the extraction.
    /// - Returns: the JSON text.
    public static func line(_ result: ExtractionResult) -> String {
        var writer = ObjectWriter()
        writer.string("source", result.source)
        writer.string("messageID", result.messageID)
        writer.string("kind", result.kind.rawValue)
        if let merchant = result.merchant {
            writer.object("merchant", merchantObject(merchant))
        }
        writer.string("orderNumber", result.orderNumber)
        writer.string("orderDate", result.orderDate)
        writer.array("shipments", result.shipments?.map(shipmentObject))
        writer.array("lineItems", result.lineItems?.map(lineItemObject))
        if let total = result.total { writer.object("total", amountObject(total)) }
        writer.string("orderManagementURL", result.orderManagementURL)
        writer.array("additionalOrders", result.additionalOrders?.map(orderPartObject))
        if result.partialCancellation == true { writer.raw("partialCancellation", "true") }
        writer.array("evidence", result.evidence?.map(evidenceObject))
        return writer.text
    }

    private static func merchantObject(_ merchant: MerchantInfo) -> String? {
        var writer = ObjectWriter()
        writer.string("name", merchant.name)
        writer.string("domain", merchant.domain)
        return writer.isEmpty ? nil : writer.text
    }

    private static func shipmentObject(_ shipment: Shipment) -> String {
        var writer = ObjectWriter()
        writer.string("carrier", shipment.carrier)
        writer.string("trackingNumber", shipment.trackingNumber)
        writer.string("trackingURL", shipment.trackingURL)
        writer.string("status", shipment.status?.rawValue)
        if let window = shipment.estimatedDelivery {
            var inner = ObjectWriter()
            inner.string("from", window.from)
            inner.string("until", window.until)
            writer.object("estimatedDelivery", inner.isEmpty ? nil : inner.text)
        }
        writer.string("shippedAt", shipment.shippedAt)
        writer.string("deliveredAt", shipment.deliveredAt)
        return writer.text
    }

    private static func amountObject(_ amount: MonetaryAmount) -> String {
        var writer = ObjectWriter()
        writer.string("amount", amount.amount)
        writer.string("currency", amount.currency)
        return writer.text
    }

    private static func lineItemObject(_ item: LineItem) -> String {
        var writer = ObjectWriter()
        writer.string("title", item.title)
        if let quantity = item.quantity { writer.raw("quantity", String(quantity)) }
        if let price = item.price { writer.object("price", amountObject(price)) }
        return writer.text
    }

    private static func orderPartObject(_ part: OrderPart) -> String {
        var writer = ObjectWriter()
        writer.string("orderNumber", part.orderNumber)
        writer.string("orderDate", part.orderDate)
        writer.array("shipments", part.shipments?.map(shipmentObject))
        writer.array("lineItems", part.lineItems?.map(lineItemObject))
        if let total = part.total { writer.object("total", amountObject(total)) }
        return writer.text
    }

    private static func evidenceObject(_ evidence: Evidence) -> String {
        var writer = ObjectWriter()
        writer.string("field", evidence.field)
        writer.string("source", evidence.source)
        writer.string("text", evidence.text)
        if let confidence = evidence.confidence, confidence.isFinite {
            writer.raw("confidence", number(confidence))
        }
        writer.string("location", evidence.location)
        return writer.text
    }

    /// A number with at most four decimals and no exponent.
    static func number(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded()
        let integer = Int64(scaled)
        let whole = integer / 10_000
        var fraction = String(abs(integer % 10_000))
        while fraction.count < 4 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = integer < 0 && whole == 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        JSONText.quoted(text)
    }

    private struct ObjectWriter {
        private var members: [String] = []

        var isEmpty: Bool { members.isEmpty }
        var text: String { "{" + members.joined(separator: ",") + "}" }

        mutating func string(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            members.append(ExtractionJSON.quoted(key) + ":" + ExtractionJSON.quoted(value))
        }

        mutating func raw(_ key: String, _ value: String) {
            members.append(ExtractionJSON.quoted(key) + ":" + value)
        }

        mutating func object(_ key: String, _ value: String?) {
            guard let value else { return }
            members.append(ExtractionJSON.quoted(key) + ":" + value)
        }

        mutating func array(_ key: String, _ values: [String]?) {
            guard let values, !values.isEmpty else { return }
            members.append(ExtractionJSON.quoted(key) + ":[" + values.joined(separator: ",") + "]")
        }
    }
}
