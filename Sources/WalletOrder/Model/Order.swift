import Foundation

/// The `order.json` object of a Wallet order package (Wallet Orders: `Order`, see
/// `shared/wallet-orders.md` §1.1–1.2). Keys this model does not know are kept in
/// `unknownKeys` and written back unchanged.
public struct Order: Codable, Sendable, Hashable, KeepsUnknownKeys {
    /// `Order.orderType`: the only value Wallet defines.
    public enum OrderType: String, Codable, Sendable, Hashable, CaseIterable {
        case ecommerce
    }

    /// `Order.status`: `completed` and `cancelled` close the order.
    public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case open, completed, cancelled
    }

    /// `Order.changeNotifications`.
    public enum ChangeNotifications: String, Codable, Sendable, Hashable, CaseIterable {
        case enabled, disabledIfAppInstalled
    }

    /// Always `1` (the only schema version).
    public var schemaVersion: Int
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var orderType: OrderType
    public var orderNumber: String?
    public var status: Status
    public var statusDescription: String?
    public var createdAt: Date
    /// Must never decrease from one version of the order to the next.
    public var updatedAt: Date
    public var orderManagementURL: String
    public var merchant: Merchant
    public var customer: Customer?
    public var lineItems: [LineItem]?
    public var fulfillments: [Fulfillment]?
    public var payment: Payment?
    public var returnInfo: ReturnInfo?
    public var returns: [Return]?
    public var barcode: Barcode?
    public var associatedApplications: [Application]?
    public var associatedApplicationIdentifiers: [String]?
    public var changeNotifications: ChangeNotifications?
    public var orderProvider: OrderProvider?
    /// Must start with `https://`; needs `authenticationToken`.
    public var webServiceURL: String?
    /// At least 16 characters; required with `webServiceURL`.
    public var authenticationToken: String?
    /// Keys read from a bundle that this model does not know, written back as read.
    public var unknownKeys: [String: JSONValue]

    public init(
        schemaVersion: Int = 1, orderTypeIdentifier: String, orderIdentifier: String,
        orderType: OrderType = .ecommerce, orderNumber: String? = nil, status: Status,
        statusDescription: String? = nil, createdAt: Date, updatedAt: Date, orderManagementURL: String,
        merchant: Merchant, customer: Customer? = nil, lineItems: [LineItem]? = nil,
        fulfillments: [Fulfillment]? = nil, payment: Payment? = nil, returnInfo: ReturnInfo? = nil,
        returns: [Return]? = nil, barcode: Barcode? = nil, associatedApplications: [Application]? = nil,
        associatedApplicationIdentifiers: [String]? = nil, changeNotifications: ChangeNotifications? = nil,
        orderProvider: OrderProvider? = nil, webServiceURL: String? = nil,
        authenticationToken: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.schemaVersion = schemaVersion
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.orderType = orderType
        self.orderNumber = orderNumber
        self.status = status
        self.statusDescription = statusDescription
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.orderManagementURL = orderManagementURL
        self.merchant = merchant
        self.customer = customer
        self.lineItems = lineItems
        self.fulfillments = fulfillments
        self.payment = payment
        self.returnInfo = returnInfo
        self.returns = returns
        self.barcode = barcode
        self.associatedApplications = associatedApplications
        self.associatedApplicationIdentifiers = associatedApplicationIdentifiers
        self.changeNotifications = changeNotifications
        self.orderProvider = orderProvider
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "schemaVersion", "orderTypeIdentifier", "orderIdentifier", "orderType", "orderNumber", "status",
        "statusDescription", "createdAt", "updatedAt", "orderManagementURL", "merchant", "customer",
        "lineItems", "fulfillments", "payment", "returnInfo", "returns", "barcode", "associatedApplications",
        "associatedApplicationIdentifiers", "changeNotifications", "orderProvider", "webServiceURL",
        "authenticationToken",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        schemaVersion = try c.required("schemaVersion")
        orderTypeIdentifier = try c.required("orderTypeIdentifier")
        orderIdentifier = try c.required("orderIdentifier")
        orderType = try c.required("orderType")
        orderNumber = try c.optional("orderNumber")
        status = try c.required("status")
        statusDescription = try c.optional("statusDescription")
        createdAt = try c.requiredDate("createdAt")
        updatedAt = try c.requiredDate("updatedAt")
        orderManagementURL = try c.required("orderManagementURL")
        merchant = try c.required("merchant")
        customer = try c.optional("customer")
        lineItems = try c.optional("lineItems")
        fulfillments = try c.optional("fulfillments")
        payment = try c.optional("payment")
        returnInfo = try c.optional("returnInfo")
        returns = try c.optional("returns")
        barcode = try c.optional("barcode")
        associatedApplications = try c.optional("associatedApplications")
        associatedApplicationIdentifiers = try c.optional("associatedApplicationIdentifiers")
        changeNotifications = try c.optional("changeNotifications")
        orderProvider = try c.optional("orderProvider")
        webServiceURL = try c.optional("webServiceURL")
        authenticationToken = try c.optional("authenticationToken")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(schemaVersion, "schemaVersion")
        try c.put(orderTypeIdentifier, "orderTypeIdentifier")
        try c.put(orderIdentifier, "orderIdentifier")
        try c.put(orderType, "orderType")
        try c.put(orderNumber, "orderNumber")
        try c.put(status, "status")
        try c.put(statusDescription, "statusDescription")
        try c.putDate(createdAt, "createdAt")
        try c.putDate(updatedAt, "updatedAt")
        try c.put(orderManagementURL, "orderManagementURL")
        try c.put(merchant, "merchant")
        try c.put(customer, "customer")
        try c.put(lineItems, "lineItems")
        try c.put(fulfillments, "fulfillments")
        try c.put(payment, "payment")
        try c.put(returnInfo, "returnInfo")
        try c.put(returns, "returns")
        try c.put(barcode, "barcode")
        try c.put(associatedApplications, "associatedApplications")
        try c.put(associatedApplicationIdentifiers, "associatedApplicationIdentifiers")
        try c.put(changeNotifications, "changeNotifications")
        try c.put(orderProvider, "orderProvider")
        try c.put(webServiceURL, "webServiceURL")
        try c.put(authenticationToken, "authenticationToken")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }

    /// The JSON of `order.json`: keys sorted, so the same order always gives the same bytes.
    ///
    /// - Returns: UTF-8 JSON text.
    /// - Throws: `EncodingError` when a value cannot be encoded.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads `order.json`.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The order, unknown keys included.
    /// - Throws: `DecodingError` when a required key is missing or a value has the wrong type.
    public static func decode(_ data: Data) throws -> Order {
        try JSONDecoder().decode(Order.self, from: data)
    }
}

/// `Merchant` (Wallet Orders, §1.3): who sold the order.
public struct Merchant: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var displayName: String
    public var merchantIdentifier: String
    public var url: String
    /// File name of an image in the package.
    public var logo: String?
    public var address: Address?
    public var businessChatURL: String?
    public var contactURL: String?
    public var emailAddress: String?
    public var phoneNumber: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        displayName: String, merchantIdentifier: String, url: String, logo: String? = nil,
        address: Address? = nil, businessChatURL: String? = nil, contactURL: String? = nil,
        emailAddress: String? = nil, phoneNumber: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.displayName = displayName
        self.merchantIdentifier = merchantIdentifier
        self.url = url
        self.logo = logo
        self.address = address
        self.businessChatURL = businessChatURL
        self.contactURL = contactURL
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "displayName", "merchantIdentifier", "url", "logo", "address", "businessChatURL", "contactURL",
        "emailAddress", "phoneNumber",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        displayName = try c.required("displayName")
        merchantIdentifier = try c.required("merchantIdentifier")
        url = try c.required("url")
        logo = try c.optional("logo")
        address = try c.optional("address")
        businessChatURL = try c.optional("businessChatURL")
        contactURL = try c.optional("contactURL")
        emailAddress = try c.optional("emailAddress")
        phoneNumber = try c.optional("phoneNumber")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(displayName, "displayName")
        try c.put(merchantIdentifier, "merchantIdentifier")
        try c.put(url, "url")
        try c.put(logo, "logo")
        try c.put(address, "address")
        try c.put(businessChatURL, "businessChatURL")
        try c.put(contactURL, "contactURL")
        try c.put(emailAddress, "emailAddress")
        try c.put(phoneNumber, "phoneNumber")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Customer` (§1.3): every key optional.
public struct Customer: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var emailAddress: String?
    public var familyName: String?
    public var givenName: String?
    public var organizationName: String?
    public var phoneNumber: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        emailAddress: String? = nil, familyName: String? = nil, givenName: String? = nil,
        organizationName: String? = nil, phoneNumber: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.emailAddress = emailAddress
        self.familyName = familyName
        self.givenName = givenName
        self.organizationName = organizationName
        self.phoneNumber = phoneNumber
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "emailAddress", "familyName", "givenName", "organizationName", "phoneNumber",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        emailAddress = try c.optional("emailAddress")
        familyName = try c.optional("familyName")
        givenName = try c.optional("givenName")
        organizationName = try c.optional("organizationName")
        phoneNumber = try c.optional("phoneNumber")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(emailAddress, "emailAddress")
        try c.put(familyName, "familyName")
        try c.put(givenName, "givenName")
        try c.put(organizationName, "organizationName")
        try c.put(phoneNumber, "phoneNumber")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Address` (§1.3): every key optional; `countryCode` is ISO 3166-1 alpha-2.
public struct Address: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var addressLines: [String]?
    public var locality: String?
    public var subLocality: String?
    public var administrativeArea: String?
    public var subAdministrativeArea: String?
    public var postalCode: String?
    public var countryCode: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        addressLines: [String]? = nil, locality: String? = nil, subLocality: String? = nil,
        administrativeArea: String? = nil, subAdministrativeArea: String? = nil, postalCode: String? = nil,
        countryCode: String? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.addressLines = addressLines
        self.locality = locality
        self.subLocality = subLocality
        self.administrativeArea = administrativeArea
        self.subAdministrativeArea = subAdministrativeArea
        self.postalCode = postalCode
        self.countryCode = countryCode
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "addressLines", "locality", "subLocality", "administrativeArea", "subAdministrativeArea",
        "postalCode", "countryCode",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        addressLines = try c.optional("addressLines")
        locality = try c.optional("locality")
        subLocality = try c.optional("subLocality")
        administrativeArea = try c.optional("administrativeArea")
        subAdministrativeArea = try c.optional("subAdministrativeArea")
        postalCode = try c.optional("postalCode")
        countryCode = try c.optional("countryCode")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(addressLines, "addressLines")
        try c.put(locality, "locality")
        try c.put(subLocality, "subLocality")
        try c.put(administrativeArea, "administrativeArea")
        try c.put(subAdministrativeArea, "subAdministrativeArea")
        try c.put(postalCode, "postalCode")
        try c.put(countryCode, "countryCode")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `CurrencyAmount` (§1.3): an exact decimal amount and an ISO 4217 currency code.
///
/// Apple's table types `amount` as a string while the working samples use a JSON number;
/// we write a number (exact: a `Decimal`, never a `Double`) and read either form. An amount
/// read as a string is written back as the same string.
public struct CurrencyAmount: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var amount: Decimal
    public var currency: String
    /// Whether `amount` is written as a JSON string rather than a number.
    public var amountAsString: Bool
    public var unknownKeys: [String: JSONValue]
    /// The string an amount was read from (`"28.80"`), written back as read while it still
    /// equals `amount`.
    private var amountText: String?

    public init(
        amount: Decimal, currency: String, amountAsString: Bool = false,
        unknownKeys: [String: JSONValue] = [:]
    ) {
        self.amount = amount
        self.currency = currency
        self.amountAsString = amountAsString
        self.unknownKeys = unknownKeys
    }

    /// Makes an amount from a decimal string such as `1234.56`.
    ///
    /// - Parameters:
    ///   - decimal: Digits with an optional `-` and one `.`; nothing else.
    ///   - currency: ISO 4217 code.
    /// - Returns: The amount, or `nil` when `decimal` is not a plain decimal number.
    public init?(decimal: String, currency: String) {
        guard let value = CurrencyAmount.exactDecimal(decimal) else { return nil }
        self.init(amount: value, currency: currency.uppercased())
    }

    /// Parses `-?digits(.digits)?` exactly (no exponent, no grouping, no locale).
    static func exactDecimal(_ text: String) -> Decimal? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let body = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, body.count <= 30, parts.count <= 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    }

    static let knownKeys: Set<String> = ["amount", "currency"]

    public static func == (a: CurrencyAmount, b: CurrencyAmount) -> Bool {
        a.amount == b.amount && a.currency == b.currency && a.amountAsString == b.amountAsString
            && a.unknownKeys == b.unknownKeys
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(amount)
        hasher.combine(currency)
        hasher.combine(amountAsString)
        hasher.combine(unknownKeys)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        if let text = try? c.decode(String.self, forKey: AnyKey("amount")) {
            guard let value = CurrencyAmount.exactDecimal(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: AnyKey("amount"), in: c, debugDescription: "not a decimal amount: \(text)")
            }
            amount = value
            amountAsString = true
            amountText = text.trimmingCharacters(in: .whitespaces)
        } else {
            amount = try c.required("amount")
            amountAsString = false
        }
        currency = try c.required("currency")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        if amountAsString {
            let text = amountText.flatMap { CurrencyAmount.exactDecimal($0) == amount ? $0 : nil }
            try c.put(text ?? amount.description, "amount")
        } else {
            try c.put(amount, "amount")
        }
        try c.put(currency, "currency")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `LineItem` (§1.3): one product line.
public struct LineItem: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var title: String
    public var quantity: Decimal
    public var subtitle: String?
    /// File name of an image in the package.
    public var image: String?
    public var price: CurrencyAmount?
    public var gtin: String?
    public var sku: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        title: String, quantity: Decimal, subtitle: String? = nil, image: String? = nil,
        price: CurrencyAmount? = nil, gtin: String? = nil, sku: String? = nil,
        unknownKeys: [String: JSONValue] = [:]
    ) {
        self.title = title
        self.quantity = quantity
        self.subtitle = subtitle
        self.image = image
        self.price = price
        self.gtin = gtin
        self.sku = sku
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = ["title", "quantity", "subtitle", "image", "price", "gtin", "sku"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        title = try c.required("title")
        quantity = try c.required("quantity")
        subtitle = try c.optional("subtitle")
        image = try c.optional("image")
        price = try c.optional("price")
        gtin = try c.optional("gtin")
        sku = try c.optional("sku")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(title, "title")
        try c.put(quantity, "quantity")
        try c.put(subtitle, "subtitle")
        try c.put(image, "image")
        try c.put(price, "price")
        try c.put(gtin, "gtin")
        try c.put(sku, "sku")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Barcode` (§1.3).
public struct Barcode: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public enum Format: String, Codable, Sendable, Hashable, CaseIterable {
        case qr, pdf417, aztec, code128
    }

    public var format: Format
    public var message: String
    /// Typically `iso-8859-1`.
    public var messageEncoding: String
    public var altText: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil,
        unknownKeys: [String: JSONValue] = [:]
    ) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = ["format", "message", "messageEncoding", "altText"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        format = try c.required("format")
        message = try c.required("message")
        messageEncoding = try c.required("messageEncoding")
        altText = try c.optional("altText")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(format, "format")
        try c.put(message, "message")
        try c.put(messageEncoding, "messageEncoding")
        try c.put(altText, "altText")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Location` (§1.3): latitude −90…90, longitude −180…180, altitude in metres.
public struct Location: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var unknownKeys: [String: JSONValue]

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = ["latitude", "longitude", "altitude"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        latitude = try c.required("latitude")
        longitude = try c.required("longitude")
        altitude = try c.optional("altitude")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(latitude, "latitude")
        try c.put(longitude, "longitude")
        try c.put(altitude, "altitude")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `Application` (§1.3): an App Store app associated with the order.
public struct Application: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var storeIdentifier: Int
    public var launchURL: String?
    public var customProductPageIdentifier: String?
    public var unknownKeys: [String: JSONValue]

    public init(
        storeIdentifier: Int, launchURL: String? = nil, customProductPageIdentifier: String? = nil,
        unknownKeys: [String: JSONValue] = [:]
    ) {
        self.storeIdentifier = storeIdentifier
        self.launchURL = launchURL
        self.customProductPageIdentifier = customProductPageIdentifier
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = ["storeIdentifier", "launchURL", "customProductPageIdentifier"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        storeIdentifier = try c.required("storeIdentifier")
        launchURL = try c.optional("launchURL")
        customProductPageIdentifier = try c.optional("customProductPageIdentifier")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(storeIdentifier, "storeIdentifier")
        try c.put(launchURL, "launchURL")
        try c.put(customProductPageIdentifier, "customProductPageIdentifier")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}

/// `OrderProvider` (§1.3): a platform that supplies the order for the merchant.
public struct OrderProvider: Codable, Sendable, Hashable, KeepsUnknownKeys {
    public var displayName: String
    public var url: String
    public var trackingLogoNameLightColorScheme: String
    public var trackingLogoNameDarkColorScheme: String
    public var unknownKeys: [String: JSONValue]

    public init(
        displayName: String, url: String, trackingLogoNameLightColorScheme: String,
        trackingLogoNameDarkColorScheme: String, unknownKeys: [String: JSONValue] = [:]
    ) {
        self.displayName = displayName
        self.url = url
        self.trackingLogoNameLightColorScheme = trackingLogoNameLightColorScheme
        self.trackingLogoNameDarkColorScheme = trackingLogoNameDarkColorScheme
        self.unknownKeys = unknownKeys
    }

    static let knownKeys: Set<String> = [
        "displayName", "url", "trackingLogoNameLightColorScheme", "trackingLogoNameDarkColorScheme",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        displayName = try c.required("displayName")
        url = try c.required("url")
        trackingLogoNameLightColorScheme = try c.required("trackingLogoNameLightColorScheme")
        trackingLogoNameDarkColorScheme = try c.required("trackingLogoNameDarkColorScheme")
        unknownKeys = try c.unknown(except: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.put(displayName, "displayName")
        try c.put(url, "url")
        try c.put(trackingLogoNameLightColorScheme, "trackingLogoNameLightColorScheme")
        try c.put(trackingLogoNameDarkColorScheme, "trackingLogoNameDarkColorScheme")
        try c.putUnknown(unknownKeys, known: Self.knownKeys)
    }
}
