// What the renderer needs to know about an HTML element, looked up once per distinct
// element name in a document (libxml2 interns names, so the lookup is by pointer).

struct ElementKind: OptionSet, Hashable {
    let rawValue: UInt32

    /// Starts and ends a line (div, p, h1, li, table, …).
    static let block = ElementKind(rawValue: 1 << 0)
    /// Not rendered at all, children included (head, style, script, template, …).
    static let skip = ElementKind(rawValue: 1 << 1)
    /// `<br>`.
    static let lineBreak = ElementKind(rawValue: 1 << 2)
    /// `<td>`, `<th>`: a tab before the cell when the row already has text.
    static let cell = ElementKind(rawValue: 1 << 3)
    /// `<tr>`: one line.
    static let row = ElementKind(rawValue: 1 << 4)
    /// `<li>`: a line starting with "- ".
    static let listItem = ElementKind(rawValue: 1 << 5)
    static let anchor = ElementKind(rawValue: 1 << 6)
    static let image = ElementKind(rawValue: 1 << 7)
    static let script = ElementKind(rawValue: 1 << 8)
    /// `<p>`, headings: a blank line around.
    static let paragraph = ElementKind(rawValue: 1 << 9)
    static let preformatted = ElementKind(rawValue: 1 << 10)
    static let title = ElementKind(rawValue: 1 << 11)
    static let head = ElementKind(rawValue: 1 << 12)
    /// Elements whose microdata value is an attribute (meta, link, time, data, …).
    static let microdataAttribute = ElementKind(rawValue: 1 << 13)

    static func classify(_ name: String) -> ElementKind {
        table[name] ?? []
    }

    /// An element name packed into two integers (names up to 16 bytes), for lookups that
    /// allocate nothing.
    struct NameKey: Hashable {
        var low: UInt64
        var high: UInt64

        init?(_ name: UnsafePointer<UInt8>) {
            low = 0
            high = 0
            var index = 0
            while name[index] != 0 {
                guard index < 16 else { return nil }
                var byte = name[index]
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if index < 8 {
                    low |= UInt64(byte) << UInt64(index * 8)
                } else {
                    high |= UInt64(byte) << UInt64((index - 8) * 8)
                }
                index += 1
            }
        }

        init(_ name: String) {
            var bytes = Array(name.utf8.prefix(16))
            bytes.append(0)
            self = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { NameKey($0) } ?? NameKey(low: 0, high: 0)
            }
        }

        private init(low: UInt64, high: UInt64) {
            self.low = low
            self.high = high
        }
    }

    /// The kind of an element, looked up from its name's bytes without hashing or allocating
    /// (open addressing over a fixed table); unknown names are plain inline elements.
    static func kind(_ name: UnsafePointer<UInt8>) -> ElementKind {
        guard let key = NameKey(name) else { return [] }
        var slot = fastSlot(key)
        for _ in 0..<fastTable.count {
            let entry = fastTable[slot]
            if entry.kind == nil { return [] }
            if entry.low == key.low && entry.high == key.high { return entry.kind ?? [] }
            slot = (slot + 1) & (fastTable.count - 1)
        }
        return []
    }

    private static func fastSlot(_ key: NameKey) -> Int {
        Int(truncatingIfNeeded: ((key.low ^ (key.high &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    private static let fastTable: [(low: UInt64, high: UInt64, kind: ElementKind?)] = {
        var table = [(low: UInt64, high: UInt64, kind: ElementKind?)](repeating: (0, 0, nil), count: 256)
        for (key, value) in byKey {
            var slot = fastSlot(key)
            while table[slot].kind != nil { slot = (slot + 1) & 255 }
            table[slot] = (key.low, key.high, value.kind)
        }
        return table
    }()

    /// The kind and the shared name string of a known element, looked up from its bytes.
    static func lookup(_ name: UnsafePointer<UInt8>) -> (kind: ElementKind, name: String)? {
        guard let key = NameKey(name) else { return nil }
        return byKey[key]
    }

    private static let byKey: [NameKey: (kind: ElementKind, name: String)] = {
        var result: [NameKey: (kind: ElementKind, name: String)] = [:]
        for (name, kind) in table { result[NameKey(name)] = (kind, name) }
        for name in ["span", "b", "i", "u", "strong", "em", "font", "small", "big", "sup", "sub", "o:p", "s"]
        {
            result[NameKey(name)] = ([], name)
        }
        return result
    }()

    private static let table: [String: ElementKind] = {
        var table: [String: ElementKind] = [:]
        for name in [
            "address", "article", "aside", "blockquote", "center", "dd", "details", "dialog", "dir", "div",
            "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr",
            "main", "nav", "ol", "section", "summary", "table", "tbody", "thead", "tfoot", "ul",
            "caption", "body", "html", "menu", "legend", "option",
        ] {
            table[name] = .block
        }
        for name in ["p", "h1", "h2", "h3", "h4", "h5", "h6"] { table[name] = [.block, .paragraph] }
        for name in ["style", "template", "noframes", "object", "embed", "iframe", "select", "svg", "math"] {
            table[name] = .skip
        }
        table["head"] = [.skip, .head]
        table["title"] = [.skip, .title]
        table["script"] = [.skip, .script]
        table["br"] = .lineBreak
        table["td"] = .cell
        table["th"] = .cell
        table["tr"] = [.row, .block]
        table["li"] = [.block, .listItem]
        table["a"] = .anchor
        table["area"] = .microdataAttribute
        table["img"] = [.image, .microdataAttribute]
        table["pre"] = [.block, .preformatted]
        table["textarea"] = [.block, .preformatted]
        for name in ["meta", "link", "time", "data", "meter", "audio", "video", "source", "track"] {
            table[name] = .microdataAttribute
        }
        return table
    }()
}
