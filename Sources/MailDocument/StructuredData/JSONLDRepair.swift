/// Reads JSON-LD as senders actually write it: strict JSON (RFC 8259) first, then the same
/// text with the usual breakage repaired.
///
/// Repairs, each reported: CDATA and HTML-comment wrappers; HTML entities (`&quot;`) where
/// the whole block was HTML-escaped; trailing commas; missing commas between members or
/// between objects (`}{`); several top-level values without the enclosing brackets;
/// unescaped control characters inside strings; `//` and `/* */` comments; single-quoted
/// strings; unquoted keys. Nesting deeper than ``maxDepth`` is refused.
public enum JSONLDRepair {
    /// Deepest nesting of objects and arrays read; deeper input fails.
    public static let maxDepth = 128

    /// One kind of damage that was repaired.
    public enum Repair: String, Sendable, Hashable, CaseIterable {
        case wrapper
        case htmlEntities
        case trailingComma
        case missingComma
        case bareList
        case controlCharacter
        case comment
        case singleQuotes
        case unquotedKey
    }

    /// The values read from one block, and what had to be repaired.
    public struct Result: Sendable, Hashable {
        /// Top-level values in order; a block holding one array gives that array as one value.
        public var values: [JSONValue]
        public var repairs: [Repair]
        /// Why nothing could be read, when ``values`` is empty.
        public var error: String?

        public init(values: [JSONValue], repairs: [Repair], error: String? = nil) {
            self.values = values
            self.repairs = repairs
            self.error = error
        }
    }

    /// Parses one JSON-LD block, repairing it as needed.
    ///
    /// - Parameter text: The contents of a `<script type="application/ld+json">` element.
    /// - Returns: The values and the repairs made; empty values and an error when even the
    ///   repaired text is not JSON.
    public static func parse(_ text: String) -> Result {
        var repairs: [Repair] = []
        var bytes = Array(text.utf8)
        if stripWrappers(&bytes) { repairs.append(.wrapper) }
        var reader = LenientJSONReader(bytes: bytes)
        var values = reader.readAll()
        if reader.failure != nil, bytes.contains(UInt8(ascii: "&")) {
            let decoded = Array(HTMLEntities.decode(String(decoding: bytes, as: UTF8.self)).utf8)
            var second = LenientJSONReader(bytes: decoded)
            let secondValues = second.readAll()
            if second.failure == nil {
                repairs.append(.htmlEntities)
                reader = second
                values = secondValues
            }
        }
        for repair in Repair.allCases where reader.repairs.contains(repair) && !repairs.contains(repair) {
            repairs.append(repair)
        }
        if let failure = reader.failure {
            return Result(values: [], repairs: repairs, error: failure)
        }
        return Result(values: values, repairs: repairs)
    }

    /// Removes `<![CDATA[ … ]]>` (also behind `//` or inside `/* */`) and `<!-- … -->` around
    /// the JSON; returns whether anything was removed.
    static func stripWrappers(_ bytes: inout [UInt8]) -> Bool {
        var text = String(decoding: bytes, as: UTF8.self)
        var changed = false
        let openers = ["/*<![CDATA[*/", "//<![CDATA[", "<![CDATA[", "<!--"]
        let closers = ["/*]]>*/", "//]]>", "]]>", "//-->", "-->"]
        var trimmed = text.trimmingSpaces()
        var stripping = true
        while stripping {
            stripping = false
            for opener in openers where trimmed.hasPrefix(opener) {
                trimmed = String(trimmed.dropFirst(opener.count)).trimmingSpaces()
                changed = true
                stripping = true
            }
            for closer in closers where trimmed.hasSuffix(closer) {
                trimmed = String(trimmed.dropLast(closer.count)).trimmingSpaces()
                changed = true
                stripping = true
            }
        }
        if changed {
            text = trimmed
            bytes = Array(text.utf8)
        }
        return changed
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}

/// A forgiving JSON reader over UTF-8 bytes; records what it had to forgive.
struct LenientJSONReader {
    let bytes: [UInt8]
    var index = 0
    var repairs: Set<JSONLDRepair.Repair> = []
    var failure: String?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads every top-level value. Several values (`{…}{…}` or `{…},{…}`) are a bare list.
    mutating func readAll() -> [JSONValue] {
        var values: [JSONValue] = []
        var sawComma = false
        while failure == nil {
            skipSpaceAndComments()
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";") {
                sawComma = true
                index += 1
                continue
            }
            guard let value = readValue(depth: 0) else { break }
            values.append(value)
        }
        if failure != nil && !values.isEmpty {
            // Keep what was read before the damage.
            failure = nil
        }
        if values.count > 1 { repairs.insert(sawComma ? .bareList : .missingComma) }
        if values.isEmpty && failure == nil { failure = "no JSON value" }
        return values
    }

    private mutating func fail(_ message: String) -> JSONValue? {
        if failure == nil { failure = "\(message) at byte \(index)" }
        return nil
    }

    mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                index += 1
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                index += 2
            } else if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBB,
                bytes[index + 2] == 0xBF
            {
                index += 3
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "/")
            {
                repairs.insert(.comment)
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "*")
            {
                repairs.insert(.comment)
                index += 2
                while index + 1 < bytes.count,
                    !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(bytes.count, index + 2)
            } else {
                return
            }
        }
    }

    mutating func readValue(depth: Int) -> JSONValue? {
        guard depth < JSONLDRepair.maxDepth else { return fail("nesting too deep") }
        skipSpaceAndComments()
        guard index < bytes.count else { return fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return readObject(depth: depth)
        case UInt8(ascii: "["): return readArray(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return readString().map { .string($0) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."): return readNumber()
        default:
            let word = readBareWord()
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: return fail("unexpected character")
            }
        }
    }

    private mutating func readObject(depth: Int) -> JSONValue? {
        index += 1
        var object: [String: JSONValue] = [:]
        var expectingMember = true
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { return fail("unterminated object") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            if byte == UInt8(ascii: ",") {
                index += 1
                skipSpaceAndComments()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") || bytes[index] == UInt8(ascii: ",")
                {
                    repairs.insert(.trailingComma)
                }
                expectingMember = true
                continue
            }
            if !expectingMember { repairs.insert(.missingComma) }
            let key: String
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let read = readString() else { return nil }
                key = read
            } else {
                key = readBareWord()
                guard !key.isEmpty else { return fail("expected a key") }
                repairs.insert(.unquotedKey)
            }
            skipSpaceAndComments()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return fail("expected ':'") }
            index += 1
            guard let value = readValue(depth: depth + 1) else { return nil }
            object[key] = value
            expectingMember = false
        }
    }

    private mutating func readArray(depth: Int) -> JSONValue? {
        index += 1
        var array: [JSONValue] = []
        var expectingElement = true
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { return fail("unterminated array") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") {
                index += 1
                return .array(array)
            }
            if byte == UInt8(ascii: ",") {
                index += 1
                skipSpaceAndComments()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") || bytes[index] == UInt8(ascii: ",")
                {
                    repairs.insert(.trailingComma)
                }
                expectingElement = true
                continue
            }
            if !expectingElement { repairs.insert(.missingComma) }
            guard let value = readValue(depth: depth + 1) else { return nil }
            array.append(value)
            expectingElement = false
        }
    }

    private mutating func readString() -> String? {
        let quote = bytes[index]
        if quote == UInt8(ascii: "'") { repairs.insert(.singleQuotes) }
        index += 1
        var output: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: output, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = readHex4() else {
                        _ = fail("bad \\u escape")
                        return nil
                    }
                    if scalar >= 0xD800 && scalar < 0xDC00, index + 1 < bytes.count,
                        bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        if let low = readHex4(), low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    output.append(contentsOf: Array(String(Character(character)).utf8))
                default: output.append(escaped)  // \" \\ \/ and anything else literally
                }
                continue
            }
            if byte < 0x20 {
                repairs.insert(.controlCharacter)
                output.append(byte == 0x09 ? 0x09 : 0x20)
                index += 1
                continue
            }
            output.append(byte)
            index += 1
        }
        _ = fail("unterminated string")
        return nil
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func readNumber() -> JSONValue? {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isNumberByte =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
            guard isNumberByte else { break }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text) else { return fail("bad number") }
        return .number(number)
    }

    private mutating func readBareWord() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isWordByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "$")
            guard isWordByte else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
