// Reads the few inline CSS declarations that decide whether text is visible.

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
            // property
            while isSpace(style[index]) || style[index] == UInt8(ascii: ";") { index += 1 }
            if style[index] == 0 { break }
            var property: [UInt8] = []
            while style[index] != 0, style[index] != UInt8(ascii: ":"), style[index] != UInt8(ascii: ";") {
                if !isSpace(style[index]), property.count < 32 { property.append(lower(style[index])) }
                index += 1
            }
            guard style[index] == UInt8(ascii: ":") else { continue }
            index += 1
            var value: [UInt8] = []
            while style[index] != 0, style[index] != UInt8(ascii: ";") {
                if !isSpace(style[index]), value.count < 64 { value.append(lower(style[index])) }
                index += 1
            }
            // "!important" changes nothing here.
            if let bang = value.firstIndex(of: UInt8(ascii: "!")) { value.removeSubrange(bang...) }
            apply(property: property, value: value, zeroBox: &zeroBox, overflowHidden: &overflowHidden)
        }
        if zeroBox && overflowHidden { hidesContent = true }
    }

    private mutating func apply(
        property: [UInt8], value: [UInt8], zeroBox: inout Bool, overflowHidden: inout Bool
    ) {
        guard let first = property.first else { return }
        switch first {
        case UInt8(ascii: "d"):
            if property == Names.display, value == Names.none { hidesContent = true }
        case UInt8(ascii: "v"):
            if property == Names.visibility, value == Names.hidden || value == Names.collapse {
                hidesContent = true
            }
        case UInt8(ascii: "m"):
            if property == Names.msoHide, value == Names.all { hidesContent = true }
            if property == Names.maxHeight || property == Names.maxWidth, InlineStyle.isZeroLength(value) {
                zeroBox = true
            }
        case UInt8(ascii: "o"):
            if property == Names.opacity, InlineStyle.isZeroLength(value) { hidesContent = true }
            if property == Names.overflow || property == Names.overflowX || property == Names.overflowY,
                value == Names.hidden || value == Names.clip
            {
                overflowHidden = true
            }
        case UInt8(ascii: "f"):
            if property == Names.fontSize { fontSizeIsZero = InlineStyle.isZeroLength(value) }
        case UInt8(ascii: "h"), UInt8(ascii: "w"):
            if property == Names.height || property == Names.width, InlineStyle.isZeroLength(value) {
                zeroBox = true
            }
        default:
            break
        }
    }

    /// `0`, `0px`, `0.0em`, `0%`, `.0pt`: a number that is zero, with or without a unit.
    static func isZeroLength(_ value: [UInt8]) -> Bool {
        var sawDigit = false
        for byte in value {
            switch byte {
            case UInt8(ascii: "0"): sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "%"): return sawDigit
            default: return false
            }
        }
        return sawDigit
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    private func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private enum Names {
        static let display = Array("display".utf8)
        static let none = Array("none".utf8)
        static let visibility = Array("visibility".utf8)
        static let hidden = Array("hidden".utf8)
        static let collapse = Array("collapse".utf8)
        static let msoHide = Array("mso-hide".utf8)
        static let all = Array("all".utf8)
        static let opacity = Array("opacity".utf8)
        static let fontSize = Array("font-size".utf8)
        static let maxHeight = Array("max-height".utf8)
        static let maxWidth = Array("max-width".utf8)
        static let height = Array("height".utf8)
        static let width = Array("width".utf8)
        static let overflow = Array("overflow".utf8)
        static let overflowX = Array("overflow-x".utf8)
        static let overflowY = Array("overflow-y".utf8)
        static let clip = Array("clip".utf8)
    }
}
