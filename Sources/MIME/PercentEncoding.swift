/// Percent-decoding (RFC 3986 §2.1), as RFC 2231 extended parameter values and URLs use it.
public enum PercentEncoding {
    /// Decodes every `%HH` (either case of hex digit); a `%` not followed by two hex digits is
    /// kept as it is, as lenient readers of real mail do.
    /// - Parameter bytes: the encoded bytes.
    /// - Returns: the decoded bytes (not checked for any charset).
    public static func decode<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> [UInt8]
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The value of one hex digit, or `nil`.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
