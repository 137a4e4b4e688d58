import Extraction
import Foundation
import MailDocument
import OrderStore
import WalletOrder

/// The Wallet `order.json` an email would produce, for the checker's preview: the
/// extraction as the order store would hold it after this one message, through the same
/// ``OrderBuilder`` that `mailorders scan` writes bundles with.
enum WalletPreview {
    /// The order as pretty-printed JSON with sorted keys, or `nil` when the email gives no order.
    static func json(extraction: ExtractionResult, document: MailDocument, carriers: CarrierCatalog? = nil)
        -> String?
    {
        guard let stored = storedOrder(extraction: extraction, document: document) else { return nil }
        let builder = OrderBuilder { carrierName, trackingNumber in
            guard let carriers, let carrier = carriers.carrier(named: carrierName) else { return nil }
            return carriers.trackingURL(carrierID: carrier.id, trackingNumber: trackingNumber)
        }
        guard let data = try? builder.order(from: stored).jsonData() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The order the store would hold after this message alone.
    static func storedOrder(extraction: ExtractionResult, document: MailDocument) -> StoredOrder? {
        guard extraction.kind != .notAnOrder else { return nil }
        let shipments = (extraction.shipments ?? []).filter { $0.trackingNumber != nil || $0.carrier != nil }
        guard extraction.orderNumber != nil || !shipments.isEmpty else { return nil }
        let domain = extraction.merchant?.domain ?? document.sender?.registrableDomain
        let name = extraction.merchant?.name
        let key = domain ?? name?.lowercased() ?? ""
        let messageDate = document.date
        let fulfillments = shipments.enumerated().map { index, shipment in
            StoredFulfillment(
                id: Int64(index + 1), carrier: shipment.carrier, trackingNumber: shipment.trackingNumber,
                normalizedTrackingNumber: shipment.trackingNumber.map(EmailText.compact),
                trackingURL: shipment.trackingURL,
                status: shipment.status ?? (extraction.kind == .orderConfirmation ? .processing : .shipped),
                estimatedDelivery: shipment.estimatedDelivery,
                shippedAt: shipment.shippedAt.flatMap(WalletTime.day),
                deliveredAt: shipment.deliveredAt.flatMap(WalletTime.day), statusAt: messageDate)
        }
        return StoredOrder(
            id: 1, merchantKey: key, merchantName: name, merchantDomain: domain,
            orderNumber: extraction.orderNumber,
            status: status(extraction), orderDate: extraction.orderDate.flatMap(WalletTime.day),
            firstMessageAt: messageDate, lastMessageAt: messageDate, total: extraction.total,
            lineItems: extraction.lineItems ?? [], orderManagementURL: extraction.orderManagementURL,
            fulfillments: fulfillments,
            messageCount: 1)
    }

    private static func status(_ extraction: ExtractionResult) -> OrderStatus {
        switch extraction.kind {
        // A cancellation of part of the order leaves it open, as `scan` keeps it.
        case .cancellation where extraction.partialCancellation != true: return .cancelled
        case .refund: return .completed
        default:
            let shipments = extraction.shipments ?? []
            if !shipments.isEmpty, shipments.allSatisfy({ $0.status == .delivered }) { return .completed }
            return .open
        }
    }
}
