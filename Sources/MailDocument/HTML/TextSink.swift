// Accumulates rendered text as UTF-8 bytes: collapses whitespace, drops invisible filler,
// and turns block, row and cell boundaries into line breaks and tabs without ever
// gluing two words together or leaving a separator at the start or end.

/// A separator waiting to be written before the next visible character.
enum PendingSeparator: Int, Comparable {
    case none = 0
    case space = 1
    case tab = 2
    case newline = 3
    case blankLine = 4

    static func < (lhs: PendingSeparator, rhs: PendingSeparator) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Rendered text being written, with its spans.
///
/// Control characters are read as nothing, but those that are white space: TAB, LF, CR, VT
/// and FF (and U+0085 NEXT LINE) are spaces (or line breaks in preformatted text); NUL, the
/// other C0 controls (U+0001–U+001F), DEL and the other C1 controls (U+0080–U+009F) leave no
/// trace, as in a browser or a mail reader, which shows none of them. A control character
/// between two words therefore joins them (`Order\u{1}number` reads `Ordernumber`), and one
/// inside a word keeps it whole (`Bestell\u{0}nummer` reads `Bestellnummer`): the label rules
/// match a label of several words written without its spaces too (`LanguageRules`), so both
/// read as labels. A terminal's control sequence (`ESC[2J`, `ESC[31m`) goes whole, ESC and
/// what follows it up to its final byte, and so does a control string (`ESC]8;;URL ESC\`),
/// which leaves a word boundary (``controlFunction(at:eightBit:_:)``). In HTML they are taken
/// out of the markup before libxml2 reads it, bytes and character references alike
/// (``HTMLRenderer/preparedBytes(html:)``).
struct TextSink {
    var bytes: [UInt8] = []
    var spans: [TextSpan] = []
    var pending: PendingSeparator = .none
    /// Whether C1 introducers (U+009B CSI, U+009D OSC …) start control sequences and control
    /// strings, as ESC `[` and ESC `]` do (``controlFunction(at:eightBit:_:)``): in a text/plain
    /// body, as a terminal shows it. (HTML has lost its control functions before it is
    /// rendered: ``HTMLRenderer/preparedBytes(html:)``.)
    var readsC1Introducers = false
    /// Whether to note where a tab, a run of two or more spaces and tabs, or an ideographic
    /// space (U+3000) inside a line was written as one space (``wideGaps``): in a text/plain
    /// body, where tables are laid out with spaces ("Mug      1   $12.00", "湯呑み　2点　¥3,980").
    /// The text itself is the same either way.
    var recordsWideGaps = false
    /// With ``recordsWideGaps``, the UTF-8 offset in ``bytes`` of each space written for a
    /// wider gap, in order.
    private(set) var wideGaps: [Int] = []
    /// Whether the pending space stands for a wider gap.
    private var pendingIsWide = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var isAtLineStart: Bool { bytes.isEmpty || bytes[bytes.count - 1] == 0x0A }

    /// Asks for a separator before the next text; the strongest request wins.
    mutating func request(_ separator: PendingSeparator) {
        if separator > pending { pending = separator }
    }

    /// Writes the pending separator, as the next text is about to start.
    mutating func flushPending() {
        guard pending != .none else { return }
        defer {
            pending = .none
            pendingIsWide = false
        }
        if bytes.isEmpty { return }
        switch pending {
        case .none: break
        case .space, .tab:
            if isAtLineStart { return }
            // Trailing spaces before a tab are dropped.
            if pending == .tab {
                while let last = bytes.last, last == 0x20 { bytes.removeLast() }
                bytes.append(0x09)
            } else {
                bytes.append(0x20)
                if pendingIsWide { wideGaps.append(bytes.count - 1) }
            }
        case .newline, .blankLine:
            while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
            let wanted = pending == .blankLine ? 2 : 1
            var have = 0
            var index = bytes.count - 1
            while index >= 0, bytes[index] == 0x0A, have < wanted {
                have += 1
                index -= 1
            }
            for _ in have..<wanted { bytes.append(0x0A) }
        }
    }

    /// What a control function read by ``controlFunction(at:eightBit:_:)`` takes of the text.
    struct ControlFunctionExtent: Equatable {
        /// The index after the last byte that goes.
        var end: Int
        /// Whether the words on either side stay apart: a control string (an OSC 8 hyperlink's
        /// start or end, a window title) stands between two pieces of text a terminal shows
        /// apart, and so does the introducer of a sequence that never ends. A control sequence
        /// (`ESC[1m` inside `Order #ESC[1m12345`) joins them, as a terminal shows them.
        var separatesWords: Bool
    }

    /// The escape sequence, control sequence or control string whose introducer is at `start`,
    /// read as a terminal reads them (ECMA-48 §5.3–5.6, ECMA-35 §13–15), or `nil` when the byte
    /// there introduces none (a stray ESC, which the caller reads as any control character):
    ///
    /// - a control sequence: CSI (ESC `[`, or C1 U+009B when `eightBit`), any number of
    ///   parameter bytes (`0`–`?`: a terminal reads them up to the final byte however many
    ///   there are), up to 8 intermediate bytes (space–`/`), a final byte (`@`–`~`) — `ESC[2J`,
    ///   `ESC[38;2;255;0;0m` — goes whole, and joins the words beside it;
    /// - a control string: OSC, DCS, SOS, PM or APC (ESC `]`, `P`, `X`, `^`, `_`, or C1 U+009D,
    ///   U+0090, U+0098, U+009E, U+009F when `eightBit`), its content of any length, and its
    ///   terminator: ST (ESC `\`, or C1 U+009C) or BEL (as xterm ends OSC) — goes whole, and
    ///   keeps the words beside it apart;
    /// - an nF escape sequence, ESC, 1 to 8 intermediate bytes and a final byte (`0`–`~`):
    ///   `ESC(B`, `ESC$B`. One whose first intermediate byte is SPACE is an announcer
    ///   (ECMA-35 §15.2, `ESC SP F`): only `ESC SP` and one of ``announcerFinals``, not
    ///   directly followed by a letter or a digit, is one; `ESC SP A12345` is a stray
    ///   `ESC SP` before an order number, which stays;
    /// - ESC and one of ``twoByteEscapeFinals``: `ESC c`, `ESC 7`.
    ///
    /// A control sequence or control string that does not end — the line or the text ends
    /// first (NUL, CR, LF), a byte that has no place in it comes first (another ESC or C1
    /// control, in a control sequence any byte that is not a parameter, intermediate or
    /// final one), or more than 8 intermediate bytes — is no control function: its introducer
    /// alone goes, as a word boundary, and everything after it stays as text, so nothing that
    /// follows is lost and no remains are glued to the word before.
    ///
    /// Reading is linear: a control sequence stops at the first byte outside its ranges, a
    /// control string at the first ESC, C1 control or line end, so no byte is read twice by
    /// two introducers.
    /// - Parameters:
    ///   - eightBit: whether C1 introducers (UTF-8 `C2 9B` …) count, as in text/plain bodies,
    ///     subjects, display names and JSON-LD values; HTML shows them as nothing, and what
    ///     follows them as text.
    ///   - byte: the byte at an index; 0 past the end of the text.
    @inline(__always)
    static func controlFunction(at start: Int, eightBit: Bool, _ byte: (Int) -> UInt8)
        -> ControlFunctionExtent?
    {
        let first = byte(start)
        let second = byte(start + 1)
        let isControlSequence: Bool
        if first == 0x1B {
            switch second {
            case 0x5B: isControlSequence = true
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F: isControlSequence = false
            case 0x20:
                guard Self.announcerFinals.contains(byte(start + 2)), !isLetterOrDigit(byte(start + 3)) else {
                    return nil
                }
                return ControlFunctionExtent(end: start + 3, separatesWords: false)
            case 0x21...0x2F:
                var index = start + 1
                while (0x20...0x2F).contains(byte(index)) && index - start < 9 { index += 1 }
                guard (0x30...0x7E).contains(byte(index)) else { return nil }
                return ControlFunctionExtent(end: index + 1, separatesWords: false)
            default:
                // Two-byte sequences only where terminals use them: a stray ESC before a word
                // ("Order ESC number") leaves the word whole.
                guard Self.twoByteEscapeFinals.contains(second) else { return nil }
                return ControlFunctionExtent(end: start + 2, separatesWords: false)
            }
        } else if eightBit && first == 0xC2 {
            switch second {
            case 0x9B: isControlSequence = true
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: isControlSequence = false
            default: return nil
            }
        } else {
            return nil
        }
        let end =
            isControlSequence
            ? controlSequenceEnd(parametersAt: start + 2, byte) : controlStringEnd(contentAt: start + 2, byte)
        guard let end else { return ControlFunctionExtent(end: start + 2, separatesWords: true) }
        return ControlFunctionExtent(end: end, separatesWords: !isControlSequence)
    }

    @inline(__always)
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
    }

    /// The end of a control sequence whose parameter bytes start at `start` (after ESC `[` or
    /// C1 CSI): parameter bytes, up to 8 intermediate bytes, a final byte; `nil` when it does
    /// not end so.
    @inline(__always)
    private static func controlSequenceEnd(parametersAt start: Int, _ byte: (Int) -> UInt8) -> Int? {
        var index = start
        while (0x30...0x3F).contains(byte(index)) { index += 1 }
        let parametersEnd = index
        while (0x20...0x2F).contains(byte(index)) && index - parametersEnd < 8 { index += 1 }
        return (0x40...0x7E).contains(byte(index)) ? index + 1 : nil
    }

    /// The end of a control string whose content starts at `start`: after its string
    /// terminator (ESC `\`, or C1 ST, UTF-8 `C2 9C`) or BEL; `nil` when the text or the line
    /// ends first (NUL, CR, LF), or another ESC or C1 control comes first.
    @inline(__always)
    private static func controlStringEnd(contentAt start: Int, _ byte: (Int) -> UInt8) -> Int? {
        var index = start
        while true {
            switch byte(index) {
            case 0x00, 0x0A, 0x0D: return nil
            case 0x07: return index + 1
            case 0x1B: return byte(index + 1) == 0x5C ? index + 2 : nil
            case 0xC2:
                let next = byte(index + 1)
                if next == 0x9C { return index + 2 }
                if (0x80...0x9F).contains(next) { return nil }
            default: break
            }
            index += 1
        }
    }

    /// The bytes after ESC of the two-byte sequences terminals use: `c` (RIS, reset), `7` and
    /// `8` (save and restore the cursor), `=` and `>` (keypad modes), `D`, `E`, `H`, `M` (IND,
    /// NEL, HTS, RI).
    static let twoByteEscapeFinals: Set<UInt8> = Set("c78=>DEHM".utf8)

    /// The final bytes of the announcer sequences `ESC SP F` (ACS, ECMA-35 §15.2) read as
    /// such, a deliberately small set of those in use: `A`–`G` announce the code structure
    /// (`ESC SP F` and `ESC SP G` are also DEC's S7C1T and S8C1T, 7-bit and 8-bit C1 controls),
    /// `L`, `M`, `N` the levels of ECMA-43. After `ESC SP`, any other byte is text.
    static let announcerFinals: Set<UInt8> = Set("ABCDEFGLMN".utf8)

    /// ``controlFunction(at:eightBit:_:)`` in NUL-terminated text.
    static func controlFunction(_ text: UnsafePointer<UInt8>, at start: Int, eightBit: Bool)
        -> ControlFunctionExtent?
    {
        controlFunction(at: start, eightBit: eightBit) { text[$0] }
    }

    /// `text` without its escape sequences, control sequences and control strings, 7-bit and
    /// 8-bit alike (``controlFunction(at:eightBit:_:)``): one that keeps words apart leaves
    /// one space where there is none on either side (`Order 12345ESC]8;;URL ESC\Track` reads
    /// `Order 12345 Track`). Other characters stay, C1 controls too. Returns `text` itself when
    /// it holds neither ESC nor a C1 control.
    static func withoutEscapeSequences(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x1B || $0 == 0xC2 }) else { return text }
        let bytes = Array(utf8)
        func byte(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var separate = false
        var index = 0
        while index < bytes.count {
            let current = bytes[index]
            if current == 0x1B || current == 0xC2,
                let extent = controlFunction(at: index, eightBit: true, byte)
            {
                separate = separate || extent.separatesWords
                index = extent.end
                continue
            }
            if separate, let last = output.last, !isSpace(last), !isSpace(current) { output.append(0x20) }
            separate = false
            output.append(current)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` as a reader sees it on one line: escape sequences, control sequences and
    /// control strings go (``withoutEscapeSequences(_:)``), control characters (C0, DEL, C1)
    /// and other format-free controls read as nothing, TAB, LF, CR, VT and FF as a space. For
    /// header field values shown as text: a subject, a display name. Returns `text` itself when
    /// it holds no control character.
    static func visibleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        let bytes = Array(withoutEscapeSequences(text).utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                output.append(0x20)
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                index += 2
                continue
            } else if byte >= 0x20 && byte != 0x7F {
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends one text node's content, collapsing whitespace (or keeping line breaks when
    /// `preformatted`), and returns the UTF-8 range written, or `nil` when nothing visible was.
    mutating func appendText(_ text: UnsafePointer<UInt8>, preformatted: Bool) -> Range<Int>? {
        var start = -1
        var index = 0
        while true {
            let byte = text[index]
            if byte == 0 { break }
            if byte < 0x80 {
                switch byte {
                case 0x20, 0x09, 0x0B, 0x0C:
                    if recordsWideGaps, byte == 0x09 || text[index + 1] == 0x20 || text[index + 1] == 0x09 {
                        request(.space)
                        pendingIsWide = true
                        // This byte (a vertical tab or form feed too), then the spaces and tabs
                        // after it: the loop always moves on.
                        index += 1
                        while text[index] == 0x20 || text[index] == 0x09 { index += 1 }
                        continue
                    }
                    request(.space)
                    index += 1
                    continue
                case 0x0A, 0x0D:
                    if preformatted {
                        if byte == 0x0D && text[index + 1] == 0x0A { index += 1 }
                        if pending >= .newline { pending = .blankLine } else { pending = .newline }
                    } else {
                        request(.space)
                    }
                    index += 1
                    continue
                default:
                    // A terminal's escape sequence (`ESC[2J`, `ESC[31m`, `ESC]0;title BEL`,
                    // `ESC c`) is not text: all of it goes, where dropping ESC alone would leave
                    // `[2J` (``escapeSequenceEnd(at:_:)``).
                    if byte == 0x1B,
                        let extent = Self.controlFunction(text, at: index, eightBit: readsC1Introducers)
                    {
                        if extent.separatesWords { request(.space) }
                        index = extent.end
                        continue
                    }
                    // Other controls and DEL: read as nothing.
                    if byte < 0x20 || byte == 0x7F {
                        index += 1
                        continue
                    }
                    if pending != .none { flushPending() }
                    if start < 0 { start = bytes.count }
                    // Copy the run of plain printable ASCII in one go.
                    var end = index + 1
                    while true {
                        let next = text[end]
                        if next <= 0x20 || next >= 0x7F { break }
                        end += 1
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(start: text + index, count: end - index))
                    index = end
                    continue
                }
            }
            // An 8-bit control sequence or control string (C1 CSI, OSC …), in text that reads
            // them.
            if byte == 0xC2 && readsC1Introducers,
                let extent = Self.controlFunction(text, at: index, eightBit: true)
            {
                if extent.separatesWords { request(.space) }
                index = extent.end
                continue
            }
            // Multi-byte UTF-8 sequence.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            var complete = true
            var offset = 1
            while offset < length {
                // Stops at the terminating NUL too, which is not a continuation byte.
                if text[index + offset] & 0xC0 != 0x80 {
                    complete = false
                    break
                }
                offset += 1
            }
            if !complete || length == 1 {
                index += 1  // stray byte: skip it
                continue
            }
            switch InvisibleCharacters.classify(text + index, length: length) {
            case .remove:
                index += length
                continue
            case .space:
                request(.space)
                // An ideographic space (U+3000) is as wide as two: text/plain tables in Japanese
                // and Chinese are laid out with it ("今治タオル　3枚セット　¥3,980").
                if recordsWideGaps && length == 3 && text[index] == 0xE3 && text[index + 1] == 0x80
                    && text[index + 2] == 0x80
                {
                    pendingIsWide = true
                }
                index += length
                continue
            case .keep:
                if pending != .none { flushPending() }
                if start < 0 { start = bytes.count }
                bytes.append(contentsOf: UnsafeBufferPointer(start: text + index, count: length))
                index += length
            }
        }
        if start < 0 { return nil }
        return start..<bytes.count
    }

    /// The final text: no separator left dangling at the end.
    mutating func finish() -> String {
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A { bytes.removeLast() }
        pending = .none
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Characters that render as nothing or as a plain space.
enum InvisibleCharacters {
    enum Kind { case keep, remove, space }

    /// Classifies one complete UTF-8 sequence of `length` bytes.
    static func classify(_ pointer: UnsafePointer<UInt8>, length: Int) -> Kind {
        let b0 = pointer[0]
        switch length {
        case 2:
            let b1 = pointer[1]
            if b0 == 0xC2 && b1 == 0x85 { return .space }  // U+0085 NEXT LINE
            if b0 == 0xC2 && b1 < 0xA0 { return .remove }  // U+0080–U+009F C1 controls
            if b0 == 0xC2 && b1 == 0xA0 { return .space }  // U+00A0 NO-BREAK SPACE
            if b0 == 0xC2 && b1 == 0xAD { return .remove }  // U+00AD SOFT HYPHEN
            if b0 == 0xCD && b1 == 0x8F { return .remove }  // U+034F COMBINING GRAPHEME JOINER
            if b0 == 0xD8 && b1 == 0x9C { return .remove }  // U+061C ARABIC LETTER MARK
            return .keep
        case 3:
            let b1 = pointer[1]
            let b2 = pointer[2]
            switch (b0, b1) {
            case (0xE2, 0x80):
                if b2 <= 0x8A { return .space }  // U+2000–U+200A spaces
                if b2 >= 0x8B && b2 <= 0x8F { return .remove }  // ZWSP, ZWNJ, ZWJ, LRM, RLM
                if b2 == 0xA8 || b2 == 0xA9 { return .space }  // line and paragraph separators
                if b2 >= 0xAA && b2 <= 0xAE { return .remove }  // bidi embeddings
                if b2 == 0xAF { return .space }  // U+202F NARROW NO-BREAK SPACE
                return .keep
            case (0xE2, 0x81):
                if b2 == 0x9F { return .space }  // U+205F MEDIUM MATHEMATICAL SPACE
                if b2 >= 0xA0 && b2 <= 0xAF { return .remove }  // word joiner, invisible operators
                return .keep
            case (0xE2, 0xA0):
                return b2 == 0x80 ? .remove : .keep  // U+2800 BRAILLE PATTERN BLANK
            case (0xE3, 0x80):
                return b2 == 0x80 ? .space : .keep  // U+3000 IDEOGRAPHIC SPACE
            case (0xE3, 0x85):
                return b2 == 0xA4 ? .remove : .keep  // U+3164 HANGUL FILLER
            case (0xEF, 0xBB):
                return b2 == 0xBF ? .remove : .keep  // U+FEFF BOM / ZWNBSP
            case (0xEF, 0xBE):
                return b2 == 0xA0 ? .remove : .keep  // U+FFA0 HALFWIDTH HANGUL FILLER
            case (0xE1, 0x85):
                return b2 == 0x9F || b2 == 0xA0 ? .remove : .keep  // U+115F, U+1160 fillers
            case (0xE1, 0xA0):
                return b2 == 0x8E ? .remove : .keep  // U+180E MONGOLIAN VOWEL SEPARATOR
            default:
                return .keep
            }
        default:
            return .keep
        }
    }
}

extension String {
    /// The string with invisible filler removed, odd spaces turned into spaces, and runs of
    /// whitespace collapsed to one space, trimmed.
    func collapsingWhitespace() -> String {
        var sink = TextSink(capacity: utf8.count)
        var copy = Array(utf8)
        copy.append(0)
        copy.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = sink.appendText(base, preformatted: false) }
        }
        return sink.finish()
    }
}
