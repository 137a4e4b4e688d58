import Extraction
import Foundation

// CONTRACT TYPES: what the WalletOrder stage and the command line read. Fields may be added.

/// An order as the store knows it after linking every message applied so far.
public struct StoredOrder: Sendable, Hashable {
    /// The store's row id (not stable across databases).
    public var id: Int64
    /// What identifies the merchant: its registrable domain, else a normalized name.
    public var merchantKey: String
    public var merchantName: String?
    public var merchantDomain: String?
    /// `nil` for a shipment-only record (a carrier email whose order was never seen).
    public var orderNumber: String?
    public var status: OrderStatus
    /// The order date from the email, when one was given.
    public var orderDate: Date?
    /// The Date of the first contributing message.
    public var firstMessageAt: Date?
    /// The Date of the latest contributing message (never decreases).
    public var lastMessageAt: Date?
    public var total: MonetaryAmount?
    public var lineItems: [LineItem]
    /// The email's "view order" link, when found.
    public var orderManagementURL: String?
    public var fulfillments: [StoredFulfillment]
    /// How many distinct messages contributed.
    public var messageCount: Int
    /// Wallet's `updatedAt`: a logical clock over message Dates that increases with every change,
    /// even when the change came from an older message (Wallet Orders `Order.updatedAt`).
    public var updatedAt: Date?
    /// The sequence number of the last message that changed this order (see
    /// ``OrderStore/orders(changedAfter:)``).
    public var changeSequence: Int64
    /// The order's day as extracted, `YYYY-MM-DD` (``orderDate`` is its midnight UTC).
    public var orderDay: String? {
        guard let orderDate else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: orderDate)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
    /// A carrier's shipment that no merchant email has claimed: no order number.
    public var isShipmentOnly: Bool { orderNumber == nil }

    public init(
        id: Int64, merchantKey: String, merchantName: String? = nil, merchantDomain: String? = nil,
        orderNumber: String? = nil, status: OrderStatus = .open, orderDate: Date? = nil,
        firstMessageAt: Date? = nil, lastMessageAt: Date? = nil, total: MonetaryAmount? = nil,
        lineItems: [LineItem] = [], orderManagementURL: String? = nil,
        fulfillments: [StoredFulfillment] = [], messageCount: Int = 0, changeSequence: Int64 = 0,
        updatedAt: Date? = nil
    ) {
        self.id = id
        self.merchantKey = merchantKey
        self.merchantName = merchantName
        self.merchantDomain = merchantDomain
        self.orderNumber = orderNumber
        self.status = status
        self.orderDate = orderDate
        self.firstMessageAt = firstMessageAt
        self.lastMessageAt = lastMessageAt
        self.total = total
        self.lineItems = lineItems
        self.orderManagementURL = orderManagementURL
        self.fulfillments = fulfillments
        self.messageCount = messageCount
        self.changeSequence = changeSequence
        self.updatedAt = updatedAt
    }
}

/// Wallet order status (`Order.status`).
public enum OrderStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case open, completed, cancelled
}

/// One shipment of an order.
public struct StoredFulfillment: Sendable, Hashable {
    public var id: Int64
    public var carrier: String?
    /// The tracking number as printed.
    public var trackingNumber: String?
    /// Spaces and hyphens removed, upper-cased: the linking key.
    public var normalizedTrackingNumber: String?
    public var trackingURL: String?
    public var status: ShipmentStatus
    public var estimatedDelivery: DateWindow?
    public var shippedAt: Date?
    public var deliveredAt: Date?
    /// When the status last changed (the Date of the message that moved it).
    public var statusAt: Date?

    public init(
        id: Int64, carrier: String? = nil, trackingNumber: String? = nil,
        normalizedTrackingNumber: String? = nil, trackingURL: String? = nil,
        status: ShipmentStatus = .processing, estimatedDelivery: DateWindow? = nil,
        shippedAt: Date? = nil, deliveredAt: Date? = nil, statusAt: Date? = nil
    ) {
        self.id = id
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.normalizedTrackingNumber = normalizedTrackingNumber
        self.trackingURL = trackingURL
        self.status = status
        self.estimatedDelivery = estimatedDelivery
        self.shippedAt = shippedAt
        self.deliveredAt = deliveredAt
        self.statusAt = statusAt
    }
}
