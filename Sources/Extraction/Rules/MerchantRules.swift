import Foundation

/// Merchant overrides by sender domain (`rules/merchants.json5`).
public struct MerchantRules: Sendable, Decodable {
    public var merchants: [Entry] {
        didSet { entryByDomain = Self.index(merchants) }
    }
    /// For each domain, the position of the first entry that lists it.
    private var entryByDomain: [String: Int]

    /// One merchant, or one platform that sends for many shops.
    public struct Entry: Sendable, Decodable {
        /// Sender domains; a domain also matches its subdomains.
        public var domains: [String]
        /// The display name; absent for a platform.
        public var name: String?
        /// The merchant's own domain, when it differs from the sending domain.
        public var domain: String?
        /// A platform that sends for many shops: the shop is named by the display name.
        public var platform: Bool?
    }

    public init(merchants: [Entry] = []) {
        self.merchants = merchants
        entryByDomain = Self.index(merchants)
    }

    private enum CodingKeys: String, CodingKey { case merchants }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        merchants = try container.decode([Entry].self, forKey: .merchants)
        entryByDomain = Self.index(merchants)
    }

    private static func index(_ merchants: [Entry]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, entry) in merchants.enumerated() {
            for domain in entry.domains where index[domain] == nil { index[domain] = position }
        }
        return index
    }

    /// The entry for a sender domain (exact or parent domain), most specific first; of the
    /// entries listing one domain, the first.
    public func entry(forDomain domain: String) -> Entry? {
        var candidate = domain.lowercased()
        // A dot in ASCII is one character (as nearly every domain is): found among the bytes,
        // not character by character. A parent domain of an ASCII domain is ASCII.
        let ascii = FieldText.isASCII(candidate)
        while true {
            if let position = entryByDomain[candidate] { return merchants[position] }
            guard
                let dot = ascii
                    ? candidate.utf8.firstIndex(of: UInt8(ascii: ".")) : candidate.firstIndex(of: ".")
            else { return nil }
            candidate = String(candidate[candidate.index(after: dot)...])
            let hasDot =
                ascii || FieldText.isASCII(candidate)
                ? candidate.utf8.contains(UInt8(ascii: ".")) : candidate.contains(".")
            if !hasDot { return nil }
        }
    }
}
