import Foundation

/// One entry of `Order.fulfillments`, told apart by its `fulfillmentType` (§1.2).
public enum Fulfillment: Codable, Sendable, Hashable {
    case shipping(ShippingFulfillment)
    case pickup(PickupFulfillment)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type: String = try c.required("fulfillmentType")
        switch type {
        case "shipping": self = .shipping(try ShippingFulfillment(from: decoder))
        case "pickup": self = .pickup(try PickupFulfillment(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: AnyKey("fulfillmentType"), in: c, debugDescription: "unknown fulfillmentType \(type)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .shipping(let value): try value.encode(to: encoder)
        case .pickup(let value): try value.encode(to: encoder)
        }
    }

    /// The shipping fulfillment, if this is one.
    public var shipping: ShippingFulfillment? {
        if case .shipping(let value) = self { return value }
        return nil
    }
}

/// `ShippingFulfillment` (§1.3): a parcel on its way; `fulfillmentType` is always `shipping`.
public struct ShippingFulfillment: Codable, Sendable, Hashable, KeepsUnknownKeys {
    /// `ShippingFulfillment.status`.
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case open, processing, onTheWay, outForDelivery, delivered, shipped, issue, cancelled
    }

    /// `ShippingFulfillment.shippingType`: display wording only.
    public enum ShippingType: String, Codable, Sendable, Hashable, CaseIterable {
        case shipping, delivery
    }

    /// `ShippingFulfillment.Recipient`.
    public struct Recipient: Codable, Sendable, Hashable, KeepsUnknownKeys {
        public var address: Address?
        public var givenName: String?
        public var familyName: String?
        public var organizationName: String?
        public var unknownKeys: [String: JSONValue]

        public init(
            address: Address? = nil, givenName: String? = nil, familyName: String? = nil,
            organizationName: String? = nil, unknownKeys: [String: JSONValue] = [:]
        ) {
            self.address = address
            self.givenName = givenName
            self.familyName = familyName
            self.organizationName = organizationName
            self.unknownKeys = unknownKeys
        }

        static let knownKeys: Set<String> = ["address", "givenName", "familyName", "organizationName"]

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            address = try c.optional("address")
            givenName = try c.optional("givenName")
            familyName = try c.optional("familyName")
            organizationName = try c.optional("organizationName")
            unknownKeys = try c.unknown(except: Self.knownKeys)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.put(address, "address")
            try c.put(givenName, "givenName")
            try c.put(familyName, "familyName")
            try c.put(organizationName, "organizationName")
            try c.putUnknown(unknownKeys, known: Self.knownKeys)
        }
    }

    public var fulfillmentIdentifier: String
    public var status: Status
    public var shippingType: ShippingType?
    public var carrier: String?
    public var trackingNumber: String?
    public var trackingURL: String?
    public var shippedAt: Date?
    /// The day of delivery; its time counts only with `estimatedDeliveryWindowDuration`.
    public var estimatedDeliveryAt: Date?
    /// ISO 8601-1 duration, e.g. `P3D`.
    public var estimatedDeliveryWindowDuration: String?
    public var deliveredAt: Date?
    public var recipient: Recipient?
    public var lineItems: [LineItem]?
    public var notes: String?
    public var statusDescription: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        fulfillmentIdentifier: String, status: Status, shippingType: ShippingType? = nil,
        carrier: String? = nil, trackingNumber: String? = nil, trackingURL: String? = nil,
        shippedAt: Date? = nil, estimatedDeliveryAt: Date? = nil,
        estimatedDeliveryWindowDuration: String? = nil, deliveredAt: Date? = nil,
        recipient: Recipient? = nil, lineItems: [LineItem]? = nil, notes: String? = nil,
        statusDescription: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.fulfillmentIdentifier = fulfillmentIdentifier
        self.status = status
        self.shippingType = shippingType
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.trackingURL = trackingURL
        self.shippedAt = shippedAt
        self.estimatedDeliveryAt = estimatedDeliveryAt
        self.estimatedDeliveryWindowDuration = estimatedDeliveryWindowDuration
        self.deliveredAt = deliveredAt
        self.recipient = recipient
        self.lineItems = lineItems
        self.notes = notes
        self.statusDescription = statusDescription
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "fulfillmentType", "fulfillmentIdentifier", "status", "shippingType", "carrier", "trackingNumber",
        "trackingURL", "shippedAt", "estimatedDeliveryAt", "estimatedDeliveryWindowDuration", "deliveredAt",
        "recipient", "lineItems", "notes", "statusDescription",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        fulfillmentIdentifier = try c.required("fulfillmentIdentifier")
        status = try c.required("status")
        shippingType = try c.optional("shippingType")
        carrier = try c.optional("carrier")
        trackingNumber = try c.optional("trackingNumber")
        trackingURL = try c.optional("trackingURL")
        shippedAt = try c.optionalDate("shippedAt")
        estimatedDeliveryAt = try c.optionalDate("estimatedDeliveryAt")
        estimatedDeliveryWindowDuration = try c.optional("estimatedDeliveryWindowDuration")
        deliveredAt = try c.optionalDate("deliveredAt")
        recipient = try c.optional("recipient")
        lineItems = try c.optional("lineItems")
        notes = try c.optional("notes")
        statusDescription = try c.optional("statusDescription")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put("shipping", "fulfillmentType")
        try c.put(fulfillmentIdentifier, "fulfillmentIdentifier")
        try c.put(status, "status")
        try c.put(shippingType, "shippingType")
        try c.put(carrier, "carrier")
        try c.put(trackingNumber, "trackingNumber")
        try c.put(trackingURL, "trackingURL")
        try c.putDate(shippedAt, "shippedAt")
        try c.putDate(estimatedDeliveryAt, "estimatedDeliveryAt")
        try c.put(estimatedDeliveryWindowDuration, "estimatedDeliveryWindowDuration")
        try c.putDate(deliveredAt, "deliveredAt")
        try c.put(recipient, "recipient")
        try c.put(lineItems, "lineItems")
        try c.put(notes, "notes")
        try c.put(statusDescription, "statusDescription")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `PickupFulfillment` (§1.3): collected by the customer; `fulfillmentType` is always `pickup`.
public struct PickupFulfillment: Codable, Sendable, Hashable, KeepsUnknownKeys {
    /// `PickupFulfillment.status`.
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case open, processing, readyForPickup, pickedUp, issue, cancelled
    }

    public var fulfillmentIdentifier: String
    public var displayName: String
    public var status: Status
    public var address: Address?
    public var location: Location?
    public var barcode: Barcode?
    public var pickupAt: Date?
    /// ISO 8601-1 duration.
    public var pickupWindowDuration: String?
    public var pickedUpAt: Date?
    public var lineItems: [LineItem]?
    public var notes: String?
    public var statusDescription: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        fulfillmentIdentifier: String, displayName: String, status: Status, address: Address? = nil,
        location: Location? = nil, barcode: Barcode? = nil, pickupAt: Date? = nil,
        pickupWindowDuration: String? = nil, pickedUpAt: Date? = nil, lineItems: [LineItem]? = nil,
        notes: String? = nil, statusDescription: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.fulfillmentIdentifier = fulfillmentIdentifier
        self.displayName = displayName
        self.status = status
        self.address = address
        self.location = location
        self.barcode = barcode
        self.pickupAt = pickupAt
        self.pickupWindowDuration = pickupWindowDuration
        self.pickedUpAt = pickedUpAt
        self.lineItems = lineItems
        self.notes = notes
        self.statusDescription = statusDescription
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "fulfillmentType", "fulfillmentIdentifier", "displayName", "status", "address", "location", "barcode",
        "pickupAt", "pickupWindowDuration", "pickedUpAt", "lineItems", "notes", "statusDescription",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        fulfillmentIdentifier = try c.required("fulfillmentIdentifier")
        displayName = try c.required("displayName")
        status = try c.required("status")
        address = try c.optional("address")
        location = try c.optional("location")
        barcode = try c.optional("barcode")
        pickupAt = try c.optionalDate("pickupAt")
        pickupWindowDuration = try c.optional("pickupWindowDuration")
        pickedUpAt = try c.optionalDate("pickedUpAt")
        lineItems = try c.optional("lineItems")
        notes = try c.optional("notes")
        statusDescription = try c.optional("statusDescription")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put("pickup", "fulfillmentType")
        try c.put(fulfillmentIdentifier, "fulfillmentIdentifier")
        try c.put(displayName, "displayName")
        try c.put(status, "status")
        try c.put(address, "address")
        try c.put(location, "location")
        try c.put(barcode, "barcode")
        try c.putDate(pickupAt, "pickupAt")
        try c.put(pickupWindowDuration, "pickupWindowDuration")
        try c.putDate(pickedUpAt, "pickedUpAt")
        try c.put(lineItems, "lineItems")
        try c.put(notes, "notes")
        try c.put(statusDescription, "statusDescription")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}
