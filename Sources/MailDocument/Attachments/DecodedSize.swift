import Foundation
import MIME

/// The size of an attachment's decoded body, found without decoding it where the transfer
/// encoding allows: attachment summaries need only the size, and a base64 attachment of
/// several megabytes would otherwise be decoded just to be counted.
enum DecodedSize {
    /// The number of bytes ``BodyPart/decodedBytes()`` returns for `part`.
    ///
    /// - `7bit`, `8bit`, `binary`: the raw body's length.
    /// - `base64`: counted by ``base64Count(_:)`` under the MIME decoder's rules.
    /// - Anything else (quoted-printable, uuencode, unknown): decoded and counted.
    static func of(_ part: BodyPart) -> Int {
        switch part.transferEncoding {
        case .sevenBit, .eightBit, .binary: part.rawBody.count
        case .base64: base64Count(part.rawBody)
        default: part.decodedBytes().count
        }
    }

    /// The number of bytes the MIME base64 decoder (RFC 2045 §6.8) writes for `input`: bytes
    /// outside the alphabet (standard or URL-safe) are skipped, each alphabet byte adds six
    /// bits and every full eight bits make a byte, `=` drops the bits of the partial group and
    /// ends the run; the next run starts at the next alphabet byte, unless white space comes
    /// first on the padding's line, which makes the rest of that line ignored.
    static func base64Count(_ input: ArraySlice<UInt8>) -> Int {
        input.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return alphabet.withUnsafeBufferPointer { table in
                let end = buffer.count
                var count = 0
                var bits = 0
                var index = 0
                while index < end {
                    // A run up to the next `=`: every alphabet byte adds six bits.
                    var runEnd = end
                    if let hit = memchr(base + index, Int32(UInt8(ascii: "=")), end - index) {
                        runEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    }
                    var letters = 0
                    for position in index..<runEnd { letters &+= Int(table[Int(base[position])]) }
                    bits += 6 * letters
                    count += bits / 8
                    bits %= 8
                    guard runEnd < end else { break }
                    // `=`: the partial group is dropped. The next run starts at the next
                    // alphabet byte, or on the next line when white space comes first.
                    bits = 0
                    var next = runEnd + 1
                    while next < end {
                        let byte = base[next]
                        if table[Int(byte)] == 1 || byte == 0x0A { break }
                        if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                            // Text after the end of the data: the rest of the line is ignored.
                            guard let newline = memchr(base + next, 0x0A, end - next) else {
                                next = end
                                break
                            }
                            next = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                            break
                        }
                        next += 1
                    }
                    index = next
                }
                return count
            }
        }
    }

    /// 1 for the bytes of the base64 alphabet (standard and URL-safe), 0 for all others.
    private static let alphabet: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        let folded = byte | 0x20
        let isLetter = folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let isSymbol =
            byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
        return isLetter || isDigit || isSymbol ? 1 : 0
    }
}
