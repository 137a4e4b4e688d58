/// Decodes HTML character references in text that did not go through an HTML parser
/// (JSON-LD script contents, values copied out of markup): `&quot;`, `&#39;`, `&#x2F;`, and
/// the named references senders commonly use (HTML Living Standard §13.2.5.72–80).
public enum HTMLEntities {
    static let named: [String: String] = [
        "quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
        "trade": "™", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "hellip": "…", "ndash": "–",
        "mdash": "—", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "bull": "•", "middot": "·", "deg": "°", "times": "×", "shy": "", "zwnj": "", "zwj": "", "thinsp": " ",
        "ensp": " ", "emsp": " ", "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à",
        "acirc": "â", "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü",
        "szlig": "ß", "ccedil": "ç", "ntilde": "ñ", "oacute": "ó", "iacute": "í", "uacute": "ú",
        "Eacute": "É", "sect": "§", "frac12": "½",
    ]

    /// The text with character references replaced; unknown or malformed ones stay as written.
    ///
    /// - Parameter text: Text that may hold `&name;`, `&#NNN;` or `&#xHHH;` references.
    /// - Returns: The decoded text.
    public static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            guard let semicolon = rest[afterAmp...].prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = rest[afterAmp...]
                continue
            }
            let name = rest[afterAmp..<semicolon]
            if let replacement = reference(name) {
                output += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[afterAmp...]
            }
        }
        output += rest
        return output
    }

    private static func reference(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return String(Character(scalar))
        }
        return named[String(name)]
    }
}
