import Foundation

/// The shape of `order.json` as data: every key, whether it is required, and what it holds
/// (Wallet Orders object pages; `shared/wallet-orders.md` §1.1–1.4).
indirect enum FieldKind: Sendable {
    case string
    case number
    case integer
    case bool
    /// RFC 3339 `date-time`.
    case date
    /// ISO 8601-1 duration.
    case duration
    /// An absolute URL.
    case uri
    /// An absolute URL that must use `https`.
    case httpsURI
    case enumeration([String])
    case object(ObjectSchema)
    case array(FieldKind)
    /// A `ShippingFulfillment` or `PickupFulfillment`, by `fulfillmentType`.
    case fulfillment
    /// A `CurrencyAmount.amount`: a JSON number or a decimal string.
    case amount
    /// Three upper-case letters (ISO 4217).
    case currencyCode
    /// Two letters (ISO 3166-1 alpha-2).
    case countryCode
    /// The name of a file in the bundle.
    case file
    /// The name of a PNG or JPEG image in the bundle.
    case image
    case range(ClosedRange<Double>)
}

struct Field: Sendable {
    var name: String
    var required: Bool
    var kind: FieldKind
}

struct ObjectSchema: Sendable {
    var fields: [Field]

    init(_ fields: [Field]) { self.fields = fields }
}

private func req(_ name: String, _ kind: FieldKind) -> Field { Field(name: name, required: true, kind: kind) }
private func opt(_ name: String, _ kind: FieldKind) -> Field {
    Field(name: name, required: false, kind: kind)
}

enum OrderSchema {
    static let address = ObjectSchema([
        opt("addressLines", .array(.string)), opt("locality", .string), opt("subLocality", .string),
        opt("administrativeArea", .string), opt("subAdministrativeArea", .string), opt("postalCode", .string),
        opt("countryCode", .countryCode),
    ])

    static let currencyAmount = ObjectSchema([req("amount", .amount), req("currency", .currencyCode)])

    static let lineItem = ObjectSchema([
        req("title", .string), req("quantity", .number), opt("subtitle", .string), opt("image", .image),
        opt("price", .object(currencyAmount)), opt("gtin", .string), opt("sku", .string),
    ])

    static let merchant = ObjectSchema([
        req("displayName", .string), req("merchantIdentifier", .string), req("url", .uri),
        opt("logo", .image),
        opt("address", .object(address)), opt("businessChatURL", .uri), opt("contactURL", .uri),
        opt("emailAddress", .string), opt("phoneNumber", .string),
    ])

    static let customer = ObjectSchema([
        opt("emailAddress", .string), opt("familyName", .string), opt("givenName", .string),
        opt("organizationName", .string), opt("phoneNumber", .string),
    ])

    static let barcode = ObjectSchema([
        req("format", .enumeration(["qr", "pdf417", "aztec", "code128"])), req("message", .string),
        req("messageEncoding", .string), opt("altText", .string),
    ])

    static let location = ObjectSchema([
        req("latitude", .range(-90...90)), req("longitude", .range(-180...180)), opt("altitude", .number),
    ])

    static let recipient = ObjectSchema([
        opt("address", .object(address)), opt("givenName", .string), opt("familyName", .string),
        opt("organizationName", .string),
    ])

    static let shipping = ObjectSchema([
        req("fulfillmentType", .enumeration(["shipping"])), req("fulfillmentIdentifier", .string),
        req(
            "status",
            .enumeration([
                "open", "processing", "onTheWay", "outForDelivery", "delivered", "shipped", "issue",
                "cancelled",
            ])),
        opt("shippingType", .enumeration(["shipping", "delivery"])), opt("carrier", .string),
        opt("trackingNumber", .string), opt("trackingURL", .uri), opt("shippedAt", .date),
        opt("estimatedDeliveryAt", .date), opt("estimatedDeliveryWindowDuration", .duration),
        opt("deliveredAt", .date), opt("recipient", .object(recipient)),
        opt("lineItems", .array(.object(lineItem))),
        opt("notes", .string), opt("statusDescription", .string),
    ])

    static let pickup = ObjectSchema([
        req("fulfillmentType", .enumeration(["pickup"])), req("fulfillmentIdentifier", .string),
        req("displayName", .string),
        req(
            "status",
            .enumeration(["open", "processing", "readyForPickup", "pickedUp", "issue", "cancelled"])),
        opt("address", .object(address)), opt("location", .object(location)),
        opt("barcode", .object(barcode)),
        opt("pickupAt", .date), opt("pickupWindowDuration", .duration), opt("pickedUpAt", .date),
        opt("lineItems", .array(.object(lineItem))), opt("notes", .string), opt("statusDescription", .string),
    ])

    static let transaction = ObjectSchema([
        req("amount", .object(currencyAmount)), req("createdAt", .date),
        req("paymentMethod", .object(ObjectSchema([req("displayName", .string)]))),
        req("status", .enumeration(["pending", "approved", "completed", "cancelled", "failed"])),
        req("transactionType", .enumeration(["purchase", "refund"])),
        opt("applePayTransactionIdentifier", .string), opt("receipt", .file),
    ])

    static let payment = ObjectSchema([
        req("total", .object(currencyAmount)),
        req("status", .enumeration(["pending", "authorized", "paid", "refunded", "declined", "voided"])),
        opt(
            "summaryItems",
            .array(.object(ObjectSchema([req("label", .string), req("value", .object(currencyAmount))])))),
        opt("transactions", .array(.object(transaction))), opt("paymentMethods", .array(.string)),
        opt("applePayTransactionIdentifiers", .array(.string)),
    ])

    static let returnInfo = ObjectSchema([
        req("returnPolicyURL", .uri), opt("displayCountdown", .bool), opt("returnDeadline", .date),
        opt("returnManagementURL", .uri), opt("returnPolicyDescription", .string),
    ])

    static let returnObject = ObjectSchema([
        req("returnIdentifier", .string),
        req("status", .enumeration(["open", "onTheWay", "processing", "issue", "completed", "cancelled"])),
        opt("carrier", .string), opt("dropOffBy", .date), opt("initiatedAt", .date), opt("returnedAt", .date),
        opt("lineItems", .array(.object(lineItem))), opt("notes", .string), opt("returnLabel", .file),
        opt("returnManagementURL", .uri), opt("returnNumber", .string), opt("statusDescription", .string),
    ])

    static let application = ObjectSchema([
        req("storeIdentifier", .integer), opt("launchURL", .string),
        opt("customProductPageIdentifier", .string),
    ])

    static let orderProvider = ObjectSchema([
        req("displayName", .string), req("url", .uri), req("trackingLogoNameLightColorScheme", .image),
        req("trackingLogoNameDarkColorScheme", .image),
    ])

    static let order = ObjectSchema([
        req("schemaVersion", .integer), req("orderTypeIdentifier", .string), req("orderIdentifier", .string),
        req("orderType", .enumeration(["ecommerce"])), req("orderManagementURL", .uri),
        req("status", .enumeration(["open", "completed", "cancelled"])), req("createdAt", .date),
        req("updatedAt", .date), req("merchant", .object(merchant)), opt("orderNumber", .string),
        opt("statusDescription", .string), opt("customer", .object(customer)),
        opt("lineItems", .array(.object(lineItem))), opt("fulfillments", .array(.fulfillment)),
        opt("payment", .object(payment)), opt("returnInfo", .object(returnInfo)),
        opt("returns", .array(.object(returnObject))), opt("barcode", .object(barcode)),
        opt("associatedApplications", .array(.object(application))),
        opt("associatedApplicationIdentifiers", .array(.string)),
        opt("changeNotifications", .enumeration(["enabled", "disabledIfAppInstalled"])),
        opt("orderProvider", .object(orderProvider)), opt("webServiceURL", .httpsURI),
        opt("authenticationToken", .string),
    ])
}

/// Walks an `order.json` value against `OrderSchema`, collecting every issue rather than
/// stopping at the first.
struct SchemaChecker {
    var issues: [ValidationIssue] = []
    /// File names `order.json` refers to, with where.
    var fileReferences: [(path: String, name: String, isImage: Bool)] = []

    mutating func check(_ value: JSONValue, against schema: ObjectSchema, at path: String) {
        guard case .object(let object) = value else {
            issues.append(.init(.error, .wrongType, at: path.isEmpty ? nil : path, "expected an object"))
            return
        }
        var known = Set<String>()
        for field in schema.fields {
            known.insert(field.name)
            let fieldPath = path.isEmpty ? field.name : "\(path).\(field.name)"
            guard let child = object[field.name] else {
                if field.required {
                    issues.append(.init(.error, .missingKey, at: fieldPath, "required key is missing"))
                }
                continue
            }
            check(child, kind: field.kind, at: fieldPath)
        }
        for key in object.keys.sorted() where !known.contains(key) {
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            issues.append(.init(.warning, .unknownKey, at: keyPath, "key not defined by the order format"))
        }
    }

    mutating func check(_ value: JSONValue, kind: FieldKind, at path: String) {
        func wrong(_ expected: String) {
            issues.append(
                .init(.error, .wrongType, at: path, "expected \(expected), found \(describe(value))"))
        }
        switch kind {
        case .string:
            guard case .string = value else { return wrong("a string") }
        case .number:
            guard case .number = value else { return wrong("a number") }
        case .integer:
            guard case .number(let number) = value else { return wrong("an integer") }
            var rounding = number
            var whole = Decimal()
            NSDecimalRound(&whole, &rounding, 0, .plain)
            if whole != number { wrong("an integer") }
        case .bool:
            guard case .bool = value else { return wrong("true or false") }
        case .range(let range):
            guard case .number(let number) = value else { return wrong("a number") }
            let double = NSDecimalNumber(decimal: number).doubleValue
            if !range.contains(double) {
                issues.append(
                    .init(
                        .error, .invalidValue, at: path,
                        "\(number) is outside \(range.lowerBound)…\(range.upperBound)"))
            }
        case .date:
            guard case .string(let text) = value else { return wrong("an RFC 3339 date-time string") }
            if WalletTime.parse(text) == nil {
                issues.append(
                    .init(.error, .invalidDate, at: path, "\(text.debugDescription) is not RFC 3339"))
            }
        case .duration:
            guard case .string(let text) = value else { return wrong("an ISO 8601 duration string") }
            if !WalletTime.isDuration(text) {
                issues.append(
                    .init(
                        .error, .invalidDuration, at: path,
                        "\(text.debugDescription) is not an ISO 8601 duration"))
            }
        case .uri, .httpsURI:
            guard case .string(let text) = value else { return wrong("a URL string") }
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty,
                text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
            else {
                issues.append(
                    .init(.error, .invalidURL, at: path, "\(text.debugDescription) is not an absolute URL"))
                return
            }
            if case .httpsURI = kind, scheme.lowercased() != "https" || (url.host ?? "").isEmpty {
                issues.append(.init(.error, .httpsRequired, at: path, "must be an https:// URL"))
            }
        case .enumeration(let allowed):
            guard case .string(let text) = value else { return wrong("a string") }
            if !allowed.contains(text) {
                issues.append(
                    .init(
                        .error, .invalidEnum, at: path,
                        "\(text.debugDescription) is not one of \(allowed.joined(separator: ", "))"))
            }
        case .object(let schema):
            check(value, against: schema, at: path)
        case .array(let element):
            guard case .array(let items) = value else { return wrong("an array") }
            for (index, item) in items.enumerated() { check(item, kind: element, at: "\(path)[\(index)]") }
        case .fulfillment:
            guard case .object(let object) = value else { return wrong("an object") }
            switch object["fulfillmentType"] {
            case .string("shipping"): check(value, against: OrderSchema.shipping, at: path)
            case .string("pickup"): check(value, against: OrderSchema.pickup, at: path)
            case nil:
                issues.append(
                    .init(.error, .missingKey, at: "\(path).fulfillmentType", "required key is missing"))
            case .string(let other):
                issues.append(
                    .init(
                        .error, .invalidEnum, at: "\(path).fulfillmentType",
                        "\(other.debugDescription) is not one of shipping, pickup"))
            default:
                issues.append(.init(.error, .wrongType, at: "\(path).fulfillmentType", "expected a string"))
            }
        case .amount:
            switch value {
            case .number: break
            case .string(let text) where CurrencyAmount.exactDecimal(text) != nil: break
            default: wrong("a number (or a decimal string)")
            }
        case .currencyCode:
            guard case .string(let text) = value else { return wrong("a string") }
            if text.utf8.count != 3 || !text.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) {
                issues.append(
                    .init(
                        .error, .invalidValue, at: path,
                        "\(text.debugDescription) is not an ISO 4217 currency code"))
            }
        case .countryCode:
            guard case .string(let text) = value else { return wrong("a string") }
            if text.utf8.count != 2
                || !text.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
            {
                issues.append(
                    .init(
                        .error, .invalidValue, at: path,
                        "\(text.debugDescription) is not an ISO 3166-1 country code"))
            }
        case .file, .image:
            guard case .string(let text) = value else { return wrong("a file name") }
            if case .image = kind {
                fileReferences.append((path, text, true))
            } else {
                fileReferences.append((path, text, false))
            }
        }
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
