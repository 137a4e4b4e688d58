import Extraction
import Foundation

@testable import OrderStore

/// A store in a fresh temporary folder, removed when the test ends.
final class TemporaryStore {
    let folder: URL
    let path: String
    let store: SQLiteOrderStore

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("orderstore-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("mailorders.sqlite").path
        store = try SQLiteOrderStore(path: path)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Applies messages in order and returns the outcome of the last one.
    @discardableResult
    func apply(_ messages: IngestedMessage...) throws -> ApplyOutcome? {
        try apply(messages)
    }

    @discardableResult
    func apply(_ messages: [IngestedMessage]) throws -> ApplyOutcome? {
        var last: ApplyOutcome?
        for message in messages { last = try store.apply(message) }
        return last
    }
}

let shop = MerchantInfo(name: "Example Outfitters", domain: "example.com")
let otherShop = MerchantInfo(name: "Other Store", domain: "other.example")

/// `2026-11-<day>T<hour>:00:00Z`.
func november(_ day: Int, _ hour: Int = 12) -> Date {
    Date(timeIntervalSince1970: 1_793_491_200 + Double(day - 1) * 86_400 + Double(hour) * 3_600)
}

/// A message whose identity is `name` (Message-ID `<name@test>`, content hash `hash-name`).
func message(
    _ name: String, _ kind: EmailKind, at date: Date?, merchant: MerchantInfo? = shop,
    orderNumber: String? = nil, shipments: [Shipment]? = nil, lineItems: [LineItem]? = nil,
    total: MonetaryAmount? = nil, additionalOrders: [OrderPart]? = nil, messageID: String?? = .none,
    orderManagementURL: String? = nil
) -> IngestedMessage {
    IngestedMessage(
        origin: "thread/\(name).eml", messageID: messageID ?? "<\(name)@test>", contentHash: "hash-\(name)",
        date: date,
        extraction: ExtractionResult(
            kind: kind, merchant: merchant, orderNumber: orderNumber, shipments: shipments,
            lineItems: lineItems,
            total: total, additionalOrders: additionalOrders),
        orderManagementURL: orderManagementURL)
}

func ups(_ number: String = "1Z999AA10123456784", _ status: ShipmentStatus? = nil) -> Shipment {
    Shipment(carrier: "UPS", trackingNumber: number, status: status)
}

func fedex(_ number: String = "449044304137821", _ status: ShipmentStatus? = nil) -> Shipment {
    Shipment(carrier: "FedEx", trackingNumber: number, status: status)
}

extension ApplyOutcome {
    var effects: ApplyEffects? {
        if case .applied(let effects) = self { return effects }
        return nil
    }
}

func ups(_ status: ShipmentStatus) -> Shipment { ups("1Z999AA10123456784", status) }

func fedex(_ status: ShipmentStatus) -> Shipment { fedex("449044304137821", status) }
