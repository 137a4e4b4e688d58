import Foundation

// CONTRACT TYPES: the extraction JSON of DESIGN.md / README "Extraction JSON".
// Keys are absent when unknown, never empty strings. Fields may be added.

/// What one email says about orders: one JSON object per message from `mailorders extract`.
public struct ExtractionResult: Codable, Sendable, Hashable {
    /// The message's origin, e.g. `inbox.mbox#3` (absent in corpus expectations).
    public var source: String?
    public var messageID: String?
    public var kind: EmailKind
    public var merchant: MerchantInfo?
    public var orderNumber: String?
    /// The order date, `YYYY-MM-DD`.
    public var orderDate: String?
    public var shipments: [Shipment]?
    public var lineItems: [LineItem]?
    public var total: MonetaryAmount?
    /// The link to the order's page at the merchant ("View your order"), click-tracker
    /// wrappers removed; Wallet's `orderManagementURL`.
    public var orderManagementURL: String?
    /// Further orders when one email covers several (each without a merchant of its own).
    public var additionalOrders: [OrderPart]?
    /// `true` in a ``EmailKind/cancellation`` email that cancels part of the order ("One item
    /// of your order has been cancelled", "Teilstornierung"): the order goes on. Absent
    /// otherwise.
    public var partialCancellation: Bool?
    /// Why each field was chosen (absent in corpus expectations).
    public var evidence: [Evidence]?

    public init(
        source: String? = nil, messageID: String? = nil, kind: EmailKind,
        merchant: MerchantInfo? = nil, orderNumber: String? = nil, orderDate: String? = nil,
        shipments: [Shipment]? = nil, lineItems: [LineItem]? = nil, total: MonetaryAmount? = nil,
        additionalOrders: [OrderPart]? = nil, evidence: [Evidence]? = nil
    ) {
        self.source = source
        self.messageID = messageID
        self.kind = kind
        self.merchant = merchant
        self.orderNumber = orderNumber
        self.orderDate = orderDate
        self.shipments = shipments
        self.lineItems = lineItems
        self.total = total
        self.additionalOrders = additionalOrders
        self.evidence = evidence
    }
}

/// What kind of email this is for order tracking.
public enum EmailKind: String, Codable, Sendable, Hashable, CaseIterable {
    case orderConfirmation, shippingConfirmation, deliveryUpdate, carrierUpdate
    case cancellation, refund, notAnOrder
}

/// The merchant (the shop), or in a carrier's email the shipper when named.
public struct MerchantInfo: Codable, Sendable, Hashable {
    public var name: String?
    /// The merchant's registrable domain, e.g. `example.com`.
    public var domain: String?

    public init(name: String? = nil, domain: String? = nil) {
        self.name = name
        self.domain = domain
    }
}

/// A Wallet fulfillment status (Wallet Orders `ShippingFulfillment.status`).
public enum ShipmentStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case processing, onTheWay, outForDelivery, delivered, shipped, issue, cancelled
}

/// One parcel: a carrier and a tracking number.
public struct Shipment: Codable, Sendable, Hashable {
    /// The carrier's display name as the rules name it, e.g. `UPS`, `CJ대한통운`.
    public var carrier: String?
    /// The tracking number as printed, spaces removed.
    public var trackingNumber: String?
    public var trackingURL: String?
    public var status: ShipmentStatus?
    public var estimatedDelivery: DateWindow?
    /// When the parcel was shipped, `YYYY-MM-DD`.
    public var shippedAt: String?
    /// When it was delivered, `YYYY-MM-DD`.
    public var deliveredAt: String?

    public init(
        carrier: String? = nil, trackingNumber: String? = nil, trackingURL: String? = nil,
        status: ShipmentStatus? = nil, estimatedDelivery: DateWindow? = nil,
        shippedAt: String? = nil, deliveredAt: String? = nil
    ) {
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.trackingURL = trackingURL
        self.status = status
        self.estimatedDelivery = estimatedDelivery
        self.shippedAt = shippedAt
        self.deliveredAt = deliveredAt
    }
}

/// A date or a window of dates, `YYYY-MM-DD`; a single day has `from == until`.
public struct DateWindow: Codable, Sendable, Hashable {
    public var from: String
    public var until: String

    public init(from: String, until: String) {
        self.from = from
        self.until = until
    }
}

/// An amount of money: a decimal string and an ISO 4217 currency code.
public struct MonetaryAmount: Codable, Sendable, Hashable {
    /// Decimal string with `.` as separator and the currency's minor digits, e.g. `1234.56`.
    public var amount: String
    public var currency: String

    public init(amount: String, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

/// One line of an order.
public struct LineItem: Codable, Sendable, Hashable {
    public var title: String
    public var quantity: Int?
    public var price: MonetaryAmount?

    public init(title: String, quantity: Int? = nil, price: MonetaryAmount? = nil) {
        self.title = title
        self.quantity = quantity
        self.price = price
    }
}

/// A further order in an email that covers several.
public struct OrderPart: Codable, Sendable, Hashable {
    public var orderNumber: String
    public var orderDate: String?
    public var shipments: [Shipment]?
    public var lineItems: [LineItem]?
    public var total: MonetaryAmount?

    public init(
        orderNumber: String, orderDate: String? = nil, shipments: [Shipment]? = nil,
        lineItems: [LineItem]? = nil, total: MonetaryAmount? = nil
    ) {
        self.orderNumber = orderNumber
        self.orderDate = orderDate
        self.shipments = shipments
        self.lineItems = lineItems
        self.total = total
    }
}

/// Why a field has its value.
public struct Evidence: Codable, Sendable, Hashable {
    /// The field, e.g. `orderNumber`, `shipments[0].trackingNumber`.
    public var field: String
    /// Where it was found: `order`, `markup`, `link`, `label`, `pattern`, `subject`,
    /// `sender`, `rules`, `body`.
    public var source: String
    /// The text around the value.
    public var text: String
    /// How sure the extractor is, 0–1.
    public var confidence: Double?
    /// Where in the document (part path and DOM path), when known.
    public var location: String?

    public init(
        field: String, source: String, text: String, confidence: Double? = nil, location: String? = nil
    ) {
        self.field = field
        self.source = source
        self.text = text
        self.confidence = confidence
        self.location = location
    }
}
