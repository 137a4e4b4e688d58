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
    /// bits and every full eight bits make a byte, `=` drops the bits of the partial group
    /// and ignores the rest of its line, a line feed starts a new run.
    static func base64Count(_ input: ArraySlice<UInt8>) -> Int {
        input.withUnsafeBufferPointer { buffer in
            var count = 0
            var bits = 0
            var padded = false
            for byte in buffer {
                if isBase64Alphabet(byte) {
                    if padded { continue }
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        count += 1
                    }
                } else if byte == UInt8(ascii: "=") {
                    padded = true
                    bits = 0
                } else if byte == 0x0A {
                    padded = false
                }
            }
            return count
        }
    }

    private static func isBase64Alphabet(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }
}
