// Reads the few inline CSS declarations that decide whether text is visible, straight from
// the attribute's bytes (no allocation: nearly every element of an email has a style).

/// Visibility facts from one `style` attribute (CSS 2.1 §9.2.4 `display`, §11.2 `visibility`,
/// §11.1.1 `overflow`; Microsoft's `mso-hide`).
struct InlineStyle: Equatable {
    /// `display:none`, `visibility:hidden`, `mso-hide:all`, `opacity:0`, or a zero
    /// `max-height`/`height`/`width` together with `overflow:hidden`.
    var hidesContent = false
    /// `font-size` given: `true` when zero, `false` when non-zero, `nil` when not given.
    /// A zero font size hides text until a descendant sets a non-zero size again.
    var fontSizeIsZero: Bool?

    /// Parses the declarations of a `style` attribute value; unknown ones are ignored.
    init(_ style: UnsafePointer<UInt8>) {
        var zeroBox = false
        var overflowHidden = false
        var index = 0
        while style[index] != 0 {
            while InlineStyle.isSpace(style[index]) || style[index] == UInt8(ascii: ";") { index += 1 }
            if style[index] == 0 { break }
            let propertyStart = index
            while style[index] != 0, style[index] != UInt8(ascii: ":"), style[index] != UInt8(ascii: ";") {
                index += 1
            }
            var propertyEnd = index
            while propertyEnd > propertyStart, InlineStyle.isSpace(style[propertyEnd - 1]) {
                propertyEnd -= 1
            }
            guard style[index] == UInt8(ascii: ":") else { continue }
            index += 1
            while InlineStyle.isSpace(style[index]) { index += 1 }
            let valueStart = index
            while style[index] != 0, style[index] != UInt8(ascii: ";"), style[index] != UInt8(ascii: "!") {
                index += 1
            }
            var valueEnd = index
            while valueEnd > valueStart, InlineStyle.isSpace(style[valueEnd - 1]) { valueEnd -= 1 }
            while style[index] != 0, style[index] != UInt8(ascii: ";") { index += 1 }
            let property = Token(base: style, start: propertyStart, end: propertyEnd)
            let value = Token(base: style, start: valueStart, end: valueEnd)
            apply(property: property, value: value, zeroBox: &zeroBox, overflowHidden: &overflowHidden)
        }
        if zeroBox && overflowHidden { hidesContent = true }
    }

    /// A lower-case comparable slice of the attribute.
    private struct Token {
        let base: UnsafePointer<UInt8>
        let start: Int
        let end: Int

        var first: UInt8 { start < end ? base[start] | 0x20 : 0 }

        func equals(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard end - start == count else { return false }
            let bytes = literal.utf8Start
            for offset in 0..<count {
                var byte = base[start + offset]
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if byte != bytes[offset] { return false }
            }
            return true
        }

        /// `0`, `0px`, `0.0em`, `0%`, `.0pt`: a number that is zero, with or without a unit.
        var isZeroLength: Bool {
            var sawDigit = false
            for index in start..<end {
                let byte = base[index] | 0x20
                switch byte {
                case UInt8(ascii: "0"): sawDigit = true
                case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
                case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "%") | 0x20: return sawDigit
                default: return false
                }
            }
            return sawDigit
        }
    }

    private mutating func apply(
        property: Token, value: Token, zeroBox: inout Bool, overflowHidden: inout Bool
    ) {
        switch property.first {
        case UInt8(ascii: "d"):
            if property.equals("display"), value.equals("none") { hidesContent = true }
        case UInt8(ascii: "v"):
            if property.equals("visibility"), value.equals("hidden") || value.equals("collapse") {
                hidesContent = true
            }
        case UInt8(ascii: "m"):
            if property.equals("mso-hide"), value.equals("all") { hidesContent = true }
            if property.equals("max-height") || property.equals("max-width"), value.isZeroLength {
                zeroBox = true
            }
        case UInt8(ascii: "o"):
            if property.equals("opacity"), value.isZeroLength { hidesContent = true }
            if property.equals("overflow") || property.equals("overflow-x") || property.equals("overflow-y"),
                value.equals("hidden") || value.equals("clip")
            {
                overflowHidden = true
            }
        case UInt8(ascii: "f"):
            if property.equals("font-size") { fontSizeIsZero = value.isZeroLength }
        case UInt8(ascii: "h"), UInt8(ascii: "w"):
            if property.equals("height") || property.equals("width"), value.isZeroLength { zeroBox = true }
        default:
            break
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
