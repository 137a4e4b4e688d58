import Foundation

/// `Payment` (§1.3): the order's total and how it was paid.
public struct Payment: Codable, Sendable, Hashable, KeepsUnknownKeys {
    /// `Payment.status`.
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case pending, authorized, paid, refunded, declined, voided
    }

    /// `Payment.SummaryItems`: one labelled amount (subtotal, tax, shipping…).
    public struct SummaryItem: Codable, Sendable, Hashable, KeepsUnknownKeys {
        public var label: String
        public var value: CurrencyAmount
        public var unknownKeys: [String: JSONValue]

        public init(label: String, value: CurrencyAmount, unknownKeys: [String: JSONValue] = [:]) {
            self.label = label
            self.value = value
            self.unknownKeys = unknownKeys
        }

        static let knownKeys: Set<String> = ["label", "value"]

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            label = try c.required("label")
            value = try c.required("value")
            unknownKeys = try c.unknown(except: Self.knownKeys)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.put(label, "label")
            try c.put(value, "value")
            try c.putUnknown(unknownKeys, known: Self.knownKeys)
        }
    }

    public var total: CurrencyAmount
    /// Required by Apple's table (some libraries call it deprecated); we always write it.
    public var status: Status
    public var summaryItems: [SummaryItem]?
    public var transactions: [PaymentTransaction]?
    public var paymentMethods: [String]?
    public var applePayTransactionIdentifiers: [String]?
    public var unknownKeys: [String: JSONValue]

    public init(
        total: CurrencyAmount, status: Status, summaryItems: [SummaryItem]? = nil,
        transactions: [PaymentTransaction]? = nil, paymentMethods: [String]? = nil,
        applePayTransactionIdentifiers: [String]? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.total = total
        self.status = status
        self.summaryItems = summaryItems
        self.transactions = transactions
        self.paymentMethods = paymentMethods
        self.applePayTransactionIdentifiers = applePayTransactionIdentifiers
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "total", "status", "summaryItems", "transactions", "paymentMethods", "applePayTransactionIdentifiers",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        total = try c.required("total")
        status = try c.required("status")
        summaryItems = try c.optional("summaryItems")
        transactions = try c.optional("transactions")
        paymentMethods = try c.optional("paymentMethods")
        applePayTransactionIdentifiers = try c.optional("applePayTransactionIdentifiers")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(total, "total")
        try c.put(status, "status")
        try c.put(summaryItems, "summaryItems")
        try c.put(transactions, "transactions")
        try c.put(paymentMethods, "paymentMethods")
        try c.put(applePayTransactionIdentifiers, "applePayTransactionIdentifiers")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `PaymentTransaction` (§1.3, iOS 17): one charge or refund.
public struct PaymentTransaction: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case pending, approved, completed, cancelled, failed
    }

    public enum TransactionType: String, Codable, Sendable, Hashable, CaseIterable {
        case purchase, refund
    }

    public var amount: CurrencyAmount
    public var createdAt: Date
    /// `PaymentMethod.displayName`, e.g. `Visa 1234`.
    public var paymentMethodDisplayName: String
    public var status: Status
    public var transactionType: TransactionType
    public var applePayTransactionIdentifier: String?
    /// File name of a receipt in the package.
    public var receipt: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        amount: CurrencyAmount, createdAt: Date, paymentMethodDisplayName: String, status: Status,
        transactionType: TransactionType, applePayTransactionIdentifier: String? = nil,
        receipt: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.amount = amount
        self.createdAt = createdAt
        self.paymentMethodDisplayName = paymentMethodDisplayName
        self.status = status
        self.transactionType = transactionType
        self.applePayTransactionIdentifier = applePayTransactionIdentifier
        self.receipt = receipt
        self.unknownKeys = unknownKeys
    }

    private struct PaymentMethod: Codable {
        var displayName: String
    }

    static let knownKeys: Set<String> = [
        "amount", "createdAt", "paymentMethod", "status", "transactionType", "applePayTransactionIdentifier",
        "receipt",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        amount = try c.required("amount")
        createdAt = try c.requiredDate("createdAt")
        let method: PaymentMethod = try c.required("paymentMethod")
        paymentMethodDisplayName = method.displayName
        status = try c.required("status")
        transactionType = try c.required("transactionType")
        applePayTransactionIdentifier = try c.optional("applePayTransactionIdentifier")
        receipt = try c.optional("receipt")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(amount, "amount")
        try c.putDate(createdAt, "createdAt")
        try c.put(PaymentMethod(displayName: paymentMethodDisplayName), "paymentMethod")
        try c.put(status, "status")
        try c.put(transactionType, "transactionType")
        try c.put(applePayTransactionIdentifier, "applePayTransactionIdentifier")
        try c.put(receipt, "receipt")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `ReturnInfo` (§1.3, iOS 17.2): the return policy.
public struct ReturnInfo: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var returnPolicyURL: String
    public var displayCountdown: Bool?
    public var returnDeadline: Date?
    public var returnManagementURL: String?
    public var returnPolicyDescription: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        returnPolicyURL: String, displayCountdown: Bool? = nil, returnDeadline: Date? = nil,
        returnManagementURL: String? = nil, returnPolicyDescription: String? = nil,
        unknownKeys: [String: JSONValue] = [:]
    ) {
        self.returnPolicyURL = returnPolicyURL
        self.displayCountdown = displayCountdown
        self.returnDeadline = returnDeadline
        self.returnManagementURL = returnManagementURL
        self.returnPolicyDescription = returnPolicyDescription
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "returnPolicyURL", "displayCountdown", "returnDeadline", "returnManagementURL",
        "returnPolicyDescription",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        returnPolicyURL = try c.required("returnPolicyURL")
        displayCountdown = try c.optional("displayCountdown")
        returnDeadline = try c.optionalDate("returnDeadline")
        returnManagementURL = try c.optional("returnManagementURL")
        returnPolicyDescription = try c.optional("returnPolicyDescription")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(returnPolicyURL, "returnPolicyURL")
        try c.put(displayCountdown, "displayCountdown")
        try c.putDate(returnDeadline, "returnDeadline")
        try c.put(returnManagementURL, "returnManagementURL")
        try c.put(returnPolicyDescription, "returnPolicyDescription")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Return` (§1.3, iOS 17.2): one return of items.
public struct Return: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case open, onTheWay, processing, issue, completed, cancelled
    }

    public var returnIdentifier: String
    public var status: Status
    public var carrier: String?
    public var dropOffBy: Date?
    public var initiatedAt: Date?
    public var returnedAt: Date?
    public var lineItems: [LineItem]?
    public var notes: String?
    /// File name of a label (PDF, JPEG or PNG) in the package.
    public var returnLabel: String?
    public var returnManagementURL: String?
    public var returnNumber: String?
    public var statusDescription: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        returnIdentifier: String, status: Status, carrier: String? = nil, dropOffBy: Date? = nil,
        initiatedAt: Date? = nil, returnedAt: Date? = nil, lineItems: [LineItem]? = nil, notes: String? = nil,
        returnLabel: String? = nil, returnManagementURL: String? = nil, returnNumber: String? = nil,
        statusDescription: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.returnIdentifier = returnIdentifier
        self.status = status
        self.carrier = carrier
        self.dropOffBy = dropOffBy
        self.initiatedAt = initiatedAt
        self.returnedAt = returnedAt
        self.lineItems = lineItems
        self.notes = notes
        self.returnLabel = returnLabel
        self.returnManagementURL = returnManagementURL
        self.returnNumber = returnNumber
        self.statusDescription = statusDescription
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "returnIdentifier", "status", "carrier", "dropOffBy", "initiatedAt", "returnedAt", "lineItems",
        "notes",
        "returnLabel", "returnManagementURL", "returnNumber", "statusDescription",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        returnIdentifier = try c.required("returnIdentifier")
        status = try c.required("status")
        carrier = try c.optional("carrier")
        dropOffBy = try c.optionalDate("dropOffBy")
        initiatedAt = try c.optionalDate("initiatedAt")
        returnedAt = try c.optionalDate("returnedAt")
        lineItems = try c.optional("lineItems")
        notes = try c.optional("notes")
        returnLabel = try c.optional("returnLabel")
        returnManagementURL = try c.optional("returnManagementURL")
        returnNumber = try c.optional("returnNumber")
        statusDescription = try c.optional("statusDescription")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(returnIdentifier, "returnIdentifier")
        try c.put(status, "status")
        try c.put(carrier, "carrier")
        try c.putDate(dropOffBy, "dropOffBy")
        try c.putDate(initiatedAt, "initiatedAt")
        try c.putDate(returnedAt, "returnedAt")
        try c.put(lineItems, "lineItems")
        try c.put(notes, "notes")
        try c.put(returnLabel, "returnLabel")
        try c.put(returnManagementURL, "returnManagementURL")
        try c.put(returnNumber, "returnNumber")
        try c.put(statusDescription, "statusDescription")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}
