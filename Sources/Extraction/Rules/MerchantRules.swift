import Foundation

/// Merchant overrides by sender domain (`rules/merchants.json5`).
public struct MerchantRules: Sendable, Decodable {
    public var merchants: [Entry] {
        didSet {
            entryByDomain = Self.index(merchants)
            asciiEntryByDomain = ASCIIDomainTable(entryByDomain)
        }
    }
    /// For each domain, the position of the first entry that lists it.
    private var entryByDomain: [String: Int]
    /// ``entryByDomain`` for the domains an ASCII domain can equal, looked up by bytes.
    private var asciiEntryByDomain: ASCIIDomainTable

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
        asciiEntryByDomain = ASCIIDomainTable(entryByDomain)
    }

    private enum CodingKeys: String, CodingKey { case merchants }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        merchants = try container.decode([Entry].self, forKey: .merchants)
        entryByDomain = Self.index(merchants)
        asciiEntryByDomain = ASCIIDomainTable(entryByDomain)
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
        if let found = asciiPosition(forDomain: domain) { return found.map { merchants[$0] } }
        return characterEntry(forDomain: domain)
    }

    /// The position of ``entry(forDomain:)``'s entry for an ASCII domain, read from its bytes:
    /// lower-cased once (lower-casing changes A–Z only), each parent domain looked up as a
    /// slice of them.
    /// - Returns: nil when the domain is not ASCII (or not stored contiguously); else the
    ///   position, or `.some(nil)` when no entry lists the domain or a parent.
    func asciiPosition(forDomain domain: String) -> Int?? {
        domain.utf8.withContiguousStorageIfAvailable { bytes -> Int?? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { lowered -> Int?? in
                for (index, byte) in bytes.enumerated() {
                    lowered[index] =
                        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                let domain = UnsafeBufferPointer(lowered)
                let dot = UInt8(ascii: ".")
                var start = 0
                while true {
                    let candidate = UnsafeBufferPointer(rebasing: domain[start...])
                    if let position = asciiEntryByDomain.position(of: candidate) { return .some(position) }
                    // The parent domain, looked up only when it has a dot itself.
                    guard let first = candidate.firstIndex(of: dot) else { return .some(nil) }
                    start += first + 1
                    guard domain[start...].contains(dot) else { return .some(nil) }
                }
            }
        } ?? nil
    }

    /// ``entry(forDomain:)`` character by character, for any domain.
    func characterEntry(forDomain domain: String) -> Entry? {
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

/// The domains of a ``MerchantRules`` index that an ASCII domain can equal, with their
/// positions, looked up by a domain's bytes without building a `String`: an open-addressing
/// table hashed by FNV-1a.
///
/// A `String` key equals an ASCII domain exactly when its canonical decomposition is that
/// domain's bytes (`String` compares canonical equivalents as equal): each key is kept under
/// its decomposition when that is ASCII, and left out otherwise.
struct ASCIIDomainTable: Sendable {
    /// Every kept key's bytes, one after another.
    private let bytes: [UInt8]
    /// The slots: each kept key's start in ``bytes``, its length and its position; a slot
    /// with a negative position is empty.
    private let slots: [(start: Int32, count: Int32, position: Int32)]

    init(_ positions: [String: Int]) {
        var keys: [([UInt8], Int)] = []
        for (key, position) in positions {
            let ascii = key.utf8.allSatisfy { $0 < 0x80 } ? key : key.decomposedStringWithCanonicalMapping
            if ascii.utf8.allSatisfy({ $0 < 0x80 }) { keys.append((Array(ascii.utf8), position)) }
        }
        var capacity = 8
        while capacity < keys.count * 2 { capacity *= 2 }
        var bytes: [UInt8] = []
        var slots = [(start: Int32, count: Int32, position: Int32)](
            repeating: (0, 0, -1), count: capacity)
        for (key, position) in keys {
            var slot = Int(truncatingIfNeeded: Self.hash(key)) & (capacity - 1)
            while slots[slot].position >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = (Int32(bytes.count), Int32(key.count), Int32(position))
            bytes += key
        }
        self.bytes = bytes
        self.slots = slots
    }

    /// The FNV-1a hash of some bytes.
    private static func hash(_ key: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The position kept for the key whose bytes are `key`, if any.
    func position(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(key)) & mask
        while true {
            let entry = slots[slot]
            guard entry.position >= 0 else { return nil }
            if Int(entry.count) == key.count
                && bytes.withUnsafeBufferPointer({
                    $0[Int(entry.start)..<Int(entry.start) + key.count].elementsEqual(key)
                })
            {
                return Int(entry.position)
            }
            slot = (slot + 1) & mask
        }
    }
}
