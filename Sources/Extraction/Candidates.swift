import Foundation

/// One possible value for a field, with where it was found and how much it is trusted.
struct Candidate<Value: Sendable>: Sendable {
    var value: Value
    /// The key values are merged by (e.g. the order number upper-cased).
    var key: String
    /// The evidence source: `order`, `markup`, `link`, `label`, `pattern`, `subject`, `sender`,
    /// `rules`, `body`, `header`.
    var source: String
    /// Trust, 0–1, before merging.
    var score: Double
    /// The text around the value: ``EvidenceLines/text`` when the candidate was made from
    /// lines (built only when asked for: most candidates are never cited as evidence).
    var text: String {
        get { lines?.text ?? storedText }
        set {
            storedText = newValue
            lines = nil
        }
    }
    var origin: TextOrigin?
    /// UTF-8 offset in its rendition, for document order.
    var offset: Int = 0
    var location: String?
    private var storedText: String
    private var lines: EvidenceLines?

    init(
        value: Value, key: String, source: String, score: Double, text: String, origin: TextOrigin?,
        offset: Int = 0, location: String? = nil
    ) {
        self.value = value
        self.key = key
        self.source = source
        self.score = score
        self.storedText = text
        self.origin = origin
        self.offset = offset
        self.location = location
    }

    /// A candidate whose text is the display of the lines it was read from.
    init(
        value: Value, key: String, source: String, score: Double, lines: EvidenceLines, origin: TextOrigin?,
        offset: Int = 0, location: String? = nil
    ) {
        self.init(
            value: value, key: key, source: source, score: score, text: "", origin: origin, offset: offset,
            location: location)
        self.lines = lines
    }
}

/// The lines a value was read from: its label's line and its own (the same line, or the next).
struct EvidenceLines: Sendable {
    let label: TextLine
    let line: TextLine

    /// The label's and the value's line from a labelled value.
    init(_ found: LabelledValue) {
        label = found.labelLine
        line = found.line
    }

    /// The line as displayed, or both lines joined by ` / ` and cut to 200 characters when
    /// the value is on the line after its label.
    var text: String {
        guard label.number != line.number else { return line.display }
        return Text.shortened(label.display + " / " + line.display, limit: 200)
    }
}

/// The candidates that agree on one value, merged.
struct Chosen<Value: Sendable>: Sendable {
    var best: Candidate<Value>
    var supporting: [Candidate<Value>]
    /// The merged score: the best candidate's, raised a little by each further rendition that agrees.
    var score: Double

    var value: Value { best.value }

    func evidence(field: String) -> Evidence {
        Evidence(
            field: field, source: best.source, text: best.text, confidence: (score * 100).rounded() / 100,
            location: best.location)
    }
}

/// Merging and ranking of candidates: the one place where fields are decided.
enum Scoring {
    /// Bonus for each further rendition (HTML, text/plain, subject, markup) that agrees.
    static let agreementBonus = 0.05

    /// Groups candidates by key and ranks the groups: merged score, then the most trusted
    /// rendition (HTML, then text/plain, then subject), then document order.
    static func rank<Value>(_ candidates: [Candidate<Value>]) -> [Chosen<Value>] {
        let chosen = groups(candidates).map(merge)
        return chosen.sorted(by: ranksBefore)
    }

    /// The best value when its merged score reaches the threshold: the first of
    /// ``rank(_:)``, without sorting the groups that do not win.
    static func choose<Value>(_ candidates: [Candidate<Value>], threshold: Double) -> Chosen<Value>? {
        if candidates.count <= 1 {
            // One candidate is its own group: nothing to merge or rank.
            guard let only = candidates.first, min(0.99, only.score) >= threshold else { return nil }
            return Chosen(best: only, supporting: [], score: min(0.99, only.score))
        }
        // The groups of ``groups(_:)`` as chains of candidate indices (`heads[g]` the first
        // member of group `g`, `next[i]` the member after `i` or -1), ranked by their merged
        // score and best member without copying a candidate: only the winner is merged. The
        // chains are held in one temporary buffer (on the stack for a few candidates).
        let count = candidates.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * count) { buffer -> Chosen<Value>? in
            let next = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            let heads = UnsafeMutableBufferPointer(rebasing: buffer[count..<(2 * count)])
            let tails = UnsafeMutableBufferPointer(rebasing: buffer[(2 * count)...])
            next.initialize(repeating: -1)
            var groupCount = 0
            var index: [String: Int]? = count > 32 ? [:] : nil
            for member in 0..<count {
                let key = candidates[member].key
                var found: Int?
                if let dictionary = index {
                    found = dictionary[key]
                } else {
                    for group in 0..<groupCount where candidates[heads[group]].key == key {
                        found = group
                        break
                    }
                }
                if let found {
                    next[tails[found]] = member
                    tails[found] = member
                } else {
                    index?[key] = groupCount
                    heads[groupCount] = member
                    tails[groupCount] = member
                    groupCount += 1
                }
            }
            var winner: (group: Int, best: Int, score: Double, size: Int)?
            for group in 0..<groupCount {
                let head = heads[group]
                // The first of the best members: what a stable sort by ``better(_:_:)`` puts first.
                var best = head
                var member = next[head]
                var size = 1
                while member >= 0 {
                    if better(candidates[member], candidates[best]) { best = member }
                    size += 1
                    member = next[member]
                }
                let renditions =
                    size == 1
                    ? 1
                    : distinctRenditions(candidates, from: head, next: UnsafeBufferPointer(next), size: size)
                let score = min(0.99, candidates[best].score + agreementBonus * Double(renditions - 1))
                // Of equal groups, the earlier one comes first (``ranksBefore(_:_:)``).
                if let current = winner {
                    if score != current.score {
                        guard score > current.score else { continue }
                    } else if !better(candidates[best], candidates[current.best]) {
                        continue
                    }
                }
                winner = (group, best, score, size)
            }
            guard let winner, winner.score >= threshold else { return nil }
            var members: [Candidate<Value>] = []
            members.reserveCapacity(winner.size)
            var member = heads[winner.group]
            while member >= 0 {
                members.append(candidates[member])
                member = next[member]
            }
            return merge(members)
        }
    }

    /// ``distinctRenditions(_:)`` of the `size` members of one chain of ``choose(_:threshold:)``
    /// (from `head`, through `next`), read in place.
    private static func distinctRenditions<Value>(
        _ candidates: [Candidate<Value>], from head: Int, next: UnsafeBufferPointer<Int>, size: Int
    ) -> Int {
        func rendition(_ index: Int) -> String {
            candidates[index].origin?.rawValue ?? candidates[index].source
        }
        if size > 16 {
            var seen = Set<String>()
            var member = head
            while member >= 0 {
                seen.insert(rendition(member))
                member = next[member]
            }
            return seen.count
        }
        var distinct = 0
        var member = head
        while member >= 0 {
            var earlier = head
            var repeated = false
            while earlier != member {
                if rendition(earlier) == rendition(member) {
                    repeated = true
                    break
                }
                earlier = next[earlier]
            }
            if !repeated { distinct += 1 }
            member = next[member]
        }
        return distinct
    }

    /// The candidates grouped by ``Candidate/key`` (compared as `String`s, as a dictionary
    /// would), the groups in the order of their first candidate and each group's members in
    /// input order. Shape: one array per distinct key.
    static func groups<Value>(_ candidates: [Candidate<Value>]) -> [[Candidate<Value>]] {
        var keys: [String] = []
        var groups: [[Candidate<Value>]] = []
        keys.reserveCapacity(candidates.count)
        groups.reserveCapacity(candidates.count)
        // A few candidates are grouped by comparing keys; many through a dictionary of indices.
        var index: [String: Int]? = candidates.count > 32 ? [:] : nil
        for candidate in candidates {
            let found: Int?
            if let dictionary = index {
                found = dictionary[candidate.key]
            } else {
                found = keys.firstIndex(of: candidate.key)
            }
            if let found {
                groups[found].append(candidate)
            } else {
                index?[candidate.key] = keys.count
                keys.append(candidate.key)
                groups.append([candidate])
            }
        }
        return groups
    }

    /// One group's members merged: the best of them, the others in rank order, and the score
    /// raised by ``agreementBonus`` for each further rendition.
    private static func merge<Value>(_ members: [Candidate<Value>]) -> Chosen<Value> {
        let sorted = members.count == 1 ? members : members.sorted(by: better)
        let renditions = members.count == 1 ? 1 : distinctRenditions(members)
        let score = min(0.99, sorted[0].score + agreementBonus * Double(renditions - 1))
        return Chosen(best: sorted[0], supporting: Array(sorted.dropFirst()), score: score)
    }

    /// The order of ranked groups: merged score, then ``better(_:_:)`` of their best candidates.
    private static func ranksBefore<Value>(_ lhs: Chosen<Value>, _ rhs: Chosen<Value>) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        return better(lhs.best, rhs.best)
    }

    /// How many distinct renditions (origin, or source without one) the candidates come from:
    /// `Set(candidates.map { $0.origin?.rawValue ?? $0.source }).count`, counted without a
    /// set for the few candidates a value usually has.
    static func distinctRenditions<Value>(_ candidates: [Candidate<Value>]) -> Int {
        func rendition(_ index: Int) -> String {
            candidates[index].origin?.rawValue ?? candidates[index].source
        }
        guard candidates.count <= 16 else { return Set(candidates.indices.map(rendition)).count }
        var distinct = 0
        for index in candidates.indices
        where !(0..<index).contains(where: { rendition($0) == rendition(index) }) {
            distinct += 1
        }
        return distinct
    }

    private static func better<Value>(_ lhs: Candidate<Value>, _ rhs: Candidate<Value>) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        let leftRank = lhs.origin?.rank ?? -1
        let rightRank = rhs.origin?.rank ?? -1
        if leftRank != rightRank { return leftRank < rightRank }
        return lhs.offset < rhs.offset
    }
}
