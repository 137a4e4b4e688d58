import Foundation

/// The text half of a tracking search: candidate strings from runs of letters and digits
/// (joined across single spaces and hyphens, as numbers are often printed in groups), each
/// tried against the formats of its length, then judged by its context.
struct TextScan {
    let search: TrackingSearch
    let bytes: [UInt8]
    let isSubject: Bool
    /// For text whose full-width letters and digits were narrowed: the original UTF-8 offset
    /// of each byte.
    let originalOffsets: [Int]?
    /// Tracking and other-number labels, ordered by start.
    let labelHits: [KeywordScanner.Hit]
    let labelStarts: [Int]
    /// Ends of example words ("e.g."), ordered.
    let exampleEnds: [Int]
    /// Mentions of each carrier: (start, end), ordered.
    let mentions: [Int: [(start: Int, end: Int)]]
    let newlines: [Int]
    let documentCarriers: Set<Int>

    init(search: TrackingSearch, bytes original: [UInt8], isSubject: Bool) {
        self.search = search
        self.isSubject = isSubject
        if let (narrowed, offsets) = Self.narrowed(original) {
            bytes = narrowed
            originalOffsets = offsets
        } else {
            bytes = original
            originalOffsets = nil
        }
        let bytes = self.bytes
        // Labels and carrier mentions in one pass.
        let offset = search.compiled.textLabelTagOffset
        var labelHits: [KeywordScanner.Hit] = []
        var exampleEnds: [Int] = []
        var mentions: [Int: [(start: Int, end: Int)]] = [:]
        for var hit in search.compiled.textHits(in: bytes) {
            guard hit.tag >= offset else {
                mentions[hit.tag, default: []].append((hit.start, hit.end))
                continue
            }
            hit.tag -= offset
            if hit.tag % 3 == LabelKind.example.rawValue {
                exampleEnds.append(hit.end)
            } else {
                labelHits.append(hit)
            }
        }
        self.labelHits = labelHits
        labelStarts = labelHits.map(\.start)
        self.exampleEnds = exampleEnds.sorted()
        self.mentions = mentions
        var newlines: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == UInt8(ascii: "\n") { newlines.append(index) }
        }
        self.newlines = newlines
        documentCarriers =
            mentions.isEmpty ? search.contextCarriers : search.contextCarriers.union(mentions.keys)
    }

    /// A run of ASCII letters and digits.
    struct Run: Equatable {
        var start: Int
        var end: Int
        var hasDigit: Bool
        var hasLower: Bool
        var length: Int { end - start }
        /// Part of a printed number: digits without lower-case letters, or a short capital
        /// prefix or suffix (`TBA`, `GM`, `FR`).
        var isNumberLike: Bool { !hasLower && (hasDigit || length <= 4) }
    }

    struct Accepted {
        var start: Int
        var end: Int
        var candidate: TrackingCandidate
    }

    /// The accepted numbers of the text, best of overlapping ones, in text order.
    /// - Parameter runs: the runs to chain and try, ``findRuns()`` by default.
    func candidates(runs given: [Run]? = nil) -> [TrackingCandidate] {
        let runs = given ?? findRuns()
        var accepted: [Accepted] = []
        var index = 0
        while index < runs.count {
            // Grow a chain of number-like runs joined by one separator.
            var chainEnd = index
            var spaceJoined = false
            while chainEnd + 1 < runs.count, runs[chainEnd].isNumberLike, runs[chainEnd + 1].isNumberLike,
                let joiner = joiner(between: runs[chainEnd], runs[chainEnd + 1])
            {
                if joiner == UInt8(ascii: "-"), runs[chainEnd].length < 3 || runs[chainEnd + 1].length < 3 {
                    break
                }
                if joiner != UInt8(ascii: "-") { spaceJoined = true }
                chainEnd += 1
            }
            // A lone run is tried only when it can be a number by itself.
            if chainEnd == index && !(runs[index].hasDigit && runs[index].length >= 6) {
                index += 1
                continue
            }
            let chain = runs[index...chainEnd]
            for window in windows(of: chain, spaceJoined: spaceJoined) {
                if let result = evaluate(window) { accepted.append(result) }
            }
            index = chainEnd + 1
        }
        // Keep the best of overlapping matches.
        accepted.sort {
            if $0.candidate.score != $1.candidate.score { return $0.candidate.score > $1.candidate.score }
            return ($0.end - $0.start) > ($1.end - $1.start)
        }
        var taken: [Accepted] = []
        for item in accepted where !taken.contains(where: { $0.start < item.end && item.start < $0.end }) {
            taken.append(item)
        }
        return taken.sorted { $0.start < $1.start }.map { item in
            var candidate = item.candidate
            candidate.context = context(start: item.start, end: item.end)
            return candidate
        }
    }

    /// The runs of ASCII letters and digits that can take part in a number: number-like runs
    /// (they may chain) and runs that can be a number alone (a digit, six bytes or more).
    /// Other runs (words) are left out: a chain stops at them and they are never tried
    /// alone, and with one left out its neighbours are too far apart to chain.
    /// Runs longer than twice the longest format are glued to other letters (Hangul, kana,
    /// accented Latin), part of a word, and left out too.
    ///
    /// Every run kept holds a digit or a capital letter, so only the runs around those are
    /// read: eight bytes without one are passed over at once.
    func findRuns() -> [Run] {
        var runs: [Run] = []
        // Most texts keep a few dozen runs: one allocation rather than a growth at each doubling.
        runs.reserveCapacity(64)
        bytes.withUnsafeBufferPointer { bytes in
            Self.byteKinds.withUnsafeBufferPointer { kinds in
                guard let base = bytes.baseAddress else { return }
                let count = bytes.count
                let marked = Self.digitKind | Self.upperKind
                var index = 0
                // The end of the last run read: the run of a byte after it starts after it.
                var floor = 0
                while index < count {
                    if index + 8 <= count {
                        let word = UInt64(
                            littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                        let mask = Self.digitOrCapitalMask(word)
                        guard mask != 0 else {
                            index += 8
                            continue
                        }
                        index += mask.trailingZeroBitCount / 8
                    } else if kinds[Int(base[index])] & marked == 0 {
                        index += 1
                        continue
                    }
                    var start = index
                    while start > floor, kinds[Int(base[start - 1])] != 0 { start -= 1 }
                    index = start
                    var kind = kinds[Int(base[index])]
                    var seen: UInt8 = 0
                    repeat {
                        seen |= kind
                        index += 1
                        kind = index < count ? kinds[Int(base[index])] : 0
                    } while kind != 0
                    floor = index
                    let run = Run(
                        start: start, end: index, hasDigit: seen & Self.digitKind != 0,
                        hasLower: seen & Self.lowerKind != 0)
                    guard run.length <= TrackingFormat.longest * 2 else { continue }
                    if run.isNumberLike || (run.hasDigit && run.length >= 6) { runs.append(run) }
                }
            }
        }
        return runs
    }

    /// Bit 7 of each byte of `word` that is an ASCII digit or capital letter, the other bits 0.
    @inline(__always) static func digitOrCapitalMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let seven = word & (0x7F &* ones)
        // Bit 7 of a sum is set when the low seven bits are at least 0x80 minus the added
        // byte; no sum carries into the next byte.
        let digit = (seven &+ (0x50 &* ones)) & ~(seven &+ (0x46 &* ones))
        let capital = (seven &+ (0x3F &* ones)) & ~(seven &+ (0x25 &* ones))
        return (digit | capital) & ~word & (0x80 &* ones)
    }

    static let digitKind: UInt8 = 1
    static let upperKind: UInt8 = 2
    static let lowerKind: UInt8 = 4
    /// Per byte: ``digitKind``, ``upperKind``, ``lowerKind`` or 0 (not an ASCII letter or digit).
    static let byteKinds: [UInt8] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digitKind
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return upperKind
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return lowerKind
        default: return 0
        }
    }

    /// Every run of ASCII letters and digits up to twice the longest format, as the search
    /// first listed them (the reference ``findRuns()`` is tested against).
    func allRuns() -> [Run] {
        var runs: [Run] = []
        var index = 0
        let count = bytes.count
        while index < count {
            guard KeywordScanner.isAlphanumeric(bytes[index]) else {
                index += 1
                continue
            }
            var run = Run(start: index, end: index, hasDigit: false, hasLower: false)
            while index < count, KeywordScanner.isAlphanumeric(bytes[index]) {
                let byte = bytes[index]
                if CheckDigit.isDigit(byte) { run.hasDigit = true }
                if byte >= UInt8(ascii: "a") { run.hasLower = true }
                index += 1
            }
            run.end = index
            if run.length <= TrackingFormat.longest * 2 { runs.append(run) }
        }
        return runs
    }

    /// The separator between two runs when they may belong to one printed number.
    private func joiner(between left: Run, _ right: Run) -> UInt8? {
        let gap = right.start - left.end
        if gap == 1 {
            let byte = bytes[left.end]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { return byte }
        } else if gap == 2, bytes[left.end] == 0xC2, bytes[left.end + 1] == 0xA0 {
            return UInt8(ascii: " ")
        }
        return nil
    }

    /// Consecutive runs tried as one number.
    struct RunWindow {
        var runs: ArraySlice<Run>
        var start: Int { runs.first?.start ?? 0 }
        var end: Int { runs.last?.end ?? 0 }
    }

    /// Candidate windows of a chain: each single run; the whole chain; the chain without a
    /// leading or trailing run of letters only (`UPS 1Z…`, `… FR`).
    private func windows(of chain: ArraySlice<Run>, spaceJoined: Bool) -> [RunWindow] {
        var windows: [RunWindow] = []
        for index in chain.indices where chain[index].hasDigit && chain[index].length >= 6 {
            windows.append(RunWindow(runs: chain[index...index]))
        }
        if chain.count > 1, chain.count <= 12 {
            // Groups of one character only at the ends ("C 110 31 …", "… 276 C").
            let inner = chain.dropFirst().dropLast()
            if !spaceJoined || !inner.contains(where: { $0.length < 2 }) {
                let first = chain.startIndex
                let last = chain.endIndex - 1
                // The first run, then the second when the first has no digit; likewise the ends.
                for start in first...(chain[first].hasDigit ? first : first + 1) {
                    for end in stride(from: last, through: chain[last].hasDigit ? last : last - 1, by: -1)
                    where end > start {
                        let known = windows.contains {
                            $0.runs.startIndex == start && $0.runs.endIndex == end + 1
                        }
                        if !known { windows.append(RunWindow(runs: chain[start...end])) }
                    }
                }
            }
        }
        return windows
    }

    /// Judges one window: formats, check digit, guards, context, score.
    private func evaluate(_ window: RunWindow) -> Accepted? {
        var compactBytes: [UInt8] = []
        compactBytes.reserveCapacity(window.end - window.start)
        for run in window.runs { compactBytes += bytes[run.start..<run.end] }
        guard compactBytes.count >= 6, compactBytes.count <= TrackingFormat.longest,
            compactBytes.contains(where: CheckDigit.isDigit), !TrackingSearch.isPlaceholder(compactBytes)
        else { return nil }
        let start = window.start
        let end = window.end
        if isPhoneLike(start: start) || followsExampleWord(start: start) { return nil }
        let label = labelBefore(start)
        if label == .otherNumber { return nil }
        let labelled = label == .tracking
        // Only formats whose context this document can satisfy are tried.
        let formats = search.compiled.formats
        let documentCarriers = self.documentCarriers
        let include = { (index: Int) -> Bool in
            switch formats[index].format.context {
            case .none: return true
            case .label: return labelled || documentCarriers.contains(formats[index].carrierIndex)
            case .carrier: return documentCarriers.contains(formats[index].carrierIndex)
            }
        }
        // Most windows fit no format that may be tried: no number text is built for them.
        guard search.compiled.mayMatchAny(compactBytes, where: include) else { return nil }
        let number = String(decoding: compactBytes, as: UTF8.self)
        let matches = search.compiled.match(
            number, bytes: compactBytes, where: include, state: &search.patternState
        ).filter {
            $0.checkDigitValid != false
        }
        guard !matches.isEmpty else { return nil }

        var best: (score: Double, distance: Int, match: FormatMatch)?
        for match in matches {
            let format = search.compiled.formats[match.formatIndex]
            let carrier = format.carrierIndex
            let distance = mentionDistance(carrier: carrier, start: start, end: end)
            let near = distance != nil || search.senderCarriers.contains(carrier)
            let inDocument = documentCarriers.contains(carrier)
            switch format.format.context {
            case .none: break
            case .label: if !(labelled || near || inDocument) { continue }
            case .carrier: if !(near || (labelled && inDocument)) { continue }
            }
            var score = match.checkDigitValid == true ? 0.5 : 0.35
            if format.format.context == .none { score += 0.15 }
            if labelled { score += 0.12 }
            if near { score += 0.2 } else if inDocument { score += 0.1 }
            if format.format.fallback { score -= 0.05 }
            if isSubject { score -= 0.05 }
            score = min(0.98, score)
            let candidateDistance = distance ?? Int.max
            if let current = best {
                if score < current.score { continue }
                if score == current.score, candidateDistance >= current.distance { continue }
            }
            best = (score, candidateDistance, match)
        }
        guard let (score, _, match) = best else { return nil }
        let source: TrackingSource = isSubject ? .subject : (labelled ? .labelledText : .text)
        let candidate = search.makeCandidate(
            match: match, number: match.reported ?? number, source: source, score: score,
            context: "", offset: isSubject ? nil : (originalOffsets?[start] ?? start), url: nil)
        return Accepted(start: start, end: end, candidate: candidate)
    }

    /// Full-width ASCII (`１２３４－５６７８`, U+FF01–U+FF5E) and the ideographic space made
    /// narrow, as Japanese and Chinese emails print numbers; `nil` when there is none.
    static func narrowed(_ bytes: [UInt8]) -> (bytes: [UInt8], offsets: [Int])? {
        // Most texts (and most Japanese and Chinese ones) print no full-width ASCII: nothing
        // to build.
        guard hasWideCharacter(bytes) else { return nil }
        var result: [UInt8] = []
        var offsets: [Int] = []
        result.reserveCapacity(bytes.count)
        offsets.reserveCapacity(bytes.count)
        var changed = false
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count {
                let (first, second, third) = (bytes[index], bytes[index + 1], bytes[index + 2])
                var scalar: UInt32?
                if first == 0xEF, second == 0xBC || second == 0xBD, third & 0xC0 == 0x80 {
                    // U+FF00–U+FF7F
                    scalar = 0xFF00 + (UInt32(second & 0x03) << 6) + UInt32(third & 0x3F)
                } else if first == 0xE3, second == 0x80, third == 0x80 {
                    scalar = 0x3000  // ideographic space
                }
                if let scalar, scalar == 0x3000 || (0xFF01...0xFF5E).contains(scalar) {
                    result.append(scalar == 0x3000 ? 0x20 : UInt8(scalar - 0xFF01 + 0x21))
                    offsets.append(index)
                    index += 3
                    changed = true
                    continue
                }
            }
            result.append(bytes[index])
            offsets.append(index)
            index += 1
        }
        return changed ? (result, offsets) : nil
    }

    /// Whether the bytes hold a character ``narrowed(_:)`` makes narrow: a three-byte
    /// sequence `EF BC|BD xx` for U+FF01–U+FF5E, or `E3 80 80` (U+3000), at any byte position.
    /// Eight bytes none of which is `EF` or `E3` are passed over at once.
    static func hasWideCharacter(_ bytes: [UInt8]) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Whether some byte of a word is zero (exact: a borrow runs only above a zero byte).
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & (0x80 &* ones) != 0 }
        return bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            let count = bytes.count
            var index = 0
            while index + 2 < count {
                if index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if !hasZeroByte(word ^ (0xEF &* ones)) && !hasZeroByte(word ^ (0xE3 &* ones)) {
                        index += 8
                        continue
                    }
                }
                let first = base[index]
                if first == 0xEF || first == 0xE3 {
                    let (second, third) = (base[index + 1], base[index + 2])
                    if first == 0xEF, second == 0xBC || second == 0xBD, third & 0xC0 == 0x80 {
                        let scalar = 0xFF00 + (UInt32(second & 0x03) << 6) + UInt32(third & 0x3F)
                        if (0xFF01...0xFF5E).contains(scalar) { return true }
                    } else if first == 0xE3, second == 0x80, third == 0x80 {
                        return true
                    }
                }
                index += 1
            }
            return false
        }
    }

    // MARK: Context

    private func newlineCount(from lower: Int, to upper: Int) -> Int {
        guard lower < upper else { return 0 }
        return lowerBound(newlines, upper) - lowerBound(newlines, lower)
    }

    private func lowerBound(_ array: [Int], _ value: Int) -> Int {
        var low = 0
        var high = array.count
        while low < high {
            let middle = (low + high) / 2
            if array[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The nearest label before `start` (same line, previous cell or previous line) that
    /// labels this number: no other number sits between them.
    private func labelBefore(_ start: Int) -> LabelKind? {
        let windowStart = max(0, start - 160)
        var index = lowerBound(labelStarts, windowStart)
        var best: KeywordScanner.Hit?
        while index < labelHits.count, labelHits[index].start < start {
            let hit = labelHits[index]
            index += 1
            guard hit.end <= start else { continue }
            if let current = best {
                let longer =
                    search.compiled.labelLengths[hit.tag / 3] > search.compiled.labelLengths[current.tag / 3]
                if hit.end < current.end || (hit.end == current.end && !longer) { continue }
            }
            best = hit
        }
        guard let hit = best, newlineCount(from: hit.end, to: start) <= 1 else { return nil }
        let gap = Array(bytes[hit.end..<start])
        if containsOtherNumber(gap) { return nil }
        let kind = LabelKind(rawValue: hit.tag % 3)
        if kind == .otherNumber {
            return isTightGap(gap) ? .otherNumber : nil
        }
        return gap.count <= 100 ? .tracking : nil
    }

    /// A run of four or more digits (another number) between a label and a candidate.
    private func containsOtherNumber(_ gap: [UInt8]) -> Bool {
        var digits = 0
        for byte in gap {
            if CheckDigit.isDigit(byte) {
                digits += 1
                if digits >= 4 { return true }
            } else if !KeywordScanner.isAlphanumeric(byte) {
                digits = 0
            }
        }
        return false
    }

    /// Only punctuation, spaces and "no"/"nr"/"#"-like words between a label and a number.
    private func isTightGap(_ gap: [UInt8]) -> Bool {
        guard gap.count <= 24 else { return false }
        var word: [UInt8] = []
        var index = 0
        while index <= gap.count {
            let byte = index < gap.count ? gap[index] : UInt8(ascii: " ")
            if KeywordScanner.isAlphanumeric(byte) {
                word.append(KeywordScanner.lower(byte))
                index += 1
                continue
            }
            if !word.isEmpty {
                if !Self.allowedGapWords.contains(word) { return false }
                word.removeAll()
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            // Non-ASCII: only marks such as "：", "°", "№", "（", "【" and no-break spaces.
            guard
                let mark = Self.gapMarks.first(where: { mark in
                    index + mark.count <= gap.count && gap[index..<(index + mark.count)].elementsEqual(mark)
                })
            else { return false }
            index += mark.count
        }
        return true
    }

    private static let allowedGapWords: Set<[UInt8]> = Set(
        ["no", "nr", "n", "num", "number", "nummer", "numero", "id", "code", "is", "ist", "est"].map {
            Array($0.utf8)
        })
    private static let gapMarks: [[UInt8]] = [
        "：", "°", "º", "№", "（", "）", "【", "】", "「", "」", "\u{A0}", "．",
    ]
    .map { Array($0.utf8) }

    /// A phone number: `+` right before, or a phone-like hyphen layout starting with 0.
    private func isPhoneLike(start: Int) -> Bool {
        var index = start - 1
        if index >= 0, bytes[index] == UInt8(ascii: " ") { index -= 1 }
        if index >= 0, bytes[index] == UInt8(ascii: "+") { return true }
        if start > 0, bytes[start - 1] == UInt8(ascii: "(") {
            // "(0800) 123 456 789"
            return false
        }
        return false
    }

    /// An example word ("e.g.", "for example", "例如") shortly before: a FAQ describing a format.
    private func followsExampleWord(start: Int) -> Bool {
        var index = lowerBound(exampleEnds, max(0, start - 100))
        while index < exampleEnds.count, exampleEnds[index] <= start {
            if newlineCount(from: exampleEnds[index], to: start) == 0 { return true }
            index += 1
        }
        return false
    }

    /// Distance from the nearest mention of the carrier, when one is within reach.
    private func mentionDistance(carrier: Int, start: Int, end: Int) -> Int? {
        var best: Int?
        for hit in mentions[carrier] ?? [] {
            if hit.start > end + 200 { break }
            guard hit.end >= start - 300 else { continue }
            let distance = hit.start >= end ? hit.start - end : max(0, start - hit.end)
            if best == nil || distance < best! { best = distance }
        }
        return best
    }

    private func context(start: Int, end: Int) -> String {
        var lower = max(0, start - 60)
        var upper = min(bytes.count, end + 50)
        while lower < start, (bytes[lower] & 0xC0) == 0x80 { lower += 1 }
        while upper > end, upper < bytes.count, (bytes[upper] & 0xC0) == 0x80 { upper -= 1 }
        // Whitespace runs (spaces, tabs, newlines) become one space.
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(upper - lower)
        for byte in bytes[lower..<upper] {
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if isSpace {
                if let last = collapsed.last, last != 0x20 { collapsed.append(0x20) }
            } else {
                collapsed.append(byte)
            }
        }
        if collapsed.last == 0x20 { collapsed.removeLast() }
        return String(decoding: collapsed, as: UTF8.self)
    }
}
