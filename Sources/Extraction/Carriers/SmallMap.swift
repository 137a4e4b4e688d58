/// A map that compares keys one by one while it holds few of them, and hashes them once it
/// holds more than ``linearLimit``: a document's few link hosts and targets are found
/// without hashing long strings, a hostile number of them still in constant time.
struct SmallMap<Key: Hashable, Value> {
    /// The keys, in insertion order.
    private(set) var keys: [Key] = []
    /// The value of `keys[i]` at `i`.
    private(set) var values: [Value] = []
    /// The position of each key, built when the map grows beyond ``linearLimit``.
    private var positions: [Key: Int]?

    /// The most keys looked up by comparison.
    static var linearLimit: Int { 16 }

    init() {}

    /// An empty map with room for `capacity` keys (at most ``linearLimit`` of them reserved:
    /// beyond, the keys are hashed anyway).
    init(capacity: Int) {
        let room = min(capacity, Self.linearLimit + 1)
        keys.reserveCapacity(room)
        values.reserveCapacity(room)
    }

    /// The value of `key`, `nil` when it has none.
    subscript(key: Key) -> Value? {
        guard let position = position(of: key) else { return nil }
        return values[position]
    }

    /// The position of `key` in ``keys``, `nil` when absent.
    func position(of key: Key) -> Int? {
        if let positions { return positions[key] }
        return keys.firstIndex(of: key)
    }

    /// Adds a key that is not in the map yet, with its value.
    mutating func insert(_ value: Value, for key: Key) {
        keys.append(key)
        values.append(value)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > Self.linearLimit {
            var built: [Key: Int] = [:]
            built.reserveCapacity(keys.count * 2)
            for (position, key) in keys.enumerated() where built[key] == nil { built[key] = position }
            positions = built
        }
    }
}
