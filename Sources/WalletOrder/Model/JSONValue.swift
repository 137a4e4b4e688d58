import Foundation

/// Any JSON value, kept as read: how the model carries keys it does not know (RFC 8259 §3).
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, kept as its decimal value so nothing is rounded on a round trip.
    case number(Decimal)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A coding key made from any string: lets a type read its known keys and keep the rest.
struct AnyKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A type that reads a fixed set of keys and keeps every other key it meets.
protocol KeepsUnknownKeys {
    /// The keys the type reads itself.
    static var knownKeys: Set<String> { get }
}

extension KeyedDecodingContainer where Key == AnyKey {
    func required<T: Decodable>(_ key: String) throws -> T {
        try decode(T.self, forKey: AnyKey(key))
    }

    func optional<T: Decodable>(_ key: String) throws -> T? {
        try decodeIfPresent(T.self, forKey: AnyKey(key))
    }

    /// Every key not in `known`, with its value as read.
    func unknown(except known: Set<String>) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            result[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return result
    }
}

extension KeyedEncodingContainer where Key == AnyKey {
    mutating func put<T: Encodable>(_ value: T, _ key: String) throws {
        try encode(value, forKey: AnyKey(key))
    }

    mutating func put<T: Encodable>(_ value: T?, _ key: String) throws {
        try encodeIfPresent(value, forKey: AnyKey(key))
    }

    /// Writes the kept unknown keys; a known key of the same name always wins.
    mutating func putUnknown(_ values: [String: JSONValue], known: Set<String>) throws {
        for (key, value) in values where !known.contains(key) {
            try encode(value, forKey: AnyKey(key))
        }
    }
}
