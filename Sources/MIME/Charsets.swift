import CCharset
import Foundation

/// Charset conversion to Unicode: alias supersets, ICU conversion, detection for unknown
/// or lying labels (RFC 2046 §4.1.2, RFC 2978).
enum Charsets {
    /// The outcome of decoding bytes in a declared charset.
    struct Decoded {
        var text: String
        /// The charset actually used, as reported to the user.
        var charset: String
        /// Why the declared label was not (fully) honoured, when it was not.
        var warning: String?
    }

    /// Normalises a charset label: trims quotes and blanks, drops an RFC 2231 language
    /// suffix (`utf-8*en`), lower-cases.
    static func normalize(_ label: String) -> String {
        var bytes = Array(label.utf8)
        if let star = bytes.firstIndex(of: UInt8(ascii: "*")) { bytes = Array(bytes[..<star]) }
        return ASCII.lowercasedTrimmed(bytes, also: [0x22, 0x27])
    }

    /// Labels that real mail uses for a subset of a wider charset, mapped to the superset
    /// (the WHATWG Encoding Standard makes the same choices).
    static func superset(of label: String) -> String {
        switch label {
        case "ks_c_5601-1987", "ks_c_5601", "ks_c_5601-1989", "ksc5601", "ksc_5601", "euc-kr", "euckr",
            "korean", "csksc56011987", "iso-ir-149", "cp949", "uhc", "windows-949", "x-windows-949":
            return "windows-949"
        case "gb2312", "gb_2312", "gb_2312-80", "csgb2312", "euc-cn", "euccn", "x-euc-cn", "gbk", "x-gbk",
            "cp936", "ms936", "windows-936", "chinese", "iso-ir-58", "csiso58gb231280", "gb18030":
            return "gb18030"
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "ibm819",
            "iso-ir-100", "csisolatin1", "iso_8859-1:1987", "windows-1252", "cp1252", "x-cp1252":
            return "windows-1252"
        case "iso-8859-9", "iso8859-9", "latin5", "l5", "windows-1254", "cp1254":
            return "windows-1254"
        case "iso-8859-11", "tis-620", "tis620", "windows-874", "cp874":
            return "windows-874"
        case "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis", "windows-31j", "cp932",
            "ms932", "x-ms-cp932":
            return "windows-31j"
        case "big5", "big-5", "cn-big5", "x-x-big5", "csbig5", "big5-hkscs":
            return "big5-hkscs"
        case "utf8", "utf-8", "unicode-1-1-utf-8", "x-unicode20utf8":
            return "utf-8"
        case "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "cp367", "ibm367", "csascii",
            "iso-ir-6", "default", "x-unknown", "unknown-8bit", "x-user-defined":
            return "us-ascii"
        case "iso-2022-jp", "csiso2022jp", "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3",
            "cp50220", "cp50221", "cp50222":
            return "iso-2022-jp"
        default:
            return label
        }
    }

    /// Decodes `bytes` declared as `label` (nil when no charset was declared).
    /// - Returns: the text, the charset used and a warning when the label was unknown or
    ///   did not fit the bytes.
    static func decode(_ bytes: some Collection<UInt8>, label: String?) -> Decoded {
        let array = Array(bytes)
        let declared = label.map(normalize) ?? ""
        let effective = declared.isEmpty ? "us-ascii" : superset(of: declared)
        let asciiCompatibleOnly =
            effective != "iso-2022-jp" && effective != "utf-7" && !effective.hasPrefix("utf-16")
            && !effective.hasPrefix("utf-32") && !effective.hasPrefix("iso-2022")
            && effective != "hz-gb-2312"
        if asciiCompatibleOnly && isASCII(array) {
            // ASCII reads the same in every ASCII-compatible charset; an unknown label is still
            // worth a word.
            let unknown = !declared.isEmpty && !commonLabels.contains(effective) && !isKnown(declared)
            return Decoded(
                text: String(decoding: array, as: UTF8.self), charset: unknown ? "us-ascii" : effective,
                warning: unknown ? "unknown charset \(declared): the text is ASCII, read as us-ascii" : nil)
        }
        // UTF-16 and UTF-32 text has NUL bytes beside every ASCII character: ASCII without
        // them is mislabelled, and decoding it as declared would turn it into ideographs.
        if (effective.hasPrefix("utf-16") || effective.hasPrefix("utf-32")) && !array.isEmpty
            && isASCII(array) && !array.contains(0)
        {
            return Decoded(
                text: String(decoding: array, as: UTF8.self), charset: "us-ascii",
                warning:
                    "charset \(declared) does not fit the bytes (ASCII without NUL bytes): read as us-ascii")
        }
        // The same for UTF-8 text with letters beyond ASCII ("Größe 2 × 24,00 €"): without a NUL
        // byte, and valid UTF-8 with a multi-byte sequence, it is UTF-8 whatever the label says.
        if (effective.hasPrefix("utf-16") || effective.hasPrefix("utf-32")) && !array.contains(0)
            && !hasUTF16ByteOrderMark(array) && hasMultibyteUTF8(array), let text = validUTF8(array)
        {
            return Decoded(
                text: text, charset: "utf-8",
                warning: "charset \(declared) does not fit the bytes (UTF-8 without NUL bytes): read as utf-8"
            )
        }
        switch effective {
        case "utf-8", "us-ascii":
            if let text = validUTF8(array) {
                let warning =
                    effective == "us-ascii" && !declared.isEmpty && declared != "x-unknown"
                        && declared != "unknown-8bit"
                    ? "charset \(declared) does not fit 8-bit bytes: decoded as utf-8" : nil
                return Decoded(text: text, charset: "utf-8", warning: warning)
            }
            let guess = detect(
                array, reason: declared.isEmpty ? "no charset declared" : "bytes are not \(declared)")
            // A declared label is honoured unless the bytes show another charset. UTF-16 and
            // UTF-32 text has NUL bytes beside its ASCII characters; without them, a guess of
            // either rests on nothing but first bytes that look like a byte order mark (FF FE,
            // FE FF), and would turn the text into unrelated ideographs. The bytes are then
            // read as the UTF-8 declared, each invalid sequence a U+FFFD (Unicode §3.9, U+FFFD
            // substitution of maximal subparts). Legacy charsets (Latin-1, EUC-KR, Shift_JIS
            // mislabelled as UTF-8) are still detected from the bytes as a whole.
            if !declared.isEmpty, guess.charset.hasPrefix("utf-16") || guess.charset.hasPrefix("utf-32"),
                !array.contains(0)
            {
                return decodeReplacing(array, declared: declared)
            }
            return guess
        case "iso-2022-jp":
            if let sjis = ISO2022JP.toWindows31J(array),
                let converted = convert(sjis.bytes, icuName: "windows-31j"), converted.substitutions == 0
            {
                return Decoded(
                    text: ISO2022JP.restoringJISRoman(converted.text, sjis.jisRoman), charset: "iso-2022-jp")
            }
            if let converted = convert(array, icuName: "ISO-2022-JP-2") {
                return Decoded(
                    text: converted.text, charset: "iso-2022-jp",
                    warning: converted.substitutions > 0
                        ? "\(converted.substitutions) bytes could not be decoded as iso-2022-jp" : nil)
            }
            return detect(array, reason: "bytes are not iso-2022-jp")
        case "utf-16" where array.count >= 2 && !hasUTF16ByteOrderMark(array) && looksLittleEndian(array):
            // RFC 2781 §4.3 makes UTF-16 without a byte order mark big-endian, but Windows
            // software writes it little-endian; the NUL halves of ASCII characters tell which.
            guard let converted = convert(array, icuName: "utf-16le") else {
                return detect(array, reason: "bytes are not utf-16")
            }
            return Decoded(
                text: converted.text, charset: "utf-16le",
                warning: "utf-16 without a byte order mark is little-endian here: read as utf-16le")
        default:
            guard let converted = convert(array, icuName: effective) else {
                return detect(array, reason: "unknown charset \(declared)")
            }
            if converted.substitutions > 0 {
                if let text = validUTF8(array) {
                    return Decoded(
                        text: text, charset: "utf-8",
                        warning: "charset \(declared) does not fit the bytes: decoded as utf-8")
                }
                return Decoded(
                    text: converted.text, charset: effective,
                    warning: "\(converted.substitutions) bytes could not be decoded as \(declared)")
            }
            if isSingleByteLatin(effective), hasMultibyteUTF8(array), let text = validUTF8(array) {
                return Decoded(
                    text: text, charset: "utf-8",
                    warning: "charset \(declared) is really utf-8: decoded as utf-8")
            }
            return Decoded(text: converted.text, charset: effective)
        }
    }

    /// Bytes declared as `declared` (UTF-8 or US-ASCII) read as UTF-8, each ill-formed sequence
    /// replaced by U+FFFD, with a warning that says how many were.
    /// - Parameters:
    ///   - bytes: the bytes, not valid UTF-8.
    ///   - declared: the normalised label declared.
    static func decodeReplacing(_ bytes: [UInt8], declared: String) -> Decoded {
        let text = String(decoding: bytes, as: UTF8.self)
        // U+FFFD written in the bytes themselves (EF BF BD) is no replacement.
        var written = 0
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] == 0xBD {
                written += 1
                index += 3
            } else {
                index += 1
            }
        }
        let replaced = text.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : 0) } - written
        return Decoded(
            text: text, charset: "utf-8",
            warning: "bytes are not \(declared): \(replaced) ill-formed sequences replaced by U+FFFD")
    }

    /// Decodes header bytes that carry raw 8-bit text: UTF-8 when valid (RFC 6532),
    /// otherwise a best guess.
    /// - Returns: the text and whether it had to be guessed.
    static func decodeRawHeader(_ bytes: some Collection<UInt8>) -> (text: String, guessed: Bool) {
        let array = Array(bytes)
        if let text = validUTF8(array) { return (text, false) }
        let guess = detect(array, reason: "raw 8-bit header")
        return (guess.text, true)
    }

    static func hasUTF16ByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE))
    }

    /// Whether UTF-16 text has more NUL bytes in odd positions than in even ones: the high
    /// bytes of Latin characters come second, as in little-endian order.
    static func looksLittleEndian(_ bytes: [UInt8]) -> Bool {
        var even = 0
        var odd = 0
        for index in bytes.indices where bytes[index] == 0 {
            if index & 1 == 0 { even += 1 } else { odd += 1 }
        }
        return odd > even
    }

    /// Labels (after ``superset(of:)``) known without asking ICU.
    static let commonLabels: Set<String> = [
        "utf-8", "us-ascii", "iso-8859-1", "iso-8859-2", "iso-8859-15", "windows-1250", "windows-1251",
        "windows-1252", "windows-1253", "windows-1254", "windows-1257", "koi8-r", "shift_jis", "windows-31j",
        "euc-jp", "windows-949", "gb18030", "big5-hkscs", "windows-874", "iso-2022-jp", "utf-16", "utf-16le",
        "utf-16be",
    ]

    /// Returns whether ICU (or our alias table) knows the label.
    static func isKnown(_ label: String) -> Bool {
        let effective = superset(of: normalize(label))
        if ["utf-8", "us-ascii", "iso-2022-jp"].contains(effective) { return true }
        return effective.withCString { mo_charset_is_known($0) } == 1
    }

    private static func detect(_ bytes: [UInt8], reason: String) -> Decoded {
        var name = [CChar](repeating: 0, count: 64)
        var confidence: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            mo_charset_detect(buffer.baseAddress, buffer.count, &name, name.count, &confidence)
        }
        var guess = "windows-1252"
        if status == 0 {
            let detected = String(
                decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let normalized = superset(of: normalize(detected))
            // Below this the detector guesses as badly as a fixed Western fallback.
            if confidence >= 30 && !normalized.isEmpty { guess = normalized }
        }
        if guess == "utf-8", let text = validUTF8(bytes) {
            return Decoded(text: text, charset: "utf-8", warning: "\(reason): detected utf-8")
        }
        if guess == "iso-2022-jp" {
            let decoded = decode(bytes, label: "iso-2022-jp")
            return Decoded(
                text: decoded.text, charset: decoded.charset, warning: "\(reason): detected iso-2022-jp")
        }
        if let converted = convert(bytes, icuName: guess == "us-ascii" ? "windows-1252" : guess) {
            return Decoded(
                text: converted.text, charset: guess == "us-ascii" ? "windows-1252" : guess,
                warning: "\(reason): detected \(guess)")
        }
        let fallback = convert(bytes, icuName: "windows-1252")
        return Decoded(
            text: fallback?.text ?? String(decoding: bytes, as: UTF8.self), charset: "windows-1252",
            warning: "\(reason): decoded as windows-1252")
    }

    private static func convert(_ bytes: [UInt8], icuName: String) -> (text: String, substitutions: Int)? {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var substitutions: Int32 = 0
        let status = icuName.withCString { name in
            bytes.withUnsafeBufferPointer { buffer in
                mo_charset_to_utf8(name, buffer.baseAddress, buffer.count, &output, &length, &substitutions)
            }
        }
        guard status == 0 else { return nil }
        defer { mo_free(output) }
        guard let output else { return ("", Int(substitutions)) }
        let text = String(decoding: UnsafeBufferPointer(start: output, count: length), as: UTF8.self)
        return (text, Int(substitutions))
    }

    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var accumulated: UInt8 = 0
            for byte in buffer { accumulated |= byte }
            return accumulated < 0x80
        }
    }

    static func validUTF8(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    private static func isSingleByteLatin(_ charset: String) -> Bool {
        charset == "windows-1252" || charset.hasPrefix("iso-8859-") || charset == "windows-1254"
    }

    /// Whether the bytes hold at least one well-formed multi-byte UTF-8 sequence.
    private static func hasMultibyteUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 1 < bytes.count {
            let byte = bytes[index]
            if byte >= 0xC2 && byte <= 0xF4 && bytes[index + 1] & 0xC0 == 0x80 { return true }
            index += 1
        }
        return false
    }
}

/// ISO-2022-JP (RFC 1468) with the vendor extensions of CP50220/CP50221 (NEC special
/// characters, IBM extensions, half-width katakana): re-encoded to Windows-31J, which
/// holds all of them, before ICU decodes it.
///
/// JIS X 0201 Roman (`ESC ( J`) differs from ASCII in two places: 0x5C is the yen sign
/// (U+00A5) and 0x7E the overline (U+203E), as Japanese shops write prices ("¥1,200" sent as
/// `ESC ( J \1,200`). Windows-31J has no byte for them, so they pass through it as its
/// single-byte 0x5C and 0x7E, and ``restoringJISRoman(_:_:)`` puts them back: Windows-31J
/// decodes every single-byte 0x5C to `\` and 0x7E to `~` and no two-byte character to
/// either, so the n-th of those characters in the text is the n-th of those bytes.
enum ISO2022JP {
    /// - Returns: the Windows-31J bytes and, for each single-byte 0x5C or 0x7E in them in
    ///   order, whether it was JIS X 0201 Roman's (empty when none was); nil when the text uses
    ///   a set Windows-31J lacks (JIS X 0212), or an escape this function does not know.
    static func toWindows31J(_ bytes: [UInt8]) -> (bytes: [UInt8], jisRoman: [Bool])? {
        enum Mode { case ascii, jisRoman, jisX0208, katakana }
        var mode = Mode.ascii
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        // One flag per single-byte 0x5C or 0x7E, kept once the first JIS-Roman one is seen.
        var jisRoman: [Bool] = []
        var asciiBefore = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 2 < bytes.count else { return nil }
                let first = bytes[index + 1]
                let second = bytes[index + 2]
                switch (first, second) {
                case (0x28, 0x42), (0x28, 0x48): mode = .ascii
                case (0x28, 0x4A): mode = .jisRoman
                case (0x28, 0x49): mode = .katakana
                case (0x24, 0x40), (0x24, 0x42): mode = .jisX0208
                case (0x24, 0x28):
                    guard index + 3 < bytes.count, bytes[index + 3] == 0x42 || bytes[index + 3] == 0x51
                    else { return nil }
                    mode = .jisX0208
                    index += 1
                default: return nil
                }
                index += 3
                continue
            }
            if byte == 0x0E {
                mode = .katakana
                index += 1
                continue
            }
            if byte == 0x0F {
                mode = .ascii
                index += 1
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                output.append(byte)
                index += 1
                continue
            }
            switch mode {
            case .ascii, .jisRoman:
                if byte == 0x5C || byte == 0x7E {
                    if mode == .jisRoman && jisRoman.isEmpty {
                        jisRoman = Array(repeating: false, count: asciiBefore)
                    }
                    if mode == .jisRoman || !jisRoman.isEmpty {
                        jisRoman.append(mode == .jisRoman)
                    } else {
                        asciiBefore += 1
                    }
                }
                output.append(byte)
                index += 1
            case .katakana:
                output.append(byte >= 0x21 && byte <= 0x5F ? byte | 0x80 : byte)
                index += 1
            case .jisX0208:
                guard index + 1 < bytes.count else { return nil }
                let row = bytes[index]
                let cell = bytes[index + 1]
                guard (0x21...0x7E).contains(row), (0x21...0x7E).contains(cell) else { return nil }
                // JIS row/cell to Shift_JIS lead and trail bytes.
                let lead = (Int(row) + 1) / 2 + (row <= 0x5E ? 0x70 : 0xB0)
                let trail: Int
                if row & 1 == 1 {
                    trail = Int(cell) + (cell >= 0x60 ? 0x20 : 0x1F)
                } else {
                    trail = Int(cell) + 0x7E
                }
                output.append(UInt8(truncatingIfNeeded: lead))
                output.append(UInt8(truncatingIfNeeded: trail))
                index += 2
            }
        }
        return (output, jisRoman)
    }

    /// `text`, decoded from ``toWindows31J(_:)``'s bytes, with the `\` and `~` that were
    /// JIS X 0201 Roman's made the yen sign and the overline.
    /// - Parameter jisRoman: ``toWindows31J(_:)``'s flags, one per `\` or `~` of `text`.
    static func restoringJISRoman(_ text: String, _ jisRoman: [Bool]) -> String {
        guard !jisRoman.isEmpty else { return text }
        var scalars = String.UnicodeScalarView()
        var next = 0
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "~" {
                let isRoman = next < jisRoman.count && jisRoman[next]
                next += 1
                if isRoman {
                    scalars.append(scalar == "\\" ? "\u{A5}" : "\u{203E}")
                    continue
                }
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
