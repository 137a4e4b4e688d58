/// Scalars that are always a `Character` of their own.
///
/// A scalar listed here never joins the scalar before or after it into one grapheme cluster
/// when that scalar is listed too (Unicode's grapheme cluster rules GB3–GB13: none of them is
/// a carriage return, a line feed, an extending or spacing mark, a joiner, a prepended
/// mark, a Hangul jamo or a regional indicator). So in text made only of these scalars,
/// characters and scalars are the same.
public enum SimpleScalars {
    /// Whether a scalar is one of: printable ASCII and tab; Latin-1 letters and signs
    /// (U+00A0–U+024F without the soft hyphen); general punctuation (U+2010–U+2027,
    /// U+2030–U+205E); currency signs (U+20A0–U+20C0); CJK symbols (U+3000–U+3029,
    /// U+3030–U+303F); hiragana and katakana without the combining sound marks; CJK
    /// ideographs (U+3400–U+4DBF, U+4E00–U+9FFF); Hangul syllables (U+AC00–U+D7A3);
    /// full-width forms (U+FF01–U+FF65, U+FFE0–U+FFE6).
    @inlinable public static func isStandalone(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return (value >= 0x20 && value < 0x7F) || value == 0x09 }
        switch value {
        case 0xA0...0xAC, 0xAE...0x24F: return true
        case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0: return true
        case 0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF: return true
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
        case 0xFF01...0xFF65, 0xFFE0...0xFFE6: return true
        default: return false
        }
    }
}
