/// The carriers' hosts and sender domains, looked up by the bytes of a host and of each of
/// its parent domains without building a `Substring` or hashing a `String` for each.
///
/// Built once from the three tables of ``CompiledCarriers`` (link hosts → carriers, sender
/// domains → carriers, link hosts → URL pattern indices); for every known domain it holds the
/// three lists under a 64-bit FNV-1a hash of the domain's UTF-8 bytes, and a hit is confirmed
/// by comparing the bytes. It answers only for ASCII hosts and only when every known domain is
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
    /// Entry indices by FNV-1a hash of the domain's bytes; colliding domains share a list.
    private var byHash: [UInt64: [Int32]] = [:]
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
        for (offset, item) in entries.enumerated() {
            byHash[Self.hash(item.bytes[...]), default: []].append(Int32(offset))
        }
    }

    /// 64-bit FNV-1a over bytes.
    @inline(__always) static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return value
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
        var start = 0
        while start < host.count {
            if start == 0 || host[start - 1] == UInt8(ascii: ".") {
                let suffix = host[start...]
                if let candidates = byHash[Self.hash(suffix)] {
                    for candidate in candidates where entries[Int(candidate)].bytes.elementsEqual(suffix) {
                        found.append(Int(candidate))
                    }
                }
            }
            start += 1
        }
        return found
    }
}
