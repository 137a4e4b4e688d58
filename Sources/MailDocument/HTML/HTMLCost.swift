/// An estimate of the work libxml2's HTML parser (2.9) does on its stack of open elements,
/// made in one linear pass before parsing.
///
/// libxml2 looks for the element an end tag closes by searching its stack of open elements
/// from the top (`htmlAutoCloseOnClose`): closing the top element costs one step, an end tag
/// whose element is not open at all costs the whole depth. Hostile HTML — a million nested
/// `<div>`s followed by thousands of stray `</a>` — makes that quadratic (minutes for one
/// 11 MB part). This pass follows start and end tags with a stack of name hashes and counts
/// the same steps, so the renderer can cut the HTML where the parse would become
/// unreasonable. Ordinary email costs a few steps per tag.
enum HTMLCost {
    /// Elements without end tags (HTML 4 and HTML living standard void elements).
    private static let voidElements: Set<UInt64> = Set(
        [
            "area", "base", "basefont", "br", "col", "embed", "frame", "hr", "img", "input", "isindex",
            "keygen",
            "link", "meta", "param", "source", "track", "wbr",
        ].map { hash(Array($0.utf8)[...]) })
    private static let rawTextElements: [(UInt64, [UInt8])] = ["script", "style", "textarea", "title", "xmp"]
        .map {
            (hash(Array($0.utf8)[...]), Array("</\($0)".utf8))
        }

    /// The byte offset of the tag at which the estimated parser steps pass `budget`, or nil
    /// when the whole input stays within it.
    static func cutOffset(_ bytes: [UInt8], budget: Int) -> Int? {
        // A tag takes at least three bytes and costs at most one step plus the depth, so input
        // with n tags cannot cost more than n × (n + 1): short parts are not scanned at all.
        let maxTags = bytes.count / 3
        let (bound, overflow) = maxTags.multipliedReportingOverflow(by: maxTags + 1)
        if !overflow && bound <= budget { return nil }
        var stack: [UInt64] = []
        var open: [UInt64: Int] = [:]
        var steps = 0
        var index = 0
        let count = bytes.count
        while index < count {
            guard let lessThan = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
            var cursor = lessThan + 1
            guard cursor < count else { return nil }
            let closing = bytes[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < count, isNameByte(bytes[cursor]) { cursor += 1 }
            guard cursor > nameStart, isLetter(bytes[nameStart]) else {
                index = lessThan + 1
                continue
            }
            let name = hash(bytes[nameStart..<cursor])
            guard let greaterThan = bytes[cursor...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            index = greaterThan + 1
            if closing {
                if let depth = open[name], depth > 0 {
                    while let top = stack.popLast() {
                        steps += 1
                        open[top, default: 1] -= 1
                        if top == name { break }
                    }
                } else {
                    steps += stack.count + 1
                }
            } else {
                steps += 1
                let selfClosing = bytes[greaterThan - 1] == UInt8(ascii: "/")
                if !selfClosing && !voidElements.contains(name) {
                    stack.append(name)
                    open[name, default: 0] += 1
                }
                if let raw = rawTextElements.first(where: { $0.0 == name }) {
                    // Script and style content is not markup: skip to its end tag.
                    index = endOfRawText(bytes, from: index, endTag: raw.1)
                }
            }
            if steps > budget { return lessThan }
        }
        return nil
    }

    private static func endOfRawText(_ bytes: [UInt8], from start: Int, endTag: [UInt8]) -> Int {
        var index = start
        while let lessThan = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            if bytes.count - lessThan >= endTag.count,
                zip(bytes[lessThan..<lessThan + endTag.count], endTag).allSatisfy({ lowercased($0) == $1 })
            {
                return lessThan
            }
            index = lessThan + 1
        }
        return bytes.count
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ":")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// FNV-1a over the lower-cased name.
    private static func hash(_ name: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            value ^= UInt64(lowercased(byte))
            value = value &* 0x100_0000_01b3
        }
        return value
    }
}
