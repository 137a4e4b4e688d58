import Foundation
import MailDocument

extension CarrierCatalog {
    /// Every tracking-number candidate in a document, each with its carrier, evidence and a
    /// confidence.
    ///
    /// Sources, most trusted first: a carrier's tracking link (its URL pattern, read from
    /// ``Link/target`` after redirect unwrapping) or a tracking link carrying the number;
    /// text with a tracking label before the number (same line, the previous cell or the
    /// previous line); text matched by pattern and check digit with carrier context; the
    /// subject. A format without a check digit, or a bare run of digits, counts only with
    /// context: the carrier named nearby, its sender domain, its tracking link, or a tracking
    /// label. Numbers labelled as something else (order, invoice, phone, ZIP) — digits inside
    /// such a value too ("Order number: KM-20261120-0455") —, digits glued by a hyphen to
    /// letters ("KM-2026…") that no tracking label or link gives, numbers after "e.g." (a
    /// shipping FAQ), placeholders (`000000000000`) and numbers with a wrong check digit are
    /// dropped.
    ///
    /// - Parameter input: the text, links, sender domain and subject.
    /// - Returns: one candidate per tracking number, in document order (link-only numbers
    ///   last); when several carriers fit one number only the best is kept.
    public func findTrackingNumbers(in input: TrackingSearchInput) -> [TrackingCandidate] {
        let search = TrackingSearch(compiled: compiled, input: input)
        return search.run()
    }

    /// ``findTrackingNumbers(in:)`` for `first`, and for `second` when `first` gives no
    /// candidate (the renditions of one document, the one with the links first); the sender
    /// domain, when the second repeats the first's, is looked up once. No list of inputs is
    /// made.
    /// - Returns: the candidates of the first input that has some, else none.
    func findTrackingNumbers(in first: TrackingSearchInput, orElseIn second: TrackingSearchInput?)
        -> [TrackingCandidate]
    {
        let search = TrackingSearch(compiled: compiled, input: first)
        let found = search.run()
        guard found.isEmpty, let second else { return found }
        let known = second.senderDomain == first.senderDomain ? search.senderCarriers : nil
        return TrackingSearch(compiled: compiled, input: second, senderCarriers: known).run()
    }

    /// The carriers and formats a number fits, ignoring context (for tests and tools).
    /// - Parameter number: a tracking number; spaces and hyphens are ignored.
    /// - Returns: every fitting format, check digit valid or not.
    public func recognize(_ number: String) -> [TrackingRecognition] {
        let compact = CompiledCarriers.compact(number)
        return compiled.match(compact).map { match in
            let format = compiled.formats[match.formatIndex]
            let carrier = carriers[format.carrierIndex]
            var id = carrier.id
            var name = carrier.name
            if let country = match.country, let operatorName = carrier.operators?[country] {
                id = "\(carrier.id)-\(country.lowercased())"
                name = operatorName
            }
            return TrackingRecognition(
                carrierID: id, carrierName: name, formatID: format.format.id,
                checkDigitValid: match.checkDigitValid, context: format.format.context,
                fallback: format.format.fallback)
        }
    }
}

/// One run of the search over one document.
///
/// A class: each ``TextScan`` of the run keeps it, and a reference is retained where the
/// value (its sets, links and texts) would be copied and released field by field.
final class TrackingSearch {
    let compiled: CompiledCarriers
    let input: TrackingSearchInput
    let senderCarriers: CarrierSet
    let linkCarriers: CarrierSet
    let subjectCarriers: CarrierSet
    /// The carriers of the links, the subject and the sender together (each text scan adds
    /// the carriers it finds named).
    let contextCarriers: CarrierSet
    /// The links' hosts, each once, in order of first appearance.
    let hosts: [String]
    /// What each of ``hosts`` stands for (``CompiledCarriers/hostAnswers(_:)``), looked up
    /// once per host.
    let hostAnswers: [CompiledCarriers.HostAnswers]
    /// The position in ``hosts`` of each link's host (up to ``maximumLinks`` links), -1 for a
    /// link without a host: a link is one integer here, not a copy of its host's string and
    /// arrays.
    let linkHostIndices: [Int]

    /// The host of each link (up to ``maximumLinks``), `nil` for a link without one.
    var linkHosts: [String?] { linkHostIndices.map { $0 < 0 ? nil : hosts[$0] } }
    /// The byte patterns' buffers, shared by every match of the run.
    var patternState = BytePattern.State()
    /// The numbers of the links' candidates, once ``run()`` has read the links: a link gives
    /// a number the text alone leaves in doubt (``TextScan/isGluedToLetters(_:)``).
    var linkNumbers: [String] = []

    /// - Parameters:
    ///   - compiled: the catalog's compiled state.
    ///   - input: what to search.
    ///   - known: the carriers of the input's sender domain when already looked up.
    init(compiled: CompiledCarriers, input: TrackingSearchInput, senderCarriers known: CarrierSet? = nil) {
        self.compiled = compiled
        self.input = input
        senderCarriers = known ?? CarrierSet(input.senderDomain.map { compiled.carriersForDomain($0) } ?? [])
        var linkCarriers = CarrierSet()
        let linkCount = min(input.links.count, Self.maximumLinks)
        // Host → position in `hostAnswers`; its keys are the hosts.
        var hostIndex = SmallMap<String, Int>(capacity: linkCount)
        var hostAnswers: [CompiledCarriers.HostAnswers] = []
        var linkHostIndices: [Int] = []
        linkHostIndices.reserveCapacity(linkCount)
        for index in 0..<linkCount {
            // A host seen before (most links of a mail share a few) is that host's string.
            guard let host = Self.host(of: input.links[index].target, reusing: hostIndex.keys) else {
                linkHostIndices.append(-1)
                continue
            }
            if let known = hostIndex[host] {
                linkHostIndices.append(known)
                continue
            }
            let answers = compiled.hostAnswers(host)
            // Room for the few hosts of a mail at once (not grown host by host).
            if hostAnswers.isEmpty { hostAnswers.reserveCapacity(min(linkCount - index, 16)) }
            hostIndex.insert(hostAnswers.count, for: host)
            linkCarriers.formUnion(answers.carriers)
            linkHostIndices.append(hostAnswers.count)
            hostAnswers.append(answers)
        }
        self.linkCarriers = linkCarriers
        hosts = hostIndex.keys
        self.hostAnswers = hostAnswers
        self.linkHostIndices = linkHostIndices
        // The subject's bytes are read where the string keeps them; without a subject (the
        // renditions after the first) there is nothing to read.
        if var subject = input.subject, !subject.isEmpty {
            subjectCarriers = subject.withUTF8 { bytes in
                let hits = compiled.mentionHits(
                    in: UnsafeBufferPointer(rebasing: bytes.prefix(Self.maximumSubjectBytes)))
                return CarrierSet(hits.lazy.map(\.tag))
            }
        } else {
            subjectCarriers = CarrierSet()
        }
        contextCarriers = linkCarriers.union(subjectCarriers).union(senderCarriers)
    }

    static let maximumLinks = 2_000
    static let maximumSubjectBytes = 2_000
    /// Texts beyond this are searched only in their first part (a hostile 100 MB body).
    static let maximumTextBytes = 4_000_000

    func run() -> [TrackingCandidate] {
        // The text's and the subject's candidates are appended where the links' are.
        var found = linkCandidates()
        linkNumbers = found.map(\.trackingNumber)
        let textBytes = Self.utf8Prefix(input.text, Self.maximumTextBytes)
        TextScan(search: self, bytes: textBytes, isSubject: false).appendCandidates(to: &found)
        if let subject = input.subject {
            let subjectBytes = Self.utf8Prefix(subject, Self.maximumSubjectBytes)
            // Every candidate has a digit: a subject without one (ASCII or full-width) has none.
            if Self.mayHoldDigit(subjectBytes) {
                TextScan(search: self, bytes: subjectBytes, isSubject: true).appendCandidates(to: &found)
            }
        }
        return Self.merge(found)
    }

    /// Whether the bytes hold an ASCII digit or a full-width one (U+FF10–U+FF19, which
    /// ``TextScan/narrowed(_:)`` makes ASCII): a text without one gives no candidate.
    static func mayHoldDigit(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 { return true }
            if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBC, bytes[index + 2] >= 0x90,
                bytes[index + 2] <= 0x99
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// The first `limit` UTF-8 bytes of a text (as `Array(text.utf8.prefix(limit))`), copied
    /// in one piece.
    static func utf8Prefix(_ text: String, _ limit: Int) -> [UInt8] {
        var text = text
        return text.withUTF8 { Array(UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
    }

    /// The numbers in a link's number field, separated by `,`, `;` or `|` (empty ones
    /// dropped); read by bytes when the field is ASCII, by characters otherwise.
    static func numberPieces(_ raw: String) -> [String] {
        // Without a separator byte (the usual single number) no character is one either.
        let separated = raw.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "|")
        }
        guard separated else { return raw.isEmpty ? [] : [raw] }
        guard raw.utf8.allSatisfy({ $0 < 0x80 }) else {
            return raw.split(whereSeparator: { ",;|".contains($0) }).map(String.init)
        }
        return raw.utf8.split(whereSeparator: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "|")
        }).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `CompiledCarriers.compact(raw).uppercased()`, by bytes for ASCII text.
    static func compactUppercased(_ raw: String) -> String {
        guard raw.utf8.allSatisfy({ $0 < 0x80 }) else { return CompiledCarriers.compact(raw).uppercased() }
        // Nothing to drop or raise (the usual link number): the text as it is.
        let unchanged = !raw.utf8.contains {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-")
                || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
        }
        if unchanged { return raw }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        for byte in raw.utf8 where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "-") {
            bytes.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Links

    /// A link target, hidden or not: what decides a link's candidates, all but their context.
    private struct LinkKey: Hashable {
        var target: String
        var isHidden: Bool
    }

    /// The candidates of every link (up to ``maximumLinks``), in link order: those of
    /// ``candidates(link:host:)`` for each link with a host and a target of at most 4 KB.
    func linkCandidates() -> [TrackingCandidate] {
        var found: [TrackingCandidate] = []
        // A target repeated (a button and a text link to one page) gives the candidates it gave
        // before, each with the context of its own link.
        var earlier = SmallMap<LinkKey, (text: String, candidates: [TrackingCandidate])>(
            capacity: min(input.links.count, Self.maximumLinks))
        for (linkIndex, hostIndex) in linkHostIndices.enumerated() {
            let link = input.links[linkIndex]
            guard hostIndex >= 0, link.target.utf8.count <= 4_096 else { continue }
            let key = LinkKey(target: link.target, isHidden: link.isHidden)
            if let (text, candidates) = earlier[key] {
                guard !candidates.isEmpty else { continue }
                if text == link.text {
                    found += candidates
                } else {
                    let context = Self.linkContext(link)
                    for var candidate in candidates {
                        candidate.context = context
                        found.append(candidate)
                    }
                }
                continue
            }
            let candidates = candidates(link: link, host: hostAnswers[hostIndex])
            earlier.insert((link.text, candidates), for: key)
            found += candidates
        }
        return found
    }

    /// The candidates of one link: numbers its carrier's URL patterns capture, else the query
    /// values of a link that looks like a tracking link.
    /// - Parameters:
    ///   - link: the link.
    ///   - host: the carriers and URL patterns of the link's host.
    func candidates(link: Link, host: CompiledCarriers.HostAnswers) -> [TrackingCandidate] {
        var found: [TrackingCandidate] = []
        let target = link.target
        let penalty = link.isHidden ? 0.1 : 0
        var matchedCarrierPattern = false
        for patternIndex in host.urlPatterns {
            let carrierIndex = compiled.urlPatterns[patternIndex].carrier
            for number in compiled.urlNumbers(patternIndex, in: target, state: &patternState) {
                matchedCarrierPattern = true
                // Without a `%` there is nothing to decode.
                let raw =
                    number.utf8.contains(UInt8(ascii: "%"))
                    ? (number.removingPercentEncoding ?? number) : number
                for piece in Self.numberPieces(raw) {
                    if let candidate = carrierLinkCandidate(
                        piece, carrierIndex: carrierIndex, link: link, penalty: penalty)
                    {
                        found.append(candidate)
                    }
                }
            }
        }
        if !matchedCarrierPattern, Self.looksLikeTrackingLink(target) {
            found += genericLinkCandidates(link: link, host: host, penalty: penalty)
        }
        return found
    }

    /// A number from a carrier's own tracking link: it must fit one of the carrier's formats
    /// with a valid check digit, or fit none of them and still look like a tracking number.
    private func carrierLinkCandidate(_ raw: String, carrierIndex: Int, link: Link, penalty: Double)
        -> TrackingCandidate?
    {
        let number = Self.compactUppercased(raw)
        let bytes = Array(number.utf8)
        guard bytes.count >= 6, bytes.count <= TrackingFormat.longest,
            bytes.allSatisfy(KeywordScanner.isAlphanumeric), bytes.contains(where: CheckDigit.isDigit),
            !Self.isPlaceholder(bytes)
        else { return nil }
        // The carrier is read where the catalog keeps it, not copied out with its arrays.
        let carriers = compiled.carriers
        var carrier = carrierIndex
        let formats = compiled.formats
        var matches = compiled.match(
            number, bytes: bytes, where: { formats[$0].carrierIndex == carrierIndex }, state: &patternState)
        var checkValid: Bool?
        var formatID: String?
        var score = 0.85
        var carrierID = carriers[carrier].id
        var carrierName = carriers[carrier].name
        var reported: String?
        if matches.isEmpty {
            // A number another carrier's format claims, on a sister company's page (a Colissimo
            // number on laPoste.fr): that carrier, when exactly one fits.
            let others = compiled.match(
                number, bytes: bytes,
                where: { !formats[$0].format.fallback && formats[$0].format.context != .carrier },
                state: &patternState
            ).filter { $0.checkDigitValid != false }
            if CarrierSet(others.map { compiled.formats[$0.formatIndex].carrierIndex }).count == 1 {
                matches = others
                carrier = compiled.formats[others[0].formatIndex].carrierIndex
                carrierID = carriers[carrier].id
                carrierName = carriers[carrier].name
            }
        }
        if !matches.isEmpty {
            guard let best = matches.first(where: { $0.checkDigitValid != false }) else { return nil }
            checkValid = best.checkDigitValid
            formatID = compiled.formats[best.formatIndex].format.id
            reported = best.reported
            score = best.checkDigitValid == true ? 0.97 : 0.93
            if let country = best.country, let name = carriers[carrier].operators?[country] {
                carrierID = "\(carriers[carrier].id)-\(country.lowercased())"
                carrierName = name
            }
        }
        return TrackingCandidate(
            carrierID: carrierID, carrierName: carrierName, trackingNumber: reported ?? number, source: .link,
            checkDigitValid: checkValid, score: score - penalty, context: Self.linkContext(link),
            utf8Offset: nil, trackingURL: link.target, formatID: formatID)
    }

    /// Numbers in the query of a tracking link that is not a known carrier pattern (a shop's
    /// or a tracking service's page): each value is tried like labelled text.
    private func genericLinkCandidates(link: Link, host: CompiledCarriers.HostAnswers, penalty: Double)
        -> [TrackingCandidate]
    {
        let values = Self.queryValues(link.target)
        guard !values.isEmpty else { return [] }
        let hostCarriers = CarrierSet(host.carriers)
        var found: [TrackingCandidate] = []
        for value in values {
            for number in Self.valueNumbers(value) {
                let bytes = Array(number.utf8)
                guard bytes.count >= 8, bytes.count <= TrackingFormat.longest,
                    bytes.allSatisfy(KeywordScanner.isAlphanumeric), !Self.isPlaceholder(bytes)
                else { continue }
                var best: (score: Double, match: FormatMatch)?
                let matches = compiled.match(number, where: { _ in true }, state: &patternState)
                for match in matches where match.checkDigitValid != false {
                    let format = compiled.formats[match.formatIndex]
                    let carrier = format.carrierIndex
                    let carrierSignal =
                        hostCarriers.contains(carrier) || senderCarriers.contains(carrier)
                        || subjectCarriers.contains(carrier)
                    if format.format.context == .carrier, !carrierSignal { continue }
                    var score = match.checkDigitValid == true ? 0.6 : 0.4
                    if format.format.context == .none { score += 0.15 }
                    if carrierSignal { score += 0.2 }
                    if format.format.fallback { score -= 0.05 }
                    score += 0.15
                    if best == nil || score > best!.score { best = (score, match) }
                }
                guard let (score, match) = best else { continue }
                found.append(
                    makeCandidate(
                        match: match, number: match.reported ?? number, source: .link,
                        score: min(0.98, score) - penalty,
                        context: Self.linkContext(link), offset: nil, url: link.target))
            }
        }
        return found
    }

    /// The values of a link's query, the part after its first `?`: of its first 20 items
    /// (separated by `&`, `;` or `#`, empty ones dropped), each one's text after its first `=`,
    /// percent-decoded (as it is when that fails); an item without `=` gives none. Read by
    /// bytes for an ASCII target, by characters otherwise (``characterQueryValues(_:)``).
    static func queryValues(_ target: String) -> [String] {
        guard target.utf8.allSatisfy({ $0 < 0x80 }) else { return characterQueryValues(target) }
        // In ASCII every character is a byte (a CR LF pair aside, which holds no separator):
        // the bytes split where the characters do.
        guard let query = target.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1).dropFirst().first
        else {
            return []
        }
        let items = query.split(whereSeparator: {
            $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "#")
        })
        var values: [String] = []
        for item in items.prefix(20) {
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let rawValue = String(decoding: item[item.index(after: equals)...], as: UTF8.self)
            // Without a `%` there is nothing to decode.
            let decoded =
                rawValue.utf8.contains(UInt8(ascii: "%")) ? rawValue.removingPercentEncoding : rawValue
            values.append(decoded ?? rawValue)
        }
        return values
    }

    /// ``queryValues(_:)`` character by character, for any target (the reference the byte
    /// reading is tested against).
    static func characterQueryValues(_ target: String) -> [String] {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        var values: [String] = []
        for item in query.split(whereSeparator: { $0 == "&" || $0 == ";" || $0 == "#" }).prefix(20) {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let rawValue = String(item[item.index(after: equals)...])
            values.append(rawValue.removingPercentEncoding ?? rawValue)
        }
        return values
    }

    /// The numbers in a query value: its pieces separated by `,`, `;` or `|` (empty ones
    /// dropped), each without spaces, hyphens and no-break spaces, upper-cased; by bytes for
    /// an ASCII value, by characters otherwise.
    static func valueNumbers(_ value: String) -> [String] {
        guard value.utf8.allSatisfy({ $0 < 0x80 }) else { return characterValueNumbers(value) }
        return value.utf8.split(whereSeparator: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "|")
        }).map { compactUppercased(String(decoding: $0, as: UTF8.self)) }
    }

    /// ``valueNumbers(_:)`` character by character, for any value (the reference).
    static func characterValueNumbers(_ value: String) -> [String] {
        value.split(whereSeparator: { ",;|".contains($0) }).map {
            CompiledCarriers.compact(String($0)).uppercased()
        }
    }

    func makeCandidate(
        match: FormatMatch, number: String, source: TrackingSource, score: Double, context: String,
        offset: Int?, url: String?
    ) -> TrackingCandidate {
        let format = compiled.formats[match.formatIndex]
        let carrier = compiled.carriers[format.carrierIndex]
        var id = carrier.id
        var name = carrier.name
        if let country = match.country, let operatorName = carrier.operators?[country] {
            id = "\(carrier.id)-\(country.lowercased())"
            name = operatorName
        }
        return TrackingCandidate(
            carrierID: id, carrierName: name, trackingNumber: number, source: source,
            checkDigitValid: match.checkDigitValid, score: (score * 100).rounded() / 100, context: context,
            utf8Offset: offset, trackingURL: url, formatID: format.format.id)
    }

    // MARK: Merging

    /// One candidate per number: the best carrier wins; sources of the same carrier and
    /// number merge (the link's URL kept, the score raised a little when several agree).
    static func merge(_ candidates: consuming [TrackingCandidate]) -> [TrackingCandidate] {
        // A few candidates with distinct numbers (the usual case) have nothing to merge: only
        // the order is left to settle (in place), without building the groups.
        if candidates.count <= 16, !hasRepeatedNumber(candidates) {
            sortByOffset(&candidates)
            return candidates
        }
        return mergeByGroups(candidates)
    }

    /// ``merge(_:)`` by grouping the candidates by number, for any candidates (the reference
    /// the shortcut for distinct numbers is tested against).
    static func mergeByGroups(_ candidates: [TrackingCandidate]) -> [TrackingCandidate] {
        let count = candidates.count
        // The groups as chains of candidate indices, in candidate order: `heads` holds each
        // number's first candidate (in order of first appearance), `next` the following one
        // of the same number (or -1); no list of candidates is made per number.
        var next = [Int](repeating: -1, count: count)
        var tails: [Int] = []
        tails.reserveCapacity(count)
        // Number → group; its values are the groups' heads (compared key by key while there
        // are few numbers, as is usual).
        var groupByNumber = SmallMap<String, Int>(capacity: count)
        for index in 0..<count {
            if let group = groupByNumber.position(of: candidates[index].trackingNumber) {
                next[tails[group]] = index
                tails[group] = index
            } else {
                groupByNumber.insert(index, for: candidates[index].trackingNumber)
                tails.append(index)
            }
        }
        let heads = groupByNumber.values
        // Whether candidate `a` comes before `b` in a group sorted by score (highest first),
        // then source, then candidate order: the order of a stable sort by score and source.
        // The fields are read in place, not copied out with the candidates' strings.
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let (leftScore, rightScore) = (candidates[a].score, candidates[b].score)
            if leftScore != rightScore { return leftScore > rightScore }
            let (leftRank, rightRank) = (sourceRank(candidates[a].source), sourceRank(candidates[b].source))
            if leftRank != rightRank { return leftRank < rightRank }
            return a < b
        }
        var merged: [TrackingCandidate] = []
        merged.reserveCapacity(heads.count)
        for head in heads {
            var bestIndex = head
            var member = next[head]
            while member >= 0 {
                if precedes(member, bestIndex) { bestIndex = member }
                member = next[member]
            }
            var best = candidates[bestIndex]
            // The first agreeing candidate (same carrier, after the best one in the sorted
            // group) that satisfies `condition`, by its position.
            func firstAgreeing(where condition: (Int) -> Bool) -> Int? {
                var found: Int?
                var member = head
                while member >= 0 {
                    defer { member = next[member] }
                    guard member != bestIndex, candidates[member].carrierID == best.carrierID,
                        condition(member)
                    else { continue }
                    if found == nil || precedes(member, found!) { found = member }
                }
                return found
            }
            if firstAgreeing(where: { _ in true }) != nil {
                best.score = min(0.99, best.score + 0.02)
                if best.trackingURL == nil {
                    best.trackingURL = firstAgreeing { candidates[$0].trackingURL != nil }
                        .flatMap { candidates[$0].trackingURL }
                }
                if best.utf8Offset == nil,
                    let inText = firstAgreeing(where: {
                        candidates[$0].utf8Offset != nil && candidates[$0].source != .subject
                    })
                {
                    best.utf8Offset = candidates[inText].utf8Offset
                    if best.source == .link { best.context = candidates[inText].context }
                }
                if best.formatID == nil,
                    let withFormat = firstAgreeing(where: { candidates[$0].formatID != nil })
                {
                    best.formatID = candidates[withFormat].formatID
                    best.checkDigitValid = candidates[withFormat].checkDigitValid
                }
            }
            merged.append(best)
        }
        sortByOffset(&merged)
        return merged
    }

    /// ``mergeByGroups(_:)`` as first written, with a list of candidates per number sorted
    /// (the reference it is tested against).
    static func mergeBySortedGroups(_ candidates: [TrackingCandidate]) -> [TrackingCandidate] {
        var order: [String] = []
        var byNumber: [String: [TrackingCandidate]] = [:]
        for candidate in candidates {
            if byNumber[candidate.trackingNumber] == nil { order.append(candidate.trackingNumber) }
            byNumber[candidate.trackingNumber, default: []].append(candidate)
        }
        var merged: [TrackingCandidate] = []
        for number in order {
            guard let group = byNumber[number] else { continue }
            let sorted = group.sorted {
                if $0.score != $1.score { return $0.score > $1.score }
                return sourceRank($0.source) < sourceRank($1.source)
            }
            guard var best = sorted.first else { continue }
            let agreeing = sorted.dropFirst().filter { $0.carrierID == best.carrierID }
            if !agreeing.isEmpty {
                best.score = min(0.99, best.score + 0.02)
                if best.trackingURL == nil {
                    best.trackingURL = agreeing.first { $0.trackingURL != nil }?.trackingURL
                }
                if best.utf8Offset == nil,
                    let inText = agreeing.first(where: { $0.utf8Offset != nil && $0.source != .subject })
                {
                    best.utf8Offset = inText.utf8Offset
                    if best.source == .link { best.context = inText.context }
                }
                if best.formatID == nil, let withFormat = agreeing.first(where: { $0.formatID != nil }) {
                    best.formatID = withFormat.formatID
                    best.checkDigitValid = withFormat.checkDigitValid
                }
            }
            merged.append(best)
        }
        return sortedByOffset(merged)
    }

    /// Whether two candidates share a tracking number.
    private static func hasRepeatedNumber(_ candidates: [TrackingCandidate]) -> Bool {
        for index in candidates.indices.dropFirst() {
            let number = candidates[index].trackingNumber
            for earlier in 0..<index where candidates[earlier].trackingNumber == number { return true }
        }
        return false
    }

    /// Candidates found in the text first, by offset; the others after them.
    private static func sortedByOffset(_ candidates: [TrackingCandidate]) -> [TrackingCandidate] {
        var sorted = candidates
        sortByOffset(&sorted)
        return sorted
    }

    /// ``sortedByOffset(_:)`` in place.
    private static func sortByOffset(_ candidates: inout [TrackingCandidate]) {
        candidates.sort {
            switch ($0.utf8Offset, $1.utf8Offset) {
            case (let a?, let b?): return a < b
            case (.some, .none): return true
            default: return false
            }
        }
    }

    /// Link first, then labelled text, text, subject.
    private static func sourceRank(_ source: TrackingSource) -> Int {
        switch source {
        case .link: return 0
        case .labelledText: return 1
        case .text: return 2
        case .subject: return 3
        }
    }

    // MARK: Helpers

    /// The lower-cased host of an absolute URL, `nil` without `scheme://`: the bytes after the
    /// first `://` up to `/`, `?` or `#`, after the last `@` (user information) and before the
    /// first `:` (port); ASCII letters lower-cased; `nil` when empty or longer than 253 bytes.
    static func host(of url: String) -> String? {
        host(of: url, reusing: [])
    }

    /// ``host(of:)``, given as one of `known` when its bytes are that host's (no new string is
    /// made); the look-up is left out past ``SmallMap/linearLimit`` known hosts.
    static func host(of url: String, reusing known: [String]) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            var start = colon + 3
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    break
                }
                if byte == UInt8(ascii: "@") { start = end + 1 }
                end += 1
            }
            var stop = start
            while stop < end, bytes[stop] != UInt8(ascii: ":") { stop += 1 }
            let length = stop - start
            guard length > 0, length <= 253 else { return nil }
            if known.count <= SmallMap<String, Int>.linearLimit {
                // A known host of another length (most of them) is passed over without reading
                // its bytes.
                for host in known where host.utf8.count == length {
                    var host = host
                    let same = host.withUTF8 { hostBytes in
                        var offset = 0
                        while offset < length,
                            hostBytes[offset] == KeywordScanner.lower(bytes[start + offset])
                        {
                            offset += 1
                        }
                        return offset == length
                    }
                    if same { return host }
                }
            }
            return String(unsafeUninitializedCapacity: length) { buffer in
                for offset in 0..<length { buffer[offset] = KeywordScanner.lower(bytes[start + offset]) }
                return length
            }
        }
    }

    static func looksLikeTrackingLink(_ url: String) -> Bool {
        // The URL's bytes are read where the string keeps them.
        var url = url
        return url.withUTF8 { !trackingLinkWords.scan($0).isEmpty }
    }

    /// Words in a URL that mark a tracking page (percent-encoded forms of the CJK words too).
    private static let trackingLinkWords: KeywordScanner = {
        var scanner = KeywordScanner()
        let words = [
            "track", "trace", "sendung", "suivi", "seguimiento", "rastre", "tracci", "zending", "parcel",
            "shipment", "delivery", "awb", "배송", "追跡", "物流",
        ]
        for word in words {
            scanner.add(word, tag: 0, wordBoundary: false)
            if let encoded = word.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
                encoded != word
            {
                scanner.add(encoded, tag: 0, wordBoundary: false)
            }
        }
        scanner.seal()
        return scanner
    }()

    static func linkContext(_ link: Link) -> String {
        asciiLinkContext(link) ?? wordBytesLinkContext(link) ?? characterLinkContext(link)
    }

    /// ``characterLinkContext(_:)`` with the words of the link text found by bytes, or nil: for
    /// a text whose only white space is ASCII (tab to carriage return, space) with an ASCII
    /// byte or nothing on either side of each such byte. There every white space character is
    /// one of those bytes (or a CR LF pair) and no character holds both white space and
    /// anything else, so the words are the bytes between them; the length is still counted
    /// in characters.
    static func wordBytesLinkContext(_ link: Link) -> String? {
        var text = link.text
        let words = text.withUTF8 { bytes -> String? in
            let count = bytes.count
            for index in 0..<count {
                let byte = bytes[index]
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    if index > 0, bytes[index - 1] >= 0x80 { return nil }
                    if index + 1 < count, bytes[index + 1] >= 0x80 { return nil }
                } else if byte >= 0xC2, byte <= 0xE3, isNonASCIIWhiteSpace(bytes, at: index) {
                    return nil
                }
            }
            // Each separator written stands for one white space byte or more: the words are no
            // longer than the text.
            return String(unsafeUninitializedCapacity: count) { buffer in
                var written = 0
                var spaceBefore = false
                for byte in bytes {
                    if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                        spaceBefore = written > 0
                        continue
                    }
                    if spaceBefore {
                        buffer[written] = 0x20
                        written += 1
                        spaceBefore = false
                    }
                    buffer[written] = byte
                    written += 1
                }
                return written
            }
        }
        guard let words else { return nil }
        let base = words.isEmpty ? link.target : "\(words) <\(link.target)>"
        return base.count > 120 ? String(base.prefix(117)) + "…" : base
    }

    /// Whether a non-ASCII white space scalar (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028,
    /// U+2029, U+202F, U+205F, U+3000) starts at `index` of valid UTF-8.
    static func isNonASCIIWhiteSpace(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let first = bytes[index]
        guard index + 1 < bytes.count else { return false }
        let second = bytes[index + 1]
        if first == 0xC2 { return second == 0x85 || second == 0xA0 }
        guard index + 2 < bytes.count else { return false }
        let third = bytes[index + 2]
        switch (first, second) {
        case (0xE1, 0x9A): return third == 0x80
        case (0xE2, 0x80): return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF
        case (0xE2, 0x81): return third == 0x9F
        case (0xE3, 0x80): return third == 0x80
        default: return false
        }
    }

    /// ``linkContext(_:)`` character by character, for any link.
    static func characterLinkContext(_ link: Link) -> String {
        let text = link.text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let base = text.isEmpty ? link.target : "\(text) <\(link.target)>"
        return base.count > 120 ? String(base.prefix(117)) + "…" : base
    }

    /// ``linkContext(_:)`` for a link whose text and target are ASCII without a carriage
    /// return (each byte one character; white space is tab to carriage return and space), or nil.
    static func asciiLinkContext(_ link: Link) -> String? {
        var text = link.text
        var target = link.target
        return text.withUTF8 { text -> String? in
            target.withUTF8 { target -> String? in
                for byte in text where byte >= 0x80 || byte == 0x0D { return nil }
                for byte in target where byte >= 0x80 || byte == 0x0D { return nil }
                // Only the first 121 bytes are written (on the stack): past 120 the context is
                // cut at 117 anyway.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 121) { base -> String in
                    var count = 0
                    func put(_ byte: UInt8) {
                        guard count < 121 else { return }
                        base[count] = byte
                        count += 1
                    }
                    // As many of the bytes as there is room for, copied in one piece.
                    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                        let taken = min(bytes.count, 121 - count)
                        guard taken > 0 else { return }
                        _ = UnsafeMutableBufferPointer(rebasing: base[count..<(count + taken)])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: bytes.prefix(taken)))
                        count += taken
                    }
                    var index = 0
                    while index < text.count {
                        while index < text.count,
                            text[index] == 0x20 || (text[index] >= 0x09 && text[index] <= 0x0D)
                        {
                            index += 1
                        }
                        guard index < text.count else { break }
                        if count > 0 { put(0x20) }
                        // The word, up to the limit.
                        let start = index
                        while index < text.count,
                            !(text[index] == 0x20 || (text[index] >= 0x09 && text[index] <= 0x0D))
                        {
                            index += 1
                        }
                        put(UnsafeBufferPointer(rebasing: text[start..<index]))
                    }
                    if count == 0 {
                        put(target)
                    } else {
                        put(UInt8(ascii: " "))
                        put(UInt8(ascii: "<"))
                        put(target)
                        put(UInt8(ascii: ">"))
                    }
                    guard count > 120 else { return String(decoding: base[..<count], as: UTF8.self) }
                    // Cut at 117 bytes (characters, in ASCII), the ellipsis (U+2026) written after
                    // them: one string made, not one and then another for the ellipsis.
                    base[117] = 0xE2
                    base[118] = 0x80
                    base[119] = 0xA6
                    return String(decoding: base[..<120], as: UTF8.self)
                }
            }
        }
    }

    /// Placeholder numbers: one digit nearly everywhere, or counting up or down (`1234567890`).
    static func isPlaceholder(_ bytes: some Collection<UInt8>) -> Bool {
        // The digits only, counted and compared with the previous digit, in one pass that
        // stops once the answer is no whatever the bytes left are.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { tally in
            tally.initialize(repeating: 0)
            var digitCount = 0
            // The highest count so far, kept as the digits are counted.
            var most = 0
            var previous: UInt8 = 0
            var ascending = true
            var descending = true
            // Bytes after the one being read.
            var remaining = bytes.count
            for byte in bytes {
                remaining -= 1
                guard CheckDigit.isDigit(byte) else { continue }
                let digit = Int(byte - UInt8(ascii: "0"))
                tally[digit] += 1
                most = max(most, tally[digit])
                if digitCount > 0 {
                    if byte != (previous == 57 ? 48 : previous + 1) { ascending = false }
                    if byte != (previous == 48 ? 57 : previous - 1) { descending = false }
                }
                previous = byte
                digitCount += 1
                // Counting neither up nor down any more, and too few of one digit even if
                // every byte left were that digit (each adds 10 to `10 × most` and 8 to
                // `8 × digits`): not a placeholder.
                if !ascending, !descending, 10 * most + 2 * remaining < 8 * digitCount { return false }
            }
            guard digitCount >= 6 else { return false }
            // One digit nearly everywhere: 000000000000, 1Z0000000000000000.
            if most * 10 >= digitCount * 8 { return true }
            // 123456789… or 987654321… as the whole digit part
            return ascending || descending
        }
    }
}
