import Extraction
import Foundation
import Mailbox
import OrderStore
import WalletOrder

/// Writes the Wallet order bundle of a stored order, and removes the bundles of orders that
/// no longer exist (shipment-only records absorbed into an order).
struct BundleOutput: Sendable {
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
        self.zip = zip
    }

    /// Writes (or rewrites in place) the bundle of `stored`.
    /// - Returns: where the bundle is.
    @discardableResult
    func write(_ stored: StoredOrder) throws -> URL {
        try writer.write(builder.order(from: stored))
    }

    let zip: Bool

    /// What the bundles in the folder were written as: the order type, zip or folder, signed or
    /// not. When it changes between runs every bundle is written again.
    var mode: String {
        "\(builder.orderTypeIdentifier) \(zip ? "zip" : "folder")\(writer.signing != nil ? " signed" : "")"
    }

    /// Removes bundles in the output folder that this tool wrote (`<name>-<10 hex>` folders
    /// holding an `order.json`, or `.order` files) but that belong to none of `orders` — their
    /// order was merged into another — or that have the other form (folder or zip) than this
    /// run writes.
    /// - Returns: how many bundles were removed.
    func removeStaleBundles(keeping orders: [StoredOrder]) -> Int {
        let fileManager = FileManager.default
        let keep = Set(
            orders.map { BundleWriter.bundleName(for: builder.order(from: $0)) + (zip ? ".order" : "") })
        guard let names = try? fileManager.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where !keep.contains(name) && BundleOutput.looksLikeBundleName(name) {
            let url = directory.appendingPathComponent(name)
            guard BundleOutput.isBundle(at: url) else { continue }
            if (try? fileManager.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    /// Whether `url` holds what ``BundleWriter`` writes and nothing else, so that removing it
    /// loses nothing of anybody's: a zip archive (`.order`, starting with a local file header),
    /// or a folder with `order.json` and only bundle files beside it (`manifest.json`,
    /// `signature`, images, hidden temporary files of an interrupted write), no sub-folders.
    static func isBundle(at url: URL) -> Bool {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard !MessageSource.isSymbolicLink(url.path),
            fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory)
        else { return false }
        if !isDirectory.boolValue {
            guard url.pathExtension == "order", let handle = try? FileHandle(forReadingFrom: url) else {
                return false
            }
            defer { try? handle.close() }
            let start = (try? handle.read(upToCount: 4)) ?? Data()
            return start == Data([0x50, 0x4B, 0x03, 0x04])
        }
        guard let names = try? fileManager.contentsOfDirectory(atPath: url.path), names.contains("order.json")
        else { return false }
        let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "heic"]
        for name in names {
            let child = url.appendingPathComponent(name)
            var childIsDirectory: ObjCBool = false
            _ = fileManager.fileExists(atPath: child.path, isDirectory: &childIsDirectory)
            if childIsDirectory.boolValue || MessageSource.isSymbolicLink(child.path) { return false }
            if ["order.json", "manifest.json", "signature"].contains(name) || name.hasPrefix(".") {
                continue
            }
            if imageExtensions.contains((name as NSString).pathExtension.lowercased()) { continue }
            return false
        }
        return true
    }

    /// `…-<10 lower-case hex digits>`, optionally with `.order`: the names ``BundleWriter`` gives.
    static func looksLikeBundleName(_ name: String) -> Bool { MessageSource.looksLikeBundleName(name) }
}
