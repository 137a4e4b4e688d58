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
    /// alphabet; padding is optional and a trailing partial group is dropped. `=` padding inside
    /// the data ends one encoded run and the next run is decoded on its own (see
    /// ``decodeBase64(_:repairs:)``).
    static func decodeBase64(_ input: some Collection<UInt8>) -> [UInt8] {
        var repairs = Base64Repairs()
        return decodeBase64(input, repairs: &repairs)
    }

    /// ``decodeBase64(_:)`` that also counts what it ignored.
    /// - Parameter ignored: set to ``Base64Repairs/ignored``: 0 for a well-formed body.
    static func decodeBase64(_ input: some Collection<UInt8>, ignored: inout Int) -> [UInt8] {
        var repairs = Base64Repairs()
        let output = decodeBase64(input, repairs: &repairs)
        ignored = repairs.ignored
        return output
    }

    /// ``decodeBase64(_:)`` that also reports what it repaired.
    ///
    /// `=` padding marks the end of the data (RFC 2045 §6.8), but some encoders encode a body in
    /// chunks and concatenate the results, so padding also turns up inside the data
    /// (`SGk=SGk=`). Decoding straight through would shift every later byte by the padding's
    /// missing bits and garble the rest. Instead the padding ends the run: its bytes are kept
    /// and a run that follows — right after the padding, or on a later line — is decoded on
    /// its own and appended (counted in ``Base64Repairs/runsAfterPadding``). Text after the
    /// padding and white space on the same line (`SGk= trailing text`) is not base64 data:
    /// it is skipped and counted in ``Base64Repairs/ignored``.
    /// - Parameters:
    ///   - input: the encoded body.
    ///   - repairs: set to what was skipped and how many runs began after padding.
    /// - Returns: the decoded bytes.
    static func decodeBase64(_ input: some Collection<UInt8>, repairs: inout Base64Repairs) -> [UInt8] {
        var skipped = 0
        var runs = 0
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4 + 3)
        base64Table.withUnsafeBufferPointer { table in
            var accumulator: UInt32 = 0
            var bits = 0
            // After `=` padding: the run ended.
            var padded = false
            // Still on the line of that padding.
            var paddingLine = false
            // Padding then white space on its line: the rest of the line is not data.
            var trailing = false
            let decodeByte = { (byte: UInt8) in
                let value = table[Int(byte)]
                if value != 0xFF {
                    if padded {
                        if trailing {
                            skipped += 1
                            return
                        }
                        // A run encoded on its own: right after the padding or on a later line.
                        padded = false
                        runs += 1
                    }
                    accumulator = (accumulator << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    }
                    return
                }
                switch byte {
                case UInt8(ascii: "="):
                    if trailing {
                        skipped += 1
                    } else {
                        // One character (six bits) before the padding is not a byte.
                        if !padded && bits == 6 { skipped += 1 }
                        padded = true
                        paddingLine = true
                        bits = 0
                        accumulator = 0
                    }
                case 0x0A:
                    paddingLine = false
                    trailing = false
                case 0x20, 0x09, 0x0D:
                    if padded && paddingLine { trailing = true }
                default:
                    skipped += 1
                }
            }
            let handled: Void? = input.withContiguousStorageIfAvailable { buffer in
                for byte in buffer { decodeByte(byte) }
            }
            if handled == nil {
                for byte in input { decodeByte(byte) }
            }
            // One character left over (six bits) is not a byte: a group was cut short.
            if bits == 6 { skipped += 1 }
        }
        repairs = Base64Repairs(ignored: skipped, runsAfterPadding: runs)
        return output
    }

    /// Decodes quoted-printable (RFC 2045 §6.7): soft line breaks removed, upper- and
    /// lower-case hex accepted, invalid `=` sequences kept as they are, trailing blanks
    /// of each encoded line dropped.
    static func decodeQuotedPrintable(_ input: some Collection<UInt8>) -> [UInt8] {
        if let result = input.withContiguousStorageIfAvailable({ decodeQuotedPrintable(buffer: $0) }) {
            return result
        }
        return Array(input).withUnsafeBufferPointer { decodeQuotedPrintable(buffer: $0) }
    }

    /// Line by line: trailing blanks dropped, runs between `=` signs copied whole.
    private static func decodeQuotedPrintable(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let count = buffer.count
        guard let base = buffer.baseAddress, count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { output, written in
            guard let target = output.baseAddress else { return }
            hexTable.withUnsafeBufferPointer { hex in
                var out = 0
                var lineStart = 0
                while lineStart < count {
                    var lineEnd = count
                    if let hit = memchr(base + lineStart, 0x0A, count - lineStart) {
                        lineEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    }
                    var contentEnd = lineEnd
                    if contentEnd > lineStart && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                    let breakStart = contentEnd
                    while contentEnd > lineStart
                        && (buffer[contentEnd - 1] == 0x20 || buffer[contentEnd - 1] == 0x09)
                    {
                        contentEnd -= 1
                    }
                    var soft = false
                    var index = lineStart
                    while index < contentEnd {
                        guard let hit = memchr(base + index, 0x3D, contentEnd - index) else {
                            (target + out).update(from: base + index, count: contentEnd - index)
                            out += contentEnd - index
                            break
                        }
                        let equals = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        (target + out).update(from: base + index, count: equals - index)
                        out += equals - index
                        if equals == contentEnd - 1 {
                            soft = true  // `=` at the end of the line: a soft line break
                            index = contentEnd
                            break
                        }
                        if equals + 2 < contentEnd || equals + 2 == contentEnd {
                            let high = hex[Int(buffer[equals + 1])]
                            let low = equals + 2 < contentEnd ? hex[Int(buffer[equals + 2])] : 0xFF
                            if high != 0xFF && low != 0xFF {
                                target[out] = high << 4 | low
                                out += 1
                                index = equals + 3
                                continue
                            }
                        }
                        // Not a valid escape: kept as it is.
                        target[out] = 0x3D
                        out += 1
                        index = equals + 1
                    }
                    if !soft && lineEnd < count {
                        let lineBreak = lineEnd + 1 - breakStart
                        (target + out).update(from: base + breakStart, count: lineBreak)
                        out += lineBreak
                    } else if !soft && breakStart < count {
                        // A final line ending in a bare CR.
                        (target + out).update(from: base + breakStart, count: count - breakStart)
                        out += count - breakStart
                    }
                    lineStart = lineEnd + 1
                }
                written = out
            }
        }
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
        var ignored = 0
        return decode(body, encoding: encoding, ignored: &ignored)
    }

    /// ``decode(_:encoding:)`` that also counts what base64 decoding ignored (see
    /// ``decodeBase64(_:ignored:)``); 0 for the other encodings.
    static func decode(_ body: ArraySlice<UInt8>, encoding: TransferEncoding, ignored: inout Int) -> [UInt8] {
        var repairs = Base64Repairs()
        let output = decode(body, encoding: encoding, repairs: &repairs)
        ignored = repairs.ignored
        return output
    }

    /// ``decode(_:encoding:)`` that also reports what base64 decoding repaired (see
    /// ``decodeBase64(_:repairs:)``); nothing for the other encodings.
    static func decode(_ body: ArraySlice<UInt8>, encoding: TransferEncoding, repairs: inout Base64Repairs)
        -> [UInt8]
    {
        repairs = Base64Repairs()
        switch encoding {
        case .base64: return decodeBase64(body, repairs: &repairs)
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
    static func parse(_ value: [UInt8]) -> TransferEncoding {
        var bytes = ASCII.trim(value)
        if let cut = bytes.firstIndex(where: {
            $0 == UInt8(ascii: ";") || $0 == 0x20 || $0 == UInt8(ascii: "(")
        }) {
            bytes = bytes[..<cut]
        }
        let token = ASCII.lowercasedTrimmed(bytes, also: [0x22, 0x27])
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

/// What base64 decoding repaired in one body (RFC 2045 §6.8), for the part's warnings.
struct Base64Repairs: Equatable {
    /// Bytes skipped: outside the alphabet and not white space or `=` padding, or on a line after
    /// its padding and white space; plus one for each group cut short to one character (six
    /// bits, not a byte). 0 for a well-formed body.
    var ignored = 0
    /// Encoded runs that began after `=` padding inside the data (chunks encoded separately and
    /// concatenated), each decoded on its own. 0 for a well-formed body.
    var runsAfterPadding = 0

    /// Warnings for the part, one line each: empty when nothing was repaired.
    var warnings: [String] {
        var lines: [String] = []
        if ignored > 0 {
            lines.append(
                "base64 body is damaged: \(ignored) bytes outside the alphabet, after the end of the data"
                    + " or cut short, skipped")
        }
        if runsAfterPadding > 0 {
            lines.append(
                "base64 body has `=` padding inside the data (RFC 2045 §6.8): \(runsAfterPadding + 1)"
                    + " separately encoded runs, each decoded and joined")
        }
        return lines
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
