import Foundation
import MailDocument

extension ExtractionContext {
    /// Values under a row of labels: a table (or a text/plain pair of lines split at wide gaps,
    /// ``RenderedText/wideGaps``) whose first row holds only labels ("Order number | Order date
    /// | Total") and whose next row holds the values ("#1047 | November 3, 2026 | $43.00"). Each
    /// label of `labels` that is a whole cell of such a row takes the cell in the same column of
    /// the row below.
    ///
    /// A row is a row of labels when it has two to six filled cells, none longer than 40 bytes
    /// and none with a digit; the row below (the next non-blank line, at most two lines down, of
    /// the same rendition) must have as many filled cells — or, in a table, as many cells, empty
    /// ones counted — and its cell in the label's column a digit. "Carrier | UPS" over "Tracking number | 1Z…" is not one: the cell under
    /// "Carrier" has no digit.
    /// - Parameter labels: the field's labels (``Phrase/list(_:)``).
    /// - Returns: the values, placed ``Placement/cellBelow``, each with its label's line and
    ///   offset.
    func valuesBelowHeaderRows(_ labels: PhraseSet) -> [LabelledValue] {
        guard !labels.isEmpty else { return [] }
        let hits = phraseHits.covers(labels) ? phraseHits : nil
        let lines = text.lines
        let wideGaps = document.plainText?.wideGaps ?? []
        // A line's filled cells: its tab-separated ones, or in text/plain its cells at wide gaps.
        func filledCells(_ line: TextLine) -> [Range<Int>] {
            let cells =
                line.origin == .plain && !line.bytes.contains(0x09)
                ? Self.plainTextCells(line.bytes, gaps: Self.gaps(wideGaps, in: line)) : line.cells
            return cells.map { Text.trimmedRange(line.bytes, $0) }.filter { !$0.isEmpty }
        }
        var result: [LabelledValue] = []
        for index in lines.indices {
            // Most lines hold none of the labels: asked first, without reading the line.
            if let hits, !hits.containsMatch(labels, line: index) { continue }
            let line = lines[index]
            // Most others are no row of cells: told from their bytes.
            guard line.origin == .html || line.origin == .plain, !lineIsBlank[index],
                line.bytes.count >= 8, line.bytes.count <= 240,
                line.bytes.contains(0x09)
                    || (line.origin == .plain && !Self.gaps(wideGaps, in: line).isEmpty),
                !line.bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
            else { continue }
            let matches =
                hits?.matches(labels, line: index, limit: 8) ?? labels.matches(in: line.folded, limit: 8)
            guard !matches.isEmpty else { continue }
            let header = filledCells(line)
            guard header.count >= 2, header.count <= 6, header.allSatisfy({ $0.count <= 40 }) else {
                continue
            }
            // The row below.
            var below: (index: Int, cells: [Range<Int>])?
            var next = index + 1
            while next < lines.count && next <= index + 2 && lines[next].origin == line.origin {
                if !lineIsBlank[next] {
                    below = (next, filledCells(lines[next]))
                    break
                }
                next += 1
            }
            guard let below else { continue }
            let valueLine = lines[below.index]
            // Columns: the filled cells, when both rows have as many; else, in rows of tab-
            // separated cells (a table), every cell, empty ones too, when both rows have as
            // many: a values row with an empty cell ("#1047 | | $43.00") keeps its columns.
            var columns = (labels: header, values: below.cells)
            if below.cells.count != header.count {
                let labelCells = line.cells.map { Text.trimmedRange(line.bytes, $0) }
                let valueCells = valueLine.cells.map { Text.trimmedRange(valueLine.bytes, $0) }
                guard line.bytes.contains(0x09), valueLine.bytes.contains(0x09),
                    labelCells.count == valueCells.count, labelCells.count <= 8
                else { continue }
                columns = (labelCells, valueCells)
            }
            for (phrase, range) in matches {
                // The label is its cell, but for punctuation around it ("Order #", "Total:").
                guard let column = columns.labels.firstIndex(where: { $0.contains(range.lowerBound) }),
                    Self.isWholeCell(range, of: columns.labels[column], in: line.bytes)
                else { continue }
                let cell = columns.values[column]
                guard valueLine.bytes[cell].contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { continue }
                result.append(
                    LabelledValue(
                        label: labels.phrases[phrase].text,
                        value: FieldText.trimmedString(valueLine.bytes, cell), placement: .cellBelow,
                        line: valueLine, labelOpensCell: true, offset: line.startOffset + range.lowerBound,
                        labelLine: line, labelLineIndex: index))
            }
        }
        return result
    }

    /// Whether a label's `range` is the whole of `cell` but for spaces, punctuation and symbols
    /// around it (`Order #`, `Total:`, `(Total)`).
    static func isWholeCell(_ range: Range<Int>, of cell: Range<Int>, in bytes: some ZeroBasedBytes) -> Bool {
        guard range.lowerBound >= cell.lowerBound, range.upperBound <= cell.upperBound else { return false }
        let outside =
            String(decoding: bytes[cell.lowerBound..<range.lowerBound], as: UTF8.self)
            + String(decoding: bytes[range.upperBound..<cell.upperBound], as: UTF8.self)
        return outside.unicodeScalars.allSatisfy {
            Text.isSpace($0) || LabelledValues.isPunctuationOrSymbol($0)
        }
    }
}
