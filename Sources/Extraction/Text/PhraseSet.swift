import Foundation

/// Many phrases matched over a line in one pass: candidates are found by their first byte
/// and rejected early by their second, so the cost grows with the line, not with the list.
/// (A class: its tables are built once per language set and shared; a copy is one reference,
/// not one per table.)
final class PhraseSet: Sendable {
    /// The set's position in the ``PhraseIndex`` it is read through, or -1.
    let id: Int
    /// The phrases, longest first.
    let phrases: [Phrase]
    /// A tag per phrase (e.g. the kind it marks).
    let tags: [Int]
    /// Phrase indices by first byte.
    private let byFirstByte: [[Int32]]
    /// For each first byte, the second bytes that occur (256 bits).
    private let secondBytes: [(UInt64, UInt64, UInt64, UInt64)]

    init(_ phrases: [Phrase], tags: [Int]? = nil, id: Int = -1) {
        self.id = id
        var pairs = Array(zip(phrases, tags ?? Array(repeating: 0, count: phrases.count)))
        var seen: Set<[UInt8]> = []
        pairs = pairs.filter { !$0.0.folded.isEmpty && seen.insert($0.0.folded).inserted }
        pairs.sort { $0.0.folded.count > $1.0.folded.count }
        let phrases = pairs.map(\.0)
        self.phrases = phrases
        self.tags = pairs.map(\.1)
        var byFirstByte = Array(repeating: [Int32](), count: 256)
        var secondBytes = Array(repeating: (UInt64(0), UInt64(0), UInt64(0), UInt64(0)), count: 256)
        for (index, phrase) in phrases.enumerated() {
            let first = Int(phrase.folded[0])
            byFirstByte[first].append(Int32(index))
            if phrase.folded.count > 1 {
                let second = Int(phrase.folded[1])
                switch second >> 6 {
                case 0: secondBytes[first].0 |= 1 << UInt64(second & 63)
                case 1: secondBytes[first].1 |= 1 << UInt64(second & 63)
                case 2: secondBytes[first].2 |= 1 << UInt64(second & 63)
                default: secondBytes[first].3 |= 1 << UInt64(second & 63)
                }
            } else {
                secondBytes[first] = (.max, .max, .max, .max)
            }
        }
        self.byFirstByte = byFirstByte
        self.secondBytes = secondBytes
    }

    var isEmpty: Bool { phrases.isEmpty }

    /// Every match in the folded bytes, on word boundaries where a phrase starts or ends with
    /// a Latin letter or digit; where matches overlap, the longest phrase wins.
    /// - Returns: (phrase index, byte range) in order of position.
    func matches(in bytes: [UInt8], limit: Int = 256) -> [(Int, Range<Int>)] {
        var found: [(Int, Range<Int>)] = []
        let count = bytes.count
        var position = 0
        while position < count {
            let first = Int(bytes[position])
            let candidates = byFirstByte[first]
            if !candidates.isEmpty {
                var possible = true
                if position + 1 < count {
                    let second = Int(bytes[position + 1])
                    let mask = secondBytes[first]
                    let word: UInt64
                    switch second >> 6 {
                    case 0: word = mask.0
                    case 1: word = mask.1
                    case 2: word = mask.2
                    default: word = mask.3
                    }
                    possible = word & (1 << UInt64(second & 63)) != 0
                }
                if possible {
                    for candidate in candidates {
                        let phrase = phrases[Int(candidate)].folded
                        let end = position + phrase.count
                        guard end <= count else { continue }
                        var equal = true
                        var offset = 1
                        while offset < phrase.count {
                            if bytes[position + offset] != phrase[offset] {
                                equal = false
                                break
                            }
                            offset += 1
                        }
                        guard equal else { continue }
                        if Text.wordAt(phrase, 0) && Text.wordBefore(bytes, position) { continue }
                        if Text.wordBefore(phrase, phrase.count) && Text.wordAt(bytes, end) { continue }
                        found.append((Int(candidate), position..<end))
                        if found.count >= limit { break }
                    }
                }
            }
            if found.count >= limit { break }
            position += 1
        }
        return Self.resolveOverlaps(found)
    }

    /// Where matches overlap, the longest wins (then the leftmost); the rest in order of position.
    ///
    /// For up to 64 non-empty matches already in order of position (as a scan finds them), the
    /// longest undecided match is taken one after the other, kept when it overlaps none kept
    /// before, and the kept ones are returned in their input order: what
    /// ``resolveOverlapsBySorting(_:)`` returns, without sorting copies of the matches.
    static func resolveOverlaps(_ found: [(Int, Range<Int>)]) -> [(Int, Range<Int>)] {
        guard found.count > 1 else { return found }
        guard found.count <= 64 else { return resolveOverlapsBySorting(found) }
        for index in found.indices {
            guard !found[index].1.isEmpty,
                index == 0 || found[index - 1].1.lowerBound <= found[index].1.lowerBound
            else { return resolveOverlapsBySorting(found) }
        }
        // One bit per match: decided, and kept.
        let all: UInt64 = found.count == 64 ? .max : (1 << UInt64(found.count)) - 1
        var decided: UInt64 = 0
        var kept: UInt64 = 0
        while decided != all {
            // The undecided match that sorts first: the longest, then the leftmost (then the
            // first, as the stable sort keeps it).
            var undecided = all & ~decided
            var best = undecided.trailingZeroBitCount
            undecided &= undecided - 1
            while undecided != 0 {
                let other = undecided.trailingZeroBitCount
                undecided &= undecided - 1
                let length = found[other].1.count
                let bestLength = found[best].1.count
                if length > bestLength
                    || (length == bestLength && found[other].1.lowerBound < found[best].1.lowerBound)
                {
                    best = other
                }
            }
            decided |= 1 << UInt64(best)
            var others = kept
            var overlaps = false
            while others != 0 {
                let other = others.trailingZeroBitCount
                others &= others - 1
                if found[other].1.overlaps(found[best].1) {
                    overlaps = true
                    break
                }
            }
            if !overlaps { kept |= 1 << UInt64(best) }
        }
        if kept == all { return found }
        // Kept matches do not overlap and are not empty: their input order is their order of
        // position.
        var result: [(Int, Range<Int>)] = []
        result.reserveCapacity(kept.nonzeroBitCount)
        while kept != 0 {
            result.append(found[kept.trailingZeroBitCount])
            kept &= kept - 1
        }
        return result
    }

    /// ``resolveOverlaps(_:)`` for any matches: sorted longest first, then leftmost, each kept
    /// unless it overlaps one kept before, the kept ones sorted by position.
    static func resolveOverlapsBySorting(_ found: [(Int, Range<Int>)]) -> [(Int, Range<Int>)] {
        guard found.count > 1 else { return found }
        // Longest first, then leftmost; drop what overlaps a match already kept.
        let ordered = found.sorted { lhs, rhs in
            let left = lhs.1.count
            let right = rhs.1.count
            return left != right ? left > right : lhs.1.lowerBound < rhs.1.lowerBound
        }
        var kept: [(Int, Range<Int>)] = []
        for match in ordered where !kept.contains(where: { $0.1.overlaps(match.1) }) {
            kept.append(match)
        }
        return kept.sorted { $0.1.lowerBound < $1.1.lowerBound }
    }

    /// Whether any phrase occurs.
    func containsMatch(in bytes: [UInt8]) -> Bool {
        !matches(in: bytes, limit: 1).isEmpty
    }
}
