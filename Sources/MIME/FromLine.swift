/// Tells the `From ` that starts an mbox separator line (RFC 4155 §2) from a `From` header
/// field written with the obsolete syntax's white space before the colon (RFC 5322 §4.5:
/// `obs-optional = field-name *WSP ":" unstructured CRLF`, and `obs-from` likewise).
///
/// `From  : Shop <shop@example.com>` is a header field; `From shop@example.com Mon Jan  1
/// 00:00:00 2024`, `From - ` and `From ` alone start separator lines.
public enum FromLine {
    /// `From ` (with one space): the five bytes every separator line starts with.
    public static let prefix: [UInt8] = Array("From ".utf8)

    /// Whether `bytes`, read from the start of a line, start with `From ` and are not a header
    /// field: what follows `From` and its white space (SP, HTAB) is not `:`.
    ///
    /// - Parameter bytes: the line's bytes from its first one; what follows the line may come
    ///   after it. When the bytes end inside the white space after `From`, the answer is
    ///   `true`: a caller reading a stream gives enough bytes to reach a non-blank one (see
    ///   ``whiteSpaceEnd(_:)``).
    /// - Returns: `true` for a separator's start, `false` for anything else, including
    ///   `From:` and `From  :`.
    public static func startsSeparator<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        guard bytes.starts(with: prefix) else { return false }
        let after = whiteSpaceEnd(bytes)
        return after == bytes.endIndex || bytes[after] != UInt8(ascii: ":")
    }

    /// The index of the first byte after `From` that is not SP or HTAB (`bytes.endIndex` when
    /// there is none). `bytes` starts with `From`.
    public static func whiteSpaceEnd<C: Collection<UInt8>>(_ bytes: C) -> C.Index {
        var index = bytes.index(bytes.startIndex, offsetBy: 4, limitedBy: bytes.endIndex) ?? bytes.endIndex
        while index != bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 {
            index = bytes.index(after: index)
        }
        return index
    }
}
