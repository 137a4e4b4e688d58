import Foundation

/// Finds where a JSON5 text stops being valid, for error messages: Foundation's decoder
/// reports JSON5 syntax errors without a position.
///
/// JSON5 §2 (objects with identifier keys and trailing commas, single-quoted strings,
/// comments, hexadecimal and signed numbers, `Infinity`, `NaN`).
struct JSON5Syntax {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// The 1-based line and the reason of the first syntax error, or nil when the text is valid.
    static func firstError(in data: Data) -> (line: Int, reason: String)? {
        var scanner = JSON5Syntax(bytes: Array(data))
        do throws(SyntaxError) {
            try scanner.skipSpace()
            try scanner.value()
            try scanner.skipSpace()
            if scanner.index < scanner.bytes.count {
                throw SyntaxError(reason: "unexpected text after the value")
            }
            return nil
        } catch {
            return (scanner.line, error.reason)
        }
    }

    private struct SyntaxError: Error {
        let reason: String
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var line: Int {
        bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func character(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the file" }
        return byte < 0x80 ? "'\(Character(UnicodeScalar(byte)))'" : "a non-ASCII character"
    }

    private mutating func skipSpace() throws(SyntaxError) {
        while let byte = current {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == 0xEF && index + 2 < bytes.count && bytes[index + 1] == 0xBB {
                index += 3
            } else if byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0 {
                index += 2
            } else if byte == 0x2F && index + 1 < bytes.count && bytes[index + 1] == 0x2F {
                while let next = current, next != 0x0A { index += 1 }
            } else if byte == 0x2F && index + 1 < bytes.count && bytes[index + 1] == 0x2A {
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) {
                    index += 1
                }
                guard index + 1 < bytes.count else { throw SyntaxError(reason: "unclosed comment") }
                index += 2
            } else {
                return
            }
        }
    }

    private mutating func value() throws(SyntaxError) {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { throw SyntaxError(reason: "nested too deeply") }
        switch current {
        case 0x7B: try object()
        case 0x5B: try array()
        case 0x22, 0x27: try string()
        case .some(let byte)
        where byte == 0x2D || byte == 0x2B || byte == 0x2E || (0x30...0x39).contains(byte):
            try number()
        case .some(let byte) where isIdentifierStart(byte):
            let word = identifier()
            guard ["true", "false", "null", "Infinity", "NaN"].contains(word) else {
                throw SyntaxError(reason: "unexpected word '\(word)' (strings need quotes)")
            }
        default:
            throw SyntaxError(reason: "expected a value, found \(character(current))")
        }
    }

    private mutating func object() throws(SyntaxError) {
        index += 1
        try skipSpace()
        while current != 0x7D {
            if current == 0x22 || current == 0x27 {
                try string()
            } else if let byte = current, isIdentifierStart(byte) {
                _ = identifier()
            } else {
                throw SyntaxError(reason: "expected a key or '}', found \(character(current))")
            }
            try skipSpace()
            guard current == 0x3A else {
                throw SyntaxError(reason: "expected ':' after a key, found \(character(current))")
            }
            index += 1
            try skipSpace()
            try value()
            try skipSpace()
            if current == 0x2C {
                index += 1
                try skipSpace()
            } else if current != 0x7D {
                throw SyntaxError(reason: "expected ',' or '}', found \(character(current))")
            }
        }
        index += 1
    }

    private mutating func array() throws(SyntaxError) {
        index += 1
        try skipSpace()
        while current != 0x5D {
            try value()
            try skipSpace()
            if current == 0x2C {
                index += 1
                try skipSpace()
            } else if current != 0x5D {
                throw SyntaxError(reason: "expected ',' or ']', found \(character(current))")
            }
        }
        index += 1
    }

    private mutating func string() throws(SyntaxError) {
        guard let quote = current else { return }
        index += 1
        while let byte = current {
            index += 1
            if byte == 0x5C {
                index += 1
            } else if byte == quote {
                return
            } else if byte == 0x0A {
                throw SyntaxError(reason: "line break inside a string")
            }
        }
        throw SyntaxError(reason: "unclosed string")
    }

    private mutating func number() throws(SyntaxError) {
        if current == 0x2D || current == 0x2B { index += 1 }
        if let byte = current, isIdentifierStart(byte) {
            let word = identifier()
            guard word == "Infinity" || word == "NaN" else { throw SyntaxError(reason: "bad number") }
            return
        }
        let start = index
        while let byte = current,
            (0x30...0x39).contains(byte) || byte == 0x2E || byte == 0x65 || byte == 0x45 || byte == 0x78
                || byte == 0x58 || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
                || ((byte == 0x2D || byte == 0x2B) && index > start && (bytes[index - 1] | 0x20) == 0x65)
        {
            index += 1
        }
        guard index > start else { throw SyntaxError(reason: "bad number") }
    }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x24
            || byte >= 0x80
    }

    private mutating func identifier() -> String {
        let start = index
        while let byte = current, isIdentifierStart(byte) || (0x30...0x39).contains(byte) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
