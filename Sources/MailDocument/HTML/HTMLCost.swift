import Foundation

/// An estimate, made in one linear pass before parsing, of the work libxml2's HTML parser
/// (2.9.14) does on a part and of the size of the tree it builds.
///
/// Work. libxml2 looks for the element an end tag closes by searching its stack of open
/// elements from the top (`htmlParseEndTag`, `htmlAutoCloseOnClose`): closing the top element
/// costs one step, an end tag whose element is not open costs the whole depth, and so does
/// an end tag stopped by an element of higher end priority (`</b>` under an open `<div>`),
/// which closes nothing. Each `<body>` start tag searches the whole stack for an open body.
/// Each attribute of a start tag is compared with every earlier attribute of the same tag
/// (`htmlParseStartTag`), so a tag with n attributes costs n × (n − 1) / 2 steps. Hostile HTML
/// makes this quadratic: a million nested `<div>`s followed by thousands of stray `</a>`
/// (minutes for one 11 MB part), or one `<div>` with 500,000 attributes (more than five
/// minutes for a 5 MB email). This pass follows tags with a stack of name hashes and counts
/// the same steps. Ordinary email costs a few steps per tag.
///
/// Size. Every node of the tree comes from a start tag, an attribute, a comment or a
/// processing instruction, or is a text node after one of them or after an end tag; an end
/// tag of an element that is not open can also make libxml2 open an implied `<p>` for the text
/// after it. So the pass counts start tags, attributes, comments, processing instructions and
/// the end tags that close nothing on its stack as nodes: the tree has at most about twice as
/// many, at a few hundred bytes each in libxml2 and in the renderer.
///
/// The pass reads markup the way libxml2 does where that decides what is markup: script and
/// style contents are text up to `</script` or `</style` (title, textarea and xmp contents
/// are markup in libxml2), comments end at `-->` or `--!>`, processing instructions at the
/// first `>`, and quoted attribute values may hold `>`. Elements libxml2 treats as empty
/// (`br`, `img`, …) are not pushed; `wbr`, `source`, `embed` and other unknown elements are.
/// `html`, `head` and `body` are never pushed and their end tags never pop, so the simulated
/// stack is never shallower than libxml2's by more than those three.
enum HTMLCost {
    /// Which budget a part passes.
    enum Reason: Hashable, Sendable {
        /// The estimated parser steps (see ``HTMLCost``).
        case parserSteps
        /// The estimated tree nodes (see ``HTMLCost``).
        case nodes
    }

    /// Where to cut a part and why.
    struct Cut: Hashable, Sendable {
        /// Byte offset of the `<` of the tag, comment or processing instruction at which a
        /// budget is passed; everything before it is kept.
        var offset: Int
        var reason: Reason
    }

    /// The byte offset of the tag at which the estimated parser steps pass `budget`, or nil
    /// when the whole input stays within it; see ``cut(_:maxSteps:maxNodes:)``.
    static func cutOffset(_ bytes: [UInt8], budget: Int) -> Int? {
        cut(bytes, maxSteps: budget, maxNodes: .max)?.offset
    }

    /// Where the estimated parser steps pass `maxSteps` or the estimated tree nodes pass
    /// `maxNodes`, whichever comes first, or nil when the whole input stays within both.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 bytes handed to libxml2.
    ///   - maxSteps: Budget of element-stack and attribute-comparison steps.
    ///   - maxNodes: Budget of start tags, attributes, comments, processing instructions and
    ///     end tags that close nothing, each counted once.
    /// - Returns: The offset of the markup at which a budget is passed; when both are passed
    ///   there, ``Reason/parserSteps``.
    static func cut(_ bytes: [UInt8], maxSteps: Int, maxNodes: Int) -> Cut? {
        guard mayPass(byteCount: bytes.count, maxSteps: maxSteps, maxNodes: maxNodes) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var scan = Scan(bytes: buffer, maxSteps: maxSteps, maxNodes: maxNodes)
            return scan.run()
        }
    }

    /// Whether input of `byteCount` bytes could pass a budget at all, so short parts are not
    /// scanned.
    ///
    /// A tag takes at least three bytes and costs at most one step plus the depth, so t tags
    /// cost at most t × (t + 1); an attribute takes at least two bytes (its name and a blank
    /// or a closing quote before it), so the a attributes of all tags add at most a² / 2
    /// comparisons; every node counted takes at least two bytes.
    static func mayPass(byteCount: Int, maxSteps: Int, maxNodes: Int) -> Bool {
        if byteCount / 2 > maxNodes { return true }
        let tags = byteCount / 3
        let attributes = byteCount / 2
        let (tagSteps, overflow1) = tags.multipliedReportingOverflow(by: tags + 1)
        let (pairs, overflow2) = attributes.multipliedReportingOverflow(by: attributes)
        let (bound, overflow3) = tagSteps.addingReportingOverflow(pairs / 2)
        return overflow1 || overflow2 || overflow3 || bound > maxSteps
    }

    /// Elements libxml2 2.9.14 closes at once (`empty` in its element table).
    fileprivate static let emptyElements: Set<UInt64> = Set(
        [
            "area", "base", "basefont", "br", "col", "frame", "hr", "img", "input", "isindex", "link",
            "meta", "param",
        ].map(hash))
    /// End priorities of `htmlAutoCloseOnClose`: an end tag closes nothing when an element
    /// of higher priority is open above the one it names. Others have 100.
    fileprivate static let endPriorities: [UInt64: Int] = Dictionary(
        uniqueKeysWithValues: [
            ("div", 150), ("td", 160), ("th", 160), ("tr", 170), ("thead", 180), ("tbody", 180),
            ("tfoot", 180), ("table", 190),
        ].map { (hash($0.0), $0.1) })
    /// Elements whose content libxml2 reads as text, with the end-tag prefix that ends it.
    fileprivate static let rawTextElements: [UInt64: [UInt8]] = Dictionary(
        uniqueKeysWithValues: ["script", "style"].map { (hash($0), Array("</\($0)".utf8)) })
    fileprivate static let html = hash("html")
    fileprivate static let head = hash("head")
    fileprivate static let body = hash("body")

    private static func hash(_ name: String) -> UInt64 {
        Array(name.utf8).withUnsafeBufferPointer { hash($0[...]) }
    }

    /// FNV-1a over the lower-cased name.
    fileprivate static func hash(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            value ^= UInt64(lowercased(byte))
            value = value &* 0x100_0000_01b3
        }
        return value
    }

    fileprivate static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

/// The state of one pass of ``HTMLCost/cut(_:maxSteps:maxNodes:)``.
private struct Scan {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxSteps: Int
    let maxNodes: Int
    /// Name hashes of the open elements, innermost last.
    var stack: [UInt64] = []
    /// How many elements of each name are on ``stack``.
    var open: [UInt64: Int] = [:]
    var steps = 0
    var nodes = 0

    /// libxml2 reads at most this many bytes of a tag or attribute name
    /// (`HTML_PARSER_BUFFER_SIZE`); the rest of a longer attribute name is another attribute.
    static let maxNameLength = 100

    init(bytes: UnsafeBufferPointer<UInt8>, maxSteps: Int, maxNodes: Int) {
        self.bytes = bytes
        self.maxSteps = maxSteps
        self.maxNodes = maxNodes
    }

    mutating func run() -> HTMLCost.Cut? {
        let count = bytes.count
        var index = 0
        while index < count {
            if let top = stack.last, let endTag = HTMLCost.rawTextElements[top] {
                guard let end = find(endTag, from: index) else { return nil }
                index = end
            }
            guard let lessThan = find(UInt8(ascii: "<"), from: index), lessThan + 1 < count else {
                return nil
            }
            let next = bytes[lessThan + 1]
            let after: Int?
            if next == UInt8(ascii: "/") {
                after = endTag(at: lessThan)
            } else if isLetter(next) {
                after = startTag(at: lessThan)
            } else if next == UInt8(ascii: "!"), lessThan + 3 < count,
                bytes[lessThan + 2] == UInt8(ascii: "-"),
                bytes[lessThan + 3] == UInt8(ascii: "-")
            {
                nodes += 1
                after = commentEnd(from: lessThan + 4)
            } else if next == UInt8(ascii: "?"), lessThan + 2 < count, isInstructionStart(bytes[lessThan + 2])
            {
                nodes += 1
                after = find(UInt8(ascii: ">"), from: lessThan + 2).map { $0 + 1 }
            } else {
                // Not markup: libxml2 reads the `<` as text.
                after = lessThan + 1
            }
            if steps > maxSteps { return HTMLCost.Cut(offset: lessThan, reason: .parserSteps) }
            if nodes > maxNodes { return HTMLCost.Cut(offset: lessThan, reason: .nodes) }
            guard let after else { return nil }
            index = after
        }
        return nil
    }

    /// Counts a start tag at `lessThan` (`<` and a letter); returns the index after it, or
    /// nil when it runs to the end of the input.
    private mutating func startTag(at lessThan: Int) -> Int? {
        let count = bytes.count
        var cursor = lessThan + 1
        let nameStart = cursor
        while cursor < count, cursor - nameStart < Self.maxNameLength, isNameByte(bytes[cursor]) {
            cursor += 1
        }
        let name = HTMLCost.hash(bytes[nameStart..<cursor])
        var attributes = 0
        var selfClosing = false
        var end: Int?
        while true {
            while cursor < count, isBlank(bytes[cursor]) { cursor += 1 }
            guard cursor < count else { break }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ">") {
                end = cursor + 1
                break
            }
            if byte == UInt8(ascii: "/"), cursor + 1 < count, bytes[cursor + 1] == UInt8(ascii: ">") {
                selfClosing = true
                end = cursor + 2
                break
            }
            guard isNameStart(byte) else {
                // A bogus attribute: libxml2 skips to a blank or the end of the tag.
                while cursor < count, !isBlank(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
                    !(bytes[cursor] == UInt8(ascii: "/") && cursor + 1 < count
                        && bytes[cursor + 1] == UInt8(ascii: ">"))
                {
                    cursor += 1
                }
                continue
            }
            attributes += 1
            let attributeStart = cursor
            while cursor < count, cursor - attributeStart < Self.maxNameLength, isNameByte(bytes[cursor]) {
                cursor += 1
            }
            while cursor < count, isBlank(bytes[cursor]) { cursor += 1 }
            guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < count, isBlank(bytes[cursor]) { cursor += 1 }
            guard cursor < count else { break }
            let quote = bytes[cursor]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                // A quoted value runs to its closing quote, `>` included, or to the end.
                guard let close = find(quote, from: cursor + 1) else { break }
                cursor = close + 1
            } else {
                while cursor < count, !isBlank(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") {
                    cursor += 1
                }
            }
        }
        nodes += 1 + attributes
        steps += 1 + attributes * (attributes - 1) / 2
        if name == HTMLCost.body {
            steps += stack.count
        } else if name != HTMLCost.html && name != HTMLCost.head && !selfClosing
            && !HTMLCost.emptyElements.contains(name)
        {
            stack.append(name)
            open[name, default: 0] += 1
        }
        return end
    }

    /// Counts an end tag at `lessThan` (`</`); returns the index after it, or nil when it
    /// runs to the end of the input.
    private mutating func endTag(at lessThan: Int) -> Int? {
        let count = bytes.count
        var cursor = lessThan + 2
        // Without a name libxml2 drops the `</` and reads on as text.
        guard cursor < count, isNameStart(bytes[cursor]) else { return lessThan + 2 }
        let nameStart = cursor
        while cursor < count, cursor - nameStart < Self.maxNameLength, isNameByte(bytes[cursor]) {
            cursor += 1
        }
        let name = HTMLCost.hash(bytes[nameStart..<cursor])
        // html, head and body are never on the stack: their end tags search it all.
        if let depth = open[name], depth > 0 {
            let priority = HTMLCost.endPriorities[name] ?? 100
            var position = stack.count - 1
            var blocked = false
            while stack[position] != name {
                if (HTMLCost.endPriorities[stack[position]] ?? 100) > priority { blocked = true }
                position -= 1
            }
            steps += stack.count - position
            if blocked {
                nodes += 1
            } else {
                for closed in stack[position...] { open[closed, default: 1] -= 1 }
                stack.removeSubrange(position...)
            }
        } else {
            steps += stack.count + 1
            nodes += 1
        }
        return find(UInt8(ascii: ">"), from: cursor).map { $0 + 1 }
    }

    /// The index after the `-->` or `--!>` that ends a comment whose text starts at `start`.
    private func commentEnd(from start: Int) -> Int? {
        var index = start
        while let dash = find(UInt8(ascii: "-"), from: index) {
            let count = bytes.count
            if dash + 2 < count, bytes[dash + 1] == UInt8(ascii: "-") {
                if bytes[dash + 2] == UInt8(ascii: ">") { return dash + 3 }
                if dash + 3 < count, bytes[dash + 2] == UInt8(ascii: "!"),
                    bytes[dash + 3] == UInt8(ascii: ">")
                {
                    return dash + 4
                }
            }
            index = dash + 1
        }
        return nil
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// The index of the next occurrence of `pattern` (ASCII, lower case) from `start`,
    /// compared without case.
    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        var index = start
        let count = bytes.count
        while let lessThan = find(pattern[0], from: index) {
            guard count - lessThan >= pattern.count else { return nil }
            var matched = true
            for offset in 1..<pattern.count
            where HTMLCost.lowercased(bytes[lessThan + offset]) != pattern[offset] {
                matched = false
                break
            }
            if matched { return lessThan }
            index = lessThan + 1
        }
        return nil
    }

    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// The first byte of a name libxml2's `htmlParseHTMLName` accepts.
    private func isNameStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }

    /// The first byte of a processing instruction's target (a letter, `_`, `:` or non-ASCII).
    private func isInstructionStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
