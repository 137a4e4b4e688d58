import Foundation

/// Address lists (RFC 5322 §3.4, obsolete forms §4.4): tokenized first, decoded second,
/// so an encoded comma inside a display name is never a separator.
enum AddressParser {
    private enum Token {
        case atom([UInt8])  // also an encoded-word, kept whole
        case quoted([UInt8])
        case comment([UInt8])
        case special(UInt8)
    }

    private struct Item {
        var token: Token
        var spaceBefore: Bool
    }

    /// Parses an address-list field body into mailboxes; group members carry their
    /// group's name.
    static func parse(_ bytes: [UInt8]) -> [MailAddress] {
        let tokens = tokenize(bytes)
        var result: [MailAddress] = []
        var group: String?
        var current: [Item] = []
        var angleDepth = 0

        func finish() {
            let hasAngle = current.contains { isSpecial($0.token, "<") }
            let words =
                hasAngle
                ? [] : bareWords(current.filter { if case .comment = $0.token { false } else { true } })
            let addressWords = words.filter { word in word.contains { isSpecial($0.token, "@") } }
            if addressWords.count > 1
                && words.allSatisfy({ word in word.contains { isSpecial($0.token, "@") } })
            {
                // `a@example.com b@example.com`: a missing comma.
                for word in addressWords { result.append(MailAddress(address: addrSpec(word), group: group)) }
            } else if let mailbox = mailbox(from: current, group: group) {
                result.append(mailbox)
            }
            current.removeAll()
        }

        for item in tokens {
            if case .special(let byte) = item.token {
                switch byte {
                case UInt8(ascii: "<"):
                    angleDepth += 1
                case UInt8(ascii: ">"):
                    angleDepth = max(0, angleDepth - 1)
                case UInt8(ascii: ","):
                    if angleDepth == 0 {
                        finish()
                        continue
                    }
                case UInt8(ascii: ":"):
                    if angleDepth == 0 && group == nil
                        && !current.contains(where: { isSpecial($0.token, "@") })
                    {
                        let name = phrase(current)
                        group = name
                        current.removeAll()
                        continue
                    }
                case UInt8(ascii: ";"):
                    if angleDepth == 0 {
                        finish()
                        group = nil
                        continue
                    }
                default:
                    break
                }
            }
            current.append(item)
        }
        finish()
        return result
    }

    private static func isSpecial(_ token: Token, _ character: Unicode.Scalar) -> Bool {
        if case .special(let byte) = token { return byte == UInt8(ascii: character) }
        return false
    }

    private static func mailbox(from items: [Item], group: String?) -> MailAddress? {
        guard !items.isEmpty else { return nil }
        if let open = items.firstIndex(where: { isSpecial($0.token, "<") }) {
            let close =
                items[(open + 1)...].firstIndex(where: { isSpecial($0.token, ">") }) ?? items.endIndex
            var inner = Array(items[(open + 1)..<close])
            // Obsolete route: `@a,@b:` before the addr-spec (RFC 5322 §4.4).
            if let colon = inner.firstIndex(where: { isSpecial($0.token, ":") }),
                inner.first.map({ isSpecial($0.token, "@") }) == true
            {
                inner = Array(inner[(colon + 1)...])
            }
            let address = addrSpec(inner)
            var nameItems = Array(items[..<open])
            if nameItems.isEmpty {
                // A trailing comment names the mailbox in the old style.
                nameItems = items[close...].filter {
                    if case .comment = $0.token { return true }
                    return false
                }
            }
            var name = phrase(nameItems)
            if name.isEmpty {
                name = commentText(Array(items[..<open]))
            }
            if address.isEmpty && name.isEmpty { return nil }
            return MailAddress(name: name.isEmpty ? nil : name, address: address, group: group)
        }
        let specItems = items.filter {
            if case .comment = $0.token { return false }
            return true
        }
        let name = commentText(items)
        let words = bareWords(specItems)
        let addressWords = words.filter { word in word.contains { isSpecial($0.token, "@") } }
        if addressWords.isEmpty {
            // `To: John` names a local mailbox; `To: Mary Smith` names nobody.
            guard words.count == 1 else { return nil }
            let address = addrSpec(words[0])
            return address.isEmpty
                ? nil : MailAddress(name: name.isEmpty ? nil : name, address: address, group: group)
        }
        if addressWords.count == 1, let last = words.last, last.contains(where: { isSpecial($0.token, "@") }),
            words.count > 1, name.isEmpty
        {
            // `Big Bug bb@bug.com`: the words before a bare address are its display name.
            let display = phrase(Array(words.dropLast().joined()))
            return MailAddress(name: display.isEmpty ? nil : display, address: addrSpec(last), group: group)
        }
        // The first of several blank-separated addresses; the others follow as their own.
        let address = addrSpec(addressWords[0])
        return MailAddress(name: name.isEmpty ? nil : name, address: address, group: group)
    }

    private static func startsWithDot(_ token: Token) -> Bool {
        if case .atom(let bytes) = token { return bytes.first == UInt8(ascii: ".") }
        return false
    }

    private static func endsWithDot(_ token: Token) -> Bool {
        if case .atom(let bytes) = token { return bytes.last == UInt8(ascii: ".") }
        return false
    }

    /// Groups tokens into blank-separated words, keeping `@` with its neighbours
    /// (`john @ example.com` is one word, RFC 5322 §4.4).
    private static func bareWords(_ items: [Item]) -> [[Item]] {
        var words: [[Item]] = []
        for item in items {
            let joinsPrevious =
                !item.spaceBefore || isSpecial(item.token, "@") || startsWithDot(item.token)
                || (words.last?.last.map { isSpecial($0.token, "@") || endsWithDot($0.token) } ?? false)
            if joinsPrevious, !words.isEmpty {
                words[words.count - 1].append(item)
            } else {
                words.append([item])
            }
        }
        return words
    }

    /// The addr-spec text: atoms, quoted local parts (kept quoted when needed) and `@`/`.`,
    /// with blanks and comments dropped.
    private static func addrSpec(_ items: [Item]) -> String {
        var output: [UInt8] = []
        for item in items {
            switch item.token {
            case .atom(let bytes): output += bytes
            case .quoted(let bytes):
                if bytes.contains(where: {
                    $0 == 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
                }) {
                    output.append(UInt8(ascii: "\""))
                    for byte in bytes {
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                            output.append(UInt8(ascii: "\\"))
                        }
                        output.append(byte)
                    }
                    output.append(UInt8(ascii: "\""))
                } else {
                    output += bytes
                }
            case .special(let byte):
                if byte == UInt8(ascii: "@") || byte == UInt8(ascii: ".") { output.append(byte) }
            case .comment: break
            }
        }
        return Charsets.decodeRawHeader(output).text
    }

    /// A display name: words joined by single spaces where the source had blanks, then
    /// RFC 2047-decoded (encoded-words inside quotes too, as mainstream clients do).
    private static func phrase(_ items: [Item]) -> String {
        var output: [UInt8] = []
        for item in items {
            let bytes: [UInt8]
            switch item.token {
            case .atom(let atom): bytes = atom
            case .quoted(let quoted): bytes = quoted
            case .special(let byte):
                bytes = [byte]
            case .comment: continue
            }
            if !output.isEmpty && item.spaceBefore { output.append(0x20) }
            output += bytes
        }
        let decoded = EncodedWords.decode(output)
        return ASCII.trimmingWhitespace(decoded)
    }

    private static func commentText(_ items: [Item]) -> String {
        for item in items {
            if case .comment(let bytes) = item.token {
                let text = ASCII.trimmingWhitespace(EncodedWords.decode(bytes))
                if !text.isEmpty { return text }
            }
        }
        return ""
    }

    private static func tokenize(_ bytes: [UInt8]) -> [Item] {
        var items: [Item] = []
        var index = 0
        var space = false
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0A:
                space = true
                index += 1
                continue
            case UInt8(ascii: "\""):
                var value: [UInt8] = []
                index += 1
                while index < count && bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") && index + 1 < count { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                index += 1
                items.append(Item(token: .quoted(value), spaceBefore: space))
            case UInt8(ascii: "("):
                var depth = 0
                var value: [UInt8] = []
                while index < count {
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\\") && index + 1 < count {
                        value.append(bytes[index + 1])
                        index += 2
                        continue
                    }
                    if inner == UInt8(ascii: "(") {
                        depth += 1
                        if depth > 1 { value.append(inner) }
                    } else if inner == UInt8(ascii: ")") {
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            break
                        }
                        value.append(inner)
                    } else {
                        value.append(inner)
                    }
                    index += 1
                }
                items.append(Item(token: .comment(value), spaceBefore: space))
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: ";"),
                UInt8(ascii: "@"):
                items.append(Item(token: .special(byte), spaceBefore: space))
                index += 1
            default:
                if byte == UInt8(ascii: "="), index + 1 < count, bytes[index + 1] == UInt8(ascii: "?"),
                    case .word(_, _, let end) = EncodedWords.parseWord(bytes, at: index)
                {
                    // Keep the whole encoded-word as one atom, whatever it holds.
                    var atomEnd = end
                    while atomEnd < count && !isDelimiter(bytes[atomEnd]) { atomEnd += 1 }
                    items.append(Item(token: .atom(Array(bytes[index..<atomEnd])), spaceBefore: space))
                    index = atomEnd
                    break
                }
                let start = index
                while index < count && !isDelimiter(bytes[index]) {
                    if bytes[index] == UInt8(ascii: "="), index + 1 < count,
                        bytes[index + 1] == UInt8(ascii: "?"),
                        index > start
                    {
                        break
                    }
                    index += 1
                }
                if index == start { index += 1 }
                items.append(Item(token: .atom(Array(bytes[start..<index])), spaceBefore: space))
            }
            space = false
        }
        return items
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "\""), UInt8(ascii: "("), UInt8(ascii: "<"),
            UInt8(ascii: ">"),
            UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
