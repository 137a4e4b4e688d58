import Foundation
import MailDocument

/// Reading schema.org objects and attached Wallet orders, the most trusted sources.
enum Markup {
    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text):
            let trimmed = Text.trimmed(text)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number):
            if number == number.rounded() && abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .object(let object):
            return string(object["name"]) ?? string(object["@id"])
        case .array(let values):
            return values.lazy.compactMap { string($0) }.first
        default:
            return nil
        }
    }

    static func object(_ value: JSONValue?) -> [String: JSONValue]? {
        switch value {
        case .object(let object): object
        case .array(let values): values.lazy.compactMap { object($0) }.first
        default: nil
        }
    }

    static func objects(_ value: JSONValue?) -> [[String: JSONValue]] {
        switch value {
        case .object(let object): [object]
        case .array(let values): values.compactMap { object($0) }
        default: []
        }
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number): number
        case .string(let text): Double(text.replacingOccurrences(of: ",", with: ""))
        default: nil
        }
    }

    /// The type of a nested object (`@type` as normalized by the document stage).
    static func type(of object: [String: JSONValue]) -> String? {
        string(object["@type"]) ?? string(object["type"])
    }

    /// A schema.org value that ends in a status name, e.g. `http://schema.org/OrderInTransit`.
    static func statusName(_ value: JSONValue?) -> String? {
        guard let text = string(value) else { return nil }
        return text.split(separator: "/").last.map(String.init)
    }

    static func shipmentStatus(schemaName: String) -> ShipmentStatus? {
        switch schemaName {
        case "OrderDelivered": .delivered
        case "OrderInTransit": .onTheWay
        case "OrderPickupAvailable": .delivered
        case "OrderProcessing", "OrderPaymentDue": .processing
        case "OrderCancelled": .cancelled
        case "OrderProblem", "OrderReturned": .issue
        default: nil
        }
    }

    static func amount(_ value: JSONValue?, currency: JSONValue?) -> MonetaryAmount? {
        if let object = object(value),
            let amount = self.amount(
                object["amount"] ?? object["price"] ?? object["value"],
                currency: object["currency"] ?? object["priceCurrency"])
        {
            return amount
        }
        guard let currency = string(currency)?.uppercased(), currency.count == 3 else { return nil }
        let text: String
        switch value {
        case .number(let number): text = String(format: "%.2f", number)
        case .string(let string): text = string
        default: return nil
        }
        guard let normalized = Money.normalize(text, currency: currency) else { return nil }
        return MonetaryAmount(amount: normalized, currency: currency)
    }

    /// An RFC 3339 or ISO 8601 date-time's day, `YYYY-MM-DD`.
    static func day(_ value: JSONValue?) -> CivilDate? {
        guard let text = string(value), text.count >= 10 else { return nil }
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    /// The schema.org objects of the given types, in document order.
    /// - Parameter types: one or two type names (a list: no set is hashed for each question,
    ///   and most documents have no objects at all).
    static func objects(ofType types: [String], in document: MailDocument) -> [SchemaObject] {
        guard !document.structuredData.isEmpty else { return [] }
        return document.structuredData.filter { types.contains($0.type) }
    }
}
