/// A set of carrier indices (positions in ``CompiledCarriers/carriers``), as the tracking search
/// asks it: whether a carrier is in it, with no hashing and no allocation for the first 256
/// carriers (the rules ship about fifty).
///
/// Indices 0–255 are bits in four words held inline; any larger index (a rules folder with more
/// carriers) goes to an array, searched linearly. A negative index is never a member.
struct CarrierSet: Equatable {
    private var word0: UInt64 = 0
    private var word1: UInt64 = 0
    private var word2: UInt64 = 0
    private var word3: UInt64 = 0
    /// Members of 256 and above, each once, in the order they were inserted.
    private var larger: [Int] = []

    /// Carriers with an index below this are held as bits.
    static let inlineLimit = 256

    /// The empty set.
    init() {}

    /// The set of the given indices (repeated ones count once).
    init(_ indices: some Sequence<Int>) {
        for index in indices { insert(index) }
    }

    /// Whether no carrier is in the set.
    var isEmpty: Bool { word0 | word1 | word2 | word3 == 0 && larger.isEmpty }

    /// The number of carriers in the set.
    var count: Int {
        word0.nonzeroBitCount + word1.nonzeroBitCount + word2.nonzeroBitCount + word3.nonzeroBitCount
            + larger.count
    }

    /// Whether carrier `index` is in the set.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        guard index >= 0 else { return false }
        guard index < Self.inlineLimit else { return larger.contains(index) }
        let bit = UInt64(1) &<< UInt64(index & 63)
        switch index >> 6 {
        case 0: return word0 & bit != 0
        case 1: return word1 & bit != 0
        case 2: return word2 & bit != 0
        default: return word3 & bit != 0
        }
    }

    /// Adds carrier `index` (a negative index is left out).
    mutating func insert(_ index: Int) {
        guard index >= 0 else { return }
        guard index < Self.inlineLimit else {
            if !larger.contains(index) { larger.append(index) }
            return
        }
        let bit = UInt64(1) &<< UInt64(index & 63)
        switch index >> 6 {
        case 0: word0 |= bit
        case 1: word1 |= bit
        case 2: word2 |= bit
        default: word3 |= bit
        }
    }

    /// Adds every index of `indices`.
    mutating func formUnion(_ indices: some Sequence<Int>) {
        for index in indices { insert(index) }
    }

    /// Adds every member of `other`.
    mutating func formUnion(_ other: CarrierSet) {
        word0 |= other.word0
        word1 |= other.word1
        word2 |= other.word2
        word3 |= other.word3
        for index in other.larger where !larger.contains(index) { larger.append(index) }
    }

    /// The members of both sets.
    func union(_ other: CarrierSet) -> CarrierSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Two sets are equal when they have the same members, whatever the order they came in.
    static func == (left: CarrierSet, right: CarrierSet) -> Bool {
        left.word0 == right.word0 && left.word1 == right.word1 && left.word2 == right.word2
            && left.word3 == right.word3 && left.larger.count == right.larger.count
            && left.larger.allSatisfy(right.larger.contains)
    }
}
