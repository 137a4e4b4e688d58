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
            // The location the lines gave is kept.
            if locationFromLines {
                storedLocation = lines?.line.location
                locationFromLines = false
            }
            storedText = newValue
            lines = nil
        }
    }
    var origin: TextOrigin?
    /// UTF-8 offset in its rendition, for document order.
    var offset: Int = 0
    /// Part path and DOM path of the value's line: for a candidate made from lines, the
    /// value's line's ``TextLine/location``, built only when asked for (most candidates are
    /// never cited as evidence).
    var location: String? {
        get { locationFromLines ? lines?.line.location : storedLocation }
        set {
            storedLocation = newValue
            locationFromLines = false
        }
    }
    private var storedText: String
    private var storedLocation: String?
    private var lines: EvidenceLines?
    /// Whether ``location`` is the value's line's, read from ``lines``.
    private var locationFromLines = false

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
        self.storedLocation = location
    }

    /// A candidate whose text is the display of the lines it was read from, and whose
    /// location is the value's line's (``TextLine/location`` of ``EvidenceLines/line``).
    init(
        value: Value, key: String, source: String, score: Double, lines: EvidenceLines, origin: TextOrigin?,
        offset: Int = 0
    ) {
        self.init(
            value: value, key: key, source: source, score: score, text: "", origin: origin, offset: offset)
        self.lines = lines
        self.locationFromLines = true
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
        withGroups(candidates) { starts, members in
            let groupCount = starts.count - 1
            // Each group's best member and merged score, ranked as the merged groups would be:
            // only the candidates that go into the result are copied.
            var bests: [Int] = []
            var scores: [Double] = []
            bests.reserveCapacity(groupCount)
            scores.reserveCapacity(groupCount)
            for group in 0..<groupCount {
                let group = UnsafeBufferPointer(rebasing: members[starts[group]..<starts[group + 1]])
                let best = bestMember(group, of: candidates)
                bests.append(best)
                scores.append(mergedScore(group, best: best, of: candidates))
            }
            let order = (0..<groupCount).sorted { lhs, rhs in
                if scores[lhs] != scores[rhs] { return scores[lhs] > scores[rhs] }
                return better(candidates[bests[lhs]], candidates[bests[rhs]])
            }
            return order.map { group in
                chosen(
                    UnsafeBufferPointer(rebasing: members[starts[group]..<starts[group + 1]]),
                    score: scores[group], of: candidates)
            }
        }
    }

    /// The best value when its merged score reaches the threshold: the first of
    /// ``rank(_:)``, without sorting the groups that do not win.
    static func choose<Value>(_ candidates: [Candidate<Value>], threshold: Double) -> Chosen<Value>? {
        if candidates.count <= 1 {
            // One candidate is its own group: nothing to merge or rank.
            guard let only = candidates.first, min(0.99, only.score) >= threshold else { return nil }
            return Chosen(best: only, supporting: [], score: min(0.99, only.score))
        }
        return withGroups(candidates) { starts, members in
            // The first group's members, its best member and its merged score.
            var first: (members: UnsafeBufferPointer<Int>, best: Int, score: Double)?
            for group in 0..<(starts.count - 1) {
                let group = UnsafeBufferPointer(rebasing: members[starts[group]..<starts[group + 1]])
                let best = bestMember(group, of: candidates)
                let score = mergedScore(group, best: best, of: candidates)
                // The sort is stable: of equal groups, the earlier one comes first.
                if let current = first {
                    let before =
                        score != current.score
                        ? score > current.score : better(candidates[best], candidates[current.best])
                    if !before { continue }
                }
                first = (group, best, score)
            }
            guard let first, first.score >= threshold else { return nil }
            return chosen(first.members, score: first.score, of: candidates)
        }
    }

    /// Calls `body` with the candidates grouped by ``Candidate/key`` (compared as `String`s,
    /// as a dictionary would), the groups in the order of their first candidate, as indices
    /// into `candidates`: group `g`'s members are `members[starts[g]..<starts[g + 1]]`, in
    /// input order (`starts` has one entry more than there are groups, the last being
    /// `candidates.count`). The buffers live only during the call.
    static func withGroups<Value, Result>(
        _ candidates: [Candidate<Value>],
        _ body: (_ starts: UnsafeBufferPointer<Int>, _ members: UnsafeBufferPointer<Int>) -> Result
    ) -> Result {
        let count = candidates.count
        // Per candidate its group, the groups' starts, and the members (first, while grouping,
        // each group's first candidate).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * count + 1) { buffer in
            let base = buffer.baseAddress!
            let groupOf = base
            let starts = base + count
            let members = base + 2 * count + 1
            var groupCount = 0
            starts[0] = 0
            // A few candidates are grouped by comparing keys; many through a dictionary of indices.
            var index: [String: Int]? = count > 32 ? [:] : nil
            for position in 0..<count {
                var found = -1
                if let dictionary = index {
                    found = dictionary[candidates[position].key] ?? -1
                } else {
                    for group in 0..<groupCount
                    where candidates[members[group]].key == candidates[position].key {
                        found = group
                        break
                    }
                }
                if found < 0 {
                    found = groupCount
                    index?[candidates[position].key] = groupCount
                    members[groupCount] = position
                    starts[groupCount + 1] = 0
                    groupCount += 1
                }
                groupOf[position] = found
                starts[found + 1] += 1
            }
            // Each group's start, kept one entry up while the members are placed: then
            // `starts[g + 1]` is where the next member of group `g` goes, and ends as its end.
            var total = 0
            for group in 0..<groupCount {
                let size = starts[group + 1]
                starts[group + 1] = total
                total += size
            }
            for position in 0..<count {
                let slot = groupOf[position] + 1
                members[starts[slot]] = position
                starts[slot] += 1
            }
            return body(
                UnsafeBufferPointer(start: starts, count: groupCount + 1),
                UnsafeBufferPointer(start: members, count: count))
        }
    }

    /// The first of a group's members that no other is ``better(_:_:)`` than: the first of
    /// them sorted (the sort is stable).
    private static func bestMember<Value>(
        _ members: UnsafeBufferPointer<Int>, of candidates: [Candidate<Value>]
    )
        -> Int
    {
        var best = members[0]
        for member in members.dropFirst() where better(candidates[member], candidates[best]) { best = member }
        return best
    }

    /// A group's merged score: its best member's, raised by ``agreementBonus`` for each
    /// further rendition.
    private static func mergedScore<Value>(
        _ members: UnsafeBufferPointer<Int>, best: Int, of candidates: [Candidate<Value>]
    ) -> Double {
        let renditions = members.count == 1 ? 1 : distinctRenditions(members, of: candidates)
        return min(0.99, candidates[best].score + agreementBonus * Double(renditions - 1))
    }

    /// One group's members merged: the best of them, the others in rank order.
    private static func chosen<Value>(
        _ members: UnsafeBufferPointer<Int>, score: Double, of candidates: [Candidate<Value>]
    ) -> Chosen<Value> {
        if members.count == 1 {
            return Chosen(best: candidates[members[0]], supporting: [], score: score)
        }
        let sorted = members.sorted { better(candidates[$0], candidates[$1]) }
        return Chosen(
            best: candidates[sorted[0]], supporting: sorted.dropFirst().map { candidates[$0] }, score: score)
    }

    /// How many distinct renditions (origin, or source without one) the candidates come from:
    /// `Set(candidates.map { $0.origin?.rawValue ?? $0.source }).count`, counted without a
    /// set for the few candidates a value usually has.
    static func distinctRenditions<Value>(_ candidates: [Candidate<Value>]) -> Int {
        Array(candidates.indices).withUnsafeBufferPointer { distinctRenditions($0, of: candidates) }
    }

    /// ``distinctRenditions(_:)`` of the candidates at some indices.
    private static func distinctRenditions<Value>(
        _ members: UnsafeBufferPointer<Int>, of candidates: [Candidate<Value>]
    ) -> Int {
        func rendition(_ member: Int) -> String {
            candidates[member].origin?.rawValue ?? candidates[member].source
        }
        guard members.count <= 16 else { return Set(members.map(rendition)).count }
        var distinct = 0
        for position in members.indices
        where !members[0..<position].contains(where: {
            rendition($0) == rendition(members[position])
        }) {
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
