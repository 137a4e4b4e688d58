import Extraction
import Foundation
import MailDocument

/// The Wallet `order.json` an email would produce, for the checker's preview.
enum WalletPreview {
    /// The order as pretty-printed JSON with sorted keys, or `nil` when the email gives no order.
    static func json(extraction: ExtractionResult, document: MailDocument) -> String? {
        guard let object = order(extraction: extraction, document: document),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The order as a JSON object (Wallet Orders `Order`).
    static func order(extraction: ExtractionResult, document: MailDocument) -> [String: Any]? {
        guard extraction.kind != .notAnOrder else { return nil }
        let shipments = extraction.shipments ?? []
        guard extraction.orderNumber != nil || !shipments.isEmpty else { return nil }
        let domain = extraction.merchant?.domain ?? document.sender?.registrableDomain ?? "unknown.invalid"
        let merchantName = extraction.merchant?.name ?? domain
        let reversed = domain.split(separator: ".").reversed().joined(separator: ".")
        let reference = extraction.orderNumber ?? shipments.compactMap(\.trackingNumber).first ?? "order"
        let timestamp = timestamp(extraction: extraction, document: document)

        var order: [String: Any] = [
            "schemaVersion": 1,
            "orderType": "ecommerce",
            "orderTypeIdentifier": "order.\(reversed)",
            "orderIdentifier": "\(domain):\(reference)",
            "status": status(extraction),
            "createdAt": timestamp,
            "updatedAt": timestamp,
            "orderManagementURL": "https://\(domain)/",
            "merchant": [
                "displayName": merchantName,
                "merchantIdentifier": "merchant.\(reversed)",
                "url": "https://\(domain)/",
            ],
        ]
        if let number = extraction.orderNumber { order["orderNumber"] = number }
        if !shipments.isEmpty {
            order["fulfillments"] = shipments.enumerated().map { index, shipment in
                var fulfillment: [String: Any] = [
                    "fulfillmentType": "shipping",
                    "fulfillmentIdentifier": "shipment-\(index + 1)",
                    "status": (shipment.status ?? .shipped).rawValue,
                ]
                if let carrier = shipment.carrier { fulfillment["carrier"] = carrier }
                if let number = shipment.trackingNumber { fulfillment["trackingNumber"] = number }
                if let url = shipment.trackingURL { fulfillment["trackingURL"] = url }
                if let window = shipment.estimatedDelivery {
                    fulfillment["estimatedDeliveryAt"] = window.from + "T00:00:00Z"
                    if let days = days(from: window.from, until: window.until), days > 0 {
                        fulfillment["estimatedDeliveryWindowDuration"] = "P\(days + 1)D"
                    }
                }
                return fulfillment
            }
        }
        if let items = extraction.lineItems, !items.isEmpty {
            order["lineItems"] = items.map { item in
                var line: [String: Any] = ["title": item.title, "quantity": item.quantity ?? 1]
                if let price = item.price { line["price"] = amount(price) }
                return line
            }
        }
        if let total = extraction.total { order["payment"] = ["total": amount(total)] }
        return order
    }

    private static func status(_ extraction: ExtractionResult) -> String {
        switch extraction.kind {
        case .cancellation: return "cancelled"
        case .refund: return "completed"
        default:
            let shipments = extraction.shipments ?? []
            if !shipments.isEmpty, shipments.allSatisfy({ $0.status == .delivered }) { return "completed" }
            return "open"
        }
    }

    private static func amount(_ money: MonetaryAmount) -> [String: Any] {
        let number: Any = Decimal(string: money.amount).map { NSDecimalNumber(decimal: $0) } ?? money.amount
        return ["amount": number, "currency": money.currency]
    }

    private static func timestamp(extraction: ExtractionResult, document: MailDocument) -> String {
        if let date = document.date {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: date)
        }
        if let day = extraction.orderDate { return day + "T00:00:00Z" }
        return "1970-01-01T00:00:00Z"
    }

    private static func days(from: String, until: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        guard let start = formatter.date(from: from), let end = formatter.date(from: until) else {
            return nil
        }
        return Int((end.timeIntervalSince(start) / 86_400).rounded())
    }
}
