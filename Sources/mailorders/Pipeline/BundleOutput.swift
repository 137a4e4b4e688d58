import Extraction
import Foundation
import OrderStore
import WalletOrder

/// Writes the Wallet order bundle of a stored order, and removes the bundles of orders that
/// no longer exist (shipment-only records absorbed into an order).
struct BundleOutput {
    let builder: OrderBuilder
    let writer: BundleWriter
    let directory: URL

    init(
        directory: URL, zip: Bool, orderTypeIdentifier: String,
        signing: (certificate: String, key: String, wwdr: String?)?, carriers: CarrierCatalog
    ) throws {
        self.directory = directory
        builder = OrderBuilder(orderTypeIdentifier: orderTypeIdentifier) { carrierName, trackingNumber in
            guard let carrier = carriers.carrier(named: carrierName) else { return nil }
            return carriers.trackingURL(carrierID: carrier.id, trackingNumber: trackingNumber)
        }
        let identity = try signing.map {
            try SigningIdentity(
                certificatePEM: URL(fileURLWithPath: $0.certificate), keyPEM: URL(fileURLWithPath: $0.key),
                wwdrPEM: $0.wwdr.map { URL(fileURLWithPath: $0) })
        }
        writer = BundleWriter(outputDirectory: directory, zip: zip, signing: identity)
    }

    /// Writes (or rewrites in place) the bundle of `stored`.
    /// - Returns: where the bundle is.
    @discardableResult
    func write(_ stored: StoredOrder) throws -> URL {
        try writer.write(builder.order(from: stored))
    }

    /// Removes bundles in the output folder that were written for this order type but belong
    /// to none of `orders` (their order was merged into another). Only folders and `.order`
    /// files whose `order.json` carries this run's `orderTypeIdentifier` are touched.
    /// - Returns: how many bundles were removed.
    func removeStaleBundles(keeping orders: [StoredOrder]) -> Int {
        let fileManager = FileManager.default
        let keep = Set(orders.map { BundleWriter.bundleName(for: builder.order(from: $0)) })
        guard let names = try? fileManager.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names {
            let base = name.hasSuffix(".order") ? String(name.dropLast(6)) : name
            guard !keep.contains(base) else { continue }
            let url = directory.appendingPathComponent(name)
            let orderJSON = url.appendingPathComponent("order.json")
            guard let data = try? Data(contentsOf: orderJSON),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                object["orderTypeIdentifier"] as? String == builder.orderTypeIdentifier
            else { continue }
            if (try? fileManager.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }
}
