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
    /// The text around the value.
    var text: String
    var origin: TextOrigin?
    /// UTF-8 offset in its rendition, for document order.
    var offset: Int = 0
    var location: String?
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
        var groups: [String: [Candidate<Value>]] = [:]
        var order: [String] = []
        for candidate in candidates {
            if groups[candidate.key] == nil { order.append(candidate.key) }
            groups[candidate.key, default: []].append(candidate)
        }
        var chosen: [Chosen<Value>] = []
        for key in order {
            guard let members = groups[key] else { continue }
            let sorted = members.sorted(by: better)
            guard let best = sorted.first else { continue }
            let renditions = distinctRenditions(members)
            let score = min(0.99, best.score + agreementBonus * Double(renditions - 1))
            chosen.append(Chosen(best: best, supporting: Array(sorted.dropFirst()), score: score))
        }
        return chosen.sorted { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            return better(lhs.best, rhs.best)
        }
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

    /// The best value when its merged score reaches the threshold.
    static func choose<Value>(_ candidates: [Candidate<Value>], threshold: Double) -> Chosen<Value>? {
        guard let first = rank(candidates).first, first.score >= threshold else { return nil }
        return first
    }

    private static func better<Value>(_ lhs: Candidate<Value>, _ rhs: Candidate<Value>) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        let leftRank = lhs.origin?.rank ?? -1
        let rightRank = rhs.origin?.rank ?? -1
        if leftRank != rightRank { return leftRank < rightRank }
        return lhs.offset < rhs.offset
    }
}
