/// Text from a mailbox (file names above all: a Maildir file may be named with any byte but
/// `/` and NUL) made fit for one line of a terminal.
public enum TerminalText {
    /// `text` on one line, with nothing a terminal acts on: line feed, carriage return and
    /// tab written `\n`, `\r` and `\t`; every other C0 control (U+0000–U+001F), DEL (U+007F)
    /// and C1 control (U+0080–U+009F) of ECMA-48, the line and paragraph separators
    /// (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069), which reorder what a reader sees, written `\u{1B}` (hexadecimal,
    /// upper case). Everything else, a backslash included, is kept as it is.
    ///
    /// - Parameter text: a file name, a message origin (`path#3`), or a reason holding one.
    /// - Returns: `text` itself when it holds none of these.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result.append(contentsOf: #"\n"#.unicodeScalars)
            case 0x0D: result.append(contentsOf: #"\r"#.unicodeScalars)
            case 0x09: result.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where needsEscape(scalar):
                result.append(
                    contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether ``oneLine(_:)`` writes `scalar` as an escape.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
