/// The eight schema.org `OrderStatus` values (https://schema.org/OrderStatus).
public enum SchemaOrderStatus: String, Sendable, Hashable, CaseIterable {
    case orderCancelled = "OrderCancelled"
    case orderDelivered = "OrderDelivered"
    case orderInTransit = "OrderInTransit"
    case orderPaymentDue = "OrderPaymentDue"
    case orderPickupAvailable = "OrderPickupAvailable"
    case orderProblem = "OrderProblem"
    case orderProcessing = "OrderProcessing"
    case orderReturned = "OrderReturned"

    /// Reads a status written bare (`OrderDelivered`), as a URL (`http://schema.org/OrderDelivered`),
    /// with a prefix (`schema:OrderDelivered`), or without `Order` (`Delivered`), in any case.
    ///
    /// - Parameter value: The property value as written.
    /// - Returns: The status, or `nil` when the value is none of the eight.
    public init?(schemaValue value: String) {
        var name = value.trimmingSpaces()
        if let slash = name.lastIndex(where: { $0 == "/" || $0 == ":" || $0 == "#" }) {
            name = String(name[name.index(after: slash)...])
        }
        let lower = name.lowercased()
        for status in SchemaOrderStatus.allCases {
            let full = status.rawValue.lowercased()
            if lower == full || "order" + lower == full {
                self = status
                return
            }
        }
        return nil
    }
}

/// Folds JSON-LD and microdata into the small schema.org model extraction reads.
///
/// - `@graph` is expanded and top-level arrays are flattened (JSON-LD 1.1 §4.9).
/// - Types and property names lose their vocabulary prefix (`http://schema.org/Order` →
///   `Order`, `schema:name` → `name`); of several types, one of the model's is preferred.
/// - Synonyms fold: `seller`, `vendor` → `merchant`; `provider` → `carrier`.
/// - `orderStatus` values become one of the eight ``SchemaOrderStatus`` names.
/// - HTML entities left in string values are decoded.
/// - Nested objects stay as ``JSONValue/object`` with a normalized `@type` key.
public enum StructuredDataNormalizer {
    /// The types the model knows; others are kept with their bare name.
    public static let modelTypes: Set<String> = [
        "Order", "ParcelDelivery", "Organization", "Offer", "Product", "PostalAddress",
    ]

    /// Property synonyms folded to the model's name.
    public static let synonyms: [String: String] = [
        "seller": "merchant", "vendor": "merchant", "provider": "carrier",
    ]

    /// Bounds the objects produced from one document.
    public static let maxObjects = 1_000

    /// Normalizes top-level values from JSON-LD blocks or microdata.
    ///
    /// - Parameters:
    ///   - values: Top-level values as read (objects, arrays of objects, `@graph` containers).
    ///   - origin: `jsonld` or `microdata`, recorded on every object.
    /// - Returns: One ``SchemaObject`` per typed top-level object, in order.
    public static func normalize(_ values: [JSONValue], origin: String) -> [SchemaObject] {
        var output: [SchemaObject] = []
        var pending = values.reversed().map { $0 }
        var visited = 0
        while let value = pending.popLast(), output.count < maxObjects, visited < 100_000 {
            visited += 1
            switch value {
            case .array(let elements):
                pending.append(contentsOf: elements.reversed())
            case .object(let object):
                if case .some(let graph) = object["@graph"] {
                    let nested: [JSONValue]
                    if case .array(let elements) = graph { nested = elements } else { nested = [graph] }
                    pending.append(contentsOf: nested.reversed())
                    if object["@type"] == nil { continue }
                }
                if let normalized = normalizeObject(object, depth: 0),
                    case .object(var properties) = normalized,
                    case .string(let type) = properties["@type"]
                {
                    properties.removeValue(forKey: "@type")
                    output.append(SchemaObject(type: type, properties: properties, origin: origin))
                }
            default:
                continue
            }
        }
        return output
    }

    /// The bare type name: `http://schema.org/Order` → `Order`.
    public static func bareName(_ name: String) -> String {
        var text = name.trimmingSpaces()
        for prefix in [
            "http://schema.org/", "https://schema.org/", "http://www.schema.org/", "schema:", "//schema.org/",
        ]
        where text.lowercased().hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count))
            break
        }
        return text
    }

    private static func preferredType(_ value: JSONValue?) -> String? {
        var names: [String] = []
        switch value {
        case .string(let name): names = [name]
        case .array(let elements):
            for case .string(let name) in elements { names.append(name) }
        default: return nil
        }
        let bare = names.map(bareName).filter { !$0.isEmpty }
        return bare.first(where: { modelTypes.contains($0) }) ?? bare.first
    }

    private static func normalizeObject(_ object: [String: JSONValue], depth: Int) -> JSONValue? {
        guard depth < 32 else { return nil }
        var properties: [String: JSONValue] = [:]
        for (rawKey, rawValue) in object {
            if rawKey == "@context" || rawKey == "@graph" { continue }
            if rawKey == "@type" {
                if let type = preferredType(rawValue) { properties["@type"] = .string(type) }
                continue
            }
            var key = rawKey.hasPrefix("@") ? rawKey : bareName(rawKey)
            key = synonyms[key] ?? key
            let value = normalizeValue(rawValue, key: key, depth: depth + 1)
            if let existing = properties[key] {
                // Two synonyms given: keep both values.
                properties[key] = .array(arrayed(existing) + arrayed(value))
            } else {
                properties[key] = value
            }
        }
        return .object(properties)
    }

    /// The text without escape sequences (`\u001b[31m`, ``TextSink/withoutEscapeSequences(_:)``)
    /// and control characters (C0 but tab, line feed and carriage return, DEL, C1), which a
    /// JSON string may carry escaped and no order value holds: read as nothing, as the rendered
    /// text reads them.
    static func withoutControlCharacters(_ text: String) -> String {
        let text = TextSink.withoutEscapeSequences(text)
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D)
                || (0x7F...0x9F).contains(value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isControl($0) }))
    }

    private static func arrayed(_ value: JSONValue) -> [JSONValue] {
        if case .array(let elements) = value { return elements }
        return [value]
    }

    private static func normalizeValue(_ value: JSONValue, key: String, depth: Int) -> JSONValue {
        switch value {
        case .string(let text):
            let decoded = withoutControlCharacters(HTMLEntities.decode(text))
            if key == "orderStatus" || key == "deliveryStatus" || key == "status",
                let status = SchemaOrderStatus(schemaValue: decoded)
            {
                return .string(status.rawValue)
            }
            return .string(decoded)
        case .array(let elements):
            let mapped = elements.map { normalizeValue($0, key: key, depth: depth + 1) }
            return mapped.count == 1 ? mapped[0] : .array(mapped)
        case .object(let object):
            return normalizeObject(object, depth: depth) ?? .null
        default:
            return value
        }
    }
}

extension SchemaObject {
    /// A property's value as text: a string, a number written plainly, or the `name` (else
    /// `@id`) of a nested object; the first element of an array.
    ///
    /// - Parameter key: The normalized property name.
    /// - Returns: The text, or `nil` when absent or not textual.
    public func string(_ key: String) -> String? {
        SchemaObject.text(of: properties[key])
    }

    /// A nested object's properties (the first one of an array), `@type` included.
    public func object(_ key: String) -> [String: JSONValue]? {
        switch properties[key] {
        case .object(let object): return object
        case .array(let elements):
            for case .object(let object) in elements { return object }
            return nil
        default: return nil
        }
    }

    /// The order status, when the object has a recognised `orderStatus`.
    public var orderStatus: SchemaOrderStatus? {
        string("orderStatus").flatMap { SchemaOrderStatus(schemaValue: $0) }
    }

    static func text(of value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let elements): return elements.lazy.compactMap { text(of: $0) }.first
        case .object(let object): return text(of: object["name"]) ?? text(of: object["@id"])
        default: return nil
        }
    }
}
