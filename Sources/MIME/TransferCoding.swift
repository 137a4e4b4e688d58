import Foundation

/// Content-Transfer-Encoding decoders (RFC 2045 §6) and the Q encoding (RFC 2047 §4.2).
enum TransferCoding {
    private static let base64Table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        // The URL-safe alphabet shows up in broken mailers; accept it too.
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    private static let hexTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in Array("0123456789ABCDEF".utf8).enumerated() {
            table[Int(character)] = UInt8(value)
        }
        for (value, character) in Array("abcdef".utf8).enumerated() {
            table[Int(character)] = UInt8(value + 10)
        }
        return table
    }()

    /// Decodes base64 (RFC 2045 §6.8), skipping whitespace and any byte outside the
    /// alphabet; padding is optional, a trailing partial group is dropped, and text after
    /// `=` padding on the same line is ignored (a new line starts a new encoded run).
    static func decodeBase64(_ input: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4 + 3)
        base64Table.withUnsafeBufferPointer { table in
            var accumulator: UInt32 = 0
            var bits = 0
            var padded = false
            let decodeByte = { (byte: UInt8) in
                let value = table[Int(byte)]
                if value == 0xFF {
                    if byte == UInt8(ascii: "=") {
                        padded = true
                        bits = 0
                        accumulator = 0
                    } else if byte == 0x0A {
                        padded = false
                    }
                    return
                }
                if padded { return }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
            let handled: Void? = input.withContiguousStorageIfAvailable { buffer in
                for byte in buffer { decodeByte(byte) }
            }
            if handled == nil {
                for byte in input { decodeByte(byte) }
            }
        }
        return output
    }

    /// Decodes quoted-printable (RFC 2045 §6.7): soft line breaks removed, upper- and
    /// lower-case hex accepted, invalid `=` sequences kept as they are, trailing blanks
    /// of each encoded line dropped.
    static func decodeQuotedPrintable(_ input: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(input)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        hexTable.withUnsafeBufferPointer { hex in
            bytes.withUnsafeBufferPointer { buffer in
                let count = buffer.count
                var index = 0
                var pendingBlanks = 0  // blanks not yet written: dropped if a line break follows
                var blankStart = 0
                while index < count {
                    let byte = buffer[index]
                    if byte == 0x20 || byte == 0x09 {
                        if pendingBlanks == 0 { blankStart = index }
                        pendingBlanks += 1
                        index += 1
                        continue
                    }
                    if byte == 0x0D || byte == 0x0A {
                        pendingBlanks = 0
                        output.append(byte)
                        index += 1
                        continue
                    }
                    if pendingBlanks > 0 {
                        output.append(contentsOf: buffer[blankStart..<(blankStart + pendingBlanks)])
                        pendingBlanks = 0
                    }
                    if byte == UInt8(ascii: "=") {
                        // Soft line break: `=`, optional blanks, then CRLF, LF or end.
                        var look = index + 1
                        while look < count && (buffer[look] == 0x20 || buffer[look] == 0x09) { look += 1 }
                        if look == count {
                            index = look
                            continue
                        }
                        if buffer[look] == 0x0A {
                            index = look + 1
                            continue
                        }
                        if buffer[look] == 0x0D {
                            index = look + 1
                            if index < count && buffer[index] == 0x0A { index += 1 }
                            continue
                        }
                        if index + 2 < count {
                            let high = hex[Int(buffer[index + 1])]
                            let low = hex[Int(buffer[index + 2])]
                            if high != 0xFF && low != 0xFF {
                                output.append(high << 4 | low)
                                index += 3
                                continue
                            }
                        }
                        output.append(byte)
                        index += 1
                        continue
                    }
                    output.append(byte)
                    index += 1
                }
                if pendingBlanks > 0 {
                    output.append(contentsOf: buffer[blankStart..<(blankStart + pendingBlanks)])
                }
            }
        }
        return output
    }

    /// Decodes the Q encoding of encoded-words (RFC 2047 §4.2): `_` is a space.
    static func decodeQEncoding(_ input: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(input)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                output.append(0x20)
            } else if byte == UInt8(ascii: "="), index + 2 < bytes.count,
                hexTable[Int(bytes[index + 1])] != 0xFF, hexTable[Int(bytes[index + 2])] != 0xFF
            {
                output.append(hexTable[Int(bytes[index + 1])] << 4 | hexTable[Int(bytes[index + 2])])
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// Undoes `encoding` on `body`. `x-uuencode` (not in RFC 2045, but common in old
    /// mail) is decoded too; other unknown encodings leave the body as it is.
    static func decode(_ body: ArraySlice<UInt8>, encoding: TransferEncoding) -> [UInt8] {
        switch encoding {
        case .base64: return decodeBase64(body)
        case .quotedPrintable: return decodeQuotedPrintable(body)
        case .unknown(let name) where isUUEncode(name): return decodeUUEncode(body) ?? Array(body)
        default: return Array(body)
        }
    }

    static func isUUEncode(_ name: String) -> Bool {
        ["x-uuencode", "uuencode", "x-uue", "uue"].contains(name)
    }

    /// Decodes a uuencoded body: the lines between `begin <mode> <name>` and `end`.
    /// - Returns: nil when there is no `begin` line.
    static func decodeUUEncode(_ body: ArraySlice<UInt8>) -> [UInt8]? {
        let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            line -> ArraySlice<UInt8> in
            line.last == 0x0D ? line.dropLast() : line
        }
        guard let begin = lines.firstIndex(where: { $0.starts(with: Array("begin ".utf8)) }) else {
            return nil
        }
        var output: [UInt8] = []
        for line in lines[(begin + 1)...] {
            if line.starts(with: Array("end".utf8)) { break }
            guard let first = line.first else { continue }
            let count = Int((first &- 0x20) & 0x3F)
            if count == 0 { continue }
            var values: [UInt8] = line.dropFirst().map { ($0 &- 0x20) & 0x3F }
            while values.count % 4 != 0 { values.append(0) }
            var decoded: [UInt8] = []
            var index = 0
            while index + 3 < values.count {
                decoded.append(values[index] << 2 | values[index + 1] >> 4)
                decoded.append(values[index + 1] << 4 | values[index + 2] >> 2)
                decoded.append(values[index + 2] << 6 | values[index + 3])
                index += 4
            }
            output += decoded.prefix(count)
        }
        return output
    }

    /// Parses a Content-Transfer-Encoding value; unknown values come back as `.unknown`.
    static func parse(_ value: String) -> TransferEncoding {
        var token = value.trimmingCharacters(in: .whitespaces).lowercased()
        if let cut = token.firstIndex(where: { $0 == ";" || $0 == " " || $0 == "(" }) {
            token = String(token[..<cut])
        }
        token = token.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        switch token {
        case "7bit", "7-bit", "", "ascii", "us-ascii": return .sevenBit
        case "8bit", "8-bit", "8bits": return .eightBit
        case "binary": return .binary
        case "quoted-printable", "quoted_printable", "qp": return .quotedPrintable
        case "base64", "base-64": return .base64
        default: return .unknown(token)
        }
    }
}

extension TransferEncoding {
    /// The lower-case token for this encoding, as written in a header.
    public var name: String {
        switch self {
        case .sevenBit: return "7bit"
        case .eightBit: return "8bit"
        case .binary: return "binary"
        case .quotedPrintable: return "quoted-printable"
        case .base64: return "base64"
        case .unknown(let value): return value
        }
    }
}
