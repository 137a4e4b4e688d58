import Foundation
import MailDocument

/// Which rendition of the email a line of text came from.
enum TextOrigin: String, Sendable, Comparable, CaseIterable {
    case html, plain, subject, preheader

    /// The origin's position in ``allCases``.
    var position: Int {
        switch self {
        case .html: 0
        case .plain: 1
        case .subject: 2
        case .preheader: 3
        }
    }

    /// The rendition as a warning names it: `rendered HTML text`, `rendered plain text`,
    /// `subject`, `preheader`.
    var readerName: String {
        switch self {
        case .html: "rendered HTML text"
        case .plain: "rendered plain text"
        case .subject: "subject"
        case .preheader: "preheader"
        }
    }

    /// Ties between equally trusted values go to HTML, then text/plain, then the subject.
    var rank: Int {
        switch self {
        case .html: 0
        case .plain: 1
        case .preheader: 2
        case .subject: 3
        }
    }

    static func < (lhs: TextOrigin, rhs: TextOrigin) -> Bool { lhs.rank < rhs.rank }
}

/// A document's lines: their UTF-8 bytes back to back, what else each line is (``Record``),
/// and the spans of the renditions they came from. What every ``TextLine`` and ``LineBytes``
/// keeps alive.
///
/// The records and bytes are written while the lines are made
/// (``DocumentText/init(document:)``) and never after.
final class LineStorage: @unchecked Sendable {
    /// What a line is besides its bytes, in 32-bit numbers (a document holds at most four
    /// renditions of ``DocumentText/maximumBytes`` each).
    struct Record {
        /// Where the line's bytes are in ``LineStorage/bytes``.
        var offset: Int32
        var count: Int32
        /// UTF-8 offset of the line's first byte in the rendered text.
        var startOffset: Int32
        /// The 0-based line number within its rendition.
        var number: Int32
        /// The position in the rendition's spans of the span the line starts in, or -1.
        var spanIndex: Int32
        var origin: TextOrigin
        /// Whether the line's bytes are all spaces, tabs and carriage returns (or none).
        var isBlank: Bool

        /// Whether `bytes` are all spaces, tabs and carriage returns (or none).
        static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        }
    }

    /// One record per line, at the line's ``TextLine/index``.
    let records: UnsafeMutableBufferPointer<Record>
    /// The lines' bytes, as many as the storage was made with room for.
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Each rendition's spans, at its ``TextOrigin/position`` (shared, not copied).
    let spans: [[TextSpan]]

    /// A storage with room for `lines` records and `count` bytes (not yet written).
    init(lines: Int, count: Int, spans: [[TextSpan]]) {
        records = .allocate(capacity: lines)
        bytes = .allocate(capacity: count)
        self.spans = spans
    }

    deinit {
        records.deallocate()
        bytes.deallocate()
    }
}

/// A line's UTF-8 bytes: a view into its document's ``LineStorage``, which it keeps alive,
/// indexed from 0 to `count` as an array is (not as a slice is); copying it copies no byte.
struct LineBytes: RandomAccessCollection, @unchecked Sendable {
    typealias Index = Int
    typealias Indices = Range<Int>

    /// What the bytes belong to.
    let storage: LineStorage
    private let start: UnsafePointer<UInt8>
    let count: Int

    /// The `count` bytes of `storage` from `offset` on.
    @inline(__always)
    init(_ storage: LineStorage, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= storage.bytes.count)
        self.storage = storage
        self.start = UnsafePointer(storage.bytes.baseAddress! + offset)
        self.count = count
    }

    /// ``init(_:offset:count:)`` for a range already checked: a line's (``TextLine/bytes``).
    @inline(__always)
    fileprivate init(_ storage: LineStorage, validOffset offset: Int, count: Int) {
        self.storage = storage
        self.start = UnsafePointer(storage.bytes.baseAddress.unsafelyUnwrapped + offset)
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var indices: Range<Int> { 0..<count }

    @inline(__always)
    subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "Index out of range")
        return start[position]
    }

    /// Calls `body` with the bytes in memory (valid only during the call).
    @inline(__always)
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: start, count: count)) }
    }

    @inline(__always)
    func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeBufferPointer(body)
    }
}

/// UTF-8 bytes indexed from 0 to `count`, as an array is (a slice is not): an array's or a
/// line's (``LineBytes``), read alike by the byte-level helpers.
protocol ZeroBasedBytes: RandomAccessCollection where Element == UInt8, Index == Int {
    /// Calls `body` with the bytes in memory (valid only during the call).
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
}

extension Array: ZeroBasedBytes where Element == UInt8 {}
extension LineBytes: ZeroBasedBytes {}

/// One line of rendered text as UTF-8 bytes.
///
/// A line is its document's ``LineStorage`` and its position there, where its bytes and
/// numbers are: making or freeing one allocates or frees nothing.
struct TextLine: Sendable {
    let storage: LineStorage
    /// The position of the line's record in ``LineStorage/records``.
    let index: Int

    init(_ storage: LineStorage, index: Int) {
        precondition(index >= 0 && index < storage.records.count)
        self.storage = storage
        self.index = index
    }

    /// A line of its own bytes, in a storage of its own.
    init(origin: TextOrigin, number: Int, bytes: [UInt8], startOffset: Int, span: TextSpan?) {
        var spans: [[TextSpan]] = Array(repeating: [], count: TextOrigin.allCases.count)
        if let span { spans[origin.position] = [span] }
        let storage = LineStorage(lines: 1, count: bytes.count, spans: spans)
        _ = storage.bytes.initialize(fromContentsOf: bytes)
        storage.records.initializeElement(
            at: 0,
            to: LineStorage.Record(
                offset: 0, count: Int32(bytes.count), startOffset: Int32(startOffset), number: Int32(number),
                spanIndex: span == nil ? -1 : 0, origin: origin,
                isBlank: bytes.withUnsafeBufferPointer(LineStorage.Record.isBlank)))
        self.init(storage, index: 0)
    }

    private var record: LineStorage.Record {
        @inline(__always) get { storage.records[index] }
    }

    var origin: TextOrigin { record.origin }
    /// The 0-based line number within its rendition.
    var number: Int { Int(record.number) }
    var bytes: LineBytes {
        let record = record
        return LineBytes(storage, validOffset: Int(record.offset), count: Int(record.count))
    }
    /// UTF-8 offset of the line's first byte in the rendered text.
    var startOffset: Int { Int(record.startOffset) }

    /// The rendered span the line starts in, when the document says.
    var span: TextSpan? {
        let record = record
        return record.spanIndex >= 0 ? storage.spans[record.origin.position][Int(record.spanIndex)] : nil
    }

    /// ``bytes`` with ASCII and Latin-1 capitals lower-cased (same length, same offsets),
    /// folded when asked for: a document's lines are read folded from
    /// ``DocumentText/foldedText``, in one buffer.
    var folded: [UInt8] {
        var result = Array(bytes)
        result.withUnsafeMutableBufferPointer { _ = Text.foldBytes($0, from: 0) }
        return result
    }

    /// Part path and DOM path of the line, when the document says (built when asked for:
    /// most lines are never cited as evidence).
    var location: String? { span.map { "\($0.partPath) \($0.location)" } }

    var text: String { bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }

    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { bytes in
            let lower = max(0, min(range.lowerBound, bytes.count))
            let upper = max(lower, min(range.upperBound, bytes.count))
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        }
    }

    /// The table cell (tab-separated) around a byte position.
    func cell(around position: Int) -> Range<Int> {
        bytes.withUnsafeBufferPointer { bytes in
            var lower = min(position, bytes.count)
            while lower > 0 && bytes[lower - 1] != 0x09 { lower -= 1 }
            var upper = min(position, bytes.count)
            if upper < bytes.count, let base = bytes.baseAddress {
                upper =
                    memchr(base + upper, 0x09, bytes.count - upper).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? bytes.count
            }
            return lower..<upper
        }
    }

    /// Calls `body` with each cell of the line (the ranges ``cells`` holds), in order, until
    /// it returns false; builds no array.
    func forEachCell(_ body: (Range<Int>) -> Bool) {
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x09 {
                    if !body(start..<index) { return }
                    start = index + 1
                }
                index += 1
            }
            _ = body(start..<bytes.count)
        }
    }

    /// The first cell that holds more than white space (``FieldText/isBlank(_:_:)``), if any.
    var firstFilledCell: Range<Int>? {
        let bytes = bytes
        var found: Range<Int>?
        forEachCell { cell in
            if FieldText.isBlank(bytes, cell) { return true }
            found = cell
            return false
        }
        return found
    }

    /// The cells of the line.
    var cells: [Range<Int>] {
        bytes.withUnsafeBufferPointer { bytes in
            var result: [Range<Int>] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x09 {
                result.append(start..<index)
                start = index + 1
            }
            return result
        }
    }

    /// Whether the line is all spaces, tabs and carriage returns (or empty).
    var isBlank: Bool { record.isBlank }

    /// The line as shown to a reader, cells joined by ` | `, cut to a readable length.
    var display: String {
        let bytes = bytes
        var joined: [UInt8] = []
        joined.reserveCapacity(bytes.count + 8)
        bytes.withUnsafeBufferPointer { buffer in
            forEachCell { cell in
                let kept = Text.trimmedRange(bytes, cell)
                guard !kept.isEmpty else { return true }
                if !joined.isEmpty { joined += [0x20, 0x7C, 0x20] }
                joined.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[kept]))
                return true
            }
        }
        return Text.shortened(String(decoding: joined, as: UTF8.self), limit: 160)
    }
}

/// The email's texts split into lines: HTML rendition, text/plain rendition, subject.
struct DocumentText: Sendable {
    let lines: [TextLine]
    /// Every line's folded bytes (``TextLine/folded``), rendition after rendition in the
    /// order of ``lines``, each rendition folded as a whole (line ends included).
    let foldedText: [UInt8]
    /// Per line, where its folded bytes are in ``foldedText`` (as many as the line's bytes).
    let foldedRanges: [Range<Int>]
    /// The renditions longer than ``maximumBytes``, of which only the first bytes are read.
    let cuts: [Cut]
    /// Whether ``foldedText`` holds a byte E3–ED, which leads every Hangul syllable, kana and
    /// Han ideograph: without one, language detection counts none and does not look for them.
    let holdsScriptLeads: Bool

    /// A rendition read only in part.
    struct Cut: Sendable, Hashable {
        let origin: TextOrigin
        /// The rendition's length, in UTF-8 bytes.
        let length: Int
        /// The body-part path of its first span, when the document says.
        let partPath: String?
    }

    init(document: borrowing MailDocument) {
        // Every rendition's bytes first, back to back in one buffer, so that room for all the
        // lines is reserved once.
        var size = 0
        for text in [document.subject, document.preheader, document.htmlText?.text, document.plainText?.text]
        {
            if let text { size += min(text.utf8.count, Self.maximumBytes) }
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(size)
        var parts: [Part] = []
        parts.reserveCapacity(4)
        if let subject = document.subject {
            parts.append(Part(subject, origin: .subject, newlinesAsSpaces: true, in: &buffer))
        }
        if let preheader = document.preheader {
            parts.append(Part(preheader, origin: .preheader, in: &buffer))
        }
        if let html = document.htmlText {
            parts.append(Part(html.text, origin: .html, spans: html.spans, in: &buffer))
        }
        if let plain = document.plainText {
            parts.append(Part(plain.text, origin: .plain, spans: plain.spans, in: &buffer))
        }
        // Almost no email has a rendition that long: checked without building a list first.
        var cuts: [Cut] = []
        func note(_ text: String?, _ origin: TextOrigin, _ spans: [TextSpan]?) {
            guard let length = text?.utf8.count, length > Self.maximumBytes else { return }
            cuts.append(Cut(origin: origin, length: length, partPath: spans?.first?.partPath))
        }
        note(document.subject, .subject, nil)
        note(document.preheader, .preheader, nil)
        note(document.htmlText?.text, .html, document.htmlText?.spans)
        note(document.plainText?.text, .plain, document.plainText?.spans)
        self.cuts = cuts
        var count = 0
        for part in parts { count += part.newlines + 1 }
        var lines: [TextLine] = []
        lines.reserveCapacity(count)
        var foldedRanges: [Range<Int>] = []
        foldedRanges.reserveCapacity(count)
        let storage = Self.storage(of: buffer, parts: parts, lines: count)
        buffer.withUnsafeBufferPointer { buffer in
            for part in parts {
                DocumentText.split(part, of: buffer, storage: storage, into: &lines, ranges: &foldedRanges)
            }
        }
        // Folding reads a byte and the one after it, never across a line end (a line feed or
        // carriage return is not the second byte of a folded pair), so each rendition folded as
        // a whole is every line folded on its own.
        var scriptLeads = false
        buffer.withUnsafeMutableBufferPointer { buffer in
            for part in parts {
                if Text.foldBytes(UnsafeMutableBufferPointer(rebasing: buffer[part.range]), from: 0) {
                    scriptLeads = true
                }
            }
        }
        self.holdsScriptLeads = scriptLeads
        self.lines = lines
        self.foldedText = buffer
        self.foldedRanges = foldedRanges
    }

    /// At most this many bytes of each rendition are read: hostile input stays bounded.
    static let maximumBytes = 2_000_000

    /// One rendition's bytes (at most ``maximumBytes``) in a buffer, ready to be split into
    /// lines.
    struct Part {
        /// Where the bytes are in the buffer.
        let range: Range<Int>
        let origin: TextOrigin
        let spans: [TextSpan]
        /// The number of line feeds in the bytes (0 when they were made spaces).
        let newlines: Int

        /// Appends a rendition's bytes to `buffer`.
        /// - Parameter newlinesAsSpaces: read every LF as a space, so that the text is one line
        ///   (a subject whose folding left line ends in it).
        init(
            _ text: String, origin: TextOrigin, spans: [TextSpan] = [], newlinesAsSpaces: Bool = false,
            in buffer: inout [UInt8]
        ) {
            self.origin = origin
            self.spans = spans
            let base = buffer.count
            let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
                buffer.append(
                    contentsOf: UnsafeBufferPointer(rebasing: utf8.prefix(DocumentText.maximumBytes)))
            }
            if copied == nil { buffer.append(contentsOf: text.utf8.prefix(DocumentText.maximumBytes)) }
            range = base..<buffer.count
            var newlines = 0
            buffer.withUnsafeMutableBufferPointer { buffer in
                let bytes = UnsafeMutableBufferPointer(rebasing: buffer[base...])
                var position = 0
                while let found = DocumentText.lineFeed(in: UnsafeBufferPointer(bytes), from: position) {
                    if newlinesAsSpaces { bytes[found] = 0x20 } else { newlines += 1 }
                    position = found + 1
                }
            }
            self.newlines = newlines
        }
    }

    /// The position of the first line feed in `bytes` from `position` on, or nil.
    @inline(__always)
    static func lineFeed(in bytes: UnsafeBufferPointer<UInt8>, from position: Int) -> Int? {
        guard position < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + position, 0x0A, bytes.count - position) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The lines' storage, with room for `lines` records (written by
    /// ``split(_:of:storage:into:ranges:)``), a copy of `buffer` as it is before folding and the
    /// parts' spans.
    static func storage(of buffer: [UInt8], parts: [Part], lines: Int) -> LineStorage {
        var spans: [[TextSpan]] = Array(repeating: [], count: TextOrigin.allCases.count)
        for part in parts { spans[part.origin.position] = part.spans }
        let storage = LineStorage(lines: lines, count: buffer.count, spans: spans)
        _ = storage.bytes.initialize(fromContentsOf: buffer)
        return storage
    }

    /// The lines of a rendition.
    /// - Parameters:
    ///   - text: the rendition; at most ``maximumBytes`` of its UTF-8 bytes are read.
    ///   - spans: where the rendition's byte ranges came from, in order.
    ///   - newlinesAsSpaces: read every LF as a space, so that the text is one line (a
    ///     subject whose folding left line ends in it).
    static func split(
        _ text: String, origin: TextOrigin, spans: [TextSpan] = [], newlinesAsSpaces: Bool = false
    ) -> [TextLine] {
        var buffer: [UInt8] = []
        let part = Part(text, origin: origin, spans: spans, newlinesAsSpaces: newlinesAsSpaces, in: &buffer)
        var result: [TextLine] = []
        result.reserveCapacity(part.newlines + 1)
        var ranges: [Range<Int>] = []
        let storage = storage(of: buffer, parts: [part], lines: part.newlines + 1)
        buffer.withUnsafeBufferPointer {
            split(part, of: $0, storage: storage, into: &result, ranges: &ranges)
        }
        return result
    }

    /// Appends the lines of a rendition's bytes to `result`, and where each line's bytes are in
    /// `buffer` to `ranges` (with room reserved by the caller); writes each line's record in
    /// `storage` at the line's position in `result`.
    /// - Parameters:
    ///   - buffer: the buffer that holds the rendition's bytes at `part.range`.
    ///   - storage: the lines' storage, its bytes a copy of `buffer`
    ///     (``storage(of:parts:lines:)``).
    static func split(
        _ part: Part, of buffer: UnsafeBufferPointer<UInt8>, storage: LineStorage,
        into result: inout [TextLine],
        ranges: inout [Range<Int>]
    ) {
        let bytes = UnsafeBufferPointer(rebasing: buffer[part.range])
        let base = part.range.lowerBound
        let spans = part.spans
        let origin = part.origin
        var start = 0
        var number = 0
        var spanIndex = 0
        func emit(_ end: Int) {
            let kept = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
            var span = -1
            while spanIndex < spans.count && spans[spanIndex].range.upperBound <= start { spanIndex += 1 }
            if spanIndex < spans.count && spans[spanIndex].range.lowerBound < max(end, start + 1) {
                span = spanIndex
            }
            let index = result.count
            precondition(index < storage.records.count, "more lines than records")
            storage.records.initializeElement(
                at: index,
                to: LineStorage.Record(
                    offset: Int32(base + start), count: Int32(kept - start), startOffset: Int32(start),
                    number: Int32(number), spanIndex: Int32(span), origin: origin,
                    isBlank: LineStorage.Record.isBlank(UnsafeBufferPointer(rebasing: bytes[start..<kept]))))
            result.append(TextLine(storage, index: index))
            ranges.append((base + start)..<(base + kept))
            number += 1
        }
        if part.newlines > 0 {
            while let found = lineFeed(in: bytes, from: start) {
                emit(found)
                start = found + 1
            }
        }
        emit(bytes.count)
    }

    /// The lines of one rendition.
    func lines(of origin: TextOrigin) -> ArraySlice<TextLine> {
        guard let first = lines.firstIndex(where: { $0.origin == origin }) else { return [] }
        var end = first
        while end < lines.count && lines[end].origin == origin { end += 1 }
        return lines[first..<end]
    }

    /// The renditions present, in trust order (HTML first).
    var bodyOrigins: [TextOrigin] {
        [.html, .plain].filter { origin in lines.contains { $0.origin == origin } }
    }
}

/// A phrase from the rules, folded for matching.
struct Phrase: Sendable, Hashable {
    let text: String
    let folded: [UInt8]

    init(_ text: String) {
        self.text = text
        self.folded = Text.fold(Array(text.lowercased().utf8))
    }

    static func list(_ texts: [String]) -> [Phrase] {
        texts.map(Phrase.init).filter { !$0.folded.isEmpty }.sorted { $0.folded.count > $1.folded.count }
    }
}

/// The byte values that occur in some bytes, one bit each.
struct ByteSet: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ bytes: [UInt8]) {
        for byte in bytes { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        let bit: UInt64 = 1 << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        let bit: UInt64 = 1 << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }
}

/// Byte-level text helpers.
enum Text {
    /// Lower-cases ASCII and Latin-1 capitals (À–Þ except ×) without changing any offset.
    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        // The first position the loop below changes: read without writing, so that bytes with
        // nothing to change come back as they are, and the rest is written in one buffer
        // (not with a uniqueness test at every write).
        let start = bytes.withUnsafeBufferPointer { bytes -> Int? in
            var index = 0
            while index < bytes.count {
                // Eight ASCII bytes without a capital at once.
                if index + 8 <= bytes.count, let base = bytes.baseAddress {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if word & asciiHighBits == 0 && capitals(word) == 0 {
                        index += 8
                        continue
                    }
                }
                let byte = bytes[index]
                if byte >= 0x41 && byte <= 0x5A { return index }
                if byte == 0xC3 && index + 1 < bytes.count {
                    let next = bytes[index + 1]
                    if next >= 0x80 && next <= 0x9E && next != 0x97 { return index }
                    index += 1
                } else if byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0 {
                    return index
                }
                index += 1
            }
            return nil
        }
        guard let start else { return bytes }
        var result = bytes
        result.withUnsafeMutableBufferPointer { result in
            _ = foldBytes(result, from: start)
        }
        return result
    }

    /// The high bit of every byte of a word: a word without them holds eight ASCII bytes.
    static let asciiHighBits: UInt64 = 0x8080_8080_8080_8080

    /// For a word of eight ASCII bytes, the high bit of each byte that is a capital
    /// (0x41–0x5A). (A byte below 0x80 plus 0x3F reaches 0x80 from 0x41 on, plus 0x25 from
    /// 0x5B on, and neither carries into the next byte.)
    @inline(__always) static func capitals(_ word: UInt64) -> UInt64 {
        (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & asciiHighBits
    }

    /// For a word of any eight bytes, the high bit of each byte that is an ASCII capital
    /// (0x41–0x5A): ``capitals(_:)`` on the bytes' low seven bits (which carry into no other
    /// byte), without the bytes that are not ASCII.
    @inline(__always) static func capitalsAmongASCII(_ word: UInt64) -> UInt64 {
        capitals(word & ~asciiHighBits) & ~word
    }

    /// For a word of eight bytes, the high bit of each byte that is zero (no sum carries from
    /// one byte into the next).
    @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & ~asciiHighBits) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & asciiHighBits
    }

    /// For a word of eight bytes, the high bit of each byte that is C2 or C3 (the lead bytes of
    /// the pairs folding changes).
    @inline(__always) static func latinPairLeads(_ word: UInt64) -> UInt64 {
        zeroBytes((word & 0xFEFE_FEFE_FEFE_FEFE) ^ 0xC2C2_C2C2_C2C2_C2C2)
    }

    /// Eight bytes not all ASCII folded at once, as ``foldBytes(_:from:)`` folds them one by
    /// one, when every C2 or C3 among them is followed among them by a continuation byte (80–BF):
    /// then the byte after each is read as the second of its pair, and every other byte on its
    /// own. ASCII capitals gain 0x20, a byte 80–9E but 97 after C3 gains 0x20, C2 A0 becomes two
    /// spaces.
    /// - Returns: the folded bytes, and the high bit of each byte E3–ED (a script lead); nil
    ///   when a C2 or C3 is the last of the eight or is not followed by a continuation byte.
    @inline(__always) static func foldedLatin(_ word: UInt64) -> (folded: UInt64, scriptLeads: UInt64)? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = word & asciiHighBits
        let low = word & ~asciiHighBits
        let leads = latinPairLeads(word)
        // E3–ED: a high byte whose low seven bits are 63–6D.
        let scriptLeads = high & (low &+ ones &* (0x80 - 0x63)) & ~(low &+ ones &* (0x7F - 0x6D))
        // No pair (symbols, CJK): only ASCII capitals to fold.
        if leads == 0 { return (word | (capitalsAmongASCII(word) >> 2), scriptLeads) }
        let seconds = leads << 8
        let continuations = high & ~(low &+ ones &* 0x40)
        guard leads >> 56 == 0, seconds & ~continuations == 0 else { return nil }
        let afterC2 = zeroBytes(word ^ 0xC2C2_C2C2_C2C2_C2C2) << 8
        // After C3, a continuation byte whose low seven bits are 00–1E (80–9E) but 17 (97).
        let latinCapitals =
            seconds & ~afterC2 & ~(low &+ ones &* (0x7F - 0x1E)) & ~zeroBytes(word ^ 0x9797_9797_9797_9797)
        // (Each capital has bit 5 clear: setting it adds 0x20.)
        var folded = word | ((capitalsAmongASCII(word) | latinCapitals) >> 2)
        let noBreak = afterC2 & zeroBytes(word ^ 0xA0A0_A0A0_A0A0_A0A0)
        let spaces = ((noBreak | (noBreak >> 8)) >> 7) &* 0xFF
        folded = (folded & ~spaces) | (0x2020_2020_2020_2020 & spaces)
        return (folded, scriptLeads)
    }

    /// ``fold(_:)``'s loop, from a position the loop reaches: eight ASCII bytes are folded at
    /// once (each capital gains 0x20, the high bit of its byte moved down two places).
    /// - Returns: whether a byte from `start` on is E3–ED, the lead byte of every Hangul
    ///   syllable, kana and Han ideograph (``LanguageSet/countScripts(_:hangul:kana:han:)``
    ///   counts none in bytes without one); every byte that is not ASCII is looked at anyway.
    @discardableResult
    static func foldBytes(_ result: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> Bool {
        var scriptLead = false
        // The script leads of the bytes folded eight at a time.
        var scriptLeads: UInt64 = 0
        var index = start
        let count = result.count
        while index < count {
            // Where eight bytes are read at once again: past eight that are not all ASCII, read
            // one by one first (eight ASCII bytes fold as they would one by one), or at the end.
            var stop = count
            if index + 8 <= count, let base = result.baseAddress {
                let raw = UnsafeMutableRawPointer(base + index)
                let word = raw.loadUnaligned(as: UInt64.self)
                if word & asciiHighBits == 0 {
                    // Stored whatever it holds: a branch on whether it holds a capital would be
                    // mispredicted in mixed-case text.
                    raw.storeBytes(of: word | (capitals(word) >> 2), as: UInt64.self)
                    index += 8
                    continue
                }
                // Eight bytes whose pairs all end among them, folded at once (read one by one,
                // their bytes would mispredict branch after branch).
                if let latin = foldedLatin(word) {
                    raw.storeBytes(of: latin.folded, as: UInt64.self)
                    scriptLeads |= latin.scriptLeads
                    index += 8
                    continue
                }
                stop = index + 8
            }
            // (A pair that starts before the stop may end one byte past it.)
            while index < stop {
                let byte = result[index]
                if byte < 0x80 {
                    if byte >= 0x41 && byte <= 0x5A { result[index] = byte + 0x20 }
                } else if byte == 0xC3 && index + 1 < count {
                    let next = result[index + 1]
                    if next >= 0x80 && next <= 0x9E && next != 0x97 { result[index + 1] = next + 0x20 }
                    index += 1
                } else if byte == 0xC2 && index + 1 < count && result[index + 1] == 0xA0 {
                    // A no-break space matches a space.
                    result[index] = 0x20
                    result[index + 1] = 0x20
                    index += 1
                } else if byte >= 0xE3 && byte <= 0xED {
                    scriptLead = true
                }
                index += 1
            }
        }
        return scriptLead || scriptLeads != 0
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }

    /// Whether the character that ends just before `index` is a letter or digit of a Latin word.
    static func wordBefore(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index > 0 else { return false }
        var lead = index - 1
        while lead > 0 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        let byte = bytes[lead]
        if byte < 0x80 { return isWordByte(byte) }
        // Two-byte sequences cover Latin letters with accents; CJK is three bytes and has no spaces.
        return byte >= 0xC3 && byte < 0xE0
    }

    /// Whether the character starting at `index` is a letter or digit of a Latin word.
    static func wordAt(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        if byte < 0x80 { return isWordByte(byte) }
        return byte >= 0xC3 && byte < 0xE0
    }

    /// Every occurrence of a phrase in folded bytes, on word boundaries where the phrase
    /// starts or ends with a Latin letter or digit.
    static func occurrences(of phrase: [UInt8], in haystack: [UInt8], limit: Int = 64) -> [Range<Int>] {
        guard let first = phrase.first, phrase.count <= haystack.count else { return [] }
        let startsWord = wordAt(phrase, 0)
        let endsWord = wordBefore(phrase, phrase.count)
        var result: [Range<Int>] = []
        var index = 0
        let last = haystack.count - phrase.count
        while index <= last {
            // The next position of the phrase's first byte, found with memchr.
            guard
                let next = haystack.withUnsafeBufferPointer({ bytes -> Int? in
                    guard let base = bytes.baseAddress,
                        let found = memchr(base + index, Int32(first), last - index + 1)
                    else { return nil }
                    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
                })
            else { break }
            index = next
            var matched = true
            var offset = 1
            while offset < phrase.count {
                if haystack[index + offset] != phrase[offset] {
                    matched = false
                    break
                }
                offset += 1
            }
            if matched {
                let end = index + phrase.count
                let boundaryOK =
                    (!startsWord || !wordBefore(haystack, index)) && (!endsWord || !wordAt(haystack, end))
                if boundaryOK {
                    result.append(index..<end)
                    if result.count >= limit { break }
                    index = end
                    continue
                }
            }
            index += 1
        }
        return result
    }

    /// Whether `needle` occurs in `haystack`, byte for byte (an empty needle always does).
    static func containsBytes(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        let last = haystack.count - needle.count
        return haystack.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            var index = 0
            // From each position of the needle's first byte, found with memchr.
            while index <= last, let found = memchr(base + index, Int32(first), last - index + 1) {
                index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                var offset = 1
                while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
                index += 1
            }
            return false
        }
    }

    static func contains(_ phrase: Phrase, in bytes: [UInt8]) -> Bool {
        !occurrences(of: phrase.folded, in: bytes, limit: 1).isEmpty
    }

    /// Whether a scalar is space to trim: white space, no-break and zero-width spaces.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0xA0, 0x200B, 0x200C, 0x200D, 0xFEFF, 0x3000, 0x2028, 0x2029:
            true
        case 0x2000...0x200A: true
        default: false
        }
    }

    /// ``trimmed(_:)`` over UTF-8 bytes: the part of `range` left when the spaces
    /// ``isSpace(_:)`` names are cut from both ends (the range holds whole characters).
    static func trimmedRange(_ bytes: some ZeroBasedBytes, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, let length = spaceLength(bytes, at: lower, end: upper) { lower += length }
        while upper > lower {
            // The character that ends at `upper`: back over continuation bytes to its lead byte.
            var lead = upper - 1
            while lead > lower && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            guard spaceLength(bytes, at: lead, end: upper) == upper - lead else { break }
            upper = lead
        }
        return lower..<upper
    }

    /// The length in bytes of the space ``isSpace(_:)`` names that starts at `index`, or nil.
    private static func spaceLength(_ bytes: some ZeroBasedBytes, at index: Int, end: Int) -> Int? {
        let byte = bytes[index]
        if byte < 0x80 { return (byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)) ? 1 : nil }
        guard byte == 0xC2 || byte == 0xE2 || byte == 0xE3 || byte == 0xEF else { return nil }
        guard index + 1 < end else { return nil }
        let second = bytes[index + 1]
        if byte == 0xC2 { return second == 0xA0 ? 2 : nil }
        guard index + 2 < end else { return nil }
        let third = bytes[index + 2]
        switch (byte, second) {
        // U+2000–U+200D, U+2028, U+2029
        case (0xE2, 0x80): return (third >= 0x80 && third <= 0x8D) || third == 0xA8 || third == 0xA9 ? 3 : nil
        // U+3000
        case (0xE3, 0x80): return third == 0x80 ? 3 : nil
        // U+FEFF
        case (0xEF, 0xBB): return third == 0xBF ? 3 : nil
        default: return nil
        }
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        // Nothing to cut: the same string, without building a new one.
        if let first = scalars.first, let last = scalars.last, !isSpace(first), !isSpace(last) { return text }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    static func shortened(_ text: String, limit: Int) -> String {
        // No more characters than UTF-8 bytes: a short text needs no counting.
        if text.utf8.count <= limit { return text }
        return text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// Collapses runs of whitespace to one space (none at either end).
    ///
    /// A character is white space when its first scalar is; in text of
    /// ``SimpleScalars/isStandalone(_:)`` scalars each character is one scalar, so such text
    /// is collapsed scalar by scalar.
    static func collapsed(_ text: String) -> String {
        guard FieldText.isSimple(text) else {
            return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }
}
