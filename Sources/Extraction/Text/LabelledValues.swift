import Foundation

/// Where a value stands relative to its label.
enum Placement: String, Sendable {
    /// In the same cell or line, after the label ("Order #123").
    case sameCell
    /// In the next table cell of the same row.
    case nextCell
    /// On the next non-blank line.
    case nextLine
    /// In the same column of the row below a row of labels ("Order number | Order date" over
    /// "#1047 | November 3, 2026").
    case cellBelow

    /// How much a value in this place is trusted.
    var score: Double {
        switch self {
        case .sameCell: 0.85
        case .nextCell: 0.82
        case .nextLine: 0.72
        case .cellBelow: 0.8
        }
    }
}

/// A value found beside a label.
struct LabelledValue: Sendable {
    let label: String
    let value: String
    let placement: Placement
    let line: TextLine
    /// Whether the label opens its cell (nothing but punctuation before it).
    let labelOpensCell: Bool
    /// UTF-8 offset of the label in its rendition.
    let offset: Int
    /// The line of the label (differs from ``line`` when the value is on the next line).
    let labelLine: TextLine
    /// The position of ``labelLine`` in ``DocumentText/lines``.
    let labelLineIndex: Int

    /// The text around the value, for evidence (built only when asked for):
    /// ``EvidenceLines/text`` of the label's line and the value's.
    var context: String { EvidenceLines(self).text }
}

enum LabelledValues {
    /// Bytes skipped between a label and its value.
    static let separators: Set<UInt8> = [0x20, 0x09, 0x3A, 0x23, 0x2D, 0x7C, 0x3D, 0x3E, 0x2E]
    /// Full-width colon and number sign, and dashes, as UTF-8 sequences.
    static let wideSeparators: [[UInt8]] = [
        Array("：".utf8), Array("＃".utf8), Array("–".utf8), Array("—".utf8), Array("\u{00A0}".utf8),
        Array("】".utf8), Array("]".utf8),
    ]

    /// Finds the value after every occurrence of the labels in the given renditions.
    /// - Parameters:
    ///   - labels: the phrases, longest first (``Phrase/list(_:)``).
    ///   - origins: the renditions to read.
    ///   - following: whether a label alone in its cell may take the next cell or line.
    ///   - hits: the document's phrase occurrences, when they cover `labels`.
    static func find(
        _ labels: PhraseSet, in text: DocumentText, origins: Set<TextOrigin>, following: Bool = true,
        hits: PhraseHits? = nil
    ) -> [LabelledValue] {
        guard !labels.isEmpty else { return [] }
        let hits = hits.flatMap { $0.covers(labels) ? $0 : nil }
        var result: [LabelledValue] = []
        let lines = text.lines
        let phrases = labels.phrases
        // The renditions to read, one bit per position (read without hashing each origin).
        var read: UInt8 = 0
        for origin in origins { read |= 1 << UInt8(origin.position) }
        if let hits {
            // Only the lines that hold one of the labels are read.
            var lineIndex = hits.nextLine(containing: labels, from: 0)
            while lineIndex < lines.count {
                let line = lines[lineIndex]
                if read & (1 << UInt8(line.origin.position)) != 0 && !line.bytes.isEmpty {
                    // Room for a few values, so that the array seldom grows.
                    if result.capacity == 0 { result.reserveCapacity(8) }
                    hits.forEachMatch(labels, line: lineIndex, limit: 16) { index, range in
                        valueAfter(
                            label: phrases[index].text, range: range, lineIndex: lineIndex, lines: lines,
                            following: following, into: &result)
                        return true
                    }
                }
                lineIndex = hits.nextLine(containing: labels, from: lineIndex + 1)
            }
            return result
        }
        for lineIndex in lines.indices {
            let line = lines[lineIndex]
            guard read & (1 << UInt8(line.origin.position)) != 0 else { continue }
            guard !line.bytes.isEmpty else { continue }
            for (index, range) in labels.matches(in: line.folded, limit: 16) {
                valueAfter(
                    label: phrases[index].text, range: range, lineIndex: lineIndex, lines: lines,
                    following: following, into: &result)
            }
        }
        return result
    }

    /// Appends the value after a label to `result`, when there is one.
    private static func valueAfter(
        label: String, range: Range<Int>, lineIndex: Int, lines: [TextLine], following: Bool,
        into result: inout [LabelledValue]
    ) {
        let line = lines[lineIndex]
        let bytes = line.bytes
        let cell = line.cell(around: range.lowerBound)
        let (opensCell, prefixLength) = labelPrefix(bytes, cell.lowerBound..<range.lowerBound)
        let valueStart = skipSeparators(bytes, from: range.upperBound, end: cell.upperBound)
        let offset = line.startOffset + range.lowerBound
        if valueStart < cell.upperBound {
            let value = FieldText.trimmedString(bytes, valueStart..<cell.upperBound)
            result.append(
                LabelledValue(
                    label: label, value: value, placement: .sameCell, line: line, labelOpensCell: opensCell,
                    offset: offset, labelLine: line, labelLineIndex: lineIndex))
            return
        }
        // The label ends its cell: the value is in the next cell, or on the next line.
        guard following, prefixLength <= 24 else { return }
        // The first filled cell after the label's, and whether every cell before it is blank.
        var nextCell: Range<Int>?
        var othersBlank = true
        line.forEachCell { other in
            guard other != cell else { return true }
            let blank = FieldText.isBlank(bytes, other)
            if other.lowerBound > cell.lowerBound && !blank {
                nextCell = other
                return false
            }
            if !blank { othersBlank = false }
            return true
        }
        if let next = nextCell {
            result.append(
                LabelledValue(
                    label: label, value: FieldText.trimmedString(bytes, next), placement: .nextCell,
                    line: line,
                    labelOpensCell: opensCell, offset: offset, labelLine: line, labelLineIndex: lineIndex))
            return
        }
        // Only a label that is its whole line (a heading) reaches down to the next line.
        guard othersBlank else { return }
        var nextIndex = lineIndex + 1
        while nextIndex < lines.count && nextIndex <= lineIndex + 2 && lines[nextIndex].origin == line.origin
        {
            let next = lines[nextIndex]
            if !next.isBlank {
                guard let first = next.firstFilledCell else { return }
                result.append(
                    LabelledValue(
                        label: label, value: FieldText.trimmedString(next.bytes, first),
                        placement: .nextLine,
                        line: next,
                        labelOpensCell: opensCell, offset: offset,
                        labelLine: line, labelLineIndex: lineIndex))
                return
            }
            nextIndex += 1
        }
    }

    /// What stands before a label in its cell: whether it is only punctuation and symbols
    /// (after ``Text/trimmed(_:)``), and the UTF-8 length of that trimmed text.
    static func labelPrefix(_ bytes: some ZeroBasedBytes, _ range: Range<Int>) -> (
        opensCell: Bool, length: Int
    ) {
        var lower = max(0, min(range.lowerBound, bytes.count))
        var upper = max(lower, min(range.upperBound, bytes.count))
        while lower < upper && FieldText.isASCIISpace(bytes[lower]) { lower += 1 }
        while upper > lower && FieldText.isASCIISpace(bytes[upper - 1]) { upper -= 1 }
        var opens = true
        let ascii = bytes.withUnsafeBufferPointer { buffer in
            let set = punctuationOrSymbol
            // Punctuation and symbols first, while they last; then only whether the rest is
            // ASCII, eight bytes at a time (`lower..<upper` lies within the buffer).
            var index = lower
            while index < upper {
                let byte = buffer[index]
                if byte >= 0x80 { return false }
                if !set.containsASCII(byte) {
                    opens = false
                    break
                }
                index += 1
            }
            if let base = buffer.baseAddress {
                while index + 8 <= upper {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if word & Text.asciiHighBits != 0 { break }
                    index += 8
                }
            }
            while index < upper {
                if buffer[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
        if ascii { return (opens, upper - lower) }
        // Scalar by scalar, decoded as `String(decoding:as:)` decodes (U+FFFD for each broken
        // sequence) and trimmed of ``Text/isSpace(_:)`` scalars at both ends.
        var length = 0
        // UTF-8 length of the spaces after the last other scalar, counted once another follows.
        var pendingSpaces = 0
        var seenOther = false
        opens = true
        bytes.withUnsafeBufferPointer { buffer in
            var iterator = UnsafeBufferPointer(rebasing: buffer[lower..<upper]).makeIterator()
            var decoder = UTF8()
            while true {
                let scalar: Unicode.Scalar
                switch decoder.decode(&iterator) {
                case .scalarValue(let value): scalar = value
                case .error: scalar = "\u{FFFD}"
                case .emptyInput: return
                }
                let size = UTF8.width(scalar)
                if Text.isSpace(scalar) {
                    if seenOther { pendingSpaces += size }
                    continue
                }
                if pendingSpaces > 0 {
                    // A space inside the prefix: neither punctuation nor a symbol.
                    opens = false
                    length += pendingSpaces
                    pendingSpaces = 0
                }
                seenOther = true
                length += size
                if opens && !isPunctuationOrSymbol(scalar) { opens = false }
            }
        }
        return (opens, length)
    }

    /// Whether a scalar's Unicode general category is punctuation (P*) or a symbol (S*): the
    /// scalars of Foundation's `CharacterSet.punctuationCharacters` and `.symbols`.
    static func isPunctuationOrSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
            .modifierSymbol, .otherSymbol:
            true
        default: false
        }
    }

    /// Punctuation and symbols (Foundation's sets), for ASCII bytes.
    static let punctuationOrSymbol = TrimSet(CharacterSet.punctuationCharacters.union(.symbols))

    /// The position after the separators (``separators``, ``wideSeparators``) that start at
    /// `start`, reading no further than `end`.
    static func skipSeparators(_ bytes: some ZeroBasedBytes, from start: Int, end: Int) -> Int {
        var index = start
        while index < end {
            switch bytes[index] {
            // Space, tab, `:`, `#`, `-`, `|`, `=`, `>`, `.`, `]`.
            case 0x20, 0x09, 0x3A, 0x23, 0x2D, 0x7C, 0x3D, 0x3E, 0x2E, 0x5D:
                index += 1
                continue
            // U+00A0 no-break space.
            case 0xC2 where index + 2 <= end && bytes[index + 1] == 0xA0:
                index += 2
                continue
            // U+2013 and U+2014, dashes.
            case 0xE2
            where index + 3 <= end && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0x93 || bytes[index + 2] == 0x94):
                index += 3
                continue
            // U+3011 black lenticular bracket.
            case 0xE3 where index + 3 <= end && bytes[index + 1] == 0x80 && bytes[index + 2] == 0x91:
                index += 3
                continue
            // U+FF1A and U+FF03, full-width colon and number sign.
            case 0xEF
            where index + 3 <= end && bytes[index + 1] == 0xBC
                && (bytes[index + 2] == 0x9A || bytes[index + 2] == 0x83):
                index += 3
                continue
            default:
                break
            }
            break
        }
        return index
    }

    /// ``skipSeparators(_:from:end:)`` as the sets say it, for tests.
    static func skipSeparatorsBySets(_ bytes: [UInt8], from start: Int, end: Int) -> Int {
        var index = start
        outer: while index < end {
            if separators.contains(bytes[index]) {
                index += 1
                continue
            }
            for wide in wideSeparators where index + wide.count <= end {
                if Array(bytes[index..<(index + wide.count)]) == wide {
                    index += wide.count
                    continue outer
                }
            }
            break
        }
        return index
    }
}
