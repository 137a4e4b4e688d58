/// The carriers' hosts and sender domains, looked up by the bytes of a host and of each of
/// its parent domains without building a `Substring` or hashing a `String` for each.
///
/// Built once from the three tables of ``CompiledCarriers`` (link hosts → carriers, sender
/// domains → carriers, link hosts → URL pattern indices); for every known domain it holds the
/// three lists in an open-addressed table under a 64-bit FNV-1a hash of the domain's UTF-8
/// bytes read from the last (so that one pass over a host hashes all its parent domains; no
/// `Hasher` round per look-up), and a hit is confirmed by comparing the bytes. It answers only for ASCII hosts and only when every known domain is
/// ASCII: there `String` equality (canonical equivalence) is byte equality. Anything else is
/// left to the general path (``lookup(_:)`` returns `nil`).
struct HostTable: Sendable {
    /// One known domain and what it stands for.
    struct Entry: Sendable {
        /// The domain's UTF-8 bytes (lower-case ASCII, as the rules give it).
        var bytes: [UInt8]
        /// Carriers owning it as a link host or sender domain, in rule order.
        var hostCarriers: [Int]
        /// Carriers sending from it, in rule order.
        var senderCarriers: [Int]
        /// Indices into ``CompiledCarriers/urlPatterns`` whose host it is, in rule order.
        var urlPatterns: [Int]
    }

    /// The known domains.
    private(set) var entries: [Entry] = []
    /// The table: entry index + 1 in the slot the hash's low bits name or, when taken, in the
    /// next free one after it (0: free). At most a quarter of the slots are taken.
    private var slots: [Int32] = []
    /// The full hash of the entry in each slot.
    private var slotHashes: [UInt64] = []
    /// `false` when some known domain is not ASCII: then no lookup is answered here.
    private(set) var isUsable = true

    /// Builds the table.
    /// - Parameters:
    ///   - hosts: the link-host table (`CompiledCarriers.carriersByHost`).
    ///   - senderDomains: the sender-domain table.
    ///   - urlPatterns: URL pattern indices by host.
    init(hosts: [Substring: [Int]], senderDomains: [Substring: [Int]], urlPatterns: [Substring: [Int]]) {
        var index: [String: Int] = [:]
        func entry(_ domain: Substring) -> Int {
            let key = String(domain)
            if let found = index[key] { return found }
            if key.utf8.contains(where: { $0 >= 0x80 }) { isUsable = false }
            entries.append(
                Entry(bytes: Array(key.utf8), hostCarriers: [], senderCarriers: [], urlPatterns: []))
            index[key] = entries.count - 1
            return entries.count - 1
        }
        for (domain, carriers) in hosts { entries[entry(domain)].hostCarriers = carriers }
        for (domain, carriers) in senderDomains { entries[entry(domain)].senderCarriers = carriers }
        for (domain, patterns) in urlPatterns { entries[entry(domain)].urlPatterns = patterns }
        var size = 8
        while size < entries.count * 4 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        slotHashes = Array(repeating: 0, count: size)
        for (offset, item) in entries.enumerated() {
            let hash = Self.hash(item.bytes)
            var slot = Int(truncatingIfNeeded: hash) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(offset + 1)
            slotHashes[slot] = hash
        }
    }

    static let hashBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One FNV-1a step: `hash` with `byte` added.
    @inline(__always) static func hash(_ hash: UInt64, adding byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// 64-bit FNV-1a over bytes read from the last to the first: a domain's hash extends its
    /// parent domain's (`ups.com` is `com`'s with `.`, `s`, `p`, `u` added).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.reversed().reduce(hashBasis) { hash($0, adding: $1) }
    }

    /// The known entries for a host and its parent domains, longest first: the host itself,
    /// then the rest after each `.` when not empty (`www.ups.com` → `www.ups.com`, `ups.com`,
    /// `com`), as ``CompiledCarriers/domainAndParents(_:)`` lists them; unknown ones skipped.
    /// - Parameter host: the host's UTF-8 bytes, already lower-cased as the caller needs.
    /// - Returns: entry indices, or `nil` when the table cannot answer (a non-ASCII host or
    ///   known domain): the caller takes the general path.
    func lookup(_ host: [UInt8]) -> [Int]? {
        host.withUnsafeBufferPointer { lookup($0) }
    }

    /// The entries of ``lookup(_:)`` for bytes the caller holds (a string's, a stack buffer).
    func lookup(_ host: UnsafeBufferPointer<UInt8>) -> [Int]? {
        guard isUsable, !host.contains(where: { $0 >= 0x80 }) else { return nil }
        var found: [Int] = []
        let mask = slots.count - 1
        // From the last byte back: each suffix's hash is the one so far when its first byte
        // is added, so every parent domain is hashed in the one pass. They are found shortest
        // first, and given longest first.
        var hash = Self.hashBasis
        var start = host.count
        while start > 0 {
            start -= 1
            hash = Self.hash(hash, adding: host[start])
            guard start == 0 || host[start - 1] == UInt8(ascii: ".") else { continue }
            let suffix = host[start...]
            // Known domains are distinct: at most one has these bytes.
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                let entry = Int(slots[slot]) - 1
                if slotHashes[slot] == hash, entries[entry].bytes.elementsEqual(suffix) {
                    found.append(entry)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        found.reverse()
        return found
    }
}
