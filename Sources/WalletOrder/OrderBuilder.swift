import Extraction
import Foundation
import OrderStore

/// Turns an order from the store into the `Order` of `order.json` (`shared/wallet-orders.md` §1).
///
/// Identifiers are derived only from what identifies the order — the merchant key and the order
/// number, or the tracking number of a shipment-only record — so the same order gets the same
/// `orderIdentifier` on every run and every machine.
public struct OrderBuilder: Sendable {
    /// The default Order Type ID: reverse-DNS, in a `.local` namespace no one can register.
    public static let defaultOrderTypeIdentifier = "order.mailorders.local"

    /// The merchant URL used when an order names no domain at all. `.invalid` is reserved
    /// (RFC 2606 §2) and never resolves, so it cannot send anyone to a stranger's site.
    public static let unknownMerchantURL = "https://merchant.invalid/"

    /// The Order Type ID written to every order (`--order-type-id`).
    public var orderTypeIdentifier: String
    /// A carrier's tracking page for a tracking number, used when the email gave no link;
    /// arguments are the carrier's display name and the tracking number.
    public var trackingURLTemplate: @Sendable (_ carrier: String, _ trackingNumber: String) -> String?

    /// - Parameters:
    ///   - orderTypeIdentifier: The Order Type ID, e.g. `order.com.example.shop`.
    ///   - trackingURLTemplate: Looks up a carrier's tracking URL (from the carrier rules).
    public init(
        orderTypeIdentifier: String = OrderBuilder.defaultOrderTypeIdentifier,
        trackingURLTemplate: @escaping @Sendable (_ carrier: String, _ trackingNumber: String) -> String? = {
            _, _ in nil
        }
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.trackingURLTemplate = trackingURLTemplate
    }

    /// Builds the order.
    ///
    /// - Parameters:
    ///   - stored: The order as the store knows it.
    ///   - merchantLogo: File name of the merchant's logo in the bundle, when the email embedded
    ///     one (`cid:` part); nothing is ever downloaded.
    /// - Returns: The order. `updatedAt` is the store's `updatedAt` (a clock that increases with
    ///   every change), else the latest message's Date, and never before `createdAt`.
    public func order(from stored: StoredOrder, merchantLogo: String? = nil) -> Order {
        let domain = stored.merchantDomain.flatMap(OrderBuilder.cleanDomain)
        let merchantURL = domain.map { "https://\($0)/" } ?? OrderBuilder.unknownMerchantURL
        let displayName =
            nonEmpty(stored.merchantName) ?? domain ?? nonEmpty(stored.merchantKey) ?? "Unknown merchant"
        let merchant = Merchant(
            displayName: displayName,
            merchantIdentifier: OrderBuilder.merchantIdentifier(domain: domain, key: stored.merchantKey),
            url: merchantURL, logo: merchantLogo)

        let fulfillments = stored.fulfillments.enumerated().map { index, stored in
            Fulfillment.shipping(shipping(from: stored, index: index))
        }
        let firstTrackingURL = fulfillments.lazy.compactMap { $0.shipping?.trackingURL }.first

        let created = createdAt(stored)
        // The store's logical clock when it keeps one, else the latest message; never before createdAt.
        let updated = [stored.updatedAt ?? stored.lastMessageAt, created].compactMap { $0 }.max() ?? created
        let managementURL =
            stored.orderManagementURL.flatMap(OrderBuilder.webURL)
            ?? domain.map { "https://\($0)/" } ?? firstTrackingURL ?? OrderBuilder.unknownMerchantURL

        let lineItems = stored.lineItems.compactMap(lineItem)
        let payment = stored.total.flatMap { total -> Payment? in
            guard let amount = CurrencyAmount(decimal: total.amount, currency: total.currency) else {
                return nil
            }
            return Payment(total: amount, status: stored.status == .cancelled ? .voided : .paid)
        }

        return Order(
            orderTypeIdentifier: orderTypeIdentifier,
            orderIdentifier: OrderBuilder.orderIdentifier(for: stored),
            orderNumber: nonEmpty(stored.orderNumber),
            status: Order.Status(rawValue: stored.status.rawValue) ?? .open,
            createdAt: created, updatedAt: updated,
            orderManagementURL: managementURL, merchant: merchant,
            lineItems: lineItems.isEmpty ? nil : lineItems,
            fulfillments: fulfillments.isEmpty ? nil : fulfillments,
            payment: payment)
    }

    /// The order's stable identifier: SHA-256 of `merchant key NUL order number`, or of
    /// `tracking NUL normalized tracking number` for a shipment-only record, in hex.
    ///
    /// - Parameter stored: The order.
    /// - Returns: 64 hex digits (or 32 prefixed with `store-` when nothing identifies the order).
    public static func orderIdentifier(for stored: StoredOrder) -> String {
        let key = stored.merchantKey.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let number = stored.orderNumber?.trimmingCharacters(in: .whitespacesAndNewlines), !number.isEmpty {
            return Crypto.sha256Hex(Data("\(key)\u{0}\(number)".utf8))
        }
        let tracking = stored.fulfillments.lazy.compactMap { fulfillment in
            fulfillment.normalizedTrackingNumber ?? fulfillment.trackingNumber.map(normalizeTracking)
        }.first { !$0.isEmpty }
        if let tracking {
            return Crypto.sha256Hex(Data("tracking\u{0}\(tracking)".utf8))
        }
        let first = stored.firstMessageAt.map { WalletTime.format($0) } ?? ""
        return "store-" + Crypto.sha256Hex(Data("\(key)\u{0}\(first)".utf8)).prefix(32)
    }

    /// `merchant.` followed by the domain's labels reversed (`example.co.uk` →
    /// `merchant.uk.co.example`), the form of an Apple Merchant ID; without a domain, a slug of
    /// the merchant key under `merchant.local.`.
    static func merchantIdentifier(domain: String?, key: String) -> String {
        if let domain {
            return "merchant." + domain.split(separator: ".").reversed().joined(separator: ".")
        }
        return "merchant.local." + (BundleWriter.slug(key.lowercased(), limit: 60) ?? "unknown")
    }

    /// A domain reduced to lower-case `[a-z0-9.-]` labels, or `nil` when it is not one.
    static func cleanDomain(_ text: String) -> String? {
        let domain = text.trimmingCharacters(in: CharacterSet(charactersIn: " .")).lowercased()
        guard domain.contains("."), domain.utf8.count <= 253 else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let valid = labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy {
                    ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                }
        }
        return valid ? domain : nil
    }

    /// `text` when it is an absolute `https` or `http` URL with a host, else `nil`.
    static func webURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 2048, let url = URL(string: trimmed),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { return nil }
        return trimmed
    }

    static func normalizeTracking(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != " " && $0 != "-" }).uppercased()
    }

    private func createdAt(_ stored: StoredOrder) -> Date {
        if let date = stored.orderDate ?? stored.firstMessageAt ?? stored.lastMessageAt { return date }
        let fulfillmentDates = stored.fulfillments.flatMap { [$0.shippedAt, $0.statusAt, $0.deliveredAt] }
        // No email of the order had a Date header: the time the store recorded it.
        return fulfillmentDates.compactMap { $0 }.min() ?? stored.updatedAt ?? Date()
    }

    private func shipping(from stored: StoredFulfillment, index: Int) -> ShippingFulfillment {
        let number = nonEmpty(stored.trackingNumber)
        let normalized =
            nonEmpty(stored.normalizedTrackingNumber) ?? number.map(OrderBuilder.normalizeTracking)
        let identifier =
            normalized.map { "tracking-" + Crypto.sha256Hex(Data($0.utf8)).prefix(16) }
            ?? "shipment-\(index + 1)"
        let carrier = nonEmpty(stored.carrier)
        var trackingURL = stored.trackingURL.flatMap(OrderBuilder.webURL)
        if trackingURL == nil, let carrier, let number {
            trackingURL = trackingURLTemplate(carrier, number).flatMap(OrderBuilder.webURL)
        }
        var estimatedAt: Date?
        var window: String?
        if let estimate = stored.estimatedDelivery, let from = WalletTime.day(estimate.from) {
            estimatedAt = from
            if let until = WalletTime.day(estimate.until), until > from {
                let days = Int((until.timeIntervalSince(from) / 86_400).rounded()) + 1
                window = WalletTime.duration(days: days)
            }
        }
        return ShippingFulfillment(
            fulfillmentIdentifier: identifier,
            status: ShippingFulfillment.Status(rawValue: stored.status.rawValue) ?? .processing,
            carrier: carrier, trackingNumber: number, trackingURL: trackingURL, shippedAt: stored.shippedAt,
            estimatedDeliveryAt: estimatedAt, estimatedDeliveryWindowDuration: window,
            deliveredAt: stored.deliveredAt)
    }

    private func lineItem(_ item: Extraction.LineItem) -> LineItem? {
        guard let title = nonEmpty(item.title) else { return nil }
        let price = item.price.flatMap { CurrencyAmount(decimal: $0.amount, currency: $0.currency) }
        return LineItem(title: title, quantity: Decimal(max(item.quantity ?? 1, 1)), price: price)
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed
    }
}

extension OrderBuilder {
    /// A builder whose tracking links, when an email gave none, come from the carrier rules'
    /// `trackingURLTemplate` (`rules/carriers/*.json5`).
    ///
    /// - Parameters:
    ///   - orderTypeIdentifier: The Order Type ID (`--order-type-id`).
    ///   - carriers: The loaded carrier rules; carriers are found by display name.
    public init(
        orderTypeIdentifier: String = OrderBuilder.defaultOrderTypeIdentifier, carriers: CarrierCatalog
    ) {
        self.init(orderTypeIdentifier: orderTypeIdentifier) { name, number in
            guard let carrier = carriers.carrier(named: name) else { return nil }
            let compact = String(number.unicodeScalars.filter { $0 != " " })
            return carriers.trackingURL(carrierID: carrier.id, trackingNumber: compact)
        }
    }
}
