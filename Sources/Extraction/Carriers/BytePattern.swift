import Foundation

/// A regular expression of the small ICU subset the carrier rules use, matched over printable
/// ASCII bytes without `NSRegularExpression` and its UTF-16 bridging.
///
/// Supported: literal ASCII characters, `.`, `\d` and escaped punctuation (`\-`, `\.`),
/// classes (`[0-9A-Z]`, `[^…]`, ranges, `\d` and escaped punctuation inside), groups `(…)`,
/// `(?:…)`, `(?<name>…)`, look-aheads `(?=…)` and `(?!…)` without groups inside, alternation,
/// greedy quantifiers `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}` over sub-patterns that cannot match
/// the empty string, and a leading `(?i)`. Anything else (anchors, lazy or possessive
/// quantifiers, other escapes, set operations in classes, non-ASCII characters) makes
/// ``init(_:)`` fail, and the caller keeps the `NSRegularExpression`.
///
/// Matching backtracks the way ICU does (leftmost match; greedy quantifiers try the longest
/// repetition first; alternatives left to right; look-aheads atomic), so that on printable
/// ASCII input (bytes 0x20–0x7E, where UTF-16 offsets equal byte offsets and case folding is
/// ASCII folding) the match and its group ranges are those of the ICU expression. The rules'
/// patterns are checked against their expressions when compiled (``CompiledCarriers``) and by
/// tests on random strings.
struct BytePattern: Sendable {
    /// One instruction of the backtracking program.
    enum Instruction: Sendable {
        /// One byte in the set (index into ``sets``).
        case byteIn(Int)
        /// Try `first`, on failure `second`.
        case split(first: Int, second: Int)
        case jump(Int)
        /// Record the position in capture slot `n` (group `n / 2`, start or end).
        case save(Int)
        /// The program from `start` (ending in `.succeed`) must (or, `negative`, must not)
        /// match at the position; continue at `next` without consuming.
        case lookahead(start: Int, next: Int, negative: Bool)
        case succeed
    }

    /// A set of ASCII bytes as two 64-bit masks.
    struct ByteSet: Sendable, Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        @inline(__always) func contains(_ byte: UInt8) -> Bool {
            byte < 64
                ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 ? (high >> UInt64(byte - 64)) & 1 == 1 : false
        }
        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// The outcome of one match attempt.
    enum Outcome {
        /// Capture slots: `[start0, end0, start1, end1, …]`, `-1` for a group that took no
        /// part; group 0 is the whole match.
        case matched([Int])
        case noMatch
        /// The step budget ran out (a pathological pattern or input): ask the expression.
        case undecided
    }

    private(set) var program: [Instruction] = []
    private(set) var sets: [ByteSet] = []
    /// Group number by name.
    private(set) var groupNames: [String: Int] = [:]
    /// Number of groups, group 0 (the whole match) included.
    private(set) var groupCount = 1

    /// Steps one match attempt may take before it gives up (``Outcome/undecided``).
    static let stepBudget = 200_000

    /// Compiles a pattern, `nil` when it uses anything outside the subset.
    init?(_ pattern: String) {
        var parser = Parser(bytes: Array(pattern.utf8))
        if parser.bytes.starts(with: Array("(?i)".utf8)) {
            parser.caseInsensitive = true
            parser.index = 4
        }
        guard let tree = parser.parseAlternation(), parser.index == parser.bytes.count,
            parser.groupCount < 64, !tree.isNullable
        else { return nil }
        groupNames = parser.groupNames
        groupCount = parser.groupCount
        program.append(.save(0))
        guard emit(tree) else { return nil }
        program.append(.save(1))
        program.append(.succeed)
        guard program.count <= 4_000 else { return nil }
        firstBytes = Self.firstBytes(of: program, sets: sets)
        isStraight = program.allSatisfy {
            switch $0 {
            case .byteIn, .save, .succeed: return true
            case .split, .jump, .lookahead: return false
            }
        }
    }

    /// Whether the program has no branch, jump or look-ahead: one byte set after another
    /// (fixed repetitions, groups), matched by ``straightWholeMatch(_:state:)`` without
    /// backtracking.
    private(set) var isStraight = false

    /// The bytes a match can start with, `nil` when any may (a look-ahead comes first).
    private(set) var firstBytes: ByteSet?

    private static func firstBytes(of program: [Instruction], sets: [ByteSet]) -> ByteSet? {
        var result = ByteSet()
        var seen = Set<Int>()
        var pending = [0]
        while let pc = pending.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch program[pc] {
            case .byteIn(let set):
                result.low |= sets[set].low
                result.high |= sets[set].high
            case .split(let first, let second): pending += [first, second]
            case .jump(let target): pending.append(target)
            case .save: pending.append(pc + 1)
            case .lookahead, .succeed: return nil
            }
        }
        return result
    }

    // MARK: Syntax

    indirect enum Node {
        case set(ByteSet)
        case sequence([Node])
        case alternation([Node])
        case group(Node, capture: Int?)
        case lookahead(Node, negative: Bool)
        case repeated(Node, min: Int, max: Int?)

        /// Whether the node can match the empty string.
        var isNullable: Bool {
            switch self {
            case .set: return false
            case .sequence(let items): return items.allSatisfy(\.isNullable)
            case .alternation(let items): return items.contains(where: \.isNullable)
            case .group(let node, _): return node.isNullable
            case .lookahead: return true
            case .repeated(let node, let min, _): return min == 0 || node.isNullable
            }
        }

        var hasCapture: Bool {
            switch self {
            case .set: return false
            case .sequence(let items), .alternation(let items): return items.contains(where: \.hasCapture)
            case .group(let node, let capture): return capture != nil || node.hasCapture
            case .lookahead(let node, _): return node.hasCapture
            case .repeated(let node, _, _): return node.hasCapture
            }
        }
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var caseInsensitive = false
        var groupCount = 1
        var groupNames: [String: Int] = [:]

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func parseAlternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = parseSequence() else { return nil }
                branches.append(branch)
                guard current == UInt8(ascii: "|") else { break }
                index += 1
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseSequence() -> Node? {
            var items: [Node] = []
            while let byte = current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                guard var atom = parseAtom() else { return nil }
                while let quantifier = current, "?*+{".utf8.contains(quantifier) {
                    guard !atom.isNullable else { return nil }
                    guard let (low, high) = parseQuantifier() else { return nil }
                    // Lazy and possessive forms are not supported.
                    if let next = current, next == UInt8(ascii: "?") || next == UInt8(ascii: "+") {
                        return nil
                    }
                    atom = .repeated(atom, min: low, max: high)
                    // A quantifier right after a quantifier is an error in ICU, or possessive.
                    if let next = current, "*{".utf8.contains(next) { return nil }
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        mutating func parseQuantifier() -> (Int, Int?)? {
            guard let byte = current else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "?"): return (0, 1)
            case UInt8(ascii: "*"): return (0, nil)
            case UInt8(ascii: "+"): return (1, nil)
            default:
                guard let low = parseNumber() else { return nil }
                if current == UInt8(ascii: "}") {
                    index += 1
                    return low <= 1_000 ? (low, low) : nil
                }
                guard current == UInt8(ascii: ",") else { return nil }
                index += 1
                if current == UInt8(ascii: "}") {
                    index += 1
                    return low <= 1_000 ? (low, nil) : nil
                }
                guard let high = parseNumber(), current == UInt8(ascii: "}"), high >= low, high <= 1_000
                else {
                    return nil
                }
                index += 1
                return (low, high)
            }
        }

        mutating func parseNumber() -> Int? {
            var value = 0
            var digits = 0
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 5 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits > 0 && digits < 5 ? value : nil
        }

        mutating func parseAtom() -> Node? {
            guard let byte = current else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "("): return parseGroup()
            case UInt8(ascii: "["): return parseClass()
            case UInt8(ascii: "."):
                var set = ByteSet()
                for byte in UInt8(0x20)...UInt8(0x7E) { set.insert(byte) }
                return .set(set)
            case UInt8(ascii: "\\"):
                guard let escaped = parseEscape() else { return nil }
                return .set(escaped)
            default:
                guard Self.isLiteral(byte) else { return nil }
                return .set(single(byte))
            }
        }

        /// Printable ASCII that stands for itself outside a class.
        static func isLiteral(_ byte: UInt8) -> Bool {
            guard byte >= 0x20, byte <= 0x7E else { return false }
            return !"\\^$.|?*+()[]{}".utf8.contains(byte)
        }

        /// The set of one character, both cases under `(?i)`.
        func single(_ byte: UInt8) -> ByteSet {
            var set = ByteSet()
            set.insert(byte)
            if caseInsensitive { set = Self.folded(set) }
            return set
        }

        static func folded(_ set: ByteSet) -> ByteSet {
            var result = set
            for byte in UInt8(ascii: "A")...UInt8(ascii: "Z")
            where set.contains(byte) || set.contains(byte + 32) {
                result.insert(byte)
                result.insert(byte + 32)
            }
            return result
        }

        /// `\d` or escaped ASCII punctuation.
        mutating func parseEscape() -> ByteSet? {
            guard let byte = current else { return nil }
            index += 1
            if byte == UInt8(ascii: "d") {
                var set = ByteSet()
                for digit in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(digit) }
                return set
            }
            let isPunctuation =
                (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40)
                || (byte >= 0x5B && byte <= 0x60)
                || (byte >= 0x7B && byte <= 0x7E)
            return isPunctuation ? single(byte) : nil
        }

        mutating func parseGroup() -> Node? {
            var capture: Int? = groupCount
            var lookahead: Bool?
            if current == UInt8(ascii: "?") {
                index += 1
                switch current {
                case UInt8(ascii: ":"):
                    index += 1
                    capture = nil
                case UInt8(ascii: "="), UInt8(ascii: "!"):
                    lookahead = current == UInt8(ascii: "!")
                    index += 1
                    capture = nil
                case UInt8(ascii: "<"):
                    index += 1
                    var name: [UInt8] = []
                    while let byte = current, byte != UInt8(ascii: ">") {
                        let isNameByte =
                            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                            || (!name.isEmpty && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                        guard isNameByte else { return nil }
                        name.append(byte)
                        index += 1
                    }
                    guard current == UInt8(ascii: ">"), !name.isEmpty else { return nil }
                    index += 1
                    let key = String(decoding: name, as: UTF8.self)
                    guard groupNames[key] == nil else { return nil }
                    groupNames[key] = groupCount
                default:
                    return nil
                }
            }
            if capture != nil { groupCount += 1 }
            guard let inner = parseAlternation(), current == UInt8(ascii: ")") else { return nil }
            index += 1
            if let negative = lookahead {
                guard !inner.hasCapture else { return nil }
                return .lookahead(inner, negative: negative)
            }
            return .group(inner, capture: capture)
        }

        mutating func parseClass() -> Node? {
            var negated = false
            if current == UInt8(ascii: "^") {
                negated = true
                index += 1
            }
            var set = ByteSet()
            var items = 0
            while let byte = current, byte != UInt8(ascii: "]") {
                items += 1
                var low: UInt8
                var escaped = false
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                    guard let next = current else { return nil }
                    if next == UInt8(ascii: "d") {
                        index += 1
                        for digit in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(digit) }
                        continue
                    }
                    let isPunctuation =
                        (next >= 0x21 && next <= 0x2F) || (next >= 0x3A && next <= 0x40)
                        || (next >= 0x5B && next <= 0x60) || (next >= 0x7B && next <= 0x7E)
                    guard isPunctuation else { return nil }
                    low = next
                } else {
                    // Nested classes, set operations (`&&`, `--`), strings (`{…}`), variables,
                    // POSIX-like names and a bare `-` or `^` are left to ICU.
                    guard byte >= 0x20, byte <= 0x7E, !"[]-^${}:\\".utf8.contains(byte),
                        byte != UInt8(ascii: "&")
                            || (index + 1 < bytes.count && bytes[index + 1] != UInt8(ascii: "&"))
                    else { return nil }
                    low = byte
                }
                index += 1
                if current == UInt8(ascii: "-"), index + 1 < bytes.count,
                    bytes[index + 1] != UInt8(ascii: "]")
                {
                    index += 1
                    guard !escaped, Self.isRangeEnd(low), let high = current, Self.isRangeEnd(high),
                        high >= low
                    else { return nil }
                    index += 1
                    for member in low...high { set.insert(member) }
                } else {
                    set.insert(low)
                }
            }
            guard current == UInt8(ascii: "]"), items > 0 else { return nil }
            index += 1
            if caseInsensitive { set = Self.folded(set) }
            if negated {
                var complement = ByteSet()
                for byte in UInt8(0x20)...UInt8(0x7E) where !set.contains(byte) { complement.insert(byte) }
                set = complement
            }
            return .set(set)
        }

        static func isRangeEnd(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        }
    }

    // MARK: Program

    private mutating func setIndex(_ set: ByteSet) -> Int {
        if let found = sets.firstIndex(of: set) { return found }
        sets.append(set)
        return sets.count - 1
    }

    /// Appends the instructions of a node; `false` when the program grows too large.
    private mutating func emit(_ node: Node) -> Bool {
        guard program.count <= 4_000 else { return false }
        switch node {
        case .set(let set):
            program.append(.byteIn(setIndex(set)))
        case .sequence(let items):
            for item in items where !emit(item) { return false }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(first: split + 1, second: -1))
                    guard emit(branch) else { return false }
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(first: split + 1, second: program.count)
                } else {
                    guard emit(branch) else { return false }
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .group(let inner, let capture):
            if let capture { program.append(.save(capture * 2)) }
            guard emit(inner) else { return false }
            if let capture { program.append(.save(capture * 2 + 1)) }
        case .lookahead(let inner, let negative):
            let instruction = program.count
            program.append(.lookahead(start: instruction + 1, next: -1, negative: negative))
            guard emit(inner) else { return false }
            program.append(.succeed)
            program[instruction] = .lookahead(start: instruction + 1, next: program.count, negative: negative)
        case .repeated(let inner, let low, let high):
            for _ in 0..<low where !emit(inner) { return false }
            if let high {
                // Nested optional copies: x{2,4} as xx(?:x(?:x)?)?
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(program.count)
                    program.append(.split(first: program.count + 1, second: -1))
                    guard emit(inner) else { return false }
                }
                for split in splits { program[split] = .split(first: split + 1, second: program.count) }
            } else {
                let loop = program.count
                program.append(.split(first: loop + 1, second: -1))
                guard emit(inner) else { return false }
                program.append(.jump(loop))
                program[loop] = .split(first: loop + 1, second: program.count)
            }
        }
        return true
    }

    // MARK: Matching

    /// Whether every byte is printable ASCII (0x20–0x7E), the input this matcher answers for.
    static func isPrintableASCII(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }

    /// The match of the whole input (as `^(?:pattern)$`, anchored).
    /// - Parameter input: printable ASCII bytes.
    func wholeMatch(_ input: UnsafeBufferPointer<UInt8>) -> Outcome {
        var state = State(groupCount: groupCount)
        return wholeMatch(input, state: &state)
    }

    /// ``wholeMatch(_:)`` with buffers kept from an earlier match (of any pattern), so that
    /// trying many patterns on one string allocates them once.
    func wholeMatch(_ input: UnsafeBufferPointer<UInt8>, state: inout State) -> Outcome {
        if isStraight { return straightWholeMatch(input, state: &state) }
        state.prepare(groupCount: groupCount)
        return run(input, start: 0, pc: 0, wholeInput: true, state: &state)
    }

    /// ``wholeMatch(_:state:)`` for a program without branches (``isStraight``): the one way
    /// through it, in the order ``run(_:start:pc:wholeInput:state:)`` takes it.
    func straightWholeMatch(_ input: UnsafeBufferPointer<UInt8>, state: inout State) -> Outcome {
        state.prepare(groupCount: groupCount)
        // `true` matched, `false` not, `nil` a branch (not a straight program after all). The
        // slots, program and sets are read through buffers: no uniqueness check per write.
        let matched: Bool? = state.slots.withUnsafeMutableBufferPointer { slots in
            program.withUnsafeBufferPointer { program in
                sets.withUnsafeBufferPointer { sets in
                    slots.update(repeating: -1)
                    var position = 0
                    for instruction in program {
                        switch instruction {
                        case .byteIn(let set):
                            guard position < input.count, sets[set].contains(input[position]) else {
                                return false
                            }
                            position += 1
                        case .save(let slot):
                            slots[slot] = position
                        case .succeed:
                            return position == input.count
                        case .split, .jump, .lookahead:
                            return nil
                        }
                    }
                    return false
                }
            }
        }
        switch matched {
        case true?: return .matched(state.slots)
        case false?: return .noMatch
        case nil: return run(input, start: 0, pc: 0, wholeInput: true, state: &state)
        }
    }

    /// ``wholeMatch(_:state:)`` by backtracking alone (the reference the straight path is
    /// tested against).
    func backtrackingWholeMatch(_ input: UnsafeBufferPointer<UInt8>) -> Outcome {
        var state = State(groupCount: groupCount)
        return run(input, start: 0, pc: 0, wholeInput: true, state: &state)
    }

    /// The leftmost match starting at `from` or later.
    /// - Parameters:
    ///   - input: printable ASCII bytes.
    ///   - from: the first start position tried.
    func firstMatch(_ input: UnsafeBufferPointer<UInt8>, from: Int) -> Outcome {
        var state = State(groupCount: groupCount)
        return firstMatch(input, from: from, state: &state)
    }

    private func firstMatch(_ input: UnsafeBufferPointer<UInt8>, from: Int, state: inout State) -> Outcome {
        var start = from
        while start <= input.count {
            if let firstBytes {
                while start < input.count, !firstBytes.contains(input[start]) { start += 1 }
                // A pattern that cannot match the empty string cannot match at the end.
                if start == input.count { return .noMatch }
            }
            let outcome = run(input, start: start, pc: 0, wholeInput: false, state: &state)
            if case .noMatch = outcome {
                start += 1
                continue
            }
            return outcome
        }
        return .noMatch
    }

    /// Every match, left to right, not overlapping (as `NSRegularExpression.matches(in:range:)`
    /// for patterns that cannot match the empty string); `nil` when undecided.
    func allMatches(_ input: UnsafeBufferPointer<UInt8>) -> [[Int]]? {
        var state = State(groupCount: groupCount)
        return allMatches(input, state: &state)
    }

    /// ``allMatches(_:)`` with buffers kept from an earlier match (of any pattern).
    func allMatches(_ input: UnsafeBufferPointer<UInt8>, state: inout State) -> [[Int]]? {
        state.prepare(groupCount: groupCount)
        var found: [[Int]] = []
        var from = 0
        while from <= input.count {
            switch firstMatch(input, from: from, state: &state) {
            case .noMatch: return found
            case .undecided: return nil
            case .matched(let slots):
                found.append(slots)
                from = max(slots[1], slots[0] + 1)
            }
        }
        return found
    }

    fileprivate enum Frame {
        case branch(pc: Int, position: Int)
        case restore(slot: Int, value: Int)
    }

    /// Buffers and the step count of one search, reused across start positions.
    struct State {
        fileprivate var slots: [Int]
        fileprivate var stack: [Frame] = []
        fileprivate var steps = 0
        init(groupCount: Int = 0) { slots = [Int](repeating: -1, count: groupCount * 2) }

        /// Ready for a new match of a pattern with `groupCount` groups.
        mutating func prepare(groupCount: Int) {
            if slots.count != groupCount * 2 {
                slots.removeAll(keepingCapacity: true)
                slots.append(contentsOf: repeatElement(-1, count: groupCount * 2))
            }
            stack.removeAll(keepingCapacity: true)
            steps = 0
        }
    }

    /// Backtracking from `pc` at `start`: the first way through the program, in ICU's order.
    /// - Parameter lookahead: the body of a lookahead (it has no groups): the slots are left as
    ///   they are, and the frames go on the stack above the caller's.
    private func run(
        _ input: UnsafeBufferPointer<UInt8>, start: Int, pc startPC: Int, wholeInput: Bool,
        state: inout State,
        lookahead: Bool = false
    ) -> Outcome {
        // The stack is moved out of the state for the run (it stays the one buffer), and the
        // slots, program and sets are read and written through buffers: no uniqueness check
        // per step.
        var stack: [Frame] = []
        swap(&stack, &state.stack)
        var steps = state.steps
        let result = state.slots.withUnsafeMutableBufferPointer { slots in
            program.withUnsafeBufferPointer { program in
                sets.withUnsafeBufferPointer { sets in
                    Self.steps(
                        input, start: start, pc: startPC, wholeInput: wholeInput,
                        program: program, sets: sets, slots: slots, stack: &stack, steps: &steps,
                        lookahead: lookahead)
                }
            }
        }
        swap(&stack, &state.stack)
        state.steps = steps
        switch result {
        case .matched: return .matched(state.slots)
        case .noMatch: return .noMatch
        case .undecided: return .undecided
        }
    }

    /// What a run ended with; the slots of a match are in the run's slot buffer.
    private enum RunResult {
        case matched, noMatch, undecided
    }

    /// The body of ``run(_:start:pc:wholeInput:state:lookahead:)`` over buffers: the program,
    /// its sets, the capture slots, and the stack and step count of the search.
    private static func steps(
        _ input: UnsafeBufferPointer<UInt8>, start: Int, pc startPC: Int, wholeInput: Bool,
        program: UnsafeBufferPointer<Instruction>, sets: UnsafeBufferPointer<ByteSet>,
        slots: UnsafeMutableBufferPointer<Int>, stack: inout [Frame], steps: inout Int, lookahead: Bool
    ) -> RunResult {
        if !lookahead { slots.update(repeating: -1) }
        // Room for the frames of a typical search, reserved once per state.
        if stack.capacity < 32 { stack.reserveCapacity(32) }
        let base = stack.count
        defer { stack.removeSubrange(base...) }
        stack.append(.branch(pc: startPC, position: start))
        while stack.count > base, let frame = stack.popLast() {
            var pc: Int
            var position: Int
            switch frame {
            case .restore(let slot, let value):
                slots[slot] = value
                continue
            case .branch(let framePC, let framePosition):
                pc = framePC
                position = framePosition
            }
            thread: while true {
                steps += 1
                if steps > stepBudget { return .undecided }
                switch program[pc] {
                case .byteIn(let set):
                    guard position < input.count, sets[set].contains(input[position]) else { break thread }
                    position += 1
                    pc += 1
                case .split(let first, let second):
                    stack.append(.branch(pc: second, position: position))
                    pc = first
                case .jump(let target):
                    pc = target
                case .save(let slot):
                    stack.append(.restore(slot: slot, value: slots[slot]))
                    slots[slot] = position
                    pc += 1
                case .lookahead(let bodyStart, let next, let negative):
                    // The body has no groups: the slots stay as they are.
                    let outcome = Self.steps(
                        input, start: position, pc: bodyStart, wholeInput: false, program: program,
                        sets: sets,
                        slots: slots, stack: &stack, steps: &steps, lookahead: true)
                    switch outcome {
                    case .undecided: return .undecided
                    case .matched: if negative { break thread }
                    case .noMatch: if !negative { break thread }
                    }
                    pc = next
                case .succeed:
                    if wholeInput, position != input.count { break thread }
                    return .matched
                }
            }
        }
        return .noMatch
    }
}

extension BytePattern {
    /// Whether this pattern and the ICU expression agree on every sample: match or not, and
    /// the range of every named group (`whole`: the expression is `^(?:pattern)$` and matched
    /// anchored; otherwise every match left to right, as `matches(in:range:)`). Samples that
    /// are not printable ASCII are skipped; an undecided match counts as a disagreement.
    func agrees(with regex: NSRegularExpression, on samples: [String], whole: Bool) -> Bool {
        for sample in samples {
            let bytes = Array(sample.utf8)
            guard Self.isPrintableASCII(bytes) else { continue }
            let whole16 = NSRange(location: 0, length: (sample as NSString).length)
            let expected: [NSTextCheckingResult] =
                whole
                ? regex.firstMatch(in: sample, options: [.anchored], range: whole16).map { [$0] } ?? []
                : regex.matches(in: sample, range: whole16)
            let found: [[Int]]? = bytes.withUnsafeBufferPointer { buffer in
                if whole {
                    switch wholeMatch(buffer) {
                    case .matched(let slots): return [slots]
                    case .noMatch: return []
                    case .undecided: return nil
                    }
                }
                return allMatches(buffer)
            }
            guard let found, found.count == expected.count else { return false }
            for (slots, result) in zip(found, expected) {
                guard slots[0] == result.range.location, slots[1] == NSMaxRange(result.range) else {
                    return false
                }
                for (name, group) in groupNames {
                    let range = result.range(withName: name)
                    let start = slots[group * 2]
                    if range.location == NSNotFound {
                        if start >= 0 { return false }
                    } else if start != range.location || slots[group * 2 + 1] != NSMaxRange(range) {
                        return false
                    }
                }
            }
        }
        return true
    }

    /// The text of a named group of a match, `nil` when the group took no part.
    static func group(_ group: Int?, of slots: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let range = groupRange(group, of: slots) else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// The byte range of a named group of a match, `nil` when the group took no part.
    static func groupRange(_ group: Int?, of slots: [Int]) -> Range<Int>? {
        guard let group, slots[group * 2] >= 0, slots[group * 2 + 1] >= slots[group * 2] else { return nil }
        return slots[group * 2]..<slots[group * 2 + 1]
    }
}
