import Foundation
import MailDocument

extension ExtractionContext {
    /// Line items from the attached order, markup, else table rows of the rendition that
    /// holds the total: a title cell and a price cell (and a quantity), between the top of
    /// the email and the total. Of the table rows, the first ``Extractor/maximumLineItems``
    /// are kept; when there are more, a warning says so (``warnings``).
    mutating func findLineItems(total: Chosen<MonetaryAmount>?) -> [LineItem] {
        for attached in document.attachedOrders {
            let items = Markup.objects(Markup.object(attached.order)?["lineItems"]).compactMap {
                item -> LineItem? in
                guard let title = Markup.string(item["title"]) else { return nil }
                return LineItem(
                    title: title, quantity: Markup.number(item["quantity"]).map { Int($0) },
                    price: Markup.amount(item["price"], currency: nil))
            }
            if !items.isEmpty {
                evidence.append(
                    Evidence(
                        field: "lineItems", source: "order", text: "order.json lineItems", confidence: 0.97))
                return items
            }
        }
        var markupItems: [LineItem] = []
        for object in Markup.objects(ofType: ["Order"], in: document) {
            let offers =
                Markup.objects(object.properties["acceptedOffer"])
                + Markup.objects(object.properties["orderedItem"])
            for offer in offers {
                let product =
                    Markup.object(offer["itemOffered"]) ?? Markup.object(offer["orderedItem"]) ?? offer
                guard let title = Markup.string(product["name"]) else { continue }
                let quantity = Markup.number(offer["eligibleQuantity"] ?? offer["orderQuantity"]).map {
                    Int($0)
                }
                let price = Markup.amount(offer["price"], currency: offer["priceCurrency"])
                markupItems.append(LineItem(title: title, quantity: quantity, price: price))
            }
        }
        if !markupItems.isEmpty {
            evidence.append(
                Evidence(
                    field: "lineItems", source: "markup", text: "schema.org acceptedOffer", confidence: 0.95))
            return markupItems
        }
        guard let total, total.best.source == "label" else { return [] }
        // The renditions that print the total under a label: an email
        // whose total was read from its text/plain part may list its items in an HTML table,
        // and the other way round.
        var places: [(origin: TextOrigin, offset: Int)] = []
        for candidate in [total.best] + total.supporting where candidate.source == "label" {
            guard let origin = candidate.origin, origin == .html || origin == .plain,
                !places.contains(where: { $0.origin == origin })
            else { continue }
            places.append((origin, candidate.offset))
        }
        // A table's cells are marked up; text/plain rows are only spaced: the HTML first.
        places.sort { $0.origin == .html && $1.origin != .html }
        for place in places {
            let (items, contexts) = tableItems(
                in: place.origin, above: place.offset, currency: total.value.currency)
            guard !items.isEmpty else { continue }
            evidence.append(
                Evidence(
                    field: "lineItems", source: "body",
                    text: Text.shortened(contexts.joined(separator: " / "), limit: 300),
                    confidence: 0.6))
            return items
        }
        return []
    }

    /// The rows of one rendition that read as line items, above the total at `offset`: a title
    /// cell, a price cell last, and between them at most four cells, one of which may be a
    /// quantity. The cells of a line are its tab-separated ones (the rendering of a table row);
    /// in text/plain, where tables are laid out with spaces, a line is split where the body had
    /// a tab or a run of spaces (``RenderedText/wideGaps``) and at leaders
    /// (``plainTextCells(_:gaps:)``).
    /// - Parameter currency: the total's ISO 4217 code, which an ambiguous symbol in a price
    ///   stands for when it can ("$" for MXN, "¥" for CNY).
    /// - Returns: the items, at most ``Extractor/maximumLineItems`` (a warning says when there
    ///   were more), and each item's line as displayed, for the evidence.
    mutating func tableItems(
        in origin: TextOrigin, above offset: Int, currency: String?
    ) -> (items: [LineItem], contexts: [String]) {
        // A "$" or "¥" reads as the total's currency when that is one it may stand for.
        let defaultCurrency = currency ?? languages.primary?.rules.defaultCurrency
        let summary = extractor.allSummaryRows
        let totals = languages.total
        let quantityLabels = languages.phrases(\.quantity)
        var items: [LineItem] = []
        var contexts: [String] = []
        // Where the text/plain body had tabs or runs of spaces: its cell boundaries.
        let wideGaps = origin == .plain ? document.plainText?.wideGaps ?? [] : []
        // The line before, when it is one cell of text: the product's name above the variant
        // or SKU line of the same table cell ("Ridgeline Jacket" over "Color: Spruce · SKU 4002"),
        // by its index (no line held per line read).
        var lineAbove: Int?
        // Whether a summary row stood above: rows below it are not items when they name one.
        var summaryRowSeen = false
        // Rows that name a summary phrase with a word or two more and carry no other mark of an
        // item, shaped as the item row above (as many cells): items when an item row follows at
        // once.
        // (An item's context is its stacked lines, or nil for its line as displayed: built
        // only for the rows kept.)
        var pending: [(item: (LineItem, String?), line: TextLine)] = []
        // The last item row: its cells and its line (whose table is read when a row is compared
        // with it).
        var lastItemRow: (cells: Int, index: Int)?
        // Whether a header row put the quantity in the first column.
        var quantityColumnFirst = false
        let originLines = text.lines(of: origin)
        for index in originLines.indices {
            let line = originLines[index]
            // Items stand above the total.
            if line.startOffset + line.bytes.count >= offset { break }
            // A blank line between a name and its attributes keeps the name.
            if lineIsBlank[index] { continue }
            let above = lineAbove
            lineAbove = nil
            // Most lines are not rows of two to six cells ending in a number: told from their
            // bytes before any text is built.
            let bytes = line.bytes
            let hasTab = bytes.contains(0x09)
            if bytes.count >= 2, bytes.count <= 120, !hasTab, bytes.contains(where: { $0 >= 0x41 }) {
                lineAbove = index
            }
            guard bytes.count >= 4 else { continue }
            // An HTML line without a tab is one cell: only a line that gives its item in words
            // ("2x Linen Shirt for $19.00 each", which starts with its count) can be a row.
            if origin != .plain && !hasTab && !(bytes[0] >= 0x31 && bytes[0] <= 0x39) { continue }
            var ranges =
                origin == .plain && !hasTab
                ? Self.plainTextCells(bytes, gaps: Self.gaps(wideGaps, in: line)).filter {
                    !FieldText.isBlank(bytes, $0)
                } : Self.filledCells(bytes)
            // A currency set apart from its amount ("EUR   24,00", "$  24.00", "24,00   EUR") is
            // one price cell.
            if ranges.count >= 3 {
                let (before, last) = (ranges[ranges.count - 2], ranges[ranges.count - 1])
                if Self.isCurrencyCell(bytes[before]) != Self.isCurrencyCell(bytes[last]) {
                    ranges.removeLast(2)
                    ranges.append(before.lowerBound..<last.upperBound)
                }
            }
            // A text/plain item laid out on lines of its own, as Shopify's notifications print
            // it: the name, the variant, then the price ("Linen Shirt" / "Size: M / Blue" /
            // "2 × $19.00").
            let stacked =
                origin == .plain && ranges.count == 1 && bytes.count <= 40
                    && bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
                ? Self.stackedItem(at: index, in: originLines, lineIsBlank: lineIsBlank) : nil
            // A Japanese or Chinese row spaced with one space or an ideographic one
            // ("・今治タオル 3枚セット　¥3,980", "湯呑み ¥3,980 × 2").
            // Or a line that says it in words: "2x Linen Shirt - M / Blue for $19.00 each".
            let spaced =
                stacked == nil && ranges.count == 1 && bytes.count <= 200
                ? (origin == .plain && bytes.contains(where: { $0 >= 0xE3 })
                    ? Self.singleSpacedCJKRow(line.text) : nil)
                    ?? (bytes.first.map { $0 >= 0x31 && $0 <= 0x39 } == true
                        ? Self.quantityTitlePriceEach(line.text) : nil)
                : nil
            // A header row whose first cell is a quantity label ("Qty | Item | Price", "Menge
            // Artikel  Preis"): the rows below it start with their quantity.
            if ranges.count >= 2, ranges.count <= 6, ranges[0].count <= 16,
                Self.startsWithQuantityLabel(bytes, ranges[0], of: quantityLabels.phrases)
            {
                quantityColumnFirst = true
                continue
            }
            if stacked == nil && spaced == nil {
                guard ranges.count >= 2, ranges.count <= 6, let last = ranges.last,
                    bytes[last].contains(where: { ($0 >= 0x30 && $0 <= 0x39) || $0 >= 0x80 })
                else { continue }
            }
            var cells =
                stacked.map { [$0.name, $0.price] } ?? spaced?.cells
                ?? ranges.map { FieldText.trimmedString(bytes, $0) }.filter { !$0.isEmpty }
            guard cells.count >= 2, cells.count <= 6 else { continue }
            // (A text has no more characters than bytes: a short one is not counted.)
            guard let priceCell = cells.last, priceCell.utf8.count <= 24 || priceCell.count <= 24,
                let (price, priceRange) = Money.amounts(in: priceCell, defaultCurrency: defaultCurrency)
                    .first,
                // The cell is the price ("$12.00", "12,00 EUR", "35,900원"), not a sentence
                // that holds one ("it means $5.00 to us").
                Self.lettersOutside(priceRange, of: priceCell) <= 3,
                // A negative amount is a discount, a credit or a refund, not an item: "-$3.00",
                // "−3,00 €", or written as accountants do, "($5.00)".
                !priceCell.unicodeScalars.contains(where: { $0 == "-" || $0 == "\u{2212}" }),
                // (A character that is "(" or ")" is that byte: the text's first or last.)
                !(priceCell.utf8.first == UInt8(ascii: "(") && priceCell.utf8.last == UInt8(ascii: ")")
                    && priceCell.hasPrefix("(") && priceCell.hasSuffix(")"))
            else { continue }
            // A quantity after the price, "¥3,980 × 2", or before it, "2 x $24.00" (the price
            // is then the unit price).
            let priceQuantity =
                Self.quantityAfter(priceRange, in: priceCell)
                ?? Self.quantityBefore(priceRange, in: priceCell)
            // Under a header row that starts with the quantity, the first cell is the count.
            var firstColumnQuantity: Int?
            if quantityColumnFirst, cells.count >= 3, let count = Self.countCell(cells[0]),
                cells[1].contains(where: { $0.isLetter })
            {
                cells.removeFirst()
                firstColumnQuantity = count
            }
            // A list's bullet is not part of the title.
            cells[0] = Self.withoutListMarker(cells[0])
            // A row that starts with the item's code ("MUG-7  Linen Tea Towel  1  $9.00"): the
            // name is the next cell.
            var startsWithCode = false
            if cells.count >= 3, Self.looksLikeCode(cells[0]), cells[1].contains(where: { $0.isLetter }),
                !Self.looksLikeCode(cells[1]), Money.firstAmount(in: cells[1]) == nil
            {
                cells.removeFirst()
                startsWithCode = true
            }
            // The item's name when the row's first cell is not it: its attributes ("Color:
            // Spruce · SKU 4002") or its quantity ("2 │ $68.00"), under the name put on a line of
            // its own by a block (`<p>`, `<br>`) inside the name's cell.
            var quantity = stacked?.quantity ?? spaced?.quantity ?? firstColumnQuantity ?? priceQuantity
            // (A quantity cell is short and holds a digit: most first cells are read no further.)
            let startsWithQuantity =
                cells.count >= 2 && cells[0].utf8.count <= 24
                    && cells[0].utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
                ? parseQuantity(cells[0], labels: quantityLabels.phrases) : nil
            if Self.isAttributeLine(cells[0]) || startsWithQuantity != nil {
                let isName = { (name: String) -> Bool in
                    !name.isEmpty && name.contains(where: { $0.isLetter })
                        && Money.firstAmount(in: name) == nil
                        && !Self.isAttributeLine(name)
                        && !summary.containsMatch(in: Self.foldedLowercased(name))
                }
                // Without a name above it, a row of attributes ("옵션: 화이트 / 대형 0원") is no item.
                guard
                    let name = Self.rowName(
                        of: index, in: originLines, lineIsBlank: lineIsBlank, isName: isName)
                        ?? above.map({ Text.trimmed(originLines[$0].text) }).flatMap({ isName($0) ? $0 : nil }
                        )
                else { continue }
                cells[0] = name
                quantity = startsWithQuantity
            }
            // "2 x Title" or "Title (x2)": the quantity printed with the title.
            if quantity == nil, let (title, count) = Self.titleAndQuantity(cells[0]) {
                cells[0] = title
                quantity = count
            }
            // "Mug (Qty: 2)", "Mug - Qty: 2": a quantity label after the name.
            // (A bare number after a dash is a model or a size: "Phone X - 256".)
            if quantity == nil, let (title, tail) = Self.titleAndTail(cells[0]),
                tail.contains(where: { $0.isLetter }),
                let count = parseQuantity(tail, labels: quantityLabels.phrases)
            {
                cells[0] = title
                quantity = count
            }
            let title = cells[0]
            // (At least two characters: the first two stepped over, the rest not counted.)
            guard title.utf8.count <= 120 || title.count <= 120,
                title.index(title.startIndex, offsetBy: 2, limitedBy: title.endIndex) != nil,
                title.contains(where: { $0.isLetter }), Money.firstAmount(in: title) == nil
            else { continue }
            let foldedTitle = Self.foldedLowercased(title)
            // A label ("Total:", "Paid with:") is not an item's title; one of a summary row
            // ("Items subtotal:") closes the block of items.
            // (A last character that is ":" ends with its byte, one that is "：" with 9A.)
            let lastByte = title.utf8.last
            if (lastByte == UInt8(ascii: ":") && title.hasSuffix(":"))
                || (lastByte == 0x9A && title.hasSuffix("："))
            {
                if summary.containsMatch(in: foldedTitle) || totals.containsMatch(in: foldedTitle) {
                    summaryRowSeen = true
                    pending.removeAll()
                }
                continue
            }
            // A quantity in a cell of its own: the row has the item rows' quantity column.
            var quantityCell = firstColumnQuantity != nil
            for cell in cells.dropFirst().dropLast() where quantity == nil {
                quantity = parseQuantity(cell, labels: quantityLabels.phrases)
                quantityCell = quantity != nil
            }
            // Summary rows (subtotal, shipping, taxes, payment) close the block of items: below
            // the first one, a title with a summary phrase is a summary row, whatever else it
            // says. Above it, the phrase alone, or followed by ":" or "(" ("Shipping
            // (Standard)", "Tax (8%)"), is one; a phrase with one or two more words ("Gift Card
            // Holder", "Oak Tip Jar", "Express delivery") is an item when the row says so — an
            // article code, a quantity of 2 or more, a quantity cell in a row shaped as the item
            // row above it (as many cells, in the same table), or an item row right after it in
            // a row shaped as the items (a product among products) — and a summary row when it
            // is not.
            let form = Self.summaryRowForm(foldedTitle, summary)
            if Self.isSummaryRow(foldedTitle, totals) || Self.namesAPaymentCard(title) || form == .definite
                || (form != .none && summaryRowSeen)
            {
                summaryRowSeen = true
                pending.removeAll()
                continue
            }
            let item = (LineItem(title: title, quantity: quantity ?? 1, price: price), stacked?.context)
            // In the same table as the item row above (HTML), else at most four lines below it.
            let likeTheItemAbove =
                quantityCell
                && lastItemRow.map { last in
                    guard last.cells == cells.count else { return false }
                    guard let table = Self.tablePath(of: line) else { return index - last.index <= 4 }
                    return Self.tablePath(of: originLines[last.index]) == table
                } == true
            if form == .short && !startsWithCode && (quantity ?? 1) < 2 && !likeTheItemAbove {
                // A second such row in a row is a block of summary rows ("Item subtotal",
                // "Express delivery").
                if !pending.isEmpty {
                    summaryRowSeen = true
                    pending.removeAll()
                    continue
                }
                // Among item rows, it has their shape: "Item subtotal | $64.00" under "Mug | 1 |
                // $12.00" is none.
                guard lastItemRow.map({ $0.cells == cells.count }) ?? true else {
                    summaryRowSeen = true
                    continue
                }
                pending.append((item, line))
                continue
            }
            var full = false
            for (entry, row) in pending + [(item, line)] {
                if items.count == Extractor.maximumLineItems {
                    // One more row of items than are kept: said, not dropped in silence.
                    warnings.append(
                        DocumentWarning(
                            partPath: row.span?.partPath,
                            message:
                                "more than \(Extractor.maximumLineItems) line items: the first \(Extractor.maximumLineItems) kept, the rest left out"
                        ))
                    full = true
                    break
                }
                items.append(entry.0)
                contexts.append(entry.1 ?? row.display)
            }
            pending.removeAll()
            lastItemRow = (cells.count, index)
            if full { break }
        }
        return (items, contexts)
    }

    /// The line's tab-separated cells (``TextLine/cells``) that are not blank
    /// (``FieldText/isBlank(_:_:)``), in order: found in one pass, in one array.
    static func filledCells(_ bytes: some ZeroBasedBytes) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x09 {
            if !FieldText.isBlank(bytes, start..<index) { result.append(start..<index) }
            start = index + 1
        }
        return result
    }

    /// The table a line's row is in (HTML): the DOM path of its row (``rowPath(_:)``) without
    /// the row's own step, or nil outside a table row.
    static func tablePath(of line: TextLine) -> Substring? {
        line.span.flatMap { rowPath($0.location) }.map { row in
            row[..<(row.lastIndex(of: "/") ?? row.endIndex)]
        }
    }

    /// `Text.fold(Array(text.lowercased().utf8))`: for ASCII text the bytes folded, which
    /// lower-cases A–Z as `lowercased()` does, without the Unicode case mapping; otherwise
    /// lower-cased by ``FieldText/lowercased(_:)``.
    static func foldedLowercased(_ text: String) -> [UInt8] {
        FieldText.isASCII(text)
            ? Text.fold(Array(text.utf8)) : Text.fold(Array(FieldText.lowercased(text).utf8))
    }

    /// `text` with each no-break space (U+00A0) made a space; `text` itself, unsearched by
    /// Foundation, when none of its bytes is A0 (the second byte of U+00A0 in UTF-8).
    static func withoutNoBreakSpaces(_ text: String) -> String {
        text.utf8.contains(0xA0) ? text.replacingOccurrences(of: "\u{00A0}", with: " ") : text
    }

    /// An item printed on lines of its own, the price line last (Shopify's text/plain
    /// notifications): the name, at most two lines of its variant ("Size: M / Blue", "M /
    /// Blue"), then the line at `index`, which is a price alone ("$38.00") or a quantity and the
    /// unit price ("2 × $19.00"). Only when the layout says so: a variant line between name and
    /// price, or a quantity with either ("Linen Shirt × 2" over "$38.00"). A name and a price
    /// alone ("Subtotal" over "$38.00") are a label and its value, no item.
    /// - Returns: the name (no-break spaces made spaces), the price as printed, the quantity
    ///   printed on the price line, and the lines as displayed for the evidence; nil when the
    ///   lines are not laid out so.
    static func stackedItem(
        at index: Int, in lines: ArraySlice<TextLine>, lineIsBlank: LineBlankness
    ) -> (name: String, price: String, quantity: Int?, context: String)? {
        var priceText = Text.trimmed(Self.withoutNoBreakSpaces(lines[index].text))
        // "2 × $19.00", "2 x $19.00".
        var quantity: Int?
        let scalars = Array(priceText.unicodeScalars)
        var digits = 0
        while digits < scalars.count && digits < 3 && ("0"..."9").contains(scalars[digits]) { digits += 1 }
        if digits > 0 {
            var next = digits
            while next < scalars.count && scalars[next] == " " { next += 1 }
            if next < scalars.count, "xX×".unicodeScalars.contains(scalars[next]) {
                next += 1
                while next < scalars.count && scalars[next] == " " { next += 1 }
                quantity = Int(String(String.UnicodeScalarView(scalars[..<digits]))).flatMap {
                    $0 > 0 ? $0 : nil
                }
                guard quantity != nil else { return nil }
                priceText = String(String.UnicodeScalarView(scalars[next...]))
            }
        }
        // The line is the price: an amount and at most a currency's letters, no other digits.
        guard let (_, range) = Money.amounts(in: priceText).first,
            lettersOutside(range, of: priceText) <= 3,
            !priceText.unicodeScalars.contains(where: { $0 == "-" || $0 == "\u{2212}" || $0 == "(" })
        else { return nil }
        let outside = Array(priceText.utf16).enumerated().filter {
            $0.offset < range.location || $0.offset >= NSMaxRange(range)
        }
        guard !outside.contains(where: { $0.element >= 0x30 && $0.element <= 0x39 }) else { return nil }
        // The lines above, up to the name: no blank line, no table row between them.
        func text(_ position: Int) -> String? {
            guard position >= lines.startIndex, !lineIsBlank[position], !lines[position].bytes.contains(0x09)
            else { return nil }
            let text = Text.trimmed(Self.withoutNoBreakSpaces(lines[position].text))
            return text.isEmpty || text.utf8.count > 120 ? nil : text
        }
        var position = index - 1
        var variants: [String] = []
        while variants.count < 2, let candidate = text(position), isVariantLine(candidate) {
            variants.append(candidate)
            position -= 1
        }
        guard let name = text(position), !isVariantLine(name), name.contains(where: { $0.isLetter }),
            Money.firstAmount(in: name) == nil, !name.hasSuffix(":"), !name.hasSuffix("："),
            // A sentence is no name.
            !".!?。！？".contains(name.last ?? " "), name.split(separator: " ").count <= 12,
            !variants.isEmpty || quantity != nil || titleAndQuantity(name) != nil
        else { return nil }
        let context = ([name] + variants.reversed() + [Text.trimmed(lines[index].text)]).joined(
            separator: " / ")
        return (name, priceText, quantity, context)
    }

    /// A Japanese or Chinese row with no wide gap, its cells set apart by ideographic spaces
    /// (U+3000), or its price by one space, at the end: "・今治タオル 3枚セット　¥3,980",
    /// "・和紙のレターセット　2点　1,400円", "湯呑み ¥3,980 × 2", "茶碗 2,400円". The name (the
    /// first cell) holds kana or ideographs and is no sentence (no "。", "！", "？"); the last
    /// cell is a price in yen or yuan (`¥`, `￥`, `円`, `元`), which a quantity may follow ("×
    /// 2", "x2"); between them at most four cells (a quantity, "2点"). A bullet before the name
    /// (`・`, `■`, `◆`, `●`, `★` …) is dropped.
    /// - Returns: the cells, name first and price last, and the quantity after the price; nil
    ///   when the line is not such a row.
    static func singleSpacedCJKRow(_ line: String) -> (cells: [String], quantity: Int?)? {
        // The price is a part of the line: without a digit and a yen or yuan sign or code in
        // its bytes, the line holds none.
        guard mayHoldYenOrYuan(line) else { return nil }
        var scalars = Array(Text.trimmed(line).unicodeScalars)
        guard scalars.count >= 4, scalars.count <= 80 else { return nil }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\u{3000}" || scalar == "\u{00A0}"
        }
        func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
            Text.trimmed(String(String.UnicodeScalarView(slice)))
        }
        // A quantity after the price: "× 2", "x2".
        var quantity: Int?
        var end = scalars.count
        var digitsStart = end
        while digitsStart > 0 && end - digitsStart < 3 && ("0"..."9").contains(scalars[digitsStart - 1]) {
            digitsStart -= 1
        }
        if digitsStart < end {
            var sign = digitsStart
            while sign > 0 && isSpace(scalars[sign - 1]) { sign -= 1 }
            if sign > 1, "xX×".unicodeScalars.contains(scalars[sign - 1]) {
                guard let count = Int(string(scalars[digitsStart..<end])), count > 0 else { return nil }
                quantity = count
                end = sign - 1
                while end > 0 && isSpace(scalars[end - 1]) { end -= 1 }
            }
        }
        scalars = Array(scalars[..<end])
        // Cells at ideographic spaces; without any, the price after the last space.
        var cells = scalars.split(separator: "\u{3000}").map(string).filter { !$0.isEmpty }
        if cells.count < 2 {
            guard let gap = scalars.lastIndex(where: isSpace), gap > 0 else { return nil }
            cells = [string(scalars[..<gap]), string(scalars[(gap + 1)...])].filter { !$0.isEmpty }
        }
        guard cells.count >= 2, cells.count <= 6, let price = cells.last,
            let (amount, range) = Money.amounts(in: price).first, range.location == 0,
            range.length == price.utf16.count, ["JPY", "CNY"].contains(amount.currency)
        else { return nil }
        var nameScalars = Substring(cells[0]).unicodeScalars[...]
        while let first = nameScalars.first, isSpace(first) || "・■□◆◇●○★☆▪".unicodeScalars.contains(first) {
            nameScalars = nameScalars.dropFirst()
        }
        let name = Text.trimmed(String(nameScalars))
        guard !name.isEmpty, name.count <= 60,
            name.unicodeScalars.contains(where: {
                (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value)
            }),
            !name.unicodeScalars.contains(where: { "。！？!?".unicodeScalars.contains($0) }),
            Money.firstAmount(in: name) == nil
        else { return nil }
        cells[0] = name
        return (cells, quantity)
    }

    /// Whether a text may hold an amount in yen or yuan as ``Money/amounts(in:defaultCurrency:)``
    /// reads it (with no default currency): it has an ASCII digit, and a currency that names
    /// JPY or CNY — "¥" (C2 A5), "￥" (EF BF A5), "円" (E5 86 86), "元" (E5 85 83), or the codes
    /// "JPY", "CNY", "RMB". False means no such amount; true means perhaps.
    static func mayHoldYenOrYuan(_ text: String) -> Bool {
        var digit = false
        var currency = false
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if byte >= 0x30 && byte <= 0x39 { digit = true }
            switch (previous.0, previous.1, byte) {
            case (_, 0xC2, 0xA5), (0xEF, 0xBF, 0xA5), (0xE5, 0x86, 0x86), (0xE5, 0x85, 0x83):
                currency = true
            case (UInt8(ascii: "J"), UInt8(ascii: "P"), UInt8(ascii: "Y")),
                (UInt8(ascii: "C"), UInt8(ascii: "N"), UInt8(ascii: "Y")),
                (UInt8(ascii: "R"), UInt8(ascii: "M"), UInt8(ascii: "B")):
                currency = true
            default: break
            }
            if digit && currency { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    /// A line that gives an item in words, as Shopify's text/plain order confirmation long did:
    /// a quantity and a times sign, the title, "for", the unit price and "each" ("2x Linen Shirt
    /// - M / Blue for $19.00 each", "1 × Mug for €12,00 each").
    /// - Returns: the cells (title, price) and the quantity, or nil.
    static func quantityTitlePriceEach(_ line: String) -> (cells: [String], quantity: Int?)? {
        let text = Text.trimmed(line)
        guard text.hasSuffix(" each"), let forRange = text.range(of: " for ", options: .backwards) else {
            return nil
        }
        // (" for each" leaves no price between them.)
        let priceEnd = text.index(text.endIndex, offsetBy: -5)
        guard forRange.upperBound < priceEnd else { return nil }
        let head = text[..<forRange.lowerBound]
        let price = Text.trimmed(String(text[forRange.upperBound..<priceEnd]))
        let digits = head.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, let count = Int(digits), count > 0 else { return nil }
        var rest = head.dropFirst(digits.count)
        if rest.first == " " { rest = rest.dropFirst() }
        guard let sign = rest.first, sign == "x" || sign == "X" || sign == "×", rest.dropFirst().first == " "
        else { return nil }
        let title = Text.trimmed(String(rest.dropFirst(2)))
        guard !title.isEmpty, let (_, range) = Money.amounts(in: price).first, range.location == 0,
            range.length == price.utf16.count
        else { return nil }
        return ([title, price], count)
    }

    /// Whether a line is an item's variant under its name: attributes ("Size: M / Blue", "SKU
    /// 4002", ``isAttributeLine(_:)``), or Shopify's option values ("M / Blue") — short, with
    /// " / " between values and no amount.
    static func isVariantLine(_ text: String) -> Bool {
        if isAttributeLine(text) { return true }
        return text.utf8.count <= 40 && text.contains(" / ") && Money.firstAmount(in: text) == nil
            && !".!?。！？:".contains(text.last ?? " ")
    }

    /// The cells of a text/plain line laid out as a table row: the line split at the spaces that
    /// stood for a tab or several spaces in the body (`gaps`, positions in `bytes`), at runs of
    /// two or more spaces, and at leaders ("Mug ... $12.00", "Mug......$12.00": three points
    /// with a space on either side, or four and more; two of `…` or `・`), with the spaces
    /// around them. A single space, or a point inside a word or a number, splits nothing.
    /// - Parameters:
    ///   - bytes: the line's UTF-8 bytes.
    ///   - gaps: positions in `bytes` of spaces that stand for wider gaps, in order.
    /// - Returns: byte ranges of the cells, in order (one range, the whole line, when nothing
    ///   splits it).
    static func plainTextCells(_ bytes: some ZeroBasedBytes, gaps: [Int] = []) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        var start = 0
        var index = 0
        var nextGap = 0
        while index < bytes.count {
            // A space that stood for a tab or several spaces in the body.
            while nextGap < gaps.count && gaps[nextGap] < index { nextGap += 1 }
            if nextGap < gaps.count && gaps[nextGap] == index && bytes[index] == 0x20 {
                if index > start { cells.append(start..<index) }
                index += 1
                start = index
                continue
            }
            guard bytes[index] == 0x20 || leaderLength(bytes, at: index) > 0 else {
                index += 1
                continue
            }
            // A run of spaces and leader characters.
            var end = index
            var spaces = 0
            var points = 0
            var wideLeaders = 0
            var laterGap = nextGap
            while end < bytes.count {
                // A noted gap ends the run: it is a cell boundary of its own ("32-tlg." then a gap
                // then "2": the point is the abbreviation's).
                while laterGap < gaps.count && gaps[laterGap] < end { laterGap += 1 }
                if end > index, laterGap < gaps.count, gaps[laterGap] == end, bytes[end] == 0x20 { break }
                if bytes[end] == 0x20 {
                    spaces += 1
                    end += 1
                } else if case let length = leaderLength(bytes, at: end), length > 0 {
                    if length == 1 { points += 1 } else { wideLeaders += 1 }
                    end += length
                } else {
                    break
                }
            }
            // One or two points end a word or an abbreviation ("Co.", "No.") or sit in a
            // number ("19.99"), and three are an ellipsis ("Wait... what"): leaders are three
            // points with a space on either side, or four and more; of the wider leader
            // characters ("……", "・・・"), two.
            if spaces >= 2 && (points == 0 || points >= 3) || points >= 4 || wideLeaders >= 2 {
                if index > start { cells.append(start..<index) }
                start = end
            }
            index = end
        }
        if start < bytes.count { cells.append(start..<bytes.count) }
        return cells
    }

    /// How a row's title names a summary row (``summaryRowForm(_:_:)``).
    enum SummaryRowForm: Equatable {
        /// No phrase of the set.
        case none
        /// A phrase among more than two other words or 24 bytes of them ("Free Shipping Tote
        /// Bag", "Shipping Container Model Kit", "【送料無料】今治タオル 3枚セット").
        case withinName
        /// Phrases and nothing else ("Shipping", "Shipping & Handling", "送料"), or a phrase
        /// followed by ":" or "(" ("Shipping (Standard)", "Tax (8%)", "送料（税込）").
        case definite
        /// A phrase and one or two more words, 24 bytes at most ("Express delivery", "Costi di
        /// spedizione", "Gift Card Holder", "Oak Tip Jar").
        case short
    }

    /// How a row's title names a summary row of the set.
    /// - Parameter folded: the title lower-cased and folded (``Text/fold(_:)``).
    static func summaryRowForm(_ folded: [UInt8], _ set: PhraseSet) -> SummaryRowForm {
        let matches = set.matches(in: folded, limit: 8)
        guard !matches.isEmpty else { return .none }
        func isWord(_ word: ArraySlice<UInt8>) -> Bool { word.contains { $0 >= 0x80 || Text.isWordByte($0) } }
        // What the title holds besides its phrases.
        var rest: [UInt8] = []
        var from = 0
        for (_, range) in matches where range.lowerBound >= from {
            rest += folded[from..<range.lowerBound] + [0x20]
            from = range.upperBound
            // "Shipping (Standard)", "Tax: 8%", "送料（税込）".
            var next = range.upperBound
            while next < folded.count && folded[next] == 0x20 { next += 1 }
            if next < folded.count
                && (folded[next] == 0x3A || folded[next] == 0x28
                    || (next + 2 < folded.count && folded[next] == 0xEF && folded[next + 1] == 0xBC
                        && (folded[next + 2] == 0x9A || folded[next + 2] == 0x88)))
            {
                return .definite
            }
        }
        rest += folded[from...]
        let words = rest.split(separator: 0x20).filter(isWord)
        if words.isEmpty || (matches.count >= 2 && words.count <= 1) { return .definite }
        return isSummaryRow(folded, set) ? .short : .withinName
    }

    /// Whether a row's title names a summary row rather than an item: it holds one of the
    /// set's phrases and little else, at most two words and 24 bytes besides it ("Shipping
    /// (Standard)", "Estimated total", "Costi di spedizione", "Visa **** 4242"). A product
    /// whose name holds such a word among more ("Free Shipping Tote Bag", "Shipping Container
    /// Model Kit", "【送料無料】今治タオル 3枚セット") is an item.
    /// - Parameter folded: the title lower-cased and folded (``Text/fold(_:)``).
    static func isSummaryRow(_ folded: [UInt8], _ set: PhraseSet) -> Bool {
        for (_, range) in set.matches(in: folded, limit: 8) {
            // What the title holds besides the phrase.
            let rest = Array(folded[..<range.lowerBound]) + [0x20] + Array(folded[range.upperBound...])
            let words = rest.split(separator: 0x20).filter { word in
                word.contains { $0 >= 0x80 || Text.isWordByte($0) }
            }
            if words.count <= 2 && words.reduce(0, { $0 + $1.count }) <= 24 { return true }
        }
        return false
    }

    /// Whether a cell is an article code rather than a name: one word of at most 20 ASCII
    /// letters, digits and `-_./#`, with a digit in it ("4411", "MUG-7", "WT09-XS").
    static func looksLikeCode(_ cell: String) -> Bool {
        let utf8 = cell.utf8
        return !utf8.isEmpty && utf8.count <= 20 && utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
            && utf8.allSatisfy { Text.isWordByte($0) || "-_./#".utf8.contains($0) }
    }

    /// Whether a title names a payment card rather than an item: a masked number ("****
    /// 4242", "•••• 4242") or "ending in" and four digits.
    static func namesAPaymentCard(_ title: String) -> Bool {
        let bytes = Array(title.utf8)
        for mask in paymentCardMasks where Text.containsBytes(mask, in: bytes) { return true }
        // "ending" in any case, then exactly four digits in what follows.
        let ending = endingBytes
        guard bytes.count > ending.count else { return false }
        for start in 0...(bytes.count - ending.count) {
            var index = 0
            while index < ending.count, bytes[start + index] | 0x20 == ending[index] { index += 1 }
            guard index == ending.count else { continue }
            return bytes[(start + ending.count)...].filter { $0 >= 0x30 && $0 <= 0x39 }.count == 4
        }
        return false
    }

    /// The masks of a card number ("****", "••••", "xxxx", "XXXX"), as UTF-8 bytes.
    static let paymentCardMasks: [[UInt8]] = ["****", "••••", "xxxx", "XXXX"].map { Array($0.utf8) }
    /// "ending", as UTF-8 bytes.
    static let endingBytes = Array("ending".utf8)

    /// Whether a cell is a currency alone: an ISO 4217 code (three capital letters) or a
    /// symbol of up to four bytes without a digit (`$`, `€`, `R$`, `円`, `원`, `zł`).
    static func isCurrencyCell(_ cell: some BidirectionalCollection<UInt8>) -> Bool {
        var trimmed = cell[...]
        while let first = trimmed.first, first == 0x20 { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == 0x20 { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty, trimmed.count <= 4, !trimmed.contains(where: { $0 >= 0x30 && $0 <= 0x39 })
        else {
            return false
        }
        if trimmed.count == 3 && trimmed.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) { return true }
        let text = String(decoding: trimmed, as: UTF8.self)
        return Money.firstAmount(in: text + "1") != nil || Money.firstAmount(in: "1" + text) != nil
    }

    /// The UTF-8 length of the leader character at `index` — `.` and `_` (1), `·` (2), `…`,
    /// `‥`, `・` and `･` (3) — or 0.
    static func leaderLength(_ bytes: some ZeroBasedBytes, at index: Int) -> Int {
        let byte = bytes[index]
        if byte == 0x2E || byte == 0x5F { return 1 }
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xB7 { return 2 }
        guard index + 2 < bytes.count else { return 0 }
        let (second, third) = (bytes[index + 1], bytes[index + 2])
        if byte == 0xE2 && second == 0x80 && (third == 0xA6 || third == 0xA5) { return 3 }
        if byte == 0xE3 && second == 0x83 && third == 0xBB { return 3 }
        if byte == 0xEF && second == 0xBD && third == 0xA5 { return 3 }
        return 0
    }

    /// The positions in `line` of the rendition's wide gaps (``RenderedText/wideGaps``: offsets
    /// in the rendition) that fall inside it, in order.
    static func gaps(_ wideGaps: [Int], in line: TextLine) -> [Int] {
        guard !wideGaps.isEmpty else { return [] }
        let start = line.startOffset
        let end = start + line.bytes.count
        // The first gap at or after the line's start (the gaps are in order).
        var low = 0
        var high = wideGaps.count
        while low < high {
            let middle = (low + high) / 2
            if wideGaps[middle] < start { low = middle + 1 } else { high = middle }
        }
        var result: [Int] = []
        while low < wideGaps.count && wideGaps[low] < end {
            result.append(wideGaps[low] - start)
            low += 1
        }
        return result
    }

    /// A title cell that carries its quantity: "2 x Mug", "2× Mug", "Mug x 2", "Mug (x2)",
    /// "Mug ×2". The quantity is 1 to 999.
    /// - Returns: the title without the quantity and the quantity, or nil when the cell holds
    ///   no such quantity.
    static func titleAndQuantity(_ cell: String) -> (String, Int)? {
        // Every form starts with a digit or ends with a digit or ")": most titles are told from
        // their first and last bytes.
        guard let firstByte = cell.utf8.first, let lastByte = cell.utf8.last,
            MoneyBytes.isDigit(firstByte) || MoneyBytes.isDigit(lastByte) || lastByte == UInt8(ascii: ")")
        else { return nil }
        let scalars = Array(cell.unicodeScalars)
        func isTimes(_ scalar: Unicode.Scalar) -> Bool { scalar == "x" || scalar == "X" || scalar == "×" }
        func digitsValue(_ digits: ArraySlice<Unicode.Scalar>) -> Int? {
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ ("0"..."9").contains($0) })
            else { return nil }
            guard let value = Int(String(String.UnicodeScalarView(digits))), value > 0 else { return nil }
            return value
        }
        // Leading: digits, optional space, a times sign, a space.
        var index = 0
        while index < scalars.count && index < 3 && ("0"..."9").contains(scalars[index]) { index += 1 }
        if index > 0, let value = digitsValue(scalars[0..<index]) {
            var next = index
            if next < scalars.count && scalars[next] == " " { next += 1 }
            // "2 x 4 Lumber" is a size.
            if next + 1 < scalars.count && isTimes(scalars[next]) && scalars[next + 1] == " "
                && !(next + 2 < scalars.count && ("0"..."9").contains(scalars[next + 2]))
            {
                let rest = Text.trimmed(String(String.UnicodeScalarView(scalars[(next + 2)...])))
                if !rest.isEmpty { return (rest, value) }
            }
        }
        // Trailing "(2x)".
        if let (rest, value) = Self.trailingCountTimes(scalars) { return (rest, value) }
        // Trailing: a space, an optional "(", a times sign, an optional space, digits, an
        // optional ")".
        var end = scalars.count
        let closed = end > 0 && scalars[end - 1] == ")"
        if closed { end -= 1 }
        var digitsStart = end
        while digitsStart > 0 && end - digitsStart < 3 && ("0"..."9").contains(scalars[digitsStart - 1]) {
            digitsStart -= 1
        }
        guard digitsStart < end, let value = digitsValue(scalars[digitsStart..<end]) else { return nil }
        var sign = digitsStart - 1
        if sign >= 0 && scalars[sign] == " " { sign -= 1 }
        guard sign >= 1, isTimes(scalars[sign]) else { return nil }
        var before = sign - 1
        if closed {
            guard before >= 0, scalars[before] == "(" else { return nil }
            before -= 1
        }
        guard before >= 1, scalars[before] == " " else { return nil }
        // "Rug 160 x 230", "Lumber 2 x 4": a size, not a quantity ("Frame 13 x 18 x2", with the
        // count against its sign, is one).
        if ("0"..."9").contains(scalars[before - 1]) && digitsStart > sign + 1 { return nil }
        let rest = Text.trimmed(String(String.UnicodeScalarView(scalars[..<before])))
        return rest.isEmpty ? nil : (rest, value)
    }

    /// Whether a title cell holds an item's attributes rather than its name: it starts with a
    /// stock-keeping unit ("SKU 11870", "Art.-Nr. 4711", "Item # 20") or a short label and a
    /// colon ("Color: Spruce / Size: M", "Farbe: Blau").
    static func isAttributeLine(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // A stock-keeping unit's label first, in any case.
            for prefix in attributePrefixes where bytes.count >= prefix.count {
                var index = 0
                while index < prefix.count, bytes[index] | (bytes[index] < 0x80 ? 0x20 : 0) == prefix[index] {
                    index += 1
                }
                if index == prefix.count { return true }
            }
            // A label of at most two words and 16 bytes, then ":" or "：".
            var spaces = 0
            for index in 0..<min(bytes.count, 19) {
                let byte = bytes[index]
                if byte == UInt8(ascii: ":")
                    || (byte == 0xEF && index + 2 < bytes.count && bytes[index + 1] == 0xBC
                        && bytes[index + 2] == 0x9A)
                {
                    return index > 0 && index <= 16 && spaces <= 1
                }
                if byte == 0x20 {
                    spaces += 1
                } else if byte < 0x80 && !(Text.isWordByte(byte) && byte > 0x39) && byte != 0x2E
                    && byte != 0x2D
                {
                    return false
                }
            }
            return false
        }
    }

    /// Lower-cased labels a row of an item's attributes starts with.
    static let attributePrefixes: [[UInt8]] = [
        "sku", "art.-nr", "art.nr", "artikelnummer", "item #", "item no", "réf", "ref.",
    ]
    .map { Array($0.utf8) }

    /// The first line of the table row that the line at `index` ends, when the document says
    /// where its lines come from (HTML): the lines above it, up to eight, whose DOM paths are
    /// in the same `tr`. The first of them that `isName` accepts, trimmed.
    static func rowName(
        of index: Int, in lines: ArraySlice<TextLine>, lineIsBlank: LineBlankness, isName: (String) -> Bool
    ) -> String? {
        guard let row = lines[index].span.flatMap({ rowPath($0.location) }) else { return nil }
        var first = index
        while first > lines.startIndex && first > index - 8,
            let location = lines[first - 1].span?.location, rowPath(location) == row
        {
            first -= 1
        }
        for candidate in first..<index where !lineIsBlank[candidate] && !lines[candidate].bytes.contains(0x09)
        {
            let name = Text.trimmed(lines[candidate].text)
            if isName(name) { return name }
        }
        return nil
    }

    /// A DOM path up to its last table row (`html/body/table/tr[3]` of
    /// `html/body/table/tr[3]/td[1]/p`), or nil outside a table row.
    static func rowPath(_ location: String) -> Substring? {
        // Read as UTF-8 bytes: a DOM path's steps are ASCII names, and "/" ends each.
        let utf8 = location.utf8
        let end =
            utf8.withContiguousStorageIfAvailable(rowPathEnd)
            ?? Array(utf8).withUnsafeBufferPointer(rowPathEnd)
        return end.map { location[..<utf8.index(utf8.startIndex, offsetBy: $0)] }
    }

    /// Where ``rowPath(_:)`` ends in a DOM path's UTF-8 bytes: the "/" after the last step
    /// named `tr` (`/tr`, then `[`, `/` or the end), or the end when there is none after it;
    /// nil without such a step.
    static func rowPathEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var end: Int?
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "/") else {
                index += 1
                continue
            }
            let t = index + 1
            guard t < bytes.count, bytes[t] == UInt8(ascii: "t") else {
                index = t
                continue
            }
            let r = t + 1
            guard r < bytes.count, bytes[r] == UInt8(ascii: "r") else {
                index = t
                continue
            }
            let after = r + 1
            if after == bytes.count || bytes[after] == UInt8(ascii: "[") || bytes[after] == UInt8(ascii: "/")
            {
                var slash = after
                while slash < bytes.count && bytes[slash] != UInt8(ascii: "/") { slash += 1 }
                end = slash
            }
            index = after
        }
        return end
    }

    /// The letters of `text` outside `range` (UTF-16, as ``Money/amounts(in:defaultCurrency:)``
    /// gives it).
    static func lettersOutside(_ range: NSRange, of text: String) -> Int {
        // A price that is its whole cell leaves nothing outside it.
        if range.location == 0 && range.length == text.utf16.count { return 0 }
        let utf16 = Array(text.utf16)
        var letters = 0
        for (offset, unit) in utf16.enumerated() where offset < range.location || offset >= NSMaxRange(range)
        {
            if let scalar = Unicode.Scalar(unit), scalar.properties.isAlphabetic { letters += 1 }
        }
        return letters
    }

    /// A title that ends with a count before its times sign, in parentheses: "Mug (2x)",
    /// "Mug (2×)".
    static func trailingCountTimes(_ scalars: [Unicode.Scalar]) -> (String, Int)? {
        // Only in parentheses: "Zoom lens 10x" is a magnification.
        let end = scalars.count - 1
        guard end >= 3, scalars[end] == ")", "xX×".unicodeScalars.contains(scalars[end - 1]) else {
            return nil
        }
        var digitsStart = end - 1
        while digitsStart > 0 && end - 1 - digitsStart < 3 && ("0"..."9").contains(scalars[digitsStart - 1]) {
            digitsStart -= 1
        }
        guard digitsStart < end - 1,
            let value = Int(String(String.UnicodeScalarView(scalars[digitsStart..<(end - 1)]))), value > 0,
            digitsStart >= 3, scalars[digitsStart - 1] == "(", scalars[digitsStart - 2] == " "
        else { return nil }
        let rest = Text.trimmed(String(String.UnicodeScalarView(scalars[..<(digitsStart - 2)])))
        return rest.isEmpty ? nil : (rest, value)
    }

    /// A title split before what ends it in parentheses ("Mug (Qty: 2)") or after a dash
    /// ("Mug - Qty: 2"), or nil.
    static func titleAndTail(_ cell: String) -> (String, String)? {
        if cell.hasSuffix(")"), let open = cell.lastIndex(of: "(") {
            let title = Text.trimmed(String(cell[..<open]))
            let tail = String(cell[cell.index(after: open)..<cell.index(before: cell.endIndex)])
            return title.isEmpty ? nil : (title, tail)
        }
        // In simple text (``FieldText/isSimple(_:)``) characters are scalars and none is
        // canonically equivalent to another: the dash is found among the bytes, not by
        // Foundation.
        let simple = FieldText.isASCII(cell) || FieldText.isSimple(cell)
        for dash in [" - ", " – "] {
            if let range = simple
                ? Self.lastRange(of: dash, in: cell) : cell.range(of: dash, options: .backwards)
            {
                let title = Text.trimmed(String(cell[..<range.lowerBound]))
                return title.isEmpty ? nil : (title, String(cell[range.upperBound...]))
            }
        }
        return nil
    }

    /// `text.range(of: needle, options: .backwards)` found among the UTF-8 bytes: the range of
    /// the last occurrence (the one that starts last), or nil. Agrees with Foundation when
    /// `text` and `needle` are ``FieldText/isSimple(_:)``.
    static func lastRange(of needle: String, in text: String) -> Range<String.Index>? {
        let needle = Array(needle.utf8)
        let utf8 = text.utf8
        guard !needle.isEmpty, needle.count <= utf8.count else { return nil }
        let found: Int? =
            utf8.withContiguousStorageIfAvailable { bytes in
                var start = bytes.count - needle.count
                while start >= 0 {
                    var offset = 0
                    while offset < needle.count && bytes[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return start }
                    start -= 1
                }
                return nil
            }
            ?? text.range(of: String(decoding: needle, as: UTF8.self), options: .backwards).map {
                utf8.distance(from: utf8.startIndex, to: $0.lowerBound)
            }
        guard let found else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: found)
        return lower..<utf8.index(lower, offsetBy: needle.count)
    }

    /// The quantity printed after a price in its cell: a times sign and 1 to 999 ("¥3,980 × 2",
    /// "$12.00 x2"), or nil.
    /// - Parameter range: the price's range in `cell` (UTF-16, as
    ///   ``Money/amounts(in:defaultCurrency:)`` gives it).
    static func quantityAfter(_ range: NSRange, in cell: String) -> Int? {
        // Most prices end their cell.
        guard NSMaxRange(range) < cell.utf16.count else { return nil }
        let utf16 = Array(cell.utf16)
        let rest = Text.trimmed(String(decoding: utf16[NSMaxRange(range)...], as: UTF16.self))
        guard let sign = rest.unicodeScalars.first, "xX×".unicodeScalars.contains(sign) else { return nil }
        return smallCount(String(rest.unicodeScalars.dropFirst()))
    }

    /// Whether a cell is one of the labels, whole (a colon or full stop after it allowed):
    /// "Qty", "Quantity:", "Menge", "数量".
    static func isLabel(_ cell: String, of labels: [Phrase]) -> Bool {
        var text = FieldText.lowercased(Text.trimmed(cell))
        while let last = text.last, last == ":" || last == "：" { text.removeLast() }
        let folded = Text.fold(Array(Text.trimmed(text).utf8))
        // A label written with its abbreviation's point or without it ("Cant." and "Cant").
        let bare = folded.last == UInt8(ascii: ".") ? folded.dropLast() : folded[...]
        // (`bare` and a point, compared without building it.)
        return !bare.isEmpty
            && labels.contains {
                $0.folded == folded || $0.folded[...] == bare
                    || ($0.folded.count == bare.count + 1 && $0.folded.last == 0x2E
                        && $0.folded.starts(with: bare))
            }
    }

    /// Whether a header row's first cell starts with a quantity label and holds no digit: "Qty"
    /// or, when one space parts it from the next header, "Qty Item".
    static func startsWithQuantityLabel(_ cell: String, of labels: [Phrase]) -> Bool {
        if isLabel(cell, of: labels) { return true }
        guard !cell.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let words = spaceSeparatedSubstrings(cell)
        guard words.count >= 2, words.count <= 3 else { return false }
        return isLabel(String(words[0]), of: labels)
    }

    /// ``startsWithQuantityLabel(_:of:)`` for the cell at `range` of a line's `bytes`: read
    /// byte by byte when the cell is ASCII (where every byte is a character, lower-casing
    /// changes A–Z only and ``Text/fold(_:)`` nothing more), building no string; otherwise
    /// the cell's text is asked.
    static func startsWithQuantityLabel(
        _ bytes: some ZeroBasedBytes, _ range: Range<Int>, of labels: [Phrase]
    ) -> Bool {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        let cell = bytes[lower..<upper]
        guard cell.allSatisfy({ $0 < 0x80 }) else {
            return startsWithQuantityLabel(String(decoding: cell, as: UTF8.self), of: labels)
        }
        if isLabelASCII(cell, of: labels) { return true }
        // The first of two or three words parted by spaces, when no digit is in the cell.
        var words = 0
        var first: Range<Int>?
        var index = lower
        while index < upper {
            if cell[index] == 0x20 {
                index += 1
                continue
            }
            let start = index
            while index < upper && cell[index] != 0x20 { index += 1 }
            words += 1
            if first == nil { first = start..<index }
        }
        guard words >= 2, words <= 3, let first, !cell.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else {
            return false
        }
        return isLabelASCII(cell[first], of: labels)
    }

    /// ``isLabel(_:of:)`` for ASCII bytes: spaces trimmed, colons after the label dropped, and
    /// the label compared with each phrase's folded bytes, A–Z lower-cased as they are read.
    static func isLabelASCII<Cell: RandomAccessCollection<UInt8>>(_ cell: Cell, of labels: [Phrase]) -> Bool
    where Cell.Index == Int {
        var lower = cell.startIndex
        var upper = cell.endIndex
        while lower < upper && FieldText.isASCIISpace(cell[lower]) { lower += 1 }
        while upper > lower && FieldText.isASCIISpace(cell[upper - 1]) { upper -= 1 }
        while upper > lower && cell[upper - 1] == UInt8(ascii: ":") { upper -= 1 }
        while upper > lower && FieldText.isASCIISpace(cell[upper - 1]) { upper -= 1 }
        // The label with its abbreviation's point (`folded`) and without it (`bare`).
        let folded = lower..<upper
        let bare = upper > lower && cell[upper - 1] == UInt8(ascii: ".") ? lower..<(upper - 1) : folded
        guard !bare.isEmpty else { return false }
        func equals(_ phrase: [UInt8], _ range: Range<Int>, point: Bool) -> Bool {
            guard phrase.count == range.count + (point ? 1 : 0) else { return false }
            var offset = 0
            for index in range {
                if phrase[offset] != KeywordScanner.lower(cell[index]) { return false }
                offset += 1
            }
            return !point || phrase[offset] == UInt8(ascii: ".")
        }
        return labels.contains {
            equals($0.folded, folded, point: false) || equals($0.folded, bare, point: false)
                || equals($0.folded, bare, point: true)
        }
    }

    /// A quantity column's cell: a count of 1 to 999, alone or with a times sign on either side
    /// ("2", "2x", "2 ×", "x2").
    static func countCell(_ cell: String) -> Int? {
        if let count = smallCount(cell) { return count }
        var scalars = Substring(Text.trimmed(cell)).unicodeScalars
        if let last = scalars.last, "xX×".unicodeScalars.contains(last) {
            scalars.removeLast()
        } else if let first = scalars.first, "xX×".unicodeScalars.contains(first) {
            scalars.removeFirst()
        } else {
            return nil
        }
        return smallCount(String(scalars))
    }

    /// A count of 1 to 999 written in 1 to 3 ASCII digits, spaces around it trimmed.
    static func smallCount(_ text: String) -> Int? {
        let digits = Text.trimmed(text)
        guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits), value > 0
        else { return nil }
        return value
    }

    /// The count written before a price in its cell, times sign last: "2 x $24.00", "2× 7,00 €",
    /// "3 X EUR 7.00" (1 to 3 digits, more than 0); `nil` when anything else stands before the
    /// price.
    /// - Parameters:
    ///   - range: the price's range in `cell` (UTF-16, as ``Money/amounts(in:defaultCurrency:)``
    ///     gives it).
    ///   - cell: the price cell.
    static func quantityBefore(_ range: NSRange, in cell: String) -> Int? {
        // Most prices start their cell.
        guard range.location > 0, range.location <= cell.utf16.count else { return nil }
        let utf16 = Array(cell.utf16)
        let head = Text.trimmed(String(decoding: utf16[..<range.location], as: UTF16.self))
        guard let sign = head.unicodeScalars.last, "xX×".unicodeScalars.contains(sign) else { return nil }
        return smallCount(String(String.UnicodeScalarView(head.unicodeScalars.dropLast())))
    }

    /// A title without the bullet that starts a list item: `- `, `* `, `• `, `· `, `– `, `— `,
    /// `▪ `, `‣ ` (with any spaces after it), or `・`, `■`, `□`, `◆`, `◇`, `●`, `○` (with or
    /// without).
    static func withoutListMarker(_ title: String) -> String {
        // Of the bullets, only "-" and "*" are ASCII: a title that starts with another ASCII
        // byte has none.
        if let first = title.utf8.first, first < 0x80, first != UInt8(ascii: "-"), first != UInt8(ascii: "*")
        {
            return title
        }
        // Japanese and Chinese bullets stand against the name: "・今治タオル", "■湯呑み".
        if let first = title.unicodeScalars.first, "・■□◆◇●○".unicodeScalars.contains(first) {
            let rest = Text.trimmed(String(String.UnicodeScalarView(title.unicodeScalars.dropFirst())))
            return rest.isEmpty ? title : rest
        }
        guard let first = title.unicodeScalars.first, "-*•·–—▪‣".unicodeScalars.contains(first) else {
            return title
        }
        let rest = title.unicodeScalars.dropFirst()
        guard let next = rest.first, next == " " || next == "\t" else { return title }
        return Text.trimmed(String(String.UnicodeScalarView(rest)))
    }

    /// The words a quantity may be followed by in an ASCII cell (``parseQuantity(_:labels:)``),
    /// as UTF-8 bytes.
    static let asciiCountWords: [[UInt8]] = ["x", "pcs", "pc", "stk", "st", "unidades"].map { Array($0.utf8) }

    /// ``parseQuantity(_:labels:)`` for an ASCII cell, byte by byte: every byte is a character,
    /// lower-casing changes A–Z only, and of the quantity's signs and words only the ASCII
    /// ones can occur.
    static func parseQuantityASCII(_ bytes: UnsafeBufferPointer<UInt8>, labels: [Phrase]) -> Int? {
        var lower = 0
        var upper = bytes.count
        while lower < upper && FieldText.isASCIISpace(bytes[lower]) { lower += 1 }
        while upper > lower && FieldText.isASCIISpace(bytes[upper - 1]) { upper -= 1 }
        // A label first ("Qty: 2"), in any case.
        var index = lower
        for label in labels where label.folded.count <= upper - lower {
            var offset = 0
            while offset < label.folded.count
                && KeywordScanner.lower(bytes[lower + offset]) == label.folded[offset]
            {
                offset += 1
            }
            if offset == label.folded.count {
                index += offset
                break
            }
        }
        // Spaces, colons, a times sign, an asterisk; then one to three digits.
        while index < upper, [0x20, 0x3A, 0x78, 0x58, 0x2A].contains(bytes[index]) { index += 1 }
        var value = 0
        var digits = 0
        while index < upper && MoneyBytes.isDigit(bytes[index]) {
            if digits < 3 { value = value * 10 + Int(bytes[index] - 0x30) }
            digits += 1
            index += 1
        }
        guard digits >= 1, digits <= 3, value > 0 else { return nil }
        // Nothing after it, or a word of counting.
        while index < upper && FieldText.isASCIISpace(bytes[index]) { index += 1 }
        guard index < upper else { return value }
        let after = UnsafeBufferPointer(rebasing: bytes[index..<upper])
        return asciiCountWords.contains { $0.elementsEqual(after) } ? value : nil
    }

    /// A quantity cell: "2", "x2", "× 2", "Qty: 2", "수량: 2", "2개", "2点".
    func parseQuantity(_ cell: String, labels: [Phrase]) -> Int? {
        if FieldText.isASCII(cell) {
            var cell = cell
            return cell.withUTF8 { Self.parseQuantityASCII($0, labels: labels) }
        }
        return Self.parseQuantityScalars(cell, labels: labels)
    }

    /// ``parseQuantity(_:labels:)`` for any text, read by characters: what the ASCII path
    /// (`parseQuantityASCII`) stands in for.
    static func parseQuantityScalars(_ cell: String, labels: [Phrase]) -> Int? {
        var rest = Substring(Text.trimmed(cell))
        let folded = Text.fold(Array(rest.lowercased().utf8))
        for label in labels where folded.starts(with: label.folded) {
            rest = Substring(String(decoding: Array(rest.utf8).dropFirst(label.folded.count), as: UTF8.self))
            break
        }
        rest = rest.drop { " :：xX×*".contains($0) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let after = Text.trimmed(String(rest.dropFirst(digits.count)))
        guard !digits.isEmpty, digits.count <= 3, let value = Int(digits), value > 0,
            after.isEmpty
                || ["개", "点", "個", "件", "x", "×", "pcs", "pc", "stk", "st", "unidades", "pièces"].contains(
                    after)
        else { return nil }
        return value
    }
}
