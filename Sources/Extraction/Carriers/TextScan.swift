import Foundation

/// The text half of a tracking search: candidate strings from runs of letters and digits
/// (joined across single spaces and hyphens, as numbers are often printed in groups), each
/// tried against the formats of its length, then judged by its context.
///
/// A class: the chains and windows of a scan read it for every run, and a reference is
/// passed where the value (its arrays and set) would be copied and released field by field.
final class TextScan {
    let search: TrackingSearch
    let bytes: [UInt8]
    let isSubject: Bool
    /// For text whose full-width letters and digits were narrowed: where each narrowed
    /// character sits in ``bytes``, ordered (each stood for three bytes of the original);
    /// ``originalOffset(_:)`` maps an offset back.
    let narrowedAt: [Int]?
    /// What the text scanner finds in the text, read when the first window needs it: a text
    /// without a window that some format of its length may match (most subjects, many short
    /// texts) is never scanned.
    private(set) lazy var keywords = Keywords(search: search, bytes: bytes)

    /// Carrier mentions, labels and examples in a text (a class: every window that reads them
    /// takes a reference, not a copy of its arrays).
    final class Keywords {
        /// Carrier mentions and labels as the text scanner gives them, ordered by start: a
        /// tag below ``labelTagOffset`` is a mention's carrier, any other one a label's tag
        /// plus that offset (examples included).
        let hits: [KeywordScanner.Hit]
        /// ``CompiledCarriers/textLabelTagOffset``.
        let labelTagOffset: Int
        /// Ends of example words ("e.g."), ordered.
        let exampleEnds: [Int]
        /// The search's context carriers and those the text names.
        let documentCarriers: CarrierSet

        init(search: TrackingSearch, bytes: [UInt8]) {
            // Labels and carrier mentions in one pass, kept as the scanner gives them.
            let offset = search.compiled.textLabelTagOffset
            let hits = search.compiled.textHits(in: bytes)
            var exampleEnds: [Int] = []
            var mentioned = CarrierSet()
            for hit in hits {
                if hit.tag < offset {
                    mentioned.insert(hit.tag)
                } else if (hit.tag - offset) % 3 == LabelKind.example.rawValue {
                    exampleEnds.append(hit.end)
                }
            }
            self.hits = hits
            labelTagOffset = offset
            self.exampleEnds = exampleEnds.count > 1 ? exampleEnds.sorted() : exampleEnds
            documentCarriers =
                mentioned.isEmpty ? search.contextCarriers : search.contextCarriers.union(mentioned)
        }
    }

    init(search: TrackingSearch, bytes original: [UInt8], isSubject: Bool) {
        self.search = search
        self.isSubject = isSubject
        if let (narrowed, positions) = Self.narrowed(original) {
            bytes = narrowed
            narrowedAt = positions
        } else {
            bytes = original
            narrowedAt = nil
        }
    }

    /// The offset in the text as given of an offset in ``bytes``: each narrowed character
    /// before it took three bytes there.
    func originalOffset(_ offset: Int) -> Int {
        guard let narrowedAt else { return offset }
        return offset + 2 * lowerBound(narrowedAt, offset)
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

    /// Receives the windows of a text, one at a time (``forEachWindow(runs:into:)``).
    protocol WindowVisitor {
        /// Called with one window's runs and the text they index (buffers valid during the
        /// call only).
        mutating func visit(_ window: UnsafeBufferPointer<Run>, in text: UnsafeBufferPointer<UInt8>)
    }

    /// Evaluates each window it is given and keeps the accepted ones.
    struct Evaluator: WindowVisitor {
        let scan: TextScan
        var accepted: [Accepted] = []

        mutating func visit(_ window: UnsafeBufferPointer<Run>, in text: UnsafeBufferPointer<UInt8>) {
            if let result = scan.evaluate(window, in: text) { accepted.append(result) }
        }
    }

    /// Gives each window to a closure.
    private struct ClosureVisitor: WindowVisitor {
        let body: (UnsafeBufferPointer<Run>) -> Void
        func visit(_ window: UnsafeBufferPointer<Run>, in text: UnsafeBufferPointer<UInt8>) { body(window) }
    }

    /// The accepted numbers of the text, best of overlapping ones, in text order.
    /// - Parameter runs: the runs to chain and try, ``findRuns()`` by default.
    func candidates(runs given: [Run]? = nil) -> [TrackingCandidate] {
        var found: [TrackingCandidate] = []
        appendCandidates(to: &found, runs: given)
        return found
    }

    /// Appends ``candidates(runs:)`` to `found`: each accepted number is moved there, not
    /// copied.
    /// - Parameters:
    ///   - found: the candidates so far.
    ///   - runs: the runs to chain and try, ``findRuns()`` by default.
    func appendCandidates(to found: inout [TrackingCandidate], runs given: [Run]? = nil) {
        var evaluator = Evaluator(scan: self)
        forEachWindow(runs: given, into: &evaluator)
        guard !evaluator.accepted.isEmpty else { return }
        // Keep the best of overlapping matches: their positions, best first, are compared;
        // the accepted numbers stay where they are until they are moved out.
        var order = Array(evaluator.accepted.indices)
        evaluator.accepted.withUnsafeBufferPointer { accepted in
            order.sort {
                let (left, right) = (accepted[$0], accepted[$1])
                if left.candidate.score != right.candidate.score {
                    return left.candidate.score > right.candidate.score
                }
                return (left.end - left.start) > (right.end - right.start)
            }
        }
        var taken: [(start: Int, end: Int, index: Int)] = []
        for index in order {
            let (start, end) = (evaluator.accepted[index].start, evaluator.accepted[index].end)
            if !taken.contains(where: { $0.start < end && start < $0.end }) {
                taken.append((start, end, index))
            }
        }
        // Taken numbers do not overlap, so no two start together: text order is start order.
        taken.sort { $0.start < $1.start }
        found.reserveCapacity(found.count + taken.count)
        for item in taken {
            evaluator.accepted[item.index].candidate.context = context(start: item.start, end: item.end)
            found.append(evaluator.accepted[item.index].candidate)
        }
    }

    /// Calls `body` with every window of the text (consecutive runs tried as one number), in
    /// the order they are tried: chain by chain, each chain's single runs first.
    /// - Parameters:
    ///   - runs: the runs to chain, ``findRuns()`` by default.
    ///   - body: called with each window's runs (a buffer valid during the call only).
    func forEachWindow(runs given: [Run]? = nil, _ body: (UnsafeBufferPointer<Run>) -> Void) {
        withoutActuallyEscaping(body) { body in
            var visitor = ClosureVisitor(body: body)
            forEachWindow(runs: given, into: &visitor)
        }
    }

    /// Gives `visitor` every window of the text, as ``forEachWindow(runs:_:)`` gives them to
    /// its closure: the chains hold the text's bytes and the visitor by borrowing, so going
    /// from run to run retains nothing.
    /// - Parameters:
    ///   - runs: the runs to chain, ``findRuns()`` by default.
    ///   - visitor: receives each window.
    func forEachWindow<Visitor: WindowVisitor>(runs given: [Run]? = nil, into visitor: inout Visitor) {
        bytes.withUnsafeBufferPointer { text in
            withUnsafeTemporaryAllocation(of: Run.self, capacity: Self.longestWindowChain) { buffer in
                var chains = Chains(buffer: buffer, text: text)
                if let given {
                    for run in given { chains.add(run, &visitor) }
                } else {
                    Self.forEachRun(in: text) { chains.add($0, &visitor) }
                }
                chains.finish(&visitor)
            }
        }
    }

    /// Chains of more runs than this are tried run by run only (no window of several runs).
    static let longestWindowChain = 12

    /// The chain being grown while the runs go by: number-like runs joined by one separator
    /// (a space, a no-break space or a hyphen between groups of three or more). A finished
    /// chain's windows are given at once; no list of the text's runs is kept.
    ///
    /// The windows of a chain: each run with a digit and six bytes or more; for chains of two
    /// to ``TextScan/longestWindowChain`` runs, the whole chain and the chain without a
    /// leading or trailing run of letters only (`UPS 1Z…`, `… FR`). Up to that many runs are
    /// held in `buffer`; a longer chain has only its single runs given, each as it comes.
    struct Chains {
        /// The held runs of the chain: `buffer[0..<count]`, at least
        /// ``TextScan/longestWindowChain`` long.
        let buffer: UnsafeMutableBufferPointer<Run>
        /// The text's bytes, which the runs index.
        let text: UnsafeBufferPointer<UInt8>
        var count = 0
        /// The last run of the chain (held or not); meaningful when ``length`` is above 0.
        var last = Run(start: 0, end: 0, hasDigit: false, hasLower: false)
        /// Runs in the chain, held or not.
        var length = 0
        /// Whether a space (not only hyphens) joins two of its runs.
        var spaceJoined = false

        init(buffer: UnsafeMutableBufferPointer<Run>, text: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
            self.text = text
        }

        /// Adds the next run of the text: it extends the chain, or ends it (its windows go to
        /// `visitor`) and starts the next.
        @inline(__always)
        mutating func add<Visitor: WindowVisitor>(_ run: Run, _ visitor: inout Visitor) {
            if length > 0 {
                if last.isNumberLike, run.isNumberLike,
                    let joiner = TextScan.joiner(between: last, run, in: text),
                    joiner != UInt8(ascii: "-") || (last.length >= 3 && run.length >= 3)
                {
                    if joiner != UInt8(ascii: "-") { spaceJoined = true }
                    extend(run, &visitor)
                    return
                }
                finish(&visitor)
            }
            buffer[0] = run
            count = 1
            length = 1
            last = run
            spaceJoined = false
        }

        @inline(__always)
        private mutating func extend<Visitor: WindowVisitor>(_ run: Run, _ visitor: inout Visitor) {
            length += 1
            last = run
            if length <= TextScan.longestWindowChain {
                buffer[count] = run
                count += 1
                return
            }
            if count > 0 {
                // Too long for windows of several runs: the held runs are given alone now.
                for index in 0..<count { single(index, &visitor) }
                count = 0
            }
            buffer[0] = run
            single(0, &visitor)
        }

        /// Gives the windows of the chain and empties it.
        @inline(__always)
        mutating func finish<Visitor: WindowVisitor>(_ visitor: inout Visitor) {
            defer {
                count = 0
                length = 0
            }
            guard length > 0, length <= TextScan.longestWindowChain else { return }
            for index in 0..<count { single(index, &visitor) }
            guard count > 1 else { return }
            let chain = UnsafeBufferPointer(rebasing: buffer[0..<count])
            // Groups of one character only at the ends ("C 110 31 …", "… 276 C").
            if spaceJoined, chain.dropFirst().dropLast().contains(where: { $0.length < 2 }) { return }
            let last = count - 1
            // The first run, then the second when the first has no digit; likewise the ends.
            for start in 0...(chain[0].hasDigit ? 0 : 1) {
                for end in stride(from: last, through: chain[last].hasDigit ? last : last - 1, by: -1)
                where end > start {
                    visitor.visit(UnsafeBufferPointer(rebasing: chain[start...end]), in: text)
                }
            }
        }

        /// Gives held run `index` alone when it holds a digit and six bytes or more.
        @inline(__always)
        private func single<Visitor: WindowVisitor>(_ index: Int, _ visitor: inout Visitor) {
            guard buffer[index].hasDigit && buffer[index].length >= 6 else { return }
            visitor.visit(UnsafeBufferPointer(rebasing: buffer[index...index]), in: text)
        }
    }

    /// The runs ``findRuns()`` lists.
    func findRuns() -> [Run] {
        var runs: [Run] = []
        forEachRun { runs.append($0) }
        return runs
    }

    /// Calls `body` with each run of ASCII letters and digits that can take part in a number,
    /// in text order: number-like runs (they may chain) and runs that can be a number alone
    /// (a digit, six bytes or more). Other runs (words) are left out: a chain stops at them
    /// and they are never tried alone, and with one left out its neighbours are too far apart
    /// to chain. Runs longer than twice the longest format are glued to other letters
    /// (Hangul, kana, accented Latin), part of a word, and left out too.
    ///
    /// Every run kept holds a digit or has no small letter, so only the runs around digits and
    /// capitals not followed by a small letter are read (``keptRunMarks(_:)``): eight bytes
    /// without one are passed over at once, and so are capitalised words.
    func forEachRun(_ body: (Run) -> Void) {
        bytes.withUnsafeBufferPointer { Self.forEachRun(in: $0, body) }
    }

    /// ``forEachRun(_:)`` over bytes the caller holds.
    @inline(__always)
    static func forEachRun(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Run) -> Void) {
        byteKinds.withUnsafeBufferPointer { kinds in
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
                    let mask = Self.keptRunMarks(word)
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
                // The run's end and the kinds of its bytes: eight bytes at a time while eight are
                // left (a run of up to seven bytes, most of them, in one step), then byte by byte.
                index = start
                var digits: UInt64 = 0
                var lowers: UInt64 = 0
                var open = true
                while open, index + 8 <= count {
                    let word = UInt64(
                        littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let classes = Self.byteClasses(word)
                    // Bit 7 of each byte past the run (not a letter or digit), and the bits of
                    // the run's bytes below the first of them.
                    let stops = ~(classes.digits | classes.letters) & Self.highBits
                    let inRun = (stops & (0 &- stops)) &- 1
                    digits |= classes.digits & inRun
                    lowers |= classes.lowers & inRun
                    open = stops == 0
                    index &+= stops == 0 ? 8 : stops.trailingZeroBitCount &>> 3
                }
                // 1 for a mask with a bit set, else 0, without a branch.
                var seen =
                    UInt8(truncatingIfNeeded: (digits | (0 &- digits)) &>> 63) * Self.digitKind
                    | UInt8(truncatingIfNeeded: (lowers | (0 &- lowers)) &>> 63) * Self.lowerKind
                if open {
                    var kind = index < count ? kinds[Int(base[index])] : 0
                    while kind != 0 {
                        seen |= kind
                        index += 1
                        kind = index < count ? kinds[Int(base[index])] : 0
                    }
                }
                floor = index
                let run = Run(
                    start: start, end: index, hasDigit: seen & Self.digitKind != 0,
                    hasLower: seen & Self.lowerKind != 0)
                if Self.isKept(run) { body(run) }
            }
        }
    }

    /// Whether ``forEachRun(in:_:)`` gives a run: at most twice the longest format, and
    /// number-like or a digit with six bytes or more. Tested as one condition (the tests are
    /// cheap and their outcomes vary run by run: one branch, not four).
    @inline(__always) static func isKept(_ run: Run) -> Bool {
        let length = run.length
        // Each test as 0 or 1 (a sign bit), combined without branches.
        let digit = run.hasDigit ? 1 : 0
        let upToFour = (length &- 5) &>> 63 & 1
        let sixOrMore = ~((length &- 6) &>> 63) & 1
        let short = (length &- (TrackingFormat.longest * 2 + 1)) &>> 63 & 1
        let numberLike = (run.hasLower ? 0 : 1) & (digit | upToFour)
        return (numberLike | (digit & sixOrMore)) & short != 0
    }

    /// Bit 7 of every byte.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Bit 7 of each byte of `word` that is an ASCII digit, an ASCII letter, a small ASCII
    /// letter (one mask each), the other bits 0.
    @inline(__always) static func byteClasses(_ word: UInt64) -> (
        digits: UInt64, letters: UInt64, lowers: UInt64
    ) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let seven = word & (0x7F &* ones)
        // Bit 7 of a sum is set when the low seven bits are at least 0x80 minus the added
        // byte; no sum carries into the next byte. Letters of both cases are tested as small
        // ones (bit 5 set); a small letter is a letter with bit 5 set in the byte itself.
        let ascii = ~word & highBits
        let digits = (seven &+ (0x50 &* ones)) & ~(seven &+ (0x46 &* ones)) & ascii
        let folded = seven | (0x20 &* ones)
        let letters = (folded &+ (0x1F &* ones)) & ~(folded &+ (0x05 &* ones)) & ascii
        return (digits, letters, letters & (word &<< 2))
    }

    /// Bit 7 of each byte of `word` that marks a run that may be kept, the other bits 0: an
    /// ASCII digit, or a capital letter not followed by a small letter in the word (the last
    /// byte's follower is not read: a capital there is marked).
    ///
    /// A kept run holds a digit, or has no small letter and so ends in a capital or a digit
    /// followed by no small letter: each kept run has a marked byte. A capitalised word
    /// (`Hello`, `Sendung`) has none and is passed over.
    @inline(__always) static func keptRunMarks(_ word: UInt64) -> UInt64 {
        let classes = byteClasses(word)
        let capitals = classes.letters & ~classes.lowers
        return classes.digits | (capitals & ~(classes.lowers &>> 8))
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

    /// The separator between two runs of `bytes` when they may belong to one printed number.
    @inline(__always)
    static func joiner(between left: Run, _ right: Run, in bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        let gap = right.start - left.end
        if gap == 1 {
            let byte = bytes[left.end]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { return byte }
        } else if gap == 2, bytes[left.end] == 0xC2, bytes[left.end + 1] == 0xA0 {
            return UInt8(ascii: " ")
        }
        return nil
    }

    /// Judges one window (consecutive runs tried as one number): formats, check digit,
    /// guards, context, score.
    /// - Parameters:
    ///   - window: the window's runs.
    ///   - text: ``bytes``, as the caller holds them.
    fileprivate func evaluate(_ window: UnsafeBufferPointer<Run>, in text: UnsafeBufferPointer<UInt8>)
        -> Accepted?
    {
        var length = 0
        var hasDigit = false
        for run in window {
            length += run.length
            if run.hasDigit { hasDigit = true }
        }
        guard length >= 6, length <= TrackingFormat.longest, hasDigit else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TrackingFormat.longest) { buffer in
            var filled = 0
            for run in window {
                for index in run.start..<run.end {
                    buffer[filled] = text[index]
                    filled += 1
                }
            }
            return evaluate(window, compact: UnsafeBufferPointer(rebasing: buffer[0..<filled]))
        }
    }

    /// ``evaluate(_:)`` once the window's letters and digits are read out (`compact`, six
    /// to ``TrackingFormat/longest`` bytes, a digit among them).
    private func evaluate(_ window: UnsafeBufferPointer<Run>, compact: UnsafeBufferPointer<UInt8>)
        -> Accepted?
    {
        let compiled = search.compiled
        // No format of this length that may match, whatever the context: the keywords are
        // not read (asked first: it costs less than the placeholder and phone checks, and
        // rules out most windows).
        guard compiled.mayMatchAny(compact, where: { _ in true }) else { return nil }
        guard !TrackingSearch.isPlaceholder(compact) else { return nil }
        let start = window[0].start
        let end = window[window.count - 1].end
        if isPhoneLike(start: start) { return nil }
        let keywords = self.keywords
        if followsExampleWord(start: start, keywords) { return nil }
        let label = labelBefore(start, keywords)
        if label == .otherNumber { return nil }
        let labelled = label == .tracking
        // Digits glued by a hyphen to letters before them start inside another token
        // ("KM-20261120-0455", a shop's reference): only a tracking label or link gives them.
        let gluedToLetters = !labelled && isGluedToLetters(start)
        // Only formats whose context this document can satisfy are tried.
        let formats = compiled.formats
        let documentCarriers = keywords.documentCarriers
        let include = { (index: Int) -> Bool in
            switch formats[index].format.context {
            case .none: return true
            case .label: return labelled || documentCarriers.contains(formats[index].carrierIndex)
            case .carrier: return documentCarriers.contains(formats[index].carrierIndex)
            }
        }
        // Most windows fit no format that may be tried: no number text is built for them.
        guard compiled.mayMatchAny(compact, where: include) else { return nil }
        let compactBytes = Array(compact)
        let number = String(decoding: compactBytes, as: UTF8.self)
        let matches = compiled.match(
            number, bytes: compactBytes, where: include, state: &search.patternState
        ).filter {
            $0.checkDigitValid != false
        }
        guard !matches.isEmpty else { return nil }
        if gluedToLetters, !matches.contains(where: { search.linkNumbers.contains($0.reported ?? number) }) {
            return nil
        }

        var best: (score: Double, distance: Int, match: FormatMatch)?
        for match in matches {
            let format = compiled.formats[match.formatIndex]
            let carrier = format.carrierIndex
            let distance = mentionDistance(carrier: carrier, start: start, end: end, keywords)
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
            context: "", offset: isSubject ? nil : originalOffset(start), url: nil)
        return Accepted(start: start, end: end, candidate: candidate)
    }

    /// Full-width ASCII (`１２３４－５６７８`, U+FF01–U+FF5E) and the ideographic space made
    /// narrow, as Japanese and Chinese emails print numbers; `nil` when there is none.
    /// - Returns: the narrowed bytes, and the offsets in them of the narrowed characters,
    ///   ordered (each was three bytes in `bytes`).
    static func narrowed(_ bytes: [UInt8]) -> (bytes: [UInt8], narrowedAt: [Int])? {
        // Most texts (and most Japanese and Chinese ones) print no full-width ASCII: nothing
        // to build.
        guard hasWideCharacter(bytes) else { return nil }
        var result: [UInt8] = []
        var narrowedAt: [Int] = []
        result.reserveCapacity(bytes.count)
        bytes.withUnsafeBufferPointer { bytes in
            // Bytes left as they are go over in one piece, from `copied` to the next narrowed
            // character.
            var copied = 0
            var index = 0
            while index + 2 < bytes.count {
                // Straight to the next byte that may start a character to narrow.
                if let base = bytes.baseAddress {
                    index = Self.nextWideCandidate(base, from: index, count: bytes.count)
                    guard index + 2 < bytes.count else { break }
                }
                let first = bytes[index]
                guard first == 0xEF || first == 0xE3 else {
                    index += 1
                    continue
                }
                let (second, third) = (bytes[index + 1], bytes[index + 2])
                var narrow: UInt8?
                if first == 0xEF, second == 0xBC || second == 0xBD, third & 0xC0 == 0x80 {
                    // U+FF00–U+FF7F
                    let scalar = 0xFF00 + (UInt32(second & 0x03) << 6) + UInt32(third & 0x3F)
                    if (0xFF01...0xFF5E).contains(scalar) { narrow = UInt8(scalar - 0xFF01 + 0x21) }
                } else if first == 0xE3, second == 0x80, third == 0x80 {
                    narrow = 0x20  // ideographic space
                }
                guard let narrow else {
                    index += 1
                    continue
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                narrowedAt.append(result.count)
                result.append(narrow)
                index += 3
                copied = index
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
        return narrowedAt.isEmpty ? nil : (result, narrowedAt)
    }

    /// Whether the bytes hold a character ``narrowed(_:)`` makes narrow: a three-byte
    /// sequence `EF BC|BD xx` for U+FF01–U+FF5E, or `E3 80 80` (U+3000), at any byte position.
    /// Eight bytes none of which is `EF` or `E3` are passed over at once, and in eight bytes
    /// with one the reading goes straight to the first.
    static func hasWideCharacter(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            let count = bytes.count
            // No position before the first `EF` or `E3` byte starts one (found by `memchr`,
            // many bytes at a time): the reading starts there.
            var index = min(firstOffset(of: 0xEF, in: bytes), firstOffset(of: 0xE3, in: bytes))
            while index + 2 < count {
                index = nextWideCandidate(base, from: index, count: count)
                guard index + 2 < count else { return false }
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

    /// The offset of the first `byte` in `bytes`, `bytes.count` when there is none.
    static func firstOffset(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else {
            return bytes.count
        }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The first position from `start` that may start a character ``narrowed(_:)`` makes
    /// narrow, `count` when there is none: no position passed over starts one.
    ///
    /// Eight positions are read at a time (with the two bytes after each): an `EF`, or an
    /// `E3` followed by `80 80` (U+3000), stops the reading there; any other `E3` (kana, most
    /// CJK punctuation) is passed over with the rest. Near the end, positions are read one by
    /// one and stop at any `EF` or `E3`.
    @inline(__always)
    static func nextWideCandidate(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Bit 7 of the zero bytes of a word; the lowest bit set is exact (a borrow runs only
        // above a zero byte), the others may not be.
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & (0x80 &* ones) }
        func load(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        }
        var index = start
        // Position `index + k` is `EF`, or `E3` with `80 80` after it: byte k of the three
        // words read at `index`, `index + 1` and `index + 2`.
        while index + 10 <= count {
            let first = load(index)
            let space =
                (first ^ (0xE3 &* ones)) | (load(index + 1) ^ (0x80 &* ones))
                | (load(index + 2) ^ (0x80 &* ones))
            let mask = zeroBytes(first ^ (0xEF &* ones)) | zeroBytes(space)
            if mask != 0 { return index + mask.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count, base[index] != 0xEF, base[index] != 0xE3 { index += 1 }
        return index
    }

    // MARK: Context

    /// Whether `bytes[lower..<upper]` holds more than `limit` line feeds (read up to the
    /// one past the limit).
    private func hasMoreNewlines(than limit: Int, from lower: Int, to upper: Int) -> Bool {
        guard lower < upper else { return false }
        var seen = 0
        for index in lower..<upper where bytes[index] == UInt8(ascii: "\n") {
            seen += 1
            if seen > limit { return true }
        }
        return false
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

    /// The first of `hits` that starts at `value` or later.
    private func firstHit(_ hits: [KeywordScanner.Hit], from value: Int) -> Int {
        var low = 0
        var high = hits.count
        while low < high {
            let middle = (low + high) / 2
            if hits[middle].start < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The nearest label before `start` (same line, previous cell or previous line) that
    /// labels this number: no other number sits between them.
    private func labelBefore(_ start: Int, _ keywords: Keywords) -> LabelKind? {
        let windowStart = max(0, start - 160)
        let hits = keywords.hits
        var index = firstHit(hits, from: windowStart)
        let offset = keywords.labelTagOffset
        let labelLengths = search.compiled.labelLengths
        var best: KeywordScanner.Hit?
        while index < hits.count, hits[index].start < start {
            var hit = hits[index]
            index += 1
            // Tracking and other-number labels only (not mentions, not examples).
            guard hit.tag >= offset else { continue }
            hit.tag -= offset
            guard hit.tag % 3 != LabelKind.example.rawValue, hit.end <= start else { continue }
            if let current = best {
                let longer = labelLengths[hit.tag / 3] > labelLengths[current.tag / 3]
                if hit.end < current.end || (hit.end == current.end && !longer) { continue }
            }
            best = hit
        }
        guard let hit = best, !hasMoreNewlines(than: 1, from: hit.end, to: start) else { return nil }
        if LabelKind(rawValue: hit.tag % 3) == .otherNumber {
            // The value such a label gives may start before the candidate: "Order number:
            // KM-20261120-0455" labels the digits after "KM-" too, so the gap ends where the
            // value starts.
            let gap = bytes[hit.end..<max(hit.end, gluedValueStart(start))]
            if containsOtherNumber(gap) { return nil }
            return isTightGap(Array(gap)) ? .otherNumber : nil
        }
        let gap = bytes[hit.end..<start]
        if containsOtherNumber(gap) { return nil }
        return gap.count <= 100 ? .tracking : nil
    }

    /// How far back ``gluedValueStart(_:)`` reads.
    static let gluedValueReach = 64

    /// Where the printed value holding a candidate that starts at `start` begins: before the
    /// ASCII letters and digits glued to it by hyphens ("KM-" in "KM-20261120-0455"), read
    /// back at most ``gluedValueReach`` bytes; `start` when nothing is glued to it.
    func gluedValueStart(_ start: Int) -> Int {
        let floor = max(0, start - Self.gluedValueReach)
        var index = start
        while index - 2 >= floor, bytes[index - 1] == UInt8(ascii: "-"),
            KeywordScanner.isAlphanumeric(bytes[index - 2])
        {
            index -= 2
            while index > floor, KeywordScanner.isAlphanumeric(bytes[index - 1]) { index -= 1 }
        }
        return index
    }

    /// Whether ASCII letters are glued by a hyphen before `start` (``gluedValueStart(_:)``):
    /// digits after "KM-" or "INV-2026-" start inside another token.
    func isGluedToLetters(_ start: Int) -> Bool {
        guard start > 0, bytes[start - 1] == UInt8(ascii: "-") else { return false }
        return bytes[gluedValueStart(start)..<start].contains {
            ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
        }
    }

    /// A run of four or more digits (another number) between a label and a candidate.
    private func containsOtherNumber(_ gap: ArraySlice<UInt8>) -> Bool {
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
    private func followsExampleWord(start: Int, _ keywords: Keywords) -> Bool {
        let exampleEnds = keywords.exampleEnds
        guard !exampleEnds.isEmpty else { return false }
        var index = lowerBound(exampleEnds, max(0, start - 100))
        while index < exampleEnds.count, exampleEnds[index] <= start {
            if !hasMoreNewlines(than: 0, from: exampleEnds[index], to: start) { return true }
            index += 1
        }
        return false
    }

    /// Distance from the nearest mention of the carrier, when one is within reach.
    private func mentionDistance(carrier: Int, start: Int, end: Int, _ keywords: Keywords) -> Int? {
        var best: Int?
        // Mentions carry their carrier as the tag; no label's tag is that low.
        for hit in keywords.hits {
            if hit.start > end + 200 { break }
            guard hit.tag == carrier, hit.end >= start - 300 else { continue }
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
        // Whitespace runs (spaces, tabs, newlines) become one space, written straight into
        // the string (the cut points are character boundaries; the bytes are the text's).
        return bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: upper - lower) { buffer in
                var count = 0
                for index in lower..<upper {
                    let byte = bytes[index]
                    let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                    if isSpace {
                        if count > 0, buffer[count - 1] != 0x20 {
                            buffer[count] = 0x20
                            count += 1
                        }
                    } else {
                        buffer[count] = byte
                        count += 1
                    }
                }
                if count > 0, buffer[count - 1] == 0x20 { count -= 1 }
                return count
            }
        }
    }
}
